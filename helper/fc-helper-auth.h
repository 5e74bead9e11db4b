/* fc-helper-auth.h - whether a caller may use the helper: polkit, asked once per caller process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define FC_TYPE_HELPER_AUTH (fc_helper_auth_get_type ())
G_DECLARE_FINAL_TYPE (FcHelperAuth, fc_helper_auth, FC, HELPER_AUTH, GObject)

/* the polkit actions (io.github.flamecast.Flamecast.policy) */
typedef enum {
  FC_HELPER_ACTION_RECORD = 1 << 0,   /* ...record-other-process: open, stop and read a process */
  FC_HELPER_ACTION_LIST   = 1 << 1,   /* ...list-processes: what ps shows this user */
} FcHelperAction;

FcHelperAuth *fc_helper_auth_new          (GDBusConnection       *bus);
/* Checks the sender of @invocation for @action: root always may; others when polkit authorises
 * the action for their process (identified by pid, start time and uid; a yes is kept for that
 * process while it stays on the bus). */
void          fc_helper_auth_check_async  (FcHelperAuth          *self,
                                           GDBusMethodInvocation *invocation,
                                           FcHelperAction         action,
                                           GCancellable          *cancellable,
                                           GAsyncReadyCallback    callback,
                                           gpointer               user_data);
/* TRUE if authorised; *@uid is the caller's */
gboolean      fc_helper_auth_check_finish (FcHelperAuth          *self,
                                           GAsyncResult          *result,
                                           guint32               *uid,
                                           GError               **error);
/* Whether @sender already holds a yes for @action (or is root), without asking polkit. */
gboolean      fc_helper_auth_holds        (FcHelperAuth          *self,
                                           const char            *sender,
                                           guint32                uid,
                                           FcHelperAction         action);
/* pending checks: the helper does not exit while one waits for polkit */
guint         fc_helper_auth_get_pending  (FcHelperAuth          *self);

G_END_DECLS
