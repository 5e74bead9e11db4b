/* fc-layout-cache.c - one flamechart layout per session, shared by the views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-layout-cache.h"

#define CACHE_KEY   "fc-layout-cache"
#define PENDING_KEY "fc-layout-cache-pending"
#define COUNT_KEY   "fc-layout-cache-n-samples"

/* A layout being computed and the requests waiting for it: the flamechart
 * and the minimap ask at the same moment, one worker serves both. */
typedef struct {
  FcSession *session;
  FcProfile *profile;
  gint       thread;
  guint      n_samples;       /* a live profile grows under the same pointer */
  GPtrArray *waiting;         /* GTask */
} Pending;

static void
pending_free (Pending *pending)
{
  g_clear_object (&pending->session);
  g_clear_object (&pending->profile);
  g_clear_pointer (&pending->waiting, g_ptr_array_unref);
  g_free (pending);
}

static FcFlameLayout *
lookup (FcSession *session,
        FcProfile *profile,
        gint       thread)
{
  FcFlameLayout *layout = g_object_get_data (G_OBJECT (session), CACHE_KEY);

  if (layout != NULL &&
      fc_flame_layout_get_profile (layout) == profile &&
      fc_flame_layout_get_thread (layout) == thread &&
      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (session), COUNT_KEY)) == fc_profile_get_n_samples (profile))
    return layout;
  return NULL;
}

static void
store (FcSession     *session,
       FcFlameLayout *layout,
       guint          n_samples)
{
  g_object_set_data (G_OBJECT (session), COUNT_KEY, GUINT_TO_POINTER (n_samples));
  /* The session holds the layout, the layout holds the profile: no cycle. */
  g_object_set_data_full (G_OBJECT (session), CACHE_KEY,
                          fc_flame_layout_ref (layout),
                          (GDestroyNotify) fc_flame_layout_unref);
}

static void
return_layout (GTask         *task,
               FcFlameLayout *layout)
{
  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_pointer (task, fc_flame_layout_ref (layout), (GDestroyNotify) fc_flame_layout_unref);
}

static void
built_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Pending *pending = user_data;
  FcSession *session = pending->session;
  g_autoptr(FcFlameLayout) layout = NULL;
  g_autoptr(GError) error = NULL;

  layout = fc_flame_layout_new_finish (result, &error);
  if (g_object_get_data (G_OBJECT (session), PENDING_KEY) == pending)
    g_object_steal_data (G_OBJECT (session), PENDING_KEY);

  /* Still what the session shows? Then keep it for the next view. */
  if (layout != NULL &&
      fc_session_get_profile (session) == fc_flame_layout_get_profile (layout) &&
      fc_session_get_thread (session) == fc_flame_layout_get_thread (layout) &&
      fc_profile_get_n_samples (pending->profile) == pending->n_samples)
    store (session, layout, pending->n_samples);

  for (guint i = 0; i < pending->waiting->len; i++)
    {
      GTask *task = g_ptr_array_index (pending->waiting, i);

      if (layout != NULL)
        return_layout (task, layout);
      else
        g_task_return_error (task, g_error_copy (error));
    }

  pending_free (pending);
}

void
fc_layout_cache_request (FcSession           *session,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FcProfile *profile;
  FcFlameLayout *cached;
  Pending *pending;
  gint thread;
  guint n_samples;

  g_return_if_fail (FC_IS_SESSION (session));

  task = g_task_new (session, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_layout_cache_request);

  profile = fc_session_get_profile (session);
  thread = fc_session_get_thread (session);
  if (profile == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  cached = lookup (session, profile, thread);
  if (cached != NULL)
    {
      return_layout (task, cached);
      return;
    }

  if (thread >= 0 && (guint) thread < fc_profile_get_n_threads (profile))
    fc_profile_get_thread_samples (profile, thread, &n_samples);
  else
    n_samples = fc_profile_get_n_samples (profile);

  /* A growing profile asks again several times a second: the main loop
   * never lays it out, however small */
  if (n_samples < FC_LAYOUT_CACHE_SYNC_SAMPLES &&
      !(fc_profile_is_live (profile) && !fc_profile_is_finished (profile)))
    {
      guint n_all = fc_profile_get_n_samples (profile);
      g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, thread);

      store (session, layout, n_all);
      return_layout (task, layout);
      return;
    }

  pending = g_object_get_data (G_OBJECT (session), PENDING_KEY);
  if (pending != NULL && pending->profile == profile && pending->thread == thread &&
      pending->n_samples == fc_profile_get_n_samples (profile))
    {
      g_ptr_array_add (pending->waiting, g_steal_pointer (&task));
      return;
    }

  /* Another layout is still being computed for a thread no longer shown:
   * its waiters get it when it ends, and it will not be cached. This one
   * is tracked from now on. */
  if (pending != NULL)
    g_object_steal_data (G_OBJECT (session), PENDING_KEY);

  pending = g_new0 (Pending, 1);
  pending->session = g_object_ref (session);
  pending->profile = g_object_ref (profile);
  pending->thread = thread;
  pending->n_samples = fc_profile_get_n_samples (profile);
  pending->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (pending->waiting, g_steal_pointer (&task));
  g_object_set_data (G_OBJECT (session), PENDING_KEY, pending);

  fc_flame_layout_new_async (profile, thread, NULL, built_cb, pending);
}

FcFlameLayout *
fc_layout_cache_request_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
