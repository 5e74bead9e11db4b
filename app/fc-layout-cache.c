/* fc-layout-cache.c - one flamechart layout per session, shared by the views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-layout-cache.h"

#define CACHE_KEY "fc-layout-cache"

static FcFlameLayout *
lookup (FcSession *session,
        FcProfile *profile,
        gint       thread)
{
  FcFlameLayout *layout = g_object_get_data (G_OBJECT (session), CACHE_KEY);

  if (layout != NULL &&
      fc_flame_layout_get_profile (layout) == profile &&
      fc_flame_layout_get_thread (layout) == thread)
    return layout;
  return NULL;
}

static void
store (FcSession     *session,
       FcFlameLayout *layout)
{
  /* The session holds the layout, the layout holds the profile: no cycle. */
  g_object_set_data_full (G_OBJECT (session), CACHE_KEY,
                          fc_flame_layout_ref (layout),
                          (GDestroyNotify) fc_flame_layout_unref);
}

static void
built_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(FcFlameLayout) layout = NULL;
  g_autoptr(GError) error = NULL;
  FcSession *session = g_task_get_source_object (task);

  layout = fc_flame_layout_new_finish (result, &error);
  if (layout == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Still what the session shows? Then keep it for the next view. */
  if (fc_session_get_profile (session) == fc_flame_layout_get_profile (layout) &&
      fc_session_get_thread (session) == fc_flame_layout_get_thread (layout))
    store (session, layout);

  g_task_return_pointer (task, g_steal_pointer (&layout), (GDestroyNotify) fc_flame_layout_unref);
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
      g_task_return_pointer (task, fc_flame_layout_ref (cached), (GDestroyNotify) fc_flame_layout_unref);
      return;
    }

  if (thread >= 0 && (guint) thread < fc_profile_get_n_threads (profile))
    fc_profile_get_thread_samples (profile, thread, &n_samples);
  else
    n_samples = fc_profile_get_n_samples (profile);

  if (n_samples < FC_LAYOUT_CACHE_SYNC_SAMPLES)
    {
      g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, thread);

      store (session, layout);
      g_task_return_pointer (task, g_steal_pointer (&layout), (GDestroyNotify) fc_flame_layout_unref);
      return;
    }

  fc_flame_layout_new_async (profile, thread, cancellable, built_cb, g_steal_pointer (&task));
}

FcFlameLayout *
fc_layout_cache_request_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
