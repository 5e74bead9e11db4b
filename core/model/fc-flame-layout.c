/* fc-flame-layout.c - flamechart boxes: runs of one frame at one depth over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-flame-layout.h"

#include <math.h>
#include <string.h>

#include "fc-range-index.h"
#include "fc-sample-weights.h"

struct _FcFlameLayout
{
  gatomicrefcount    ref_count;
  FcProfile         *profile;
  const FcStackNode *nodes;         /* the profile's stack table (it never moves) */
  gint               thread;
  gint64             begin_ns;
  gint64             end_ns;
  /* per position: the samples of all lanes, lane after lane, in time order */
  gint64            *begins_ns;
  gint64            *ends_ns;
  guint32           *stacks;
  FcRangeIndex       shared;        /* frames in common with the sample before (0 at a lane's first) */
  FcRangeIndex       depths;        /* the stack's depth */
  guint              n_positions;
  guint              n_rows;
  FcFlameLane       *lanes;
  guint              n_lanes;
};

G_DEFINE_BOXED_TYPE (FcFlameLayout, fc_flame_layout, fc_flame_layout_ref, fc_flame_layout_unref)

G_STATIC_ASSERT (sizeof (FcFlameBox) == 16);

/* ---- building ---- */

/* Fills a lane's positions from @base on: times, stacks, depths and what
 * each sample shares with the one before. @chain keeps the stack nodes of
 * the sample before, by depth, so that each sample walks up only the
 * frames it does not share. Returns the lane's depth. */
static guint
fill_lane (FcFlameLayout         *self,
           const FcSampleWeights *weights,
           const FcSample        *samples,
           guint                  base,
           guint32               *shared,
           guint32               *depths,
           GArray                *chain)
{
  const FcStackNode *nodes = self->nodes;
  guint32 prev_stack = G_MAXUINT32;
  guint n_chain = 0;
  guint lane_depth = 0;

  for (guint i = 0; i < weights->n_samples; i++)
    {
      guint p = base + i;
      guint32 stack = samples[weights->samples[i]].stack;
      guint depth = nodes[stack].depth;
      guint32 *links;
      guint32 s = stack;
      guint d = depth;

      self->begins_ns[p] = weights->timestamps_ns[i];
      self->ends_ns[p] = weights->timestamps_ns[i] + weights->durations_ns[i];
      self->stacks[p] = stack;
      depths[p] = depth;
      lane_depth = MAX (lane_depth, depth);

      /* No check for a pause before this sample: the runs it shares with
       * the sample before go on across it (see the header). */
      if (stack == prev_stack)
        {
          shared[p] = depth;
          continue;
        }

      if (depth > chain->len)
        g_array_set_size (chain, depth);
      links = (guint32 *) (gpointer) chain->data;

      /* Stack ids name whole call paths: the deepest node the two samples
       * have in common is where the walk up meets the previous chain. */
      while (d > n_chain)
        {
          links[d - 1] = s;
          s = nodes[s].parent;
          d--;
        }
      while (d > 0 && links[d - 1] != s)
        {
          links[d - 1] = s;
          s = nodes[s].parent;
          d--;
        }
      shared[p] = i == 0 ? 0 : d;
      n_chain = depth;
      prev_stack = stack;
    }

  return lane_depth;
}

FcFlameLayout *
fc_flame_layout_new (FcProfile *profile,
                     gint       thread)
{
  FcFlameLayout *self;
  g_autoptr(GArray) lanes = g_array_new (FALSE, FALSE, sizeof (FcFlameLane));
  g_autoptr(GPtrArray) weights = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_sample_weights_free);
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  const FcSample *samples;
  guint32 *shared;
  guint32 *depths;
  guint n_threads;
  guint next_row = 0;
  gboolean have_extent = FALSE;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  self = g_new0 (FcFlameLayout, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (profile);
  self->thread = thread < 0 ? -1 : thread;

  /* which lanes, and their samples in time order */
  n_threads = fc_profile_get_n_threads (profile);
  for (guint t = 0; t < n_threads; t++)
    {
      guint n_thread_samples = 0;
      FcSampleWeights *w;
      FcFlameLane lane = { 0 };

      if (thread >= 0 && (guint) thread != t)
        continue;
      /* All threads: only those that ran; one thread: always a lane. */
      fc_profile_get_thread_samples (profile, t, &n_thread_samples);
      if (thread < 0 && n_thread_samples == 0)
        continue;

      w = fc_sample_weights_new (profile, t);
      if (w->n_samples > 0)
        {
          guint last = w->n_samples - 1;
          gint64 begin_ns = w->timestamps_ns[0];
          gint64 end_ns = w->timestamps_ns[last] + w->durations_ns[last];

          if (!have_extent)
            {
              self->begin_ns = begin_ns;
              self->end_ns = end_ns;
              have_extent = TRUE;
            }
          self->begin_ns = MIN (self->begin_ns, begin_ns);
          self->end_ns = MAX (self->end_ns, end_ns);
        }

      lane.thread = t;
      lane.first_position = self->n_positions;
      lane.n_positions = w->n_samples;
      self->n_positions += w->n_samples;
      g_array_append_val (lanes, lane);
      g_ptr_array_add (weights, w);
    }

  self->begins_ns = g_new (gint64, MAX (1, self->n_positions));
  self->ends_ns = g_new (gint64, MAX (1, self->n_positions));
  self->stacks = g_new (guint32, MAX (1, self->n_positions));
  shared = g_new (guint32, MAX (1, self->n_positions));
  depths = g_new (guint32, MAX (1, self->n_positions));

  /* after the weights: on a live profile these hold every sample and stack they name */
  samples = fc_profile_get_samples (profile, NULL);
  self->nodes = fc_profile_get_stacks (profile, NULL);
  for (guint l = 0; l < lanes->len; l++)
    {
      FcFlameLane *lane = &g_array_index (lanes, FcFlameLane, l);

      lane->n_rows = fill_lane (self, g_ptr_array_index (weights, l), samples, lane->first_position,
                                shared, depths, chain);
      /* all threads: an empty row above each lane for its name */
      if (thread < 0)
        next_row++;
      lane->first_row = next_row;
      next_row += lane->n_rows;
      g_clear_pointer (&g_ptr_array_index (weights, l), fc_sample_weights_free);
    }

  fc_range_index_init (&self->shared, shared, self->n_positions, FALSE);
  fc_range_index_init (&self->depths, depths, self->n_positions, TRUE);
  self->n_rows = next_row;
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
  g_free (self->begins_ns);
  g_free (self->ends_ns);
  g_free (self->stacks);
  fc_range_index_clear (&self->shared);
  fc_range_index_clear (&self->depths);
  g_free (self->lanes);
  g_free (self);
}

/* ---- the layout as a whole ---- */

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

guint
fc_flame_layout_get_n_rows (FcFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows;
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
fc_flame_layout_get_n_positions (FcFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_positions;
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

/* each position begins the boxes of the rows from what it shares with the
 * sample before down to its depth */
guint64
fc_flame_layout_count_boxes (FcFlameLayout *self)
{
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint p = 0; p < self->n_positions; p++)
    n += fc_range_index_get (&self->depths, p) - fc_range_index_get (&self->shared, p);
  return n;
}

gsize
fc_flame_layout_get_size (FcFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return sizeof *self + self->n_lanes * sizeof (FcFlameLane) +
         self->n_positions * (2 * sizeof (gint64) + sizeof (guint32)) +
         fc_range_index_size (&self->shared) + fc_range_index_size (&self->depths);
}

/* ---- boxes ---- */

/* a row's lane and depth in it; FALSE for header rows and past the end */
static const FcFlameLane *
lane_for_row (FcFlameLayout *self,
              guint          row,
              guint         *depth)
{
  gint l = fc_flame_layout_get_lane_of_row (self, row);

  if (l < 0 || row < self->lanes[l].first_row)
    return NULL;
  *depth = row - self->lanes[l].first_row;
  return &self->lanes[l];
}

static inline guint
lane_end (const FcFlameLane *lane)
{
  return lane->first_position + lane->n_positions;
}

/* A stack's node at @depth (1 = outermost), walking up from its leaf.
 * Following parents is a chain of dependent loads, one cache miss each
 * when the render asks for thousands of frames. But interning a new call
 * path appends its nodes one after the other (a node's id is its parent's
 * plus one): so step to the node before as long as it is the parent, a
 * read whose address does not wait for the one before, and follow a
 * parent only where the path was interned in another piece. */
static inline guint32
ancestor (const FcStackNode *nodes,
          guint32            stack,
          guint              depth)
{
  guint d = nodes[stack].depth;

  while (d > depth)
    {
      /* a node at depth d has d - 1 ancestors, all of smaller ids */
      guint32 target = stack - (d - depth);
      guint32 s = stack;

      while (s > target && nodes[s].parent == s - 1)
        s--;
      d -= stack - s;
      if (d == depth)
        return s;
      stack = nodes[s].parent;
      d--;
    }
  return stack;
}

/* the box of depth @depth that begins at @first (a position at least that
 * deep, sharing less with the one before): it ends before the next
 * position sharing at most @depth frames with its predecessor */
static void
box_from_first (FcFlameLayout     *self,
                const FcFlameLane *lane,
                guint              depth,
                guint              first,
                FcFlameBox        *box)
{
  box->first = first;
  box->last = fc_range_index_next (&self->shared, first + 1, lane_end (lane), depth) - 1;
  box->row = lane->first_row + depth;
  box->frame = G_MAXUINT32;
}

static void
box_frame (FcFlameLayout *self,
           guint          depth,
           FcFlameBox    *box)
{
  box->frame = self->nodes[ancestor (self->nodes, self->stacks[box->first], depth + 1)].frame;
}

/* the box of depth @depth holding @p, a position deeper than that */
static void
box_holding (FcFlameLayout     *self,
             const FcFlameLane *lane,
             guint              depth,
             guint              p,
             FcFlameBox        *box)
{
  guint first = fc_range_index_prev (&self->shared, lane->first_position, p, depth);

  g_assert (first != FC_RANGE_INDEX_NONE);
  box_from_first (self, lane, depth, first, box);
}

static inline gboolean
deeper_than (FcFlameLayout *self,
             guint          p,
             guint          depth)
{
  return fc_range_index_get (&self->depths, p) > depth;
}

gboolean
fc_flame_layout_box_at_position (FcFlameLayout *self,
                                 guint          row,
                                 guint          position,
                                 FcFlameBox    *box)
{
  const FcFlameLane *lane;
  guint depth;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (box != NULL, FALSE);

  lane = lane_for_row (self, row, &depth);
  if (lane == NULL || position < lane->first_position || position >= lane_end (lane) ||
      !deeper_than (self, position, depth))
    return FALSE;

  box_holding (self, lane, depth, position, box);
  box_frame (self, depth, box);
  return TRUE;
}

/* the first position of [lo, hi) whose @times is > @t (>= with @or_equal), or hi */
static guint
first_after (const gint64 *times,
             guint         lo,
             guint         hi,
             gint64        t,
             gboolean      or_equal)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (times[mid] < t || (!or_equal && times[mid] == t))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
fc_flame_layout_hit_test (FcFlameLayout *self,
                          guint          row,
                          gint64         t,
                          FcFlameBox    *box)
{
  const FcFlameLane *lane;
  guint depth;
  guint p;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (box != NULL, FALSE);

  lane = lane_for_row (self, row, &depth);
  if (lane == NULL)
    return FALSE;

  /* the last sample beginning at or before t: a box covering t holds it
   * (boxes span the pauses inside them) */
  p = first_after (self->begins_ns, lane->first_position, lane_end (lane), t, FALSE);
  if (p == lane->first_position || !deeper_than (self, p - 1, depth))
    return FALSE;

  box_holding (self, lane, depth, p - 1, box);
  if (self->ends_ns[box->last] <= t)
    return FALSE;
  box_frame (self, depth, box);
  return TRUE;
}

/* the first box of depth @depth beginning at or after @p */
static gboolean
box_from (FcFlameLayout     *self,
          const FcFlameLane *lane,
          guint              depth,
          guint              p,
          FcFlameBox        *box)
{
  guint first = fc_range_index_next (&self->depths, p, lane_end (lane), depth + 1);

  if (first >= lane_end (lane))
    return FALSE;
  /* the position before it is shallower or ends a box: it begins one */
  box_from_first (self, lane, depth, first, box);
  return TRUE;
}

gboolean
fc_flame_layout_row_first_box (FcFlameLayout *self,
                               guint          row,
                               gint64         t,
                               FcFlameBox    *box)
{
  const FcFlameLane *lane;
  guint depth;
  guint p;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (box != NULL, FALSE);

  lane = lane_for_row (self, row, &depth);
  if (lane == NULL)
    return FALSE;

  /* ends are in time order too: a sample ends before the next begins */
  p = first_after (self->ends_ns, lane->first_position, lane_end (lane), t, FALSE);
  if (p < lane_end (lane) && deeper_than (self, p, depth))
    box_holding (self, lane, depth, p, box);
  else if (!box_from (self, lane, depth, p, box))
    return FALSE;
  box_frame (self, depth, box);
  return TRUE;
}

gboolean
fc_flame_layout_row_next_box (FcFlameLayout    *self,
                              const FcFlameBox *box,
                              FcFlameBox       *next)
{
  const FcFlameLane *lane;
  guint depth;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (box != NULL && next != NULL, FALSE);

  lane = lane_for_row (self, box->row, &depth);
  if (lane == NULL || !box_from (self, lane, depth, box->last + 1, next))
    return FALSE;
  box_frame (self, depth, next);
  return TRUE;
}

FcFlameBox *
fc_flame_layout_dup_row (FcFlameLayout *self,
                         guint          row,
                         guint         *n_boxes)
{
  g_autoptr(GArray) boxes = g_array_new (FALSE, FALSE, sizeof (FcFlameBox));
  FcFlameBox box;

  g_return_val_if_fail (self != NULL, NULL);

  for (gboolean more = fc_flame_layout_row_first_box (self, row, G_MININT64, &box);
       more;
       more = fc_flame_layout_row_next_box (self, &box, &box))
    g_array_append_val (boxes, box);

  if (n_boxes != NULL)
    *n_boxes = boxes->len;
  return (FcFlameBox *) g_array_free (g_steal_pointer (&boxes), FALSE);
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

guint32
fc_flame_layout_box_stack (FcFlameLayout    *self,
                           const FcFlameBox *box)
{
  const FcFlameLane *lane;
  guint depth;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (box != NULL && box->first < self->n_positions, 0);

  lane = lane_for_row (self, box->row, &depth);
  g_return_val_if_fail (lane != NULL, 0);

  /* every sample of the box has its call path as a prefix */
  return ancestor (self->nodes, self->stacks[box->first], depth + 1);
}

/* ---- search ---- */

/* one lane's matches, by position then row */
static gboolean
find_lane_runs (FcFlameLayout     *self,
                const FcFlameLane *lane,
                const guint8      *match,
                guint              n_frames,
                GArray            *runs,
                GCancellable      *cancellable)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint p = lane->first_position; p < lane_end (lane); p++)
    {
      guint depth = fc_range_index_get (&self->depths, p);
      guint shared = fc_range_index_get (&self->shared, p);
      guint top = MAX (shared, 1);
      guint32 *f;
      guint32 s = self->stacks[p];

      if ((p & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if (depth == shared)
        continue;

      /* the frames of the boxes it begins (rows shared..depth-1, at
       * depths shared+1..depth) and of the box above the first one */
      if (depth + 1 > frames->len)
        g_array_set_size (frames, depth + 1);
      f = (guint32 *) (gpointer) frames->data;
      for (guint d = depth; d >= top; d--)
        {
          f[d] = self->nodes[s].frame;
          s = self->nodes[s].parent;
        }

      for (guint d = shared; d < depth; d++)
        {
          guint32 frame = f[d + 1];
          FcFlameBoxStart start;

          if (frame >= n_frames || !match[frame])
            continue;
          if (d > 0 && f[d] < n_frames && match[f[d]])
            continue;
          start.row = lane->first_row + d;
          start.first = p;
          g_array_append_val (runs, start);
        }
    }
  return TRUE;
}

/**
 * fc_flame_layout_find_runs:
 * @frame_match: one byte per frame id, set for the frames searched for
 *
 * Blocks for a pass over every box: run it on a worker for big layouts.
 *
 * Returns: (transfer full) (nullable): FcFlameBoxStart, in the order
 *   search-next steps through them
 */
GArray *
fc_flame_layout_find_runs (FcFlameLayout *self,
                           const guint8  *frame_match,
                           guint          n_frames,
                           GCancellable  *cancellable)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (FcFlameBoxStart));
  g_autofree FcFlameBoxStart *tmp = NULL;
  FcFlameBoxStart *m;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (frame_match != NULL || n_frames == 0, NULL);

  for (guint l = 0; l < self->n_lanes; l++)
    if (!find_lane_runs (self, &self->lanes[l], frame_match, n_frames, runs, cancellable))
      return NULL;

  if (self->n_lanes < 2 || runs->len < 2)
    return g_steal_pointer (&runs);

  /* lanes in time order: a bottom-up merge sort by begin time, stable, so
   * that at equal times the outer row (and the earlier lane) comes first */
  m = (FcFlameBoxStart *) (gpointer) runs->data;
  tmp = g_new (FcFlameBoxStart, runs->len);
  for (guint width = 1; width < runs->len; width *= 2)
    {
      for (guint lo = 0; lo < runs->len; lo += 2 * width)
        {
          guint mid = MIN (lo + width, runs->len);
          guint hi = MIN (lo + 2 * width, runs->len);
          guint a = lo, b = mid, k = lo;

          while (a < mid && b < hi)
            {
              if (self->begins_ns[m[b].first] < self->begins_ns[m[a].first])
                tmp[k++] = m[b++];
              else
                tmp[k++] = m[a++];
            }
          while (a < mid)
            tmp[k++] = m[a++];
          while (b < hi)
            tmp[k++] = m[b++];
        }
      memcpy (m, tmp, sizeof (FcFlameBoxStart) * runs->len);
    }

  return g_steal_pointer (&runs);
}

/* ---- what a row shows at a zoom ---- */

/* Zoomed out, each row draws a span per pixel column and every span's
 * frame is a walk up its first sample's stack; the next row's spans often
 * begin at the same samples. A stack's frames are kept by stack id, from
 * the depth first asked for down to CACHE_DEPTH (deeper rows walk): rows
 * are drawn top-down, so the frames above the first one asked for are
 * seldom wanted, and are only walked to if they are. */
#define CACHE_SLOTS 4096
#define CACHE_DEPTH 64

typedef struct {
  guint32 stack;
  guint32 top;                   /* the stack's node at depth lo */
  guint32 lo;                    /* frames[lo - 1 .. hi - 1] are known */
  guint32 hi;
  guint32 frames[CACHE_DEPTH];   /* [d] is the frame at depth d + 1 */
} CacheEntry;

struct _FcFlameFrameCache
{
  FcProfile  *profile;           /* what the entries are of */
  CacheEntry *entries;
};

FcFlameFrameCache *
fc_flame_frame_cache_new (void)
{
  return g_new0 (FcFlameFrameCache, 1);
}

void
fc_flame_frame_cache_free (FcFlameFrameCache *cache)
{
  if (cache == NULL)
    return;
  g_clear_object (&cache->profile);
  g_free (cache->entries);
  g_free (cache);
}

void
fc_flame_frame_cache_clear (FcFlameFrameCache *cache)
{
  g_return_if_fail (cache != NULL);

  g_clear_object (&cache->profile);
}

/* the frame of @stack's node at @depth (1 = outermost) */
static guint32
cached_frame (FcFlameFrameCache *cache,
              const FcStackNode *nodes,
              guint32            stack,
              guint              depth)
{
  CacheEntry *entry;
  guint32 s;

  if (cache == NULL || depth > CACHE_DEPTH)
    return nodes[ancestor (nodes, stack, depth)].frame;

  entry = &cache->entries[(stack * 2654435761u) >> 20 & (CACHE_SLOTS - 1)];
  if (entry->stack == stack && depth >= entry->lo)
    return entry->frames[depth - 1];

  /* the node just above what is known (nothing yet: the one at hi) */
  if (entry->stack != stack)
    {
      entry->stack = stack;
      entry->hi = MIN (nodes[stack].depth, CACHE_DEPTH);
      entry->lo = entry->hi + 1;
      s = ancestor (nodes, stack, entry->hi);
    }
  else
    s = nodes[entry->top].parent;

  for (guint d = entry->lo - 1; d >= depth; d--)
    {
      entry->frames[d - 1] = nodes[s].frame;
      entry->top = s;
      s = nodes[s].parent;
    }
  entry->lo = depth;
  return entry->frames[depth - 1];
}

/* stack ids mean the same while the profile lives (a live one only adds) */
static void
cache_use_for (FcFlameFrameCache *cache,
               FcProfile         *profile)
{
  if (cache == NULL || cache->profile == profile)
    return;

  g_set_object (&cache->profile, profile);
  if (cache->entries == NULL)
    cache->entries = g_new (CacheEntry, CACHE_SLOTS);
  for (guint i = 0; i < CACHE_SLOTS; i++)
    cache->entries[i].stack = G_MAXUINT32;
}

void
fc_flame_row_iter_init (FcFlameRowIter    *iter,
                        FcFlameLayout     *layout,
                        FcFlameFrameCache *cache,
                        guint              row,
                        gint64             begin_ns,
                        gint64             end_ns,
                        double             px_per_ns)
{
  const FcFlameLane *lane;
  guint depth = 0;
  guint p;

  g_return_if_fail (iter != NULL);
  g_return_if_fail (layout != NULL);
  g_return_if_fail (px_per_ns > 0);

  *iter = (FcFlameRowIter) { 0 };
  iter->layout = layout;
  iter->cache = cache;
  iter->begin_ns = begin_ns;
  iter->end_ns = end_ns;
  iter->px_per_ns = px_per_ns;
  cache_use_for (cache, layout->profile);

  lane = lane_for_row (layout, row, &depth);
  if (lane == NULL)
    return;
  iter->depth = depth;
  iter->lane_first = lane->first_position;
  iter->lane_end = lane_end (lane);
  iter->first_row = lane->first_row;

  /* the first box ending after begin_ns */
  p = first_after (layout->ends_ns, lane->first_position, lane_end (lane), begin_ns, FALSE);
  if (p < lane_end (lane) && deeper_than (layout, p, depth))
    {
      box_holding (layout, lane, depth, p, &iter->next);
      iter->has_next = TRUE;
    }
  else
    iter->has_next = box_from (layout, lane, depth, p, &iter->next);
}

/* the first position of [lo, hi) beginning at or after @t: the answer is
 * usually a few samples on, so gallop before bisecting */
static guint
gallop_to (const gint64 *begins,
           guint         lo,
           guint         hi,
           gint64        t)
{
  guint probe = lo;
  guint step = 1;

  while (probe < hi && begins[probe] < t)
    {
      lo = probe + 1;
      probe += step;
      step *= 2;
    }
  return first_after (begins, lo, MIN (probe, hi), t, TRUE);
}

gboolean
fc_flame_row_iter_next (FcFlameRowIter *iter,
                        FcFlameSpan    *span)
{
  FcFlameLayout *self;
  FcFlameLane lane;
  FcFlameBox box;
  guint depth;
  double x0, x1;

  g_return_val_if_fail (iter != NULL && span != NULL, FALSE);

  self = iter->layout;
  box = iter->next;
  if (!iter->has_next || self->begins_ns[box.first] >= iter->end_ns)
    {
      iter->has_next = FALSE;
      return FALSE;
    }

  /* the lane as the box helpers need it */
  depth = iter->depth;
  lane.first_position = iter->lane_first;
  lane.n_positions = iter->lane_end - iter->lane_first;
  lane.first_row = iter->first_row;

  box.frame = cached_frame (iter->cache, self->nodes, self->stacks[box.first], depth + 1);
  span->box = box;
  span->begin_ns = self->begins_ns[box.first];
  x0 = (double) (span->begin_ns - iter->begin_ns) * iter->px_per_ns;
  x1 = (double) (self->ends_ns[box.last] - iter->begin_ns) * iter->px_per_ns;

  if (x1 - x0 >= 1.0)
    {
      span->end_ns = self->ends_ns[box.last];
      span->merged = FALSE;
      iter->has_next = box_from (self, &lane, depth, box.last + 1, &iter->next);
      return TRUE;
    }

  /* Narrower than a pixel: the boxes beginning in the same pixel column
   * make one span, from the first one's begin to the last one's end. The
   * next span starts with the first box beginning in a later column. */
  {
    gint64 boundary = iter->begin_ns + (gint64) ceil ((floor (x0) + 1.0) / iter->px_per_ns);
    guint j = gallop_to (self->begins_ns, box.last + 1, iter->lane_end, boundary);
    /* the last sample before j deep enough is in the last box beginning
     * before the boundary (box.last is one) */
    guint k = fc_range_index_prev (&self->depths, box.last, j - 1, depth + 1);
    FcFlameBox last = box;

    if (k > box.last)
      {
        last.first = fc_range_index_prev (&self->shared, box.last + 1, k, depth);
        last.last = fc_range_index_next (&self->shared, k + 1, iter->lane_end, depth) - 1;
      }

    span->end_ns = MIN (self->ends_ns[last.last], boundary);
    span->merged = TRUE;

    /* a box a pixel wide beginning in this column is drawn on its own */
    if (last.first != box.first &&
        (double) (self->ends_ns[last.last] - self->begins_ns[last.first]) * iter->px_per_ns >= 1.0)
      {
        iter->next = last;
        iter->has_next = TRUE;
      }
    else
      iter->has_next = box_from (self, &lane, depth, MAX (j, last.last + 1), &iter->next);
  }

  return TRUE;
}
