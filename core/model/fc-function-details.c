/* fc-function-details.c - what one function costs: self, total, callers, callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-function-details.h"

#include "fc-sample-weights.h"

static gboolean
frame_shown (FcProfile        *profile,
             guint32           frame,
             FcFrameFilter  which)
{
  gboolean app;

  if (which == FC_FRAME_FILTER_ALL)
    return TRUE;
  /* as the call tree: unknown counts as system, as in Sentry */
  app = fc_profile_get_frame (profile, frame)->in_app == FC_IN_APP_YES;
  return which == FC_FRAME_FILTER_APPLICATION ? app : !app;
}

static void
add_link (GHashTable *links,
          guint32     frame,
          guint64     samples,
          gint64      ns)
{
  FcFunctionLink *link = g_hash_table_lookup (links, GUINT_TO_POINTER (frame));

  if (link == NULL)
    {
      link = g_new0 (FcFunctionLink, 1);
      link->frame = frame;
      g_hash_table_insert (links, GUINT_TO_POINTER (frame), link);
    }
  link->samples += samples;
  link->total_ns += ns;
}

static gint
compare_links (gconstpointer a,
               gconstpointer b)
{
  const FcFunctionLink *x = a;
  const FcFunctionLink *y = b;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if (x->samples != y->samples)
    return x->samples > y->samples ? -1 : 1;
  return (x->frame > y->frame) - (x->frame < y->frame);
}

static GArray *
links_to_array (GHashTable *links)
{
  GArray *array = g_array_sized_new (FALSE, FALSE, sizeof (FcFunctionLink), g_hash_table_size (links));
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, links);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_append_val (array, *(FcFunctionLink *) value);
  g_array_sort (array, compare_links);
  return array;
}

/**
 * fc_function_details_new:
 * @frame: the function (a frame id of @profile)
 *
 * Returns: (transfer full): the figures of @frame; see the header
 */
FcFunctionDetails *
fc_function_details_new (FcProfile        *profile,
                         gint              thread,
                         gint64            begin_ns,
                         gint64            end_ns,
                         FcFrameFilter  which,
                         guint32           frame)
{
  g_autoptr(GPtrArray) weights = NULL;
  g_autoptr(GHashTable) callers = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) callees = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autofree guint64 *stack_samples = NULL;
  g_autofree gint64 *stack_ns = NULL;
  g_autofree guint32 *frames = NULL;
  FcFunctionDetails *self;
  const FcSample *samples;
  guint n_threads, n_stacks, n_frames;
  guint frames_len = 0;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  self = g_new0 (FcFunctionDetails, 1);
  self->frame = frame;

  /* the samples first, then the stacks they name (a live profile only adds) */
  n_threads = fc_profile_get_n_threads (profile);
  weights = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_sample_weights_free);
  for (guint t = 0; t < n_threads; t++)
    if (thread < 0 || (guint) thread == t)
      g_ptr_array_add (weights, fc_sample_weights_new (profile, t));
  samples = fc_profile_get_samples (profile, NULL);
  n_stacks = MAX (1, fc_profile_get_n_stacks (profile));
  n_frames = fc_profile_get_n_frames (profile);

  /* each distinct stack is walked once, with the weight of its samples */
  stack_samples = g_new0 (guint64, n_stacks);
  stack_ns = g_new0 (gint64, n_stacks);
  for (guint w = 0; w < weights->len; w++)
    {
      const FcSampleWeights *sw = g_ptr_array_index (weights, w);
      guint first = 0;
      guint last = sw->n_samples;

      if (begin_ns < end_ns)
        {
          first = fc_sample_weights_lower_bound (sw, begin_ns);
          last = fc_sample_weights_lower_bound (sw, end_ns);
        }
      for (guint i = first; i < last; i++)
        {
          guint32 stack = samples[sw->samples[i]].stack;

          stack_samples[stack] += 1;
          stack_ns[stack] += sw->durations_ns[i];
          self->all_samples += 1;
          self->all_ns += sw->durations_ns[i];
        }
    }

  if (frame >= n_frames)
    goto done;

  for (guint32 s = 1; s < n_stacks; s++)
    {
      guint depth;
      guint kept = 0;
      gint innermost = -1;
      gint outermost = -1;

      if (stack_samples[s] == 0)
        continue;

      depth = fc_profile_get_stack (profile, s)->depth;
      if (depth > frames_len)
        {
          frames_len = MAX (depth, frames_len * 2);
          g_free (frames);
          frames = g_new (guint32, frames_len);
        }
      depth = fc_profile_stack_frames (profile, s, frames, frames_len);

      /* the shown frames, leaf first */
      for (guint i = 0; i < depth; i++)
        if (frames[i] < n_frames && frame_shown (profile, frames[i], which))
          {
            if (frames[i] == frame)
              {
                if (innermost < 0)
                  innermost = kept;
                outermost = kept;
              }
            frames[kept++] = frames[i];
          }

      if (innermost < 0)
        continue;

      self->total_samples += stack_samples[s];
      self->total_ns += stack_ns[s];
      if (innermost == 0)
        {
          self->self_samples += stack_samples[s];
          self->self_ns += stack_ns[s];
        }
      else
        add_link (callees, frames[innermost - 1], stack_samples[s], stack_ns[s]);
      if ((guint) outermost + 1 < kept)
        add_link (callers, frames[outermost + 1], stack_samples[s], stack_ns[s]);
    }

done:
  self->callers = links_to_array (callers);
  self->callees = links_to_array (callees);
  return self;
}

void
fc_function_details_free (FcFunctionDetails *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->callers, g_array_unref);
  g_clear_pointer (&self->callees, g_array_unref);
  g_free (self);
}

typedef struct {
  FcProfile        *profile;
  gint              thread;
  gint64            begin_ns;
  gint64            end_ns;
  FcFrameFilter  which;
  guint32           frame;
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
                         fc_function_details_new (data->profile, data->thread, data->begin_ns,
                                                  data->end_ns, data->which, data->frame),
                         (GDestroyNotify) fc_function_details_free);
}

/**
 * fc_function_details_new_async:
 *
 * Computes the figures on a worker thread, from a finished profile or what
 * a live one has published.
 */
void
fc_function_details_new_async (FcProfile           *profile,
                               gint                 thread,
                               gint64               begin_ns,
                               gint64               end_ns,
                               FcFrameFilter     which,
                               guint32              frame,
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
  data->begin_ns = begin_ns;
  data->end_ns = end_ns;
  data->which = which;
  data->frame = frame;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_function_details_new_async);
  g_task_set_task_data (task, data, (GDestroyNotify) build_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, build_in_thread);
}

FcFunctionDetails *
fc_function_details_new_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
