/* fc-session-view.c - an object bound to one FcSession by its "session" property
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-session-view.h"

G_DEFINE_INTERFACE (FcSessionView, fc_session_view, G_TYPE_OBJECT)

static void
fc_session_view_default_init (FcSessionViewInterface *iface)
{
  g_object_interface_install_property (iface,
                                       g_param_spec_object ("session", NULL, NULL,
                                                            FC_TYPE_SESSION,
                                                            (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                             G_PARAM_STATIC_STRINGS)));
}

void
fc_session_view_class_override (GObjectClass *object_class,
                                guint         prop_id)
{
  g_return_if_fail (G_IS_OBJECT_CLASS (object_class));

  g_object_class_override_property (object_class, prop_id, "session");
}

void
fc_session_view_notify (FcSessionView *self)
{
  g_return_if_fail (FC_IS_SESSION_VIEW (self));

  /* the class's override; notify follows it to the interface's spec */
  g_object_notify_by_pspec (G_OBJECT (self), g_object_class_find_property (G_OBJECT_GET_CLASS (self), "session"));
}
