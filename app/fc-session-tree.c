/* fc-session-tree.c - the call tree of a session's thread and time selection, kept up to date
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-session-tree.h"

/*
 * Follows a session's profile, thread and selection range and rebuilds the
 * FcCallTree on a worker thread when they change. Several session
 * properties change together (a new document resets them all), so rebuilds
 * are coalesced into one idle; a rebuild in flight is cancelled when a newer
 * one starts, and only the newest result is published.
 */

struct _FcSessionTree
{
  GObject       parent_instance;

  /* owned */
  FcSession    *session;
  GSignalGroup *session_signals;
  FcCallTree   *tree;
  GCancellable *cancellable;

  guint         rebuild_source;
  guint         bottom_up : 1;
  guint         busy : 1;
};

G_DEFINE_FINAL_TYPE (FcSessionTree, fc_session_tree, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_BOTTOM_UP,
  PROP_TREE,
  PROP_BUSY,
  N_PROPS
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

static void
fc_session_tree_publish (FcSessionTree *self,
                         FcCallTree    *tree)
{
  if (tree == self->tree)
    return;

  g_clear_pointer (&self->tree, fc_call_tree_unref);
  self->tree = tree ? fc_call_tree_ref (tree) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

typedef struct {
  FcSessionTree *self;       /* owned */
  GCancellable  *cancellable; /* owned: which rebuild this was */
} BuildState;

static void
build_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  BuildState *state = user_data;
  FcSessionTree *self = state->self;
  g_autoptr(FcCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  tree = fc_call_tree_new_finish (result, &error);

  if (state->cancellable == self->cancellable)
    {
      g_clear_object (&self->cancellable);
      if (tree != NULL)
        fc_session_tree_publish (self, tree);
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not build the call tree: %s", error->message);
      fc_session_tree_set_busy (self, FALSE);
    }

  g_object_unref (state->cancellable);
  g_object_unref (state->self);
  g_free (state);
}

static gboolean
rebuild_cb (gpointer user_data)
{
  FcSessionTree *self = user_data;
  FcProfile *profile;
  BuildState *state;

  self->rebuild_source = 0;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  profile = self->session ? fc_session_get_profile (self->session) : NULL;
  if (profile == NULL)
    {
      fc_session_tree_publish (self, NULL);
      fc_session_tree_set_busy (self, FALSE);
      return G_SOURCE_REMOVE;
    }

  self->cancellable = g_cancellable_new ();
  state = g_new0 (BuildState, 1);
  state->self = g_object_ref (self);
  state->cancellable = g_object_ref (self->cancellable);

  fc_call_tree_new_async (profile,
                          fc_session_get_thread (self->session),
                          fc_session_get_selection_begin_ns (self->session),
                          fc_session_get_selection_end_ns (self->session),
                          self->bottom_up,
                          self->cancellable,
                          build_ready_cb,
                          state);

  return G_SOURCE_REMOVE;
}

static void
fc_session_tree_queue_rebuild (FcSessionTree *self)
{
  fc_session_tree_set_busy (self, TRUE);
  if (self->rebuild_source == 0)
    self->rebuild_source = g_idle_add_full (G_PRIORITY_DEFAULT, rebuild_cb, self, NULL);
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
  g_clear_object (&self->session);
  g_clear_pointer (&self->tree, fc_call_tree_unref);

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
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_session_tree_class_init (FcSessionTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fc_session_tree_dispose;
  object_class->get_property = fc_session_tree_get_property;
  object_class->set_property = fc_session_tree_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         FC_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BOTTOM_UP] =
    g_param_spec_boolean ("bottom-up", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TREE] =
    g_param_spec_boxed ("tree", NULL, NULL,
                        FC_TYPE_CALL_TREE,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fc_session_tree_init (FcSessionTree *self)
{
  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "notify::profile",
                                 G_CALLBACK (fc_session_tree_queue_rebuild), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::thread",
                                 G_CALLBACK (fc_session_tree_queue_rebuild), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::selection-begin-ns",
                                 G_CALLBACK (fc_session_tree_queue_rebuild), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::selection-end-ns",
                                 G_CALLBACK (fc_session_tree_queue_rebuild), self, G_CONNECT_SWAPPED);
}

FcSessionTree *
fc_session_tree_new (void)
{
  return g_object_new (FC_TYPE_SESSION_TREE, NULL);
}

FcSession *
fc_session_tree_get_session (FcSessionTree *self)
{
  g_return_val_if_fail (FC_IS_SESSION_TREE (self), NULL);

  return self->session;
}

void
fc_session_tree_set_session (FcSessionTree *self,
                             FcSession     *session)
{
  g_return_if_fail (FC_IS_SESSION_TREE (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  fc_session_tree_queue_rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
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
 *   #FcSessionTree:busy, the one before
 */
FcCallTree *
fc_session_tree_get_tree (FcSessionTree *self)
{
  g_return_val_if_fail (FC_IS_SESSION_TREE (self), NULL);

  return self->tree;
}

gboolean
fc_session_tree_get_busy (FcSessionTree *self)
{
  g_return_val_if_fail (FC_IS_SESSION_TREE (self), FALSE);

  return self->busy;
}
