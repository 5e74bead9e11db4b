/* flamecast-helper.c - opens perf events and /proc files of other processes for Flamecast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A D-Bus system service, started by the bus when first called and gone after
 * a minute without calls. It hands back file descriptors, never runs code for
 * a caller: the kernel checks access when a file is opened, so the caller
 * reads what the helper opened with its own rights. Each call is authorised
 * by polkit (fc-helper-auth.c) and its arguments checked (fc-helper-open.c).
 * Wall mode needs threads stopped, which only a tracer can do: SampleThreads
 * stops them, copies registers and stack and lets them go within the call
 * (fc-helper-ptrace.c), on a worker thread, since it waits for the stops.
 * A sandboxed Flamecast (Flatpak) sees only its own PID namespace: ListProcesses
 * gives it the host's processes, as ps would show them to its user
 * (fc-helper-list.c), under a polkit action of its own that needs no password.
 * Inside the sandbox, the host's process is not in Flamecast's /proc and its
 * files are not at their paths: OpenProcFile gives its state, names and
 * threads' counters, ListThreads its threads, OpenPidfd its exit, and
 * OpenMappedFile the programs and libraries it maps.
 * The interface is described in helper/README.md.
 */

#include <locale.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>

#include "fc-helper-auth.h"
#include "fc-helper-error.h"
#include "fc-helper-list.h"
#include "fc-helper-open.h"
#include "fc-helper-ptrace.h"

#define BUS_NAME    "io.github.flamecast.Helper"
#define OBJECT_PATH "/io/github/flamecast/Helper"
#define IDLE_SECONDS 60

static const char introspection_xml[] =
  "<node>"
  "  <interface name='io.github.flamecast.Helper1'>"
  "    <method name='PerfEventOpen'>"
  "      <arg type='ay' name='attr' direction='in'/>"
  "      <arg type='i' name='tid' direction='in'/>"
  "      <arg type='h' name='fd' direction='out'/>"
  "    </method>"
  "    <method name='OpenProcFile'>"
  "      <arg type='i' name='pid' direction='in'/>"
  "      <arg type='s' name='name' direction='in'/>"
  "      <arg type='h' name='fd' direction='out'/>"
  "    </method>"
  "    <method name='SampleThreads'>"
  "      <arg type='i' name='pid' direction='in'/>"
  "      <arg type='ai' name='tids' direction='in'/>"
  "      <arg type='u' name='stack_bytes' direction='in'/>"
  "      <arg type='a(ixatay)' name='samples' direction='out'/>"
  "    </method>"
  "    <method name='OpenMappedFile'>"
  "      <arg type='i' name='pid' direction='in'/>"
  "      <arg type='s' name='path' direction='in'/>"
  "      <arg type='h' name='fd' direction='out'/>"
  "    </method>"
  "    <method name='ListThreads'>"
  "      <arg type='i' name='pid' direction='in'/>"
  "      <arg type='ai' name='tids' direction='out'/>"
  "    </method>"
  "    <method name='OpenPidfd'>"
  "      <arg type='i' name='pid' direction='in'/>"
  "      <arg type='h' name='fd' direction='out'/>"
  "    </method>"
  "    <method name='ListProcesses'>"
  "      <arg type='a(iiussssuttb)' name='processes' direction='out'/>"
  "      <arg type='u' name='left_out' direction='out'/>"
  "    </method>"
  "  </interface>"
  "</node>";

static const GDBusErrorEntry error_entries[] = {
  { FC_HELPER_ERROR_FAILED, "io.github.flamecast.Helper1.Error.Failed" },
  { FC_HELPER_ERROR_NOT_AUTHORIZED, "io.github.flamecast.Helper1.Error.NotAuthorized" },
  { FC_HELPER_ERROR_NO_PROCESS, "io.github.flamecast.Helper1.Error.NoProcess" },
  { FC_HELPER_ERROR_INVALID_ARGUMENT, "io.github.flamecast.Helper1.Error.InvalidArgument" },
};

GQuark
fc_helper_error_quark (void)
{
  static gsize quark = 0;

  g_dbus_error_register_error_domain ("fc-helper-error-quark", &quark, error_entries,
                                      G_N_ELEMENTS (error_entries));
  return (GQuark) quark;
}

typedef struct {
  GMainLoop    *loop;
  FcHelperAuth *auth;
  guint         idle_id;
  int           exit_status;
} Helper;

static gboolean
idle_cb (gpointer user_data)
{
  Helper *helper = user_data;

  helper->idle_id = 0;
  if (fc_helper_auth_get_pending (helper->auth) > 0)
    return G_SOURCE_REMOVE;   /* the answer to that call re-arms the timer */
  g_main_loop_quit (helper->loop);
  return G_SOURCE_REMOVE;
}

static void
rearm_idle (Helper *helper)
{
  g_clear_handle_id (&helper->idle_id, g_source_remove);
  helper->idle_id = g_timeout_add_seconds (IDLE_SECONDS, idle_cb, helper);
}

typedef struct {
  Helper                *helper;
  GDBusMethodInvocation *invocation;
} Call;

typedef struct {
  guint32  uid;
  gboolean see_all;
} ListRequest;

/* ListProcesses, on a worker thread: a few thousand processes take a while to read */
static void
list_thread_cb (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GDBusMethodInvocation *invocation = g_object_get_data (G_OBJECT (task), "invocation");
  ListRequest *request = task_data;

  g_dbus_method_invocation_return_value (invocation,
                                         fc_helper_list_processes ("/proc", request->uid, request->see_all));
  g_task_return_boolean (task, TRUE);
}

/* SampleThreads, on a worker thread: it is the tracer from the seize to the detach. It answers
 * (GDBusMethodInvocation may answer from any thread) before it waits for the threads that did not
 * stop in time, to let them go as they do. */
static void
sample_thread_cb (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  GDBusMethodInvocation *invocation = task_data;
  GVariant *params = g_dbus_method_invocation_get_parameters (invocation);
  g_autoptr(GVariant) tids = NULL;
  g_autoptr(GArray) late = NULL;
  GError *error = NULL;
  GVariant *samples;
  gint32 pid;
  guint32 stack_bytes;

  g_variant_get (params, "(i@aiu)", &pid, &tids, &stack_bytes);
  samples = fc_helper_sample_threads (pid, tids, stack_bytes, &late, &error);
  if (samples == NULL)
    g_dbus_method_invocation_return_gerror (invocation, error);
  else
    g_dbus_method_invocation_return_value (invocation, g_variant_new ("(@a(ixatay))", samples));
  g_clear_error (&error);
  fc_helper_release_threads (late);
  g_task_return_boolean (task, TRUE);
}

static void
authorised_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  Call *call = user_data;
  GDBusMethodInvocation *invocation = call->invocation;
  const char *method = g_dbus_method_invocation_get_method_name (invocation);
  GVariant *params = g_dbus_method_invocation_get_parameters (invocation);
  g_autoptr(GUnixFDList) fds = NULL;
  g_autoptr(GError) error = NULL;
  guint32 uid;
  int fd = -1;

  rearm_idle (call->helper);
  if (fc_helper_auth_check_finish (FC_HELPER_AUTH (source), result, &uid, &error))
    {
      if (g_strcmp0 (method, "ListProcesses") == 0)
        {
          g_autoptr(GTask) task = g_task_new (NULL, NULL, NULL, NULL);
          ListRequest *request = g_new0 (ListRequest, 1);

          /* all of it to root, or to a caller polkit already let record other processes */
          request->uid = uid;
          request->see_all = fc_helper_auth_holds (FC_HELPER_AUTH (source),
                                                   g_dbus_method_invocation_get_sender (invocation), uid,
                                                   FC_HELPER_ACTION_RECORD);
          g_task_set_task_data (task, request, g_free);
          /* the call's reference (authorised_cb) */
          g_object_set_data_full (G_OBJECT (task), "invocation", invocation, g_object_unref);
          g_task_run_in_thread (task, list_thread_cb);
          g_free (call);
          return;
        }
      if (g_strcmp0 (method, "SampleThreads") == 0)
        {
          g_autoptr(GTask) task = g_task_new (NULL, NULL, NULL, NULL);

          /* the call's reference (authorised_cb) */
          g_task_set_task_data (task, invocation, g_object_unref);
          g_task_run_in_thread (task, sample_thread_cb);
          g_free (call);
          return;
        }
      if (g_strcmp0 (method, "ListThreads") == 0)
        {
          gint32 pid;
          GVariant *tids;

          g_variant_get (params, "(i)", &pid);
          if ((tids = fc_helper_list_threads (pid, &error)) != NULL)
            g_dbus_method_invocation_return_value (invocation, g_variant_new_tuple (&tids, 1));
          else
            g_dbus_method_invocation_return_gerror (invocation, error);
          g_object_unref (invocation);
          g_free (call);
          return;
        }
      if (g_strcmp0 (method, "PerfEventOpen") == 0)
        {
          g_autoptr(GVariant) attr = g_variant_get_child_value (params, 0);
          g_autoptr(GBytes) bytes = g_variant_get_data_as_bytes (attr);
          gint32 tid;

          g_variant_get_child (params, 1, "i", &tid);
          fd = fc_helper_open_perf (bytes, tid, &error);
        }
      else if (g_strcmp0 (method, "OpenPidfd") == 0)
        {
          gint32 pid;

          g_variant_get (params, "(i)", &pid);
          fd = fc_helper_open_pidfd (pid, &error);
        }
      else
        {
          const char *name;
          gint32 pid;

          g_variant_get (params, "(i&s)", &pid, &name);
          fd = g_strcmp0 (method, "OpenMappedFile") == 0 ? fc_helper_open_mapped (pid, name, &error)
                                                          : fc_helper_open_proc (pid, name, &error);
        }
    }
  if (fd < 0)
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
    }
  else
    {
      fds = g_unix_fd_list_new ();
      g_unix_fd_list_append (fds, fd, &error);
      close (fd);
      if (error != NULL)
        g_dbus_method_invocation_return_gerror (invocation, error);
      else
        g_dbus_method_invocation_return_value_with_unix_fd_list (invocation, g_variant_new ("(h)", 0), fds);
    }
  g_object_unref (invocation);
  g_free (call);
}

static void
method_call_cb (GDBusConnection       *bus,
                const char            *sender,
                const char            *object_path,
                const char            *interface_name,
                const char            *method_name,
                GVariant              *parameters,
                GDBusMethodInvocation *invocation,
                gpointer               user_data)
{
  Helper *helper = user_data;
  Call *call = g_new0 (Call, 1);
  FcHelperAction action = g_strcmp0 (method_name, "ListProcesses") == 0 ? FC_HELPER_ACTION_LIST
                                                                         : FC_HELPER_ACTION_RECORD;

  rearm_idle (helper);
  call->helper = helper;
  call->invocation = g_object_ref (invocation);
  fc_helper_auth_check_async (helper->auth, invocation, action, NULL, authorised_cb, call);
}

static const GDBusInterfaceVTable vtable = { method_call_cb, NULL, NULL, { 0 } };

static void
name_lost_cb (GDBusConnection *bus,
              const char      *name,
              gpointer         user_data)
{
  Helper *helper = user_data;

  g_printerr ("flamecast-helper: cannot own %s on the system bus (another helper runs, or the bus "
              "policy does not let this user own it)\n", name);
  helper->exit_status = 1;
  g_main_loop_quit (helper->loop);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GDBusNodeInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  Helper helper = { 0 };
  guint owner_id;

  setlocale (LC_ALL, "");
  (void) fc_helper_error_quark ();
  if (argc > 1)
    {
      g_printerr ("flamecast-helper takes no arguments: the D-Bus system bus starts it (%s)\n", BUS_NAME);
      return 2;
    }
  /* the bus that started us (the system bus, or a test's private one), else the system bus */
  if (g_getenv ("DBUS_STARTER_ADDRESS") != NULL)
    bus = g_dbus_connection_new_for_address_sync (g_getenv ("DBUS_STARTER_ADDRESS"),
                                                  G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                  G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                  NULL, NULL, &error);
  else
    bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  if (bus == NULL)
    {
      g_printerr ("flamecast-helper: cannot connect to the system bus: %s\n", error->message);
      return 1;
    }
  g_dbus_connection_set_exit_on_close (bus, FALSE);
  info = g_dbus_node_info_new_for_xml (introspection_xml, &error);
  g_assert_no_error (error);
  helper.loop = g_main_loop_new (NULL, FALSE);
  helper.auth = fc_helper_auth_new (bus);
  if (g_dbus_connection_register_object (bus, OBJECT_PATH, info->interfaces[0], &vtable, &helper, NULL,
                                         &error) == 0)
    {
      g_printerr ("flamecast-helper: cannot export %s: %s\n", OBJECT_PATH, error->message);
      return 1;
    }
  owner_id = g_bus_own_name_on_connection (bus, BUS_NAME, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, NULL, name_lost_cb,
                                           &helper, NULL);
  g_signal_connect_swapped (bus, "closed", G_CALLBACK (g_main_loop_quit), helper.loop);
  rearm_idle (&helper);
  g_main_loop_run (helper.loop);
  g_bus_unown_name (owner_id);
  g_clear_handle_id (&helper.idle_id, g_source_remove);
  g_clear_object (&helper.auth);
  g_main_loop_unref (helper.loop);
  return helper.exit_status;
}
