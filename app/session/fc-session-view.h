/* fc-session-view.h - an object bound to one FcSession by its "session" property
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "fc-session.h"

G_BEGIN_DECLS

/*
 * The views (flamechart, flamegraph, minimap, time ruler, span track, call
 * tree, frame details, thread selector) and the models that follow a session
 * (the session's call tree) each show one FcSession. The "session" property
 * is declared here once; a class implementing the interface overrides it
 * with fc_session_view_class_override() and keeps its own setter, which
 * ends with fc_session_view_notify().
 */

#define FC_TYPE_SESSION_VIEW (fc_session_view_get_type ())
G_DECLARE_INTERFACE (FcSessionView, fc_session_view, FC, SESSION_VIEW, GObject)

struct _FcSessionViewInterface
{
  GTypeInterface parent_iface;
};

/* in class_init: @prop_id is the class's id for "session" */
void       fc_session_view_class_override (GObjectClass  *object_class,
                                           guint          prop_id);
void       fc_session_view_notify         (FcSessionView *self);

G_END_DECLS
