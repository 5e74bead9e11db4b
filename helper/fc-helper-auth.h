/* fc-helper-auth.h - whether a caller may use the helper: polkit, asked once per caller process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define FC_TYPE_HELPER_AUTH (fc_helper_auth_get_type ())
G_DECLARE_FINAL_TYPE (FcHelperAuth, fc_helper_auth, FC, HELPER_AUTH, GObject)

FcHelperAuth *fc_helper_auth_new          (GDBusConnection       *bus);
/* Checks the sender of @invocation: root always may; others when polkit authorises the action
 * for their process (identified by pid, start time and uid; a yes is kept for that process while
 * it stays on the bus). */
void          fc_helper_auth_check_async  (FcHelperAuth          *self,
                                           GDBusMethodInvocation *invocation,
                                           GCancellable          *cancellable,
                                           GAsyncReadyCallback    callback,
                                           gpointer               user_data);
gboolean      fc_helper_auth_check_finish (FcHelperAuth          *self,
                                           GAsyncResult          *result,
                                           GError               **error);
/* pending checks: the helper does not exit while one waits for polkit */
guint         fc_helper_auth_get_pending  (FcHelperAuth          *self);

G_END_DECLS
