/* fc-session-tree.c - the call tree of a session's thread and time selection, kept up to date
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-layout-cache.h"
#include "fc-session-tree.h"
#include "fc-session-view.h"

/*
 * Follows a session's profile, thread and selection range and rebuilds a
 * call tree on a worker thread when they change. Several session
 * properties change together (a new document resets them all), so rebuilds
 * are coalesced into one idle; a rebuild in flight is cancelled when a newer
 * one starts, and only the newest result is published.
 *
 * A session has one shared tree (fc_session_get_call_tree()): top-down,
 * with the session's frame filter applied. The flamegraph and the details
 * panel read it, so a selection change walks the samples once. A
 * "filtered" tree (the call tree view's) shares its nodes top-down
 * (FcFilteredTree), and builds its own bottom-up.
 *
 * Nothing on screen waits for a tree: while the session's flamechart
 * layout is being computed, a big tree waits for it (the flamechart is what
 * a document opens on), and starts once the main loop is idle, after the
 * views drew the layout.
 */

#define SELECT_DELAY_MS 80

struct _FcSessionTree
{
  GObject       parent_instance;

  /* owned; the shared tree only points at its session, which owns it */
  FcSession    *session;
  GSignalGroup *session_signals;
  GSignalGroup *layout_signals;  /* the session's layout cache */
  FcSessionTree *source;         /* the shared tree a filtered one derives from */
  GSignalGroup *source_signals;
  FcCallTree   *tree;
  FcFilteredTree *filtered_tree;
  GCancellable *cancellable;

  /* what the newest build (done or under way) was for: a session that
   * notifies begin and end of one selection change builds once */
  FcProfile    *built_profile;   /* unowned, compared only */
  FcCallTree   *built_source;    /* unowned, compared only */
  gint          built_thread;
  gint64        built_begin_ns;
  gint64        built_end_ns;
  FcFrameFilter built_filter;
  gboolean      built_bottom_up;
  guint         built_n_samples;   /* a live profile grows under the same pointer */

  guint         rebuild_source;
  guint         bottom_up : 1;
  guint         busy : 1;
  guint         filtered : 1;
  guint         shared : 1;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (FcSessionTree, fc_session_tree, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (FC_TYPE_SESSION_VIEW, NULL))

enum {
  PROP_0,
  PROP_BOTTOM_UP,
  PROP_TREE,
  PROP_FILTERED_TREE,
  PROP_BUSY,
  PROP_FILTERED,
  N_PROPS,
  /* FcSessionView's */
  PROP_SESSION = N_PROPS,
};

static GParamSpec *properties[N_PROPS];

static void
fc_session_tree_set_busy (FcSessionTree *self,
                          gboolean       busy)
{
  busy = !!busy;
  if (busy == self->busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* a filtered top-down tree shares the shared one */
static gboolean
derives_from_source (FcSessionTree *self)
{
  return self->filtered && !self->bottom_up;
}

static void
unref_tree_func (gpointer data,
                 gpointer user_data)
{
  fc_call_tree_unref (data);
}

/* A big call tree is a lot of small blocks: let a worker free it. */
static void
unref_tree_later (FcCallTree *tree)
{
  static GThreadPool *pool;

  /* a small one is quicker to free than to hand over */
  if (fc_call_tree_get_n_nodes (tree) < 10000)
    {
      fc_call_tree_unref (tree);
      return;
    }

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (unref_tree_func, NULL, 1, FALSE, NULL));

  g_thread_pool_push (pool, tree, NULL);
}

static void
fc_session_tree_publish (FcSessionTree  *self,
                         FcCallTree     *tree,
                         FcFilteredTree *filtered_tree)
{
  g_clear_pointer (&self->tree, unref_tree_later);
  g_clear_pointer (&self->filtered_tree, fc_filtered_tree_unref);
  self->tree = tree ? fc_call_tree_ref (tree) : NULL;
  self->filtered_tree = filtered_tree ? fc_filtered_tree_ref (filtered_tree) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  if (self->filtered)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTERED_TREE]);
}

typedef struct {
  FcCallTree     *source;      /* derive from this tree instead of the samples */
  FcProfile      *profile;
  gint            thread;
  gint64          begin_ns;
  gint64          end_ns;
  gboolean        bottom_up;
  gboolean        filtered;
  FcFrameFilter   filter;
} BuildData;

typedef struct {
  FcCallTree     *tree;
  FcFilteredTree *filtered_tree;
} BuildResult;

static void
build_data_free (BuildData *data)
{
  g_clear_pointer (&data->source, fc_call_tree_unref);
  g_clear_object (&data->profile);
  g_free (data);
}

static void
build_result_free (BuildResult *result)
{
  g_clear_pointer (&result->tree, fc_call_tree_unref);
  g_clear_pointer (&result->filtered_tree, fc_filtered_tree_unref);
  g_free (result);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildData *data = task_data;
  BuildResult *result = g_new0 (BuildResult, 1);

  /* The shared tree has the frame filter applied already: the call tree
   * view shows the same nodes. */
  if (data->source != NULL)
    {
      result->filtered_tree = fc_filtered_tree_new (data->source);
      g_task_return_pointer (task, result, (GDestroyNotify) build_result_free);
      return;
    }

  result->tree = fc_call_tree_new_full (data->profile, data->thread, data->begin_ns, data->end_ns,
                                        data->bottom_up, data->filter);
  if (data->filtered)
    {
      result->filtered_tree = fc_filtered_tree_new (result->tree);
      g_clear_pointer (&result->tree, fc_call_tree_unref);
    }

  g_task_return_pointer (task, result, (GDestroyNotify) build_result_free);
}

static void
build_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  FcSessionTree *self = FC_SESSION_TREE (object);
  BuildResult *built;
  g_autoptr(GError) error = NULL;

  built = g_task_propagate_pointer (G_TASK (result), &error);

  /* Only the newest rebuild publishes. */
  if (g_task_get_cancellable (G_TASK (result)) == self->cancellable)
    {
      g_clear_object (&self->cancellable);
      if (built != NULL)
        fc_session_tree_publish (self, built->tree, built->filtered_tree);
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not build the call tree: %s", error->message);
      fc_session_tree_set_busy (self, FALSE);
    }

  g_clear_pointer (&built, build_result_free);
}

static gboolean
is_small (FcSessionTree *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;

  /* a growing profile asks again several times a second: always a worker's */
  return self->shared && profile != NULL && fc_profile_get_n_samples (profile) < FC_LAYOUT_CACHE_SYNC_SAMPLES &&
         !(fc_profile_is_live (profile) && !fc_profile_is_finished (profile));
}

static gboolean
waits_for_layout (FcSessionTree *self,
                  FcProfile     *profile)
{
  /* a growing profile is laid out again and again: it would never start */
  return !is_small (self) && !derives_from_source (self) &&
         !(fc_profile_is_live (profile) && !fc_profile_is_finished (profile)) &&
         fc_layout_cache_get_busy (fc_session_get_layouts (self->session));
}

static gboolean
rebuild_cb (gpointer user_data)
{
  FcSessionTree *self = user_data;
  g_autoptr(GTask) task = NULL;
  BuildResult *built = NULL;
  FcProfile *profile;
  BuildData *data;

  self->rebuild_source = 0;

  profile = self->session ? fc_session_get_profile (self->session) : NULL;
  if (profile == NULL ||
      (derives_from_source (self) && (self->source == NULL || self->source->tree == NULL)))
    {
      if (self->cancellable != NULL)
        g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
      fc_session_tree_publish (self, NULL, NULL);
      fc_session_tree_set_busy (self, FALSE);
      return G_SOURCE_REMOVE;
    }

  /* after the flamechart's layout (see the top): layout_busy_cb comes back */
  if (waits_for_layout (self, profile))
    {
      fc_session_tree_set_busy (self, TRUE);
      return G_SOURCE_REMOVE;
    }

  data = g_new0 (BuildData, 1);
  data->profile = g_object_ref (profile);
  data->thread = fc_session_get_thread (self->session);
  data->begin_ns = fc_session_get_selection_begin_ns (self->session);
  data->end_ns = fc_session_get_selection_end_ns (self->session);
  data->bottom_up = self->bottom_up;
  data->filtered = self->filtered;
  data->filter = fc_session_get_frame_filter (self->session);
  if (derives_from_source (self))
    {
      data->source = fc_call_tree_ref (self->source->tree);
      data->filter = fc_call_tree_get_frames (self->source->tree);
    }

  if (data->profile == self->built_profile && self->built_n_samples == fc_profile_get_n_samples (profile) &&
      data->source == self->built_source &&
      data->thread == self->built_thread && data->begin_ns == self->built_begin_ns &&
      data->end_ns == self->built_end_ns && data->filter == self->built_filter &&
      data->bottom_up == self->built_bottom_up && (self->tree != NULL || self->filtered_tree != NULL || self->cancellable != NULL))
    {
      build_data_free (data);
      fc_session_tree_set_busy (self, self->cancellable != NULL);
      return G_SOURCE_REMOVE;
    }
  self->built_profile = data->profile;
  self->built_n_samples = fc_profile_get_n_samples (profile);
  self->built_source = data->source;
  self->built_thread = data->thread;
  self->built_begin_ns = data->begin_ns;
  self->built_end_ns = data->end_ns;
  self->built_filter = data->filter;
  self->built_bottom_up = data->bottom_up;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  /* A small shared tree costs less than a trip through a worker, and
   * every view then sees it at once. */
  if (is_small (self))
    {
      task = g_task_new (self, NULL, NULL, NULL);
      g_task_set_task_data (task, data, (GDestroyNotify) build_data_free);
      build_thread (task, self, data, NULL);
      built = g_task_propagate_pointer (task, NULL);
      fc_session_tree_publish (self, built->tree, built->filtered_tree);
      g_clear_pointer (&built, build_result_free);
      fc_session_tree_set_busy (self, FALSE);
      return G_SOURCE_REMOVE;
    }

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, build_ready_cb, NULL);
  g_task_set_source_tag (task, rebuild_cb);
  g_task_set_task_data (task, data, (GDestroyNotify) build_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, build_thread);

  return G_SOURCE_REMOVE;
}

/* The layout is done: the views have it and draw it in the next frame,
 * which comes before an idle of low priority. */
static void
layout_busy_cb (FcSessionTree *self,
                GParamSpec    *pspec,
                FcLayoutCache *layouts)
{
  if (fc_layout_cache_get_busy (layouts) || !self->busy || self->cancellable != NULL || self->rebuild_source != 0)
    return;
  self->rebuild_source = g_idle_add_full (G_PRIORITY_LOW, rebuild_cb, self, NULL);
}

static void
fc_session_tree_queue_rebuild (FcSessionTree *self)
{
  if (is_small (self))
    {
      g_clear_handle_id (&self->rebuild_source, g_source_remove);
      rebuild_cb (self);
      return;
    }

  fc_session_tree_set_busy (self, TRUE);
  if (self->rebuild_source == 0)
    self->rebuild_source = g_idle_add_full (G_PRIORITY_DEFAULT, rebuild_cb, self, NULL);
}

static void
session_changed_cb (FcSessionTree *self)
{
  /* a tree sharing the shared one follows that tree instead */
  if (!derives_from_source (self))
    fc_session_tree_queue_rebuild (self);
}

/* Dragging a selection changes it at every motion event; rebuilding a big
 * tree each time would queue worker after worker. Small trees follow at
 * once. */
static void
selection_changed_cb (FcSessionTree *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;

  if (derives_from_source (self))
    return;
  if (profile == NULL || fc_profile_get_n_samples (profile) < FC_LAYOUT_CACHE_SYNC_SAMPLES)
    {
      fc_session_tree_queue_rebuild (self);
      return;
    }

  fc_session_tree_set_busy (self, TRUE);
  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  self->rebuild_source = g_timeout_add (SELECT_DELAY_MS, rebuild_cb, self);
}

static void
source_busy_cb (FcSessionTree *self)
{
  if (derives_from_source (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
source_tree_cb (FcSessionTree *self)
{
  if (derives_from_source (self))
    fc_session_tree_queue_rebuild (self);
}

static void
fc_session_tree_dispose (GObject *object)
{
  FcSessionTree *self = (FcSessionTree *)object;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  if (self->layout_signals != NULL)
    g_signal_group_set_target (self->layout_signals, NULL);
  g_clear_object (&self->layout_signals);
  if (self->source_signals != NULL)
    g_signal_group_set_target (self->source_signals, NULL);
  g_clear_object (&self->source_signals);
  g_clear_object (&self->source);
  if (self->shared)
    g_clear_weak_pointer (&self->session);
  else
    g_clear_object (&self->session);
  g_clear_pointer (&self->tree, fc_call_tree_unref);
  g_clear_pointer (&self->filtered_tree, fc_filtered_tree_unref);

  G_OBJECT_CLASS (fc_session_tree_parent_class)->dispose (object);
}

static void
fc_session_tree_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  FcSessionTree *self = FC_SESSION_TREE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_BOTTOM_UP:
      g_value_set_boolean (value, self->bottom_up);
      break;
    case PROP_TREE:
      g_value_set_boxed (value, self->tree);
      break;
    case PROP_FILTERED_TREE:
      g_value_set_boxed (value, self->filtered_tree);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, fc_session_tree_get_busy (self));
      break;
    case PROP_FILTERED:
      g_value_set_boolean (value, self->filtered);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_session_tree_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  FcSessionTree *self = FC_SESSION_TREE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_session_tree_set_session (self, g_value_get_object (value));
      break;
    case PROP_BOTTOM_UP:
      fc_session_tree_set_bottom_up (self, g_value_get_boolean (value));
      break;
    case PROP_FILTERED:
      self->filtered = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_session_tree_constructed (GObject *object)
{
  FcSessionTree *self = FC_SESSION_TREE (object);

  G_OBJECT_CLASS (fc_session_tree_parent_class)->constructed (object);

  /* the shared tree applies the frame filter; a filtered one shares it top-down */
  g_signal_group_connect_object (self->session_signals, "notify::frame-filter",
                                 G_CALLBACK (session_changed_cb), self, G_CONNECT_SWAPPED);
}

static void
fc_session_tree_class_init (FcSessionTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = fc_session_tree_constructed;
  object_class->dispose = fc_session_tree_dispose;
  object_class->get_property = fc_session_tree_get_property;
  object_class->set_property = fc_session_tree_set_property;

  properties[PROP_BOTTOM_UP] =
    g_param_spec_boolean ("bottom-up", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TREE] =
    g_param_spec_boxed ("tree", NULL, NULL,
                        FC_TYPE_CALL_TREE,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_FILTERED_TREE] =
    g_param_spec_boxed ("filtered-tree", NULL, NULL,
                        FC_TYPE_FILTERED_TREE,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_FILTERED] =
    g_param_spec_boolean ("filtered", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
  fc_session_view_class_override (object_class, PROP_SESSION);
}

static void
fc_session_tree_init (FcSessionTree *self)
{
  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "notify::profile",
                                 G_CALLBACK (session_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::thread",
                                 G_CALLBACK (session_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::selection-begin-ns",
                                 G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::selection-end-ns",
                                 G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);

  self->layout_signals = g_signal_group_new (FC_TYPE_LAYOUT_CACHE);
  g_signal_group_connect_object (self->layout_signals, "notify::busy",
                                 G_CALLBACK (layout_busy_cb), self, G_CONNECT_SWAPPED);

  self->source_signals = g_signal_group_new (FC_TYPE_SESSION_TREE);
  g_signal_group_connect_object (self->source_signals, "notify::tree",
                                 G_CALLBACK (source_tree_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->source_signals, "notify::busy",
                                 G_CALLBACK (source_busy_cb), self, G_CONNECT_SWAPPED);
}


/**
 * fc_session_tree_new:
 * @filtered: also build the FcFilteredTree for the session's frame filter
 *
 * Returns: (transfer full): a session tree following no session yet
 */
FcSessionTree *
fc_session_tree_new (gboolean filtered)
{
  return g_object_new (FC_TYPE_SESSION_TREE,
                       "filtered", filtered,
                       NULL);
}

FcSession *
fc_session_tree_get_session (FcSessionTree *self)
{
  g_return_val_if_fail (FC_IS_SESSION_TREE (self), NULL);

  return self->session;
}

/**
 * fc_session_tree_new_shared:
 * @session: a session
 *
 * The session's own tree (fc_session_get_call_tree()): it follows @session
 * without holding it, and @session calls fc_session_tree_detach() when it
 * goes.
 *
 * Returns: (transfer full): a tree following @session
 */
FcSessionTree *
fc_session_tree_new_shared (FcSession *session)
{
  FcSessionTree *self;

  g_return_val_if_fail (FC_IS_SESSION (session), NULL);

  self = g_object_new (FC_TYPE_SESSION_TREE, NULL);
  self->shared = TRUE;
  g_set_weak_pointer (&self->session, session);
  g_signal_group_set_target (self->session_signals, session);
  g_signal_group_set_target (self->layout_signals, fc_session_get_layouts (session));
  fc_session_tree_queue_rebuild (self);
  return self;
}

/**
 * fc_session_tree_detach:
 *
 * A shared tree's session goes: a worker may still hold the tree, which
 * publishes nothing any more.
 */
void
fc_session_tree_detach (FcSessionTree *self)
{
  g_return_if_fail (FC_IS_SESSION_TREE (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  g_signal_group_set_target (self->layout_signals, NULL);
  g_clear_weak_pointer (&self->session);
}

void
fc_session_tree_set_session (FcSessionTree *self,
                             FcSession     *session)
{
  g_return_if_fail (FC_IS_SESSION_TREE (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));
  g_return_if_fail (!self->shared);

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  g_signal_group_set_target (self->layout_signals, session != NULL ? fc_session_get_layouts (session) : NULL);
  if (self->filtered)
    {
      FcSessionTree *source = session != NULL ? fc_session_get_call_tree (session) : NULL;

      g_set_object (&self->source, source);
      g_signal_group_set_target (self->source_signals, self->source);
    }
  fc_session_tree_queue_rebuild (self);
  fc_session_view_notify (FC_SESSION_VIEW (self));
}

gboolean
fc_session_tree_get_bottom_up (FcSessionTree *self)
{
  g_return_val_if_fail (FC_IS_SESSION_TREE (self), FALSE);

  return self->bottom_up;
}

void
fc_session_tree_set_bottom_up (FcSessionTree *self,
                               gboolean       bottom_up)
{
  g_return_if_fail (FC_IS_SESSION_TREE (self));

  bottom_up = !!bottom_up;
  if (bottom_up == self->bottom_up)
    return;

  self->bottom_up = bottom_up;
  fc_session_tree_queue_rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOTTOM_UP]);
}

/**
 * fc_session_tree_get_tree:
 * @self: a session tree
 *
 * Returns: (transfer none) (nullable): the newest complete tree; while
 *   #FcSessionTree:busy, the one before; always NULL for a "filtered" one,
 *   which keeps only fc_session_tree_get_filtered_tree()
 */
FcCallTree *
fc_session_tree_get_tree (FcSessionTree *self)
{
  g_return_val_if_fail (FC_IS_SESSION_TREE (self), NULL);

  return self->tree;
}

/**
 * fc_session_tree_get_filtered_tree:
 * @self: a session tree made "filtered"
 *
 * Returns: (transfer none) (nullable): the newest tree with the session's
 *   frame filter applied
 */
FcFilteredTree *
fc_session_tree_get_filtered_tree (FcSessionTree *self)
{
  g_return_val_if_fail (FC_IS_SESSION_TREE (self), NULL);

  return self->filtered_tree;
}

gboolean
fc_session_tree_get_busy (FcSessionTree *self)
{
  g_return_val_if_fail (FC_IS_SESSION_TREE (self), FALSE);

  if (derives_from_source (self) && self->source != NULL && self->source->busy)
    return TRUE;
  return self->busy;
}
