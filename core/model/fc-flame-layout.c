/* fc-flame-layout.c - flamechart boxes: runs of one frame at one depth over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-flame-layout.h"

#include <string.h>

#include "fc-sample-weights.h"

struct _FcFlameLayout
{
  gatomicrefcount  ref_count;
  FcProfile       *profile;
  gint             thread;
  gint64           begin_ns;
  gint64           end_ns;
  FcFlameBox      *boxes;
  guint            n_boxes;
  /* per position (the samples of all lanes, lane after lane): a box is
   * 16 bytes because its times and stack live here, once per sample */
  gint64          *begins_ns;
  gint64          *ends_ns;
  guint32         *stacks;
  guint            n_positions;
  guint           *row_offsets;     /* n_rows + 1 */
  guint            n_rows;
  FcFlameLane     *lanes;
  guint            n_lanes;
};

G_DEFINE_BOXED_TYPE (FcFlameLayout, fc_flame_layout, fc_flame_layout_ref, fc_flame_layout_unref)

G_STATIC_ASSERT (sizeof (FcFlameBox) == 12);

typedef struct {
  guint32 stack;
  guint   first_sample;
} OpenRun;

/* Each lane is walked twice: once to count the boxes of each depth, once to
 * write them straight into the layout's single array. Growing per-row
 * arrays and copying them was twice the layout's size at the peak (several
 * hundred MB over all threads of a big chunk). */
typedef struct {
  guint       n_boxes;          /* the count, after the first walk */
  FcFlameBox *next;             /* the second walk: where the next box goes */
} Row;

typedef struct {
  const FcStackNode *nodes;     /* the profile's stack table */
  Row       *rows;              /* per depth */
  guint      n_rows;
  guint      rows_capacity;
  OpenRun   *open;              /* per depth, the runs not closed yet */
  guint      n_open;
  guint      open_capacity;
  gboolean   writing;           /* the second walk */
  guint      base;              /* position of the lane's first sample */
  guint      first_row;         /* layout row of depth 0 */
  FcSampleWeights *weights;     /* the lane's samples in time order */
} LaneBuilder;

static void
lane_builder_clear (LaneBuilder *b)
{
  g_clear_pointer (&b->rows, g_free);
  g_clear_pointer (&b->open, g_free);
  g_clear_pointer (&b->weights, fc_sample_weights_free);
}

/* ends the runs deeper than @keep with the sample before @sample */
static void
close_runs (LaneBuilder *b,
            guint        keep,
            guint        sample)
{
  if (b->n_open > b->n_rows)
    {
      g_assert (!b->writing);
      if (b->n_open > b->rows_capacity)
        {
          guint capacity = MAX (b->n_open, b->rows_capacity * 2);

          b->rows = g_renew (Row, b->rows, capacity);
          memset (&b->rows[b->rows_capacity], 0, sizeof (Row) * (capacity - b->rows_capacity));
          b->rows_capacity = capacity;
        }
      b->n_rows = b->n_open;
    }

  while (b->n_open > keep)
    {
      guint d = --b->n_open;
      const OpenRun *run = &b->open[d];
      FcFlameBox *box;

      if (!b->writing)
        {
          b->rows[d].n_boxes++;
          continue;
        }

      box = b->rows[d].next++;
      box->first = b->base + run->first_sample;
      box->last = b->base + sample - 1;
      box->frame = b->nodes[run->stack].frame;
    }
}

/* one walk over the lane's samples, closing a run where the call path
 * changes */
static void
walk_lane (LaneBuilder *b,
           FcProfile   *profile)
{
  const FcSampleWeights *weights = b->weights;
  /* after the weights: on a live profile these hold every sample and stack they name */
  const FcSample *samples = fc_profile_get_samples (profile, NULL);
  const FcStackNode *nodes = b->nodes = fc_profile_get_stacks (profile, NULL);
  g_autofree guint32 *chain = NULL;
  guint chain_len = 0;
  guint32 prev_stack = G_MAXUINT32;

  b->n_open = 0;
  for (guint i = 0; i < weights->n_samples; i++)
    {
      guint32 stack = samples[weights->samples[i]].stack;

      /* No check for a pause before this sample: the runs it shares with
       * the sample before go on across it (see the header). */
      if (stack != prev_stack)
        {
          guint depth = nodes[stack].depth;
          guint32 s = stack;
          guint d = depth;

          if (depth > chain_len)
            {
              chain_len = MAX (depth, chain_len * 2);
              g_free (chain);
              chain = g_new (guint32, chain_len);
            }

          /* Walk up from the new stack to the deepest open run it shares:
           * stack ids name whole call paths, so one equal id means every
           * shallower run matches too. */
          while (d > b->n_open)
            {
              chain[d - 1] = s;
              s = nodes[s].parent;
              d--;
            }
          while (d > 0 && b->open[d - 1].stack != s)
            {
              chain[d - 1] = s;
              s = nodes[s].parent;
              d--;
            }

          close_runs (b, d, i);

          if (depth > b->open_capacity)
            {
              b->open_capacity = MAX (depth, b->open_capacity * 2);
              b->open = g_renew (OpenRun, b->open, b->open_capacity);
            }
          for (; d < depth; d++)
            {
              b->open[d].stack = chain[d];
              b->open[d].first_sample = i;
            }
          b->n_open = depth;
          prev_stack = stack;
        }
    }

  close_runs (b, 0, weights->n_samples);
}

FcFlameLayout *
fc_flame_layout_new (FcProfile *profile,
                     gint       thread)
{
  FcFlameLayout *self;
  g_autoptr(GArray) lanes = g_array_new (FALSE, FALSE, sizeof (FcFlameLane));
  g_autoptr(GArray) builders = g_array_new (FALSE, TRUE, sizeof (LaneBuilder));
  guint n_threads;
  guint next_row = 0;
  gboolean have_extent = FALSE;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  self = g_new0 (FcFlameLayout, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (profile);
  self->thread = thread < 0 ? -1 : thread;

  /* first walk: which lanes, how many rows and boxes */
  n_threads = fc_profile_get_n_threads (profile);
  for (guint t = 0; t < n_threads; t++)
    {
      guint n_thread_samples = 0;
      LaneBuilder b = { 0 };
      FcFlameLane lane;

      if (thread >= 0 && (guint) thread != t)
        continue;
      /* All threads: only those that ran; one thread: always a lane. */
      fc_profile_get_thread_samples (profile, t, &n_thread_samples);
      if (thread < 0 && n_thread_samples == 0)
        continue;

      b.weights = fc_sample_weights_new (profile, t);
      walk_lane (&b, profile);

      if (b.weights->n_samples > 0)
        {
          guint last = b.weights->n_samples - 1;
          gint64 begin_ns = b.weights->timestamps_ns[0];
          gint64 end_ns = b.weights->timestamps_ns[last] + b.weights->durations_ns[last];

          if (!have_extent)
            {
              self->begin_ns = begin_ns;
              self->end_ns = end_ns;
              have_extent = TRUE;
            }
          self->begin_ns = MIN (self->begin_ns, begin_ns);
          self->end_ns = MAX (self->end_ns, end_ns);
        }

      /* all threads: an empty row above each lane for its name */
      if (thread < 0)
        next_row++;
      lane.thread = t;
      lane.first_row = next_row;
      lane.n_rows = b.n_rows;
      next_row += lane.n_rows;
      b.base = self->n_positions;
      b.first_row = lane.first_row;
      self->n_positions += b.weights->n_samples;
      g_array_append_val (lanes, lane);
      g_array_append_val (builders, b);
    }

  self->n_rows = next_row;
  self->row_offsets = g_new0 (guint, self->n_rows + 1);
  for (guint l = 0; l < builders->len; l++)
    {
      const LaneBuilder *b = &g_array_index (builders, LaneBuilder, l);

      for (guint d = 0; d < b->n_rows; d++)
        {
          self->row_offsets[b->first_row + d + 1] = b->rows[d].n_boxes;
          self->n_boxes += b->rows[d].n_boxes;
        }
    }
  for (guint r = 0; r < self->n_rows; r++)
    self->row_offsets[r + 1] += self->row_offsets[r];

  self->boxes = g_new (FcFlameBox, MAX (1, self->n_boxes));
  self->begins_ns = g_new (gint64, MAX (1, self->n_positions));
  self->ends_ns = g_new (gint64, MAX (1, self->n_positions));
  self->stacks = g_new (guint32, MAX (1, self->n_positions));

  /* second walk: the boxes, in place */
  for (guint l = 0; l < builders->len; l++)
    {
      LaneBuilder *b = &g_array_index (builders, LaneBuilder, l);
      const FcSampleWeights *weights = b->weights;
      const FcSample *samples = fc_profile_get_samples (profile, NULL);

      for (guint i = 0; i < weights->n_samples; i++)
        {
          self->begins_ns[b->base + i] = weights->timestamps_ns[i];
          self->ends_ns[b->base + i] = weights->timestamps_ns[i] + weights->durations_ns[i];
          self->stacks[b->base + i] = samples[weights->samples[i]].stack;
        }

      for (guint d = 0; d < b->n_rows; d++)
        b->rows[d].next = &self->boxes[self->row_offsets[b->first_row + d]];
      b->writing = TRUE;
      walk_lane (b, profile);
      for (guint d = 0; d < b->n_rows; d++)
        g_assert (b->rows[d].next == &self->boxes[self->row_offsets[b->first_row + d + 1]]);
      lane_builder_clear (b);
    }

  self->n_lanes = lanes->len;
  self->lanes = (FcFlameLane *) g_array_free (g_steal_pointer (&lanes), FALSE);

  return self;
}

typedef struct {
  FcProfile *profile;
  gint       thread;
} BuildData;

static void
build_data_free (BuildData *data)
{
  g_clear_object (&data->profile);
  g_free (data);
}

static void
build_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  BuildData *data = task_data;

  g_task_return_pointer (task,
                         fc_flame_layout_new (data->profile, data->thread),
                         (GDestroyNotify) fc_flame_layout_unref);
}

/**
 * fc_flame_layout_new_async:
 *
 * Lays out on a worker thread. @profile must not change until the callback
 * runs.
 */
void
fc_flame_layout_new_async (FcProfile           *profile,
                           gint                 thread,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  BuildData *data;

  g_return_if_fail (FC_IS_PROFILE (profile));

  data = g_new0 (BuildData, 1);
  data->profile = g_object_ref (profile);
  data->thread = thread;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_flame_layout_new_async);
  g_task_set_task_data (task, data, (GDestroyNotify) build_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, build_in_thread);
}

FcFlameLayout *
fc_flame_layout_new_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

FcFlameLayout *
fc_flame_layout_ref (FcFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
fc_flame_layout_unref (FcFlameLayout *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_object (&self->profile);
  g_free (self->boxes);
  g_free (self->begins_ns);
  g_free (self->ends_ns);
  g_free (self->stacks);
  g_free (self->row_offsets);
  g_free (self->lanes);
  g_free (self);
}

FcProfile *
fc_flame_layout_get_profile (FcFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->profile;
}

gint
fc_flame_layout_get_thread (FcFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->thread;
}

void
fc_flame_layout_get_extent (FcFlameLayout *self,
                            gint64        *begin_ns,
                            gint64        *end_ns)
{
  g_return_if_fail (self != NULL);

  if (begin_ns != NULL)
    *begin_ns = self->begin_ns;
  if (end_ns != NULL)
    *end_ns = self->end_ns;
}

const FcFlameBox *
fc_flame_layout_get_boxes (FcFlameLayout *self,
                           guint         *n_boxes)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (n_boxes != NULL)
    *n_boxes = self->n_boxes;
  return self->boxes;
}

guint
fc_flame_layout_get_n_rows (FcFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows;
}

const FcFlameBox *
fc_flame_layout_get_row (FcFlameLayout *self,
                         guint          row,
                         guint         *n_boxes)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (row >= self->n_rows)
    {
      if (n_boxes != NULL)
        *n_boxes = 0;
      return NULL;
    }

  if (n_boxes != NULL)
    *n_boxes = self->row_offsets[row + 1] - self->row_offsets[row];
  return &self->boxes[self->row_offsets[row]];
}

guint
fc_flame_layout_get_n_lanes (FcFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_lanes;
}

const FcFlameLane *
fc_flame_layout_get_lane (FcFlameLayout *self,
                          guint          lane)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (lane < self->n_lanes, NULL);
  return &self->lanes[lane];
}

void
fc_flame_layout_get_sample_times (FcFlameLayout  *self,
                                  const gint64  **begins_ns,
                                  const gint64  **ends_ns)
{
  g_return_if_fail (self != NULL);

  if (begins_ns != NULL)
    *begins_ns = self->begins_ns;
  if (ends_ns != NULL)
    *ends_ns = self->ends_ns;
}

gint64
fc_flame_layout_box_begin_ns (FcFlameLayout    *self,
                              const FcFlameBox *box)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (box != NULL && box->first < self->n_positions, 0);

  return self->begins_ns[box->first];
}

gint64
fc_flame_layout_box_end_ns (FcFlameLayout    *self,
                            const FcFlameBox *box)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (box != NULL && box->last < self->n_positions, 0);

  return self->ends_ns[box->last];
}

guint
fc_flame_layout_box_n_samples (FcFlameLayout    *self,
                               const FcFlameBox *box)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (box != NULL && box->first <= box->last, 0);

  return box->last - box->first + 1;
}

gint64
fc_flame_layout_box_sampled_ns (FcFlameLayout    *self,
                                const FcFlameBox *box)
{
  gint64 sum = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (box != NULL && box->first <= box->last && box->last < self->n_positions, 0);

  /* a box's positions are one stretch of its lane's samples */
  for (guint i = box->first; i <= box->last; i++)
    sum += self->ends_ns[i] - self->begins_ns[i];
  return sum;
}

guint
fc_flame_layout_box_row (FcFlameLayout    *self,
                         const FcFlameBox *box)
{
  guint index;
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (box >= self->boxes && box < self->boxes + self->n_boxes, 0);

  /* the last row starting at or before the box (header rows are empty:
   * they start where the row below them does) */
  index = (guint) (box - self->boxes);
  hi = self->n_rows;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->row_offsets[mid] <= index)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

guint32
fc_flame_layout_box_stack (FcFlameLayout    *self,
                           const FcFlameBox *box)
{
  gint lane;
  guint row;
  guint depth;
  guint32 stack;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (box != NULL && box->first < self->n_positions, 0);

  row = fc_flame_layout_box_row (self, box);
  lane = fc_flame_layout_get_lane_of_row (self, row);
  g_return_val_if_fail (lane >= 0, 0);

  /* every sample of the box has its call path as a prefix: take the
   * first one's leaf up to the box's depth */
  depth = row - self->lanes[lane].first_row + 1;
  stack = self->stacks[box->first];
  while (fc_profile_get_stack (self->profile, stack)->depth > depth)
    stack = fc_profile_get_stack (self->profile, stack)->parent;
  return stack;
}

gint
fc_flame_layout_get_lane_of_row (FcFlameLayout *self,
                                 guint          row)
{
  g_return_val_if_fail (self != NULL, -1);

  for (guint l = 0; l < self->n_lanes; l++)
    if (row < self->lanes[l].first_row + self->lanes[l].n_rows)
      return (gint) l;
  return -1;
}

guint
fc_flame_layout_row_lower_bound (FcFlameLayout *self,
                                 guint          row,
                                 gint64         t)
{
  return fc_flame_layout_row_lower_bound_from (self, row, 0, t);
}

/* Callers that walk a row left to right (the minimap, a column at a time)
 * find the answer a few boxes past the last one: gallop from @from before
 * bisecting, so the probes stay in cache instead of jumping across a row of
 * millions of boxes. */
guint
fc_flame_layout_row_lower_bound_from (FcFlameLayout *self,
                                      guint          row,
                                      guint          from,
                                      gint64         t)
{
  const FcFlameBox *boxes;
  guint n = 0;
  guint lo, hi;
  guint step = 1;

  g_return_val_if_fail (self != NULL, 0);

  boxes = fc_flame_layout_get_row (self, row, &n);
  lo = hi = MIN (from, n);
  while (hi < n && self->ends_ns[boxes[hi].last] <= t)
    {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
  hi = MIN (hi, n);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->ends_ns[boxes[mid].last] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

const FcFlameBox *
fc_flame_layout_hit_test (FcFlameLayout *self,
                          guint          row,
                          gint64         t)
{
  const FcFlameBox *boxes;
  guint n = 0;
  guint i;

  g_return_val_if_fail (self != NULL, NULL);

  boxes = fc_flame_layout_get_row (self, row, &n);
  i = fc_flame_layout_row_lower_bound (self, row, t);
  if (i < n && self->begins_ns[boxes[i].first] <= t)
    return &boxes[i];
  return NULL;
}
