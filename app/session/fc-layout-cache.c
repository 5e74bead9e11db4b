/* fc-layout-cache.c - a session's flamechart layout, shared by the views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-layout-cache.h"

/* A layout being computed and the requests waiting for it: the flamechart
 * and the minimap ask at the same moment, one worker serves both. */
typedef struct {
  FcLayoutCache *cache;
  FcSession     *session;
  FcProfile     *profile;
  gint           thread;
  guint          n_samples;   /* a live profile grows under the same pointer */
  GPtrArray     *waiting;     /* GTask */
} Pending;

struct _FcLayoutCache
{
  GObject        parent_instance;

  /* owned: the newest layout still of what the session shows */
  FcFlameLayout *layout;
  guint          n_samples;   /* of the profile when it was laid out */
  /* unowned: the request being computed; its worker's callback frees it */
  Pending       *pending;
};

G_DEFINE_FINAL_TYPE (FcLayoutCache, fc_layout_cache, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pending_free (Pending *pending)
{
  g_clear_object (&pending->cache);
  g_clear_object (&pending->session);
  g_clear_object (&pending->profile);
  g_clear_pointer (&pending->waiting, g_ptr_array_unref);
  g_free (pending);
}

static void
set_pending (FcLayoutCache *self,
             Pending       *pending)
{
  gboolean was_busy = self->pending != NULL;

  self->pending = pending;
  if (was_busy != (pending != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static FcFlameLayout *
lookup (FcLayoutCache *self,
        FcProfile     *profile,
        gint           thread)
{
  if (self->layout != NULL &&
      fc_flame_layout_get_profile (self->layout) == profile &&
      fc_flame_layout_get_thread (self->layout) == thread &&
      self->n_samples == fc_profile_get_n_samples (profile))
    return self->layout;
  return NULL;
}

/* The cache holds the layout, the layout holds the profile: no cycle. */
static void
store (FcLayoutCache *self,
       FcFlameLayout *layout,
       guint          n_samples)
{
  g_clear_pointer (&self->layout, fc_flame_layout_unref);
  self->layout = fc_flame_layout_ref (layout);
  self->n_samples = n_samples;
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
  FcLayoutCache *self = pending->cache;
  FcSession *session = pending->session;
  g_autoptr(FcFlameLayout) layout = NULL;
  g_autoptr(GError) error = NULL;

  layout = fc_flame_layout_new_finish (result, &error);

  /* Still what the session shows? Then keep it for the next view. */
  if (layout != NULL &&
      fc_session_get_profile (session) == fc_flame_layout_get_profile (layout) &&
      fc_session_get_thread (session) == fc_flame_layout_get_thread (layout) &&
      fc_profile_get_n_samples (pending->profile) == pending->n_samples)
    store (self, layout, pending->n_samples);

  for (guint i = 0; i < pending->waiting->len; i++)
    {
      GTask *task = g_ptr_array_index (pending->waiting, i);

      if (layout != NULL)
        return_layout (task, layout);
      else
        g_task_return_error (task, g_error_copy (error));
    }

  /* after the views have it: who waits for the layout to be done (the call
   * trees) starts once the views could draw */
  if (self->pending == pending)
    set_pending (self, NULL);
  pending_free (pending);
}

void
fc_layout_cache_request (FcSession           *session,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FcLayoutCache *self;
  FcProfile *profile;
  FcFlameLayout *cached;
  Pending *pending;
  gint thread;
  guint n_samples;

  g_return_if_fail (FC_IS_SESSION (session));

  task = g_task_new (session, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_layout_cache_request);

  self = fc_session_get_layouts (session);
  profile = fc_session_get_profile (session);
  thread = fc_session_get_thread (session);
  if (profile == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  cached = lookup (self, profile, thread);
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
      g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, thread);

      store (self, layout, fc_profile_get_n_samples (profile));
      return_layout (task, layout);
      return;
    }

  pending = self->pending;
  if (pending != NULL && pending->profile == profile && pending->thread == thread &&
      pending->n_samples == fc_profile_get_n_samples (profile))
    {
      g_ptr_array_add (pending->waiting, g_steal_pointer (&task));
      return;
    }

  /* Another layout is still being computed for a thread no longer shown:
   * its waiters get it when it ends, and it will not be cached. This one
   * is tracked from now on. */
  pending = g_new0 (Pending, 1);
  pending->cache = g_object_ref (self);
  pending->session = g_object_ref (session);
  pending->profile = g_object_ref (profile);
  pending->thread = thread;
  pending->n_samples = fc_profile_get_n_samples (profile);
  pending->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (pending->waiting, g_steal_pointer (&task));
  set_pending (self, pending);

  fc_flame_layout_new_async (profile, thread, NULL, built_cb, pending);
}

FcFlameLayout *
fc_layout_cache_request_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * fc_layout_cache_get_busy:
 *
 * Returns: whether a layout is being computed on a worker
 */
gboolean
fc_layout_cache_get_busy (FcLayoutCache *self)
{
  g_return_val_if_fail (FC_IS_LAYOUT_CACHE (self), FALSE);

  return self->pending != NULL;
}

FcLayoutCache *
fc_layout_cache_new (void)
{
  return g_object_new (FC_TYPE_LAYOUT_CACHE, NULL);
}

static void
fc_layout_cache_finalize (GObject *object)
{
  FcLayoutCache *self = FC_LAYOUT_CACHE (object);

  /* a pending request holds the cache: none is left here */
  g_assert (self->pending == NULL);
  g_clear_pointer (&self->layout, fc_flame_layout_unref);
  G_OBJECT_CLASS (fc_layout_cache_parent_class)->finalize (object);
}

static void
fc_layout_cache_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  FcLayoutCache *self = FC_LAYOUT_CACHE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->pending != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_layout_cache_class_init (FcLayoutCacheClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = fc_layout_cache_finalize;
  object_class->get_property = fc_layout_cache_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fc_layout_cache_init (FcLayoutCache *self)
{
}
