/* fc-live-edge.c - a session following the live edge of a growing profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-live-edge.h"

struct _FcLiveEdge
{
  GObject    parent_instance;

  FcSession *session;
  FcProfile *live;              /* borrowed: its owner clears it before it goes */
  gboolean   following;         /* the flamechart shows the live edge */
  gboolean   edge_pending;      /* follow once the flamechart has the grown layout */
  gboolean   thread_chosen;
  gboolean   setting_range;     /* we move the range, not the user */
};

G_DEFINE_FINAL_TYPE (FcLiveEdge, fc_live_edge, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FOLLOWING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_following (FcLiveEdge *self,
               gboolean    following)
{
  if (self->following == following)
    return;
  self->following = following;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
}

gboolean
fc_live_edge_is_showing_live (FcLiveEdge *self)
{
  g_return_val_if_fail (FC_IS_LIVE_EDGE (self), FALSE);

  return self->live != NULL && fc_session_get_profile (self->session) == self->live;
}

static void
show_edge (FcLiveEdge *self)
{
  gint64 begin, end;

  self->edge_pending = FALSE;
  fc_session_get_thread_range (self->session, &begin, &end);
  self->setting_range = TRUE;
  fc_session_set_visible_range (self->session, MAX (begin, end - FC_SESSION_LIVE_WINDOW_NS), end);
  self->setting_range = FALSE;
}

static gboolean
at_edge (FcLiveEdge *self)
{
  gint64 begin, end;

  fc_session_get_thread_range (self->session, &begin, &end);
  return fc_session_get_visible_end_ns (self->session) == end &&
         fc_session_get_visible_begin_ns (self->session) == MAX (begin, end - FC_SESSION_LIVE_WINDOW_NS);
}

/* The user zoomed or panned: no more following until Follow. */
static void
visible_range_cb (FcLiveEdge *self)
{
  if (self->setting_range || self->live == NULL || !self->following || at_edge (self))
    return;
  set_following (self, FALSE);
}

/* Another thread while it grows: its live edge, whatever the switch did to
 * the visible range (it shows the new thread's whole range). */
static void
thread_cb (FcLiveEdge *self)
{
  if (!fc_live_edge_is_showing_live (self))
    return;
  /* not the default the live view opened on: Stop keeps it */
  if (!self->setting_range)
    self->thread_chosen = TRUE;
  fc_live_edge_follow (self);
}

void
fc_live_edge_set_live (FcLiveEdge *self,
                       FcProfile  *live)
{
  g_return_if_fail (FC_IS_LIVE_EDGE (self));

  if (live != NULL && self->live == NULL)
    {
      self->thread_chosen = FALSE;
      self->edge_pending = FALSE;
      set_following (self, TRUE);
    }
  self->live = live;
}

void
fc_live_edge_follow (FcLiveEdge *self)
{
  g_return_if_fail (FC_IS_LIVE_EDGE (self));

  set_following (self, TRUE);
  if (fc_live_edge_is_showing_live (self))
    {
      self->setting_range = TRUE;
      fc_session_profile_grew (self->session, TRUE);
      self->setting_range = FALSE;
    }
}

/**
 * fc_live_edge_grew:
 * @self: a live edge
 *
 * The session's live profile grew: views reload and, when following, the
 * flamechart moves to the live edge once it has the grown layout (moving
 * first would draw the old layout at the new place, then draw again).
 */
void
fc_live_edge_grew (FcLiveEdge *self)
{
  g_return_if_fail (FC_IS_LIVE_EDGE (self));

  /* a layout that never came (a thread without samples): follow now */
  if (self->edge_pending && self->following)
    show_edge (self);
  self->edge_pending = self->following;
  self->setting_range = TRUE;
  fc_session_profile_grew (self->session, FALSE);
  self->setting_range = FALSE;
}

/* The flamechart has the grown profile's layout: now is the time to follow. */
void
fc_live_edge_layout_ready (FcLiveEdge    *self,
                           FcFlameLayout *layout)
{
  g_return_if_fail (FC_IS_LIVE_EDGE (self));

  if (self->edge_pending && self->following && layout != NULL &&
      fc_flame_layout_get_profile (layout) == fc_session_get_profile (self->session))
    show_edge (self);
}

void
fc_live_edge_show (FcLiveEdge *self,
                   FcDocument *document,
                   FcProfile  *profile,
                   gboolean    keep_thread)
{
  g_return_if_fail (FC_IS_LIVE_EDGE (self));

  self->setting_range = TRUE;
  if (keep_thread)
    fc_session_set_document_keep_thread (self->session, document, profile);
  else
    fc_session_set_document_full (self->session, document, profile, NULL);
  self->setting_range = FALSE;
}

FcSession *
fc_live_edge_get_session (FcLiveEdge *self)
{
  g_return_val_if_fail (FC_IS_LIVE_EDGE (self), NULL);

  return self->session;
}

gboolean
fc_live_edge_get_following (FcLiveEdge *self)
{
  g_return_val_if_fail (FC_IS_LIVE_EDGE (self), FALSE);

  return self->following;
}

gboolean
fc_live_edge_get_thread_chosen (FcLiveEdge *self)
{
  g_return_val_if_fail (FC_IS_LIVE_EDGE (self), FALSE);

  return self->thread_chosen;
}

static void
fc_live_edge_dispose (GObject *object)
{
  FcLiveEdge *self = FC_LIVE_EDGE (object);

  self->live = NULL;
  g_clear_object (&self->session);

  G_OBJECT_CLASS (fc_live_edge_parent_class)->dispose (object);
}

static void
fc_live_edge_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  FcLiveEdge *self = FC_LIVE_EDGE (object);

  switch (prop_id)
    {
    case PROP_FOLLOWING:
      g_value_set_boolean (value, self->following);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_live_edge_class_init (FcLiveEdgeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fc_live_edge_dispose;
  object_class->get_property = fc_live_edge_get_property;

  properties[PROP_FOLLOWING] =
    g_param_spec_boolean ("following", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fc_live_edge_init (FcLiveEdge *self)
{
  self->following = TRUE;
}

/**
 * fc_live_edge_new:
 * @session: the session that shows the growing profile
 *
 * Follows the live edge in @session while a profile set with
 * fc_live_edge_set_live() grows: until the user moves the visible range,
 * and again after fc_live_edge_follow().
 */
FcLiveEdge *
fc_live_edge_new (FcSession *session)
{
  FcLiveEdge *self;

  g_return_val_if_fail (FC_IS_SESSION (session), NULL);

  self = g_object_new (FC_TYPE_LIVE_EDGE, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::visible-begin-ns", G_CALLBACK (visible_range_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::visible-end-ns", G_CALLBACK (visible_range_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::thread", G_CALLBACK (thread_cb), self, G_CONNECT_SWAPPED);
  return self;
}
