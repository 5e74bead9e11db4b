/* fc-helper-auth.c - whether a caller may use the helper: polkit, asked once per caller process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every call is checked. The caller is its bus connection's process, named to
 * polkit by pid, start time and uid, so a pid reused by another program is a
 * new subject. A yes is kept for that connection (unique bus names are never
 * reused) and that process, and dropped when the connection leaves the bus;
 * a no is not kept, so the user can try again. polkit keeps its own yes for
 * a while too (auth_admin_keep), which is what spares a second password.
 */

#include <polkit/polkit.h>

#include "fc-helper-auth.h"
#include "fc-helper-error.h"
#include "fc-helper-open.h"

typedef struct {
  guint32 pid;
  guint64 start_time;
  guint   actions;   /* FcHelperAction: polkit's yes so far */
} Caller;

static const char *
action_id (FcHelperAction action)
{
  return action == FC_HELPER_ACTION_LIST ? "io.github.flamecast.Flamecast.list-processes"
                                         : "io.github.flamecast.Flamecast.record-other-process";
}

static const char *
action_words (FcHelperAction action)
{
  return action == FC_HELPER_ACTION_LIST ? "list the host's processes" : "record other processes";
}

struct _FcHelperAuth {
  GObject          parent_instance;
  GDBusConnection *bus;
  PolkitAuthority *authority;   /* on first use */
  GHashTable      *allowed;     /* unique bus name -> Caller */
  guint            owner_changed_id;
  guint            pending;
};

G_DEFINE_FINAL_TYPE (FcHelperAuth, fc_helper_auth, G_TYPE_OBJECT)

typedef struct {
  char           *sender;
  Caller          caller;
  guint32         uid;
  FcHelperAction  action;
} Check;

static void
check_free (Check *check)
{
  g_free (check->sender);
  g_free (check);
}

static void
name_owner_changed_cb (GDBusConnection *bus,
                       const char      *sender_name,
                       const char      *object_path,
                       const char      *interface_name,
                       const char      *signal_name,
                       GVariant        *parameters,
                       gpointer         user_data)
{
  FcHelperAuth *self = user_data;
  const char *name, *old_owner, *new_owner;

  g_variant_get (parameters, "(&s&s&s)", &name, &old_owner, &new_owner);
  if (*new_owner == '\0')
    g_hash_table_remove (self->allowed, name);
}

static void
fc_helper_auth_finalize (GObject *object)
{
  FcHelperAuth *self = FC_HELPER_AUTH (object);

  g_dbus_connection_signal_unsubscribe (self->bus, self->owner_changed_id);
  g_clear_object (&self->authority);
  g_clear_object (&self->bus);
  g_clear_pointer (&self->allowed, g_hash_table_unref);
  G_OBJECT_CLASS (fc_helper_auth_parent_class)->finalize (object);
}

static void
fc_helper_auth_class_init (FcHelperAuthClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_helper_auth_finalize;
}

static void
fc_helper_auth_init (FcHelperAuth *self)
{
  self->allowed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

FcHelperAuth *
fc_helper_auth_new (GDBusConnection *bus)
{
  FcHelperAuth *self = g_object_new (FC_TYPE_HELPER_AUTH, NULL);

  self->bus = g_object_ref (bus);
  self->owner_changed_id = g_dbus_connection_signal_subscribe (bus, "org.freedesktop.DBus", "org.freedesktop.DBus",
                                                               "NameOwnerChanged", "/org/freedesktop/DBus", NULL,
                                                               G_DBUS_SIGNAL_FLAGS_NONE, name_owner_changed_cb,
                                                               self, NULL);
  return self;
}

guint
fc_helper_auth_get_pending (FcHelperAuth *self)
{
  return self->pending;
}

static void
finish (GTask  *task,
        GError *error)
{
  FcHelperAuth *self = g_task_get_source_object (task);
  Check *check = g_task_get_task_data (task);

  self->pending--;
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, check->uid);
  g_object_unref (task);
}

static void
polkit_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  FcHelperAuth *self = g_task_get_source_object (task);
  Check *check = g_task_get_task_data (task);
  g_autoptr(PolkitAuthorizationResult) answer = NULL;
  const Caller *known;
  GError *error = NULL;

  answer = polkit_authority_check_authorization_finish (POLKIT_AUTHORITY (source), result, &error);
  if (answer == NULL)
    {
      g_prefix_error (&error, "Cannot ask polkit whether process %u may %s: ", check->caller.pid,
                      action_words (check->action));
      finish (task, error);
      return;
    }
  if (!polkit_authorization_result_get_is_authorized (answer))
    {
      finish (task, g_error_new (FC_HELPER_ERROR, FC_HELPER_ERROR_NOT_AUTHORIZED,
                                 "polkit did not authorise process %u (uid %u) to %s (action %s)",
                                 check->caller.pid, check->uid, action_words (check->action),
                                 action_id (check->action)));
      return;
    }
  /* the same process's other yes are kept with this one */
  known = g_hash_table_lookup (self->allowed, check->sender);
  if (known != NULL && known->pid == check->caller.pid && known->start_time == check->caller.start_time)
    check->caller.actions |= known->actions;
  check->caller.actions |= check->action;
  g_hash_table_replace (self->allowed, g_strdup (check->sender), g_memdup2 (&check->caller, sizeof check->caller));
  finish (task, NULL);
}

static void
credentials_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  FcHelperAuth *self = g_task_get_source_object (task);
  Check *check = g_task_get_task_data (task);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) creds = NULL;
  g_autoptr(PolkitSubject) subject = NULL;
  const Caller *known;
  GError *error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (reply == NULL)
    {
      finish (task, error);
      return;
    }
  creds = g_variant_get_child_value (reply, 0);
  if (!g_variant_lookup (creds, "UnixUserID", "u", &check->uid) ||
      !g_variant_lookup (creds, "ProcessID", "u", &check->caller.pid))
    {
      finish (task, g_error_new (FC_HELPER_ERROR, FC_HELPER_ERROR_NOT_AUTHORIZED,
                                 "The bus does not say which process %s is", check->sender));
      return;
    }
  /* root may open all of this itself */
  if (check->uid == 0)
    {
      finish (task, NULL);
      return;
    }
  check->caller.start_time = fc_helper_process_start_time (check->caller.pid);
  known = g_hash_table_lookup (self->allowed, check->sender);
  if (known != NULL && known->pid == check->caller.pid && known->start_time == check->caller.start_time &&
      check->caller.start_time != 0)
    {
      if ((known->actions & check->action) != 0)
        {
          finish (task, NULL);
          return;
        }
    }
  else
    g_hash_table_remove (self->allowed, check->sender);
  if (self->authority == NULL)
    self->authority = polkit_authority_get_sync (NULL, &error);
  if (self->authority == NULL)
    {
      g_prefix_error (&error, "Cannot reach polkit: ");
      finish (task, error);
      return;
    }
  subject = polkit_unix_process_new_for_owner (check->caller.pid, check->caller.start_time, check->uid);
  polkit_authority_check_authorization (self->authority, subject, action_id (check->action), NULL,
                                        POLKIT_CHECK_AUTHORIZATION_FLAGS_ALLOW_USER_INTERACTION,
                                        g_task_get_cancellable (task), polkit_cb, task);
}

void
fc_helper_auth_check_async (FcHelperAuth          *self,
                            GDBusMethodInvocation *invocation,
                            FcHelperAction         action,
                            GCancellable          *cancellable,
                            GAsyncReadyCallback    callback,
                            gpointer               user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Check *check = g_new0 (Check, 1);

  check->sender = g_strdup (g_dbus_method_invocation_get_sender (invocation));
  check->action = action;
  g_task_set_task_data (task, check, (GDestroyNotify) check_free);
  self->pending++;
  g_dbus_connection_call (self->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "GetConnectionCredentials", g_variant_new ("(s)", check->sender),
                          G_VARIANT_TYPE ("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, -1, cancellable,
                          credentials_cb, task);
}

gboolean
fc_helper_auth_check_finish (FcHelperAuth  *self,
                             GAsyncResult  *result,
                             guint32       *uid,
                             GError       **error)
{
  GError *local_error = NULL;
  gssize caller_uid = g_task_propagate_int (G_TASK (result), &local_error);

  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  *uid = (guint32) caller_uid;
  return TRUE;
}

gboolean
fc_helper_auth_holds (FcHelperAuth   *self,
                      const char     *sender,
                      guint32         uid,
                      FcHelperAction  action)
{
  const Caller *known = g_hash_table_lookup (self->allowed, sender);

  /* the yes was kept for this process, which is still on the bus (its name is never reused) */
  return uid == 0 || (known != NULL && (known->actions & action) != 0);
}
