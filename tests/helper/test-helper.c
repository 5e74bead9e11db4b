/* test-helper.c - flamecast-helper on a private system bus, polkit played by python3-dbusmock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test runs as root: it starts a dbus-daemon with the repository's bus
 * policy for the helper and a service file that activates the built helper,
 * dbusmock's polkitd template as the authority, and a burner target owned by
 * root. flamecast-cli then runs as nobody (setpriv), a user the kernel lets
 * neither open perf events on the target nor read its maps or memory (the
 * equivalent of ptrace_scope 1 and perf_event_paranoid 2 for another user's
 * process), and gets through the helper only when polkit says yes: in cpu
 * mode the helper opens perf events, in wall mode it stops the threads
 * (SampleThreads: attach, copy registers and stack, detach). Sandboxed
 * (FLAMECAST_FORCE_SANDBOX=1, as in a Flatpak), the CLI lists the host's
 * processes through the helper (ListProcesses) and opens even a process of
 * its own user only through it.
 */

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <glib/gstdio.h>

#include "flamecast.h"
#include "fc-test-util.h"

#define NOBODY "65534"

typedef struct {
  char        *dir;
  char        *address;
  GSubprocess *bus;
  GSubprocess *polkit;
  GSubprocess *target;
  GSubprocess *own_target;   /* nobody's: direct access would work */
  GDBusConnection *connection;
} Bus;

static Bus bus;

static gboolean
name_has_owner (const char *name)
{
  g_autoptr(GVariant) reply = NULL;
  gboolean has = FALSE;

  reply = g_dbus_connection_call_sync (bus.connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "NameHasOwner", g_variant_new ("(s)", name),
                                       G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
  if (reply != NULL)
    g_variant_get (reply, "(b)", &has);
  return has;
}

/* One method of dbusmock's polkit authority; its reply */
static GVariant *
polkit_mock_call (const char         *method,
                  GVariant           *params,
                  const GVariantType *reply_type)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply;

  reply = g_dbus_connection_call_sync (bus.connection, "org.freedesktop.PolicyKit1",
                                       "/org/freedesktop/PolicyKit1/Authority", "org.freedesktop.DBus.Mock", method,
                                       params, reply_type, G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  return reply;
}

/* CheckAuthorization calls since the last count (or the last change of polkit's answer) */
static guint
count_polkit_checks (void)
{
  g_autoptr(GVariant) reply = polkit_mock_call ("GetCalls", NULL, G_VARIANT_TYPE ("(a(tsav))"));
  g_autoptr(GVariantIter) iter = NULL;
  const char *method;
  guint n = 0;

  g_variant_get (reply, "(a(tsav))", &iter);
  while (g_variant_iter_next (iter, "(t&s@av)", NULL, &method, NULL))
    n += g_strcmp0 (method, "CheckAuthorization") == 0;
  g_variant_unref (polkit_mock_call ("ClearCalls", NULL, NULL));
  return n;
}

/* polkit says yes to @actions from here on, and its checks are counted from here */
static void
set_polkit_allowed (const char * const *actions)
{
  g_variant_unref (polkit_mock_call ("SetAllowed", g_variant_new ("(^as)", actions), NULL));
  count_polkit_checks ();
}

/* both actions, or none */
static void
set_polkit_allows (gboolean allow)
{
  const char *none[] = { NULL };
  const char *both[] = { FC_HELPER_ACTION_ID, FC_HELPER_LIST_ACTION_ID, NULL };

  set_polkit_allowed (allow ? both : none);
}

/* a test that fails mid-way leaves no bus, authority or target behind */
static void
die_with_test (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static gboolean
bus_start (void)
{
  g_autofree char *services = NULL;
  g_autofree char *conf_path = NULL;
  g_autofree char *conf = NULL;
  g_autofree char *service = NULL;
  g_autofree char *service_path = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GDataInputStream) bus_out = NULL;
  g_autofree char *listening = NULL;
  g_autoptr(GError) error = NULL;

  bus.dir = fc_test_make_tmp_dir ("fc-test-helper");
  /* nobody reaches the socket and writes its chunks in here */
  g_assert_cmpint (chmod (bus.dir, 0777), ==, 0);
  services = g_build_filename (bus.dir, "services", NULL);
  g_assert_cmpint (g_mkdir (services, 0755), ==, 0);
  socket_path = g_build_filename (bus.dir, "bus", NULL);
  bus.address = g_strdup_printf ("unix:path=%s", socket_path);

  /* the helper's own policy (only root owns its name) on a bus that otherwise lets all talk */
  conf = g_strdup_printf ("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\" "
                          "\"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                          "<busconfig>\n"
                          "  <listen>%s</listen>\n"
                          "  <auth>EXTERNAL</auth>\n"
                          "  <servicedir>%s</servicedir>\n"
                          "  <policy context=\"default\">\n"
                          "    <allow user=\"*\"/>\n"
                          "    <allow own_prefix=\"org.freedesktop\"/>\n"
                          "    <allow send_type=\"method_call\"/>\n"
                          "    <allow send_type=\"method_return\"/>\n"
                          "    <allow send_type=\"error\"/>\n"
                          "    <allow send_type=\"signal\"/>\n"
                          "    <allow receive_type=\"method_call\"/>\n"
                          "    <allow receive_type=\"method_return\"/>\n"
                          "    <allow receive_type=\"error\"/>\n"
                          "    <allow receive_type=\"signal\"/>\n"
                          "  </policy>\n"
                          "  <include>%s/io.github.flamecast.Helper.conf</include>\n"
                          "</busconfig>\n",
                          bus.address, services, g_getenv ("FC_HELPER_SRC_DIR"));
  conf_path = g_build_filename (bus.dir, "bus.conf", NULL);
  g_assert_true (g_file_set_contents (conf_path, conf, -1, NULL));
  service = g_strdup_printf ("[D-BUS Service]\nName=%s\nExec=%s\nUser=root\n", FC_HELPER_BUS_NAME,
                             g_getenv ("FC_HELPER"));
  service_path = g_build_filename (services, FC_HELPER_BUS_NAME ".service", NULL);
  g_assert_true (g_file_set_contents (service_path, service, -1, NULL));

  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", bus.address, TRUE);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
  g_subprocess_launcher_setenv (launcher, "DBUS_SYSTEM_BUS_ADDRESS", bus.address, TRUE);
  /* it prints its address once it listens: its socket file exists a moment before (bind, then
   * listen), when a connection is still refused */
  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  bus.bus = g_subprocess_launcher_spawn (launcher, &error, "dbus-daemon", "--nofork", "--print-address=1",
                                         "--config-file", conf_path, NULL);
  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_NONE);
  g_assert_no_error (error);
  bus_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (bus.bus));
  listening = g_data_input_stream_read_line_utf8 (bus_out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (listening);
  g_assert_true (g_file_test (socket_path, G_FILE_TEST_EXISTS));
  bus.connection = g_dbus_connection_new_for_address_sync (bus.address,
                                                           G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                           G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                           NULL, NULL, &error);
  g_assert_no_error (error);

  /* Debian's python3, where python3-dbusmock is installed (not one earlier in PATH) */
  /* it logs every call on stdout, which is the test's TAP stream */
  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  bus.polkit = g_subprocess_launcher_spawn (launcher, &error, "/usr/bin/python3", "-m", "dbusmock", "--system",
                                            "--template", "polkitd", NULL);
  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_NONE);
  g_assert_no_error (error);
  fc_test_poll_until (name_has_owner ("org.freedesktop.PolicyKit1"));

  bus.target = g_subprocess_launcher_spawn (launcher, &error, burner, "-s", "600", NULL);
  g_assert_no_error (error);
  return TRUE;
}

static void
bus_stop (void)
{
  if (bus.target != NULL)
    g_subprocess_force_exit (bus.target);
  if (bus.own_target != NULL)
    g_subprocess_force_exit (bus.own_target);
  if (bus.polkit != NULL)
    g_subprocess_force_exit (bus.polkit);
  g_clear_object (&bus.connection);
  /* the helper quits when its bus closes */
  if (bus.bus != NULL)
    g_subprocess_force_exit (bus.bus);
  g_clear_object (&bus.target);
  g_clear_object (&bus.own_target);
  g_clear_object (&bus.polkit);
  g_clear_object (&bus.bus);
  if (bus.dir != NULL)
    fc_test_remove_tree (bus.dir);
  g_clear_pointer (&bus.dir, g_free);
  g_clear_pointer (&bus.address, g_free);
}

/* @argv run as nobody with a clean environment, by @prefix (a command that ends by running the
 * rest of its arguments) if not NULL; its exit status, stdout and stderr */
static int
run_as_nobody_in (const char * const *prefix,
                  const char * const *argv,
                  char              **out,
                  char              **err)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *bus_env = g_strdup_printf ("DBUS_SYSTEM_BUS_ADDRESS=%s", bus.address);
  g_autofree char *home_env = g_strdup_printf ("HOME=%s", bus.dir);
  g_autofree char *schema_env = g_strdup_printf ("FC_SCHEMA_DIR=%s", g_getenv ("FC_SCHEMA_DIR"));
  g_auto(GStrv) full = NULL;

  if (prefix != NULL)
    g_strv_builder_addv (builder, (const char **) prefix);
  g_strv_builder_add_many (builder, "setpriv", "--reuid=" NOBODY, "--regid=" NOBODY, "--clear-groups",
                           "env", "-i", "PATH=/usr/bin:/bin", "GSETTINGS_BACKEND=memory", "LANG=C.UTF-8",
                           bus_env, home_env, schema_env, NULL);
  g_strv_builder_addv (builder, (const char **) argv);
  full = g_strv_builder_end (builder);
  proc = g_subprocess_newv ((const char * const *) full,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_test_message ("%s exited with %d:\n%s%s", argv[0], g_subprocess_get_exit_status (proc), *out, *err);
  return g_subprocess_get_exit_status (proc);
}

static int
run_as_nobody (const char * const *argv,
               char              **out,
               char              **err)
{
  return run_as_nobody_in (NULL, argv, out, err);
}

/* What one flamecast-cli record as nobody left: its exit status, its stderr and the chunk it wrote
 * (NULL: none) */
typedef struct {
  int   status;
  char *err;
  char *chunk;
} Recorded;

static void
recorded_clear (Recorded *r)
{
  g_clear_pointer (&r->err, g_free);
  g_clear_pointer (&r->chunk, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Recorded, recorded_clear)

/* flamecast-cli record --pid @pid (NULL: root's target) for 2 s as nobody into a folder @name,
 * with @env (NAME=VALUE) set and @extra passed if not NULL, run by @prefix if not NULL (see
 * run_as_nobody_in()); what it left in @r, what @r held before dropped */
static void
record_as_nobody (Recorded           *r,
                  const char * const *prefix,
                  const char         *env,
                  const char         *pid,
                  const char         *name,
                  const char         *extra)
{
  g_autofree char *out = NULL;
  g_autofree char *dir = g_build_filename (bus.dir, name, NULL);
  g_autofree char *chunk_path = g_build_filename (dir, "chunk-001.json", NULL);
  const char *argv[] = { env, g_getenv ("FC_CLI"), "record", "--pid",
                         pid != NULL ? pid : g_subprocess_get_identifier (bus.target), "--duration", "2", "-o", dir,
                         extra, NULL };

  recorded_clear (r);
  r->status = run_as_nobody_in (prefix, env != NULL ? argv : argv + 1, &out, &r->err);
  g_file_get_contents (chunk_path, &r->chunk, NULL, NULL);
}

/* TracerPid 0 and not in a tracing stop */
static void
assert_not_traced (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *status = NULL;

  g_assert_true (g_file_get_contents (path, &status, NULL, NULL));
  g_assert_nonnull (strstr (status, "\nTracerPid:\t0\n"));
  g_assert_null (strstr (status, "(tracing stop)"));
}

/* The premise: this user may not open the target directly, and without the helper the CLI says so. */
static void
test_direct_refused (void)
{
  g_auto(Recorded) r = { 0 };

  record_as_nobody (&r, NULL, NULL, NULL, "direct", "--no-helper");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "belongs to another user"));
  g_assert_null (strstr (r.err, "flamecast-helper"));
  g_assert_null (r.chunk);
}

/* polkit says no: a clear refusal, nothing recorded; asked again, it is asked again. */
static void
test_polkit_no (void)
{
  g_auto(Recorded) r = { 0 };

  set_polkit_allows (FALSE);
  record_as_nobody (&r, NULL, NULL, NULL, "refused", "--mode=cpu");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "belongs to another user"));
  g_assert_nonnull (strstr (r.err, "polkit did not authorise"));
  g_assert_nonnull (strstr (r.err, FC_HELPER_ACTION_ID));
  g_assert_null (r.chunk);

  /* wall mode: the same answer for ptrace */
  record_as_nobody (&r, NULL, NULL, NULL, "refused-wall", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "belongs to another user"));
  g_assert_nonnull (strstr (r.err, "polkit did not authorise"));
  g_assert_null (r.chunk);
}

/* polkit says yes: recorded through the helper, said so, the target's functions named. Then no
 * again: a new caller gets no cached yes. */
static void
test_polkit_yes (void)
{
  const char *probe[] = { g_getenv ("FC_HELPER_READ"), NULL, NULL };
  g_autofree char *pid = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  g_auto(Recorded) r = { 0 };

  set_polkit_allows (TRUE);
  /* wall mode: the helper stops the threads at each tick, and the CLI says so */
  record_as_nobody (&r, NULL, NULL, NULL, "allowed", NULL);
  g_assert_cmpint (r.status, ==, 0);
  /* every call checked, polkit asked once for this caller: its yes is kept for the connection */
  g_assert_cmpuint (count_polkit_checks (), ==, 1);
  g_assert_nonnull (strstr (r.err, "recorded through flamecast-helper: ptrace was refused"));
  g_assert_nonnull (strstr (r.err, "threads stopped by flamecast-helper"));
  g_assert_null (strstr (r.err, "in cpu mode"));
  g_assert_nonnull (r.chunk);
  /* 70% of the burner's time: in none of 20 samples once in 10^10 */
  g_assert_nonnull (strstr (r.chunk, "\"hot_a\""));
  /* let go after every stop: the target runs on, traced by no one */
  assert_not_traced (atoi (g_subprocess_get_identifier (bus.target)));

  /* every sample a stop by the helper: no perf events in wall mode */
  record_as_nobody (&r, NULL, "FC_SAMPLER_FORCE_PTRACE=1", NULL, "allowed-stops", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_polkit_checks (), ==, 1);
  g_assert_nonnull (strstr (r.err, "ptrace forced by FC_SAMPLER_FORCE_PTRACE=1; threads stopped by flamecast-helper"));
  g_assert_nonnull (r.chunk);
  g_assert_nonnull (strstr (r.chunk, "\"hot_a\""));
  assert_not_traced (atoi (g_subprocess_get_identifier (bus.target)));

  /* cpu mode: perf events opened by the helper */
  record_as_nobody (&r, NULL, NULL, NULL, "allowed-cpu", "--mode=cpu");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_polkit_checks (), ==, 1);
  g_assert_nonnull (strstr (r.err, "recorded through flamecast-helper: perf_event_open was refused"));
  g_assert_nonnull (r.chunk);
  g_assert_nonnull (strstr (r.chunk, "\"hot_a\""));

  /* maps and memory through the files the helper opened: the kernel checked root when they were
   * opened, and nobody reads them */
  pid = g_strdup (g_subprocess_get_identifier (bus.target));
  probe[1] = pid;
  g_assert_cmpint (run_as_nobody (probe, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "fc-target-burner"));
  g_assert_nonnull (strstr (out, "memory: ELF header"));

  set_polkit_allows (FALSE);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_as_nobody (probe, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "polkit did not authorise"));
}

/* One helper method as root; its reply of @reply_type (with its files in @fds if not NULL) */
static GVariant *
helper_call (const char         *method,
             GVariant           *params,
             const GVariantType *reply_type,
             GUnixFDList       **fds,
             GError            **error)
{
  return g_dbus_connection_call_with_unix_fd_list_sync (bus.connection, FC_HELPER_BUS_NAME, FC_HELPER_OBJECT_PATH,
                                                        FC_HELPER_INTERFACE, method, params, reply_type,
                                                        G_DBUS_CALL_FLAGS_NONE, -1, NULL, fds, NULL, error);
}

static int
call_helper (const char *method,
             GVariant   *params,
             GError    **error)
{
  g_autoptr(GUnixFDList) fds = NULL;
  g_autoptr(GVariant) reply = helper_call (method, params, G_VARIANT_TYPE ("(h)"), &fds, error);
  gint32 handle;

  if (reply == NULL)
    return -1;
  g_variant_get (reply, "(h)", &handle);
  return g_unix_fd_list_get (fds, handle, error);
}

static void
assert_refused (const char *method,
                GVariant   *params,
                const char *error_name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *remote = NULL;

  g_assert_cmpint (call_helper (method, params, &error), ==, -1);
  g_assert_nonnull (error);
  remote = g_dbus_error_get_remote_error (error);
  g_test_message ("%s: %s", method, error->message);
  g_assert_cmpstr (remote, ==, error_name);
}

static GVariant *
attr_params (const struct perf_event_attr *attr,
             gsize                         len,
             int                           tid)
{
  return g_variant_new ("(@ayi)", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, attr, len, 1), tid);
}

/* helper-app as nobody under the test's Xvfb, expecting @expect, with @env (NAME=VALUE) if not NULL;
 * its exit status */
static int
run_app_as_nobody (const char  *expect,
                   const char  *env,
                   char       **out,
                   char       **err)
{
  g_autofree char *pid_env = NULL;
  g_autofree char *display_env = NULL;
  g_autofree char *xauth_env = NULL;
  g_autofree char *schema_env = NULL;
  g_autofree char *expect_env = g_strdup_printf ("FC_HELPER_APP_EXPECT=%s", expect);
  const char *xauth = g_getenv ("XAUTHORITY");
  const char *argv[] = { NULL, NULL, NULL, NULL, "NO_AT_BRIDGE=1", "GTK_A11Y=none", "G_DEBUG=fatal-warnings", NULL,
                         env != NULL ? env : "FC_HELPER_APP_NO_ENV=1", g_getenv ("FC_HELPER_APP"), "--tap", NULL };

  /* nobody reads the X server's cookie from a copy of its own */
  if (xauth != NULL)
    {
      g_autofree char *cookie = NULL;
      gsize len;
      g_autofree char *copy = g_build_filename (bus.dir, "xauthority", NULL);

      g_assert_true (g_file_get_contents (xauth, &cookie, &len, NULL));
      g_assert_true (g_file_set_contents (copy, cookie, len, NULL));
      g_assert_cmpint (chmod (copy, 0644), ==, 0);
      xauth_env = g_strdup_printf ("XAUTHORITY=%s", copy);
    }
  pid_env = g_strdup_printf ("FC_HELPER_APP_PID=%s", g_subprocess_get_identifier (bus.target));
  display_env = g_strdup_printf ("DISPLAY=%s", g_getenv ("DISPLAY"));
  schema_env = g_strdup_printf ("GSETTINGS_SCHEMA_DIR=%s", g_getenv ("FC_SCHEMA_DIR"));
  argv[0] = expect_env;
  argv[1] = pid_env;
  argv[2] = display_env;
  argv[3] = schema_env;
  argv[7] = xauth_env != NULL ? xauth_env : "XAUTHORITY=";
  return run_as_nobody (argv, out, err);
}

/* The window as nobody: helper-app asks flamecast-helper asynchronously, records after polkit's
 * yes, shows the refusal after its no. */
static void
test_app_attach (void)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (g_getenv ("DISPLAY") == NULL)
    {
      g_test_skip ("the window needs a display: run the test suite under Xvfb (make check does)");
      return;
    }
  set_polkit_allows (TRUE);
  g_assert_cmpint (run_app_as_nobody ("yes", NULL, &out, &err), ==, 0);
  g_assert_cmpuint (count_polkit_checks (), ==, 1);
  g_assert_nonnull (strstr (out, "# note: Process"));
  g_assert_nonnull (strstr (out, "recorded through flamecast-helper: ptrace was refused"));
  assert_not_traced (atoi (g_subprocess_get_identifier (bus.target)));

  set_polkit_allows (FALSE);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_app_as_nobody ("no", NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "# refused: Process"));
  g_assert_nonnull (strstr (out, "belongs to another user"));
  g_assert_nonnull (strstr (out, "polkit did not authorise"));
}

/* The Record dialog as nobody, sandboxed: root's burner listed through the helper; polkit's no
 * for the list shown in the dialog. */
static void
test_app_list (void)
{
  const char *list_action[] = { FC_HELPER_LIST_ACTION_ID, NULL };
  const char *none[] = { NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (g_getenv ("DISPLAY") == NULL)
    {
      g_test_skip ("the window needs a display: run the test suite under Xvfb (make check does)");
      return;
    }
  set_polkit_allowed (list_action);
  g_assert_cmpint (run_app_as_nobody ("list-yes", "FLAMECAST_FORCE_SANDBOX=1", &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "# listed: "));
  /* refreshed while open: polkit asked once, its yes kept for the dialog's connection */
  g_assert_cmpuint (count_polkit_checks (), ==, 1);

  set_polkit_allowed (none);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_app_as_nobody ("list-no", "FLAMECAST_FORCE_SANDBOX=1", &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "# problem: Flamecast runs in a sandbox that does not see the host's processes, "
                                 "and polkit did not authorise flamecast-helper to list them"));
}

static GVariant *
sample_threads (int         pid,
                const int  *tids,
                gsize       n_tids,
                guint32     stack_bytes,
                GError    **error)
{
  return helper_call ("SampleThreads",
                      g_variant_new ("(i@aiu)", pid,
                                     g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, tids, n_tids, sizeof (int)),
                                     stack_bytes),
                      G_VARIANT_TYPE ("(a(ixatay))"), NULL, error);
}

static void
assert_sample_refused (int         pid,
                       const int  *tids,
                       gsize       n_tids,
                       guint32     stack_bytes,
                       const char *error_name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = sample_threads (pid, tids, n_tids, stack_bytes, &error);
  g_autofree char *remote = NULL;

  g_assert_null (reply);
  remote = g_dbus_error_get_remote_error (error);
  g_test_message ("SampleThreads: %s", error->message);
  g_assert_cmpstr (remote, ==, error_name);
}

/* SampleThreads: one stop of the threads asked for, registers and stack copied, every thread let
 * go; nothing but a thread of the process named, at most 1024 of them and 64 KiB of stack. */
static void
test_sample_threads (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) regs = NULL;
  g_autoptr(GVariant) stack = NULL;
  int target, self = getpid (), none = G_MAXINT32;
  g_autofree int *many = g_new0 (int, 1025);
  gsize n_regs, len;
  gint64 t, deadline;
  gint32 tid;

  target = atoi (g_subprocess_get_identifier (bus.target));
  /* A thread that does not stop by the helper's deadline is left out of the answer, not waited
   * for: on a loaded machine the burner may miss a few; ask again until it is in one. */
  deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  for (;;)
    {
      g_autoptr(GVariant) samples = NULL;
      g_autoptr(GVariant) first = NULL;

      g_clear_pointer (&reply, g_variant_unref);
      reply = sample_threads (target, &target, 1, 4096, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (g_variant_n_children (reply), ==, 1);
      samples = g_variant_get_child_value (reply, 0);
      g_assert_cmpuint (g_variant_n_children (samples), <=, 1);
      if (g_variant_n_children (samples) == 1)
        {
          first = g_variant_get_child_value (samples, 0);
          g_variant_get (first, "(ix@at@ay)", &tid, &t, &regs, &stack);
          break;
        }
      assert_not_traced (target);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  g_assert_cmpint (tid, ==, target);
  g_assert_cmpint (t, >, 0);
  g_variant_get_fixed_array (regs, &n_regs, sizeof (guint64));
  g_assert_cmpuint (n_regs, ==, 17);
  g_variant_get_fixed_array (stack, &len, 1);
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (len, <=, 4096);
  assert_not_traced (target);

  for (guint i = 0; i < 1025; i++)
    many[i] = target;
  assert_sample_refused (target, &target, 0, 4096, FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_sample_refused (target, many, 1025, 4096, FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_sample_refused (target, &target, 1, 1 << 20, FC_HELPER_INTERFACE ".Error.InvalidArgument");
  /* a thread of another process: this test's */
  assert_sample_refused (target, &self, 1, 4096, FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_sample_refused (none, &none, 1, 4096, FC_HELPER_INTERFACE ".Error.NoProcess");
  assert_sample_refused (0, &target, 1, 4096, FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_not_traced (target);
}

static char *
read_line (GDataInputStream *in)
{
  g_autoptr(GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error);

  g_assert_no_error (error);
  return line;
}

/* A thread that cannot stop (a vfork parent whose child has not exec'd waits in the kernel, deaf
 * to ptrace's interrupt): SampleThreads answers by its deadline, without it, instead of holding
 * the call until D-Bus gives up; and the thread is let go once it leaves the kernel, never left
 * stopped: it finishes its program. */
static void
test_sample_late (void)
{
  g_autofree char *vforker = fc_test_target_path ("vforker");
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) samples = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ready = NULL;
  g_autofree char *done = NULL;
  int parent;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, vforker, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  /* the child runs: the parent waits for it in the kernel */
  ready = read_line (out);
  g_assert_cmpstr (ready, ==, "ready");
  parent = atoi (g_subprocess_get_identifier (proc));

  reply = sample_threads (parent, &parent, 1, 4096, &error);
  g_assert_no_error (error);
  samples = g_variant_get_child_value (reply, 0);
  g_assert_cmpuint (g_variant_n_children (samples), ==, 0);

  /* the child goes: the parent stops for the helper's interrupt on its way out, and goes on */
  g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (proc), "x", 1, NULL, NULL, &error));
  g_assert_no_error (error);
  done = read_line (out);
  g_assert_cmpstr (done, ==, "done");
  g_assert_true (g_subprocess_wait (proc, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
}

/* Every argument checked (as root, whom polkit need not be asked about). */
static void
test_arguments (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *burner = fc_test_target_path ("burner");
  struct perf_event_attr attr = { 0 };
  struct stat st, burner_st;
  int target, fd;

  target = atoi (g_subprocess_get_identifier (bus.target));
  assert_refused ("OpenProcFile", g_variant_new ("(is)", target, "../../etc/shadow"),
                  FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("OpenProcFile", g_variant_new ("(is)", target, "environ"),
                  FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("OpenProcFile", g_variant_new ("(is)", 0, "maps"), FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("OpenProcFile", g_variant_new ("(is)", G_MAXINT32, "maps"), FC_HELPER_INTERFACE ".Error.NoProcess");
  assert_refused ("OpenProcFile", g_variant_new ("(si)", "maps", target), "org.freedesktop.DBus.Error.InvalidArgs");
  /* a directory would open the way to every file below it (root/, cwd/) */
  assert_refused ("OpenProcFile", g_variant_new ("(is)", target, "task"), FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("OpenProcFile", g_variant_new ("(is)", target, "root"), FC_HELPER_INTERFACE ".Error.InvalidArgument");
  fd = call_helper ("OpenProcFile", g_variant_new ("(is)", target, "comm"), &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  close (fd);

  /* a mapped file: only by a path the target's maps show, and only as the mapping's file */
  fd = call_helper ("OpenMappedFile", g_variant_new ("(is)", target, burner), &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  g_assert_cmpint (stat (burner, &burner_st), ==, 0);
  g_assert_cmpuint (st.st_ino, ==, burner_st.st_ino);
  g_assert_cmpint (fcntl (fd, F_GETFL) & O_ACCMODE, ==, O_RDONLY);
  close (fd);
  assert_refused ("OpenMappedFile", g_variant_new ("(is)", target, "/etc/shadow"),
                  FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("OpenMappedFile", g_variant_new ("(is)", target, "etc/shadow"),
                  FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("OpenMappedFile", g_variant_new ("(is)", target, "[stack]"),
                  FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("OpenMappedFile", g_variant_new ("(is)", G_MAXINT32, burner), FC_HELPER_INTERFACE ".Error.NoProcess");
  assert_refused ("OpenPidfd", g_variant_new ("(i)", G_MAXINT32), FC_HELPER_INTERFACE ".Error.NoProcess");
  assert_refused ("OpenPidfd", g_variant_new ("(i)", 0), FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("ListThreads", g_variant_new ("(i)", G_MAXINT32), FC_HELPER_INTERFACE ".Error.NoProcess");

  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = 10000000;
  attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  fd = call_helper ("PerfEventOpen", attr_params (&attr, sizeof attr, target), &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  close (fd);

  assert_refused ("PerfEventOpen", attr_params (&attr, 12, target), FC_HELPER_INTERFACE ".Error.InvalidArgument");
  assert_refused ("PerfEventOpen", attr_params (&attr, sizeof attr, G_MAXINT32), FC_HELPER_INTERFACE ".Error.NoProcess");
  attr.inherit = 1;
  assert_refused ("PerfEventOpen", attr_params (&attr, sizeof attr, target), FC_HELPER_INTERFACE ".Error.InvalidArgument");
  attr.inherit = 0;
  attr.type = PERF_TYPE_HARDWARE;
  assert_refused ("PerfEventOpen", attr_params (&attr, sizeof attr, target), FC_HELPER_INTERFACE ".Error.InvalidArgument");
  attr.type = PERF_TYPE_SOFTWARE;
  attr.sample_period = 1000;
  assert_refused ("PerfEventOpen", attr_params (&attr, sizeof attr, target), FC_HELPER_INTERFACE ".Error.InvalidArgument");
  attr.sample_period = 10000000;
  attr.sample_type |= PERF_SAMPLE_RAW;
  assert_refused ("PerfEventOpen", attr_params (&attr, sizeof attr, target), FC_HELPER_INTERFACE ".Error.InvalidArgument");
}

/* exec'd by setpriv, and all its threads started */
static gboolean
runs_burner (const char *status_path)
{
  g_autofree char *status = NULL;

  return g_file_get_contents (status_path, &status, NULL, NULL) && g_str_has_prefix (status, "Name:\tfc-target-burn") &&
         strstr (status, "\nThreads:\t3\n") != NULL;
}

/* nobody's burner with three threads, running its own program (setpriv has exec'd) */
static const char *
own_target (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autoptr(GError) error = NULL;
  g_autofree char *status_path = NULL;
  const char *pid;

  if (bus.own_target == NULL)
    {
      bus.own_target = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, "setpriv", "--reuid=" NOBODY,
                                         "--regid=" NOBODY, "--clear-groups", burner, "-s", "300", "-t", "3", NULL);
      g_assert_no_error (error);
    }
  pid = g_subprocess_get_identifier (bus.own_target);
  status_path = g_strdup_printf ("/proc/%s/status", pid);
  fc_test_poll_until (runs_burner (status_path));
  return pid;
}

/* its three threads spin: not beside the tests that do not record it */
static void
own_target_end (void)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_force_exit (bus.own_target);
  g_assert_true (g_subprocess_wait (bus.own_target, NULL, &error));
  g_assert_no_error (error);
  g_clear_object (&bus.own_target);
}

static char *
comm_of (const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/comm", pid);
  char *comm = NULL;

  g_assert_true (g_file_get_contents (path, &comm, NULL, NULL));
  return g_strstrip (comm);
}

/* helper-list's line about @pid */
static char *
list_line (const char *out,
           const char *pid)
{
  g_autofree char *prefix = g_strdup_printf ("pid %s: ", pid);
  const char *line = strstr (out, prefix);

  g_assert_nonnull (line);
  return g_strndup (line, strcspn (line, "\n"));
}

/* ListProcesses, asked by core in forced-sandbox mode as nobody: the host's processes with their
 * names and threads; nobody's own program path, not root's (as ps shows them to nobody); refused
 * when polkit says no. */
static void
test_list_processes (void)
{
  const char *list_action[] = { FC_HELPER_LIST_ACTION_ID, NULL };
  const char *none[] = { NULL };
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *root_pid = NULL;
  g_autofree char *own_pid = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *line = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *comm = NULL;
  const char *argv[] = { "FLAMECAST_FORCE_SANDBOX=1", g_getenv ("FC_HELPER_LIST"), NULL, NULL, NULL };

  own_pid = g_strdup (own_target ());
  root_pid = g_strdup (g_subprocess_get_identifier (bus.target));
  argv[2] = own_pid;
  argv[3] = root_pid;
  comm = comm_of (own_pid);

  set_polkit_allowed (list_action);
  g_assert_cmpint (run_as_nobody (argv, &out, &err), ==, 0);
  g_assert_cmpuint (count_polkit_checks (), ==, 1);
  g_assert_nonnull (strstr (out, "source: helper\n"));
  line = list_line (out, own_pid);
  expected = g_strdup_printf ("uid " NOBODY " user nobody name %s threads 3 ", comm);
  g_assert_nonnull (strstr (line, expected));
  g_assert_nonnull (strstr (line, " kernel 0 "));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("exe [%s] cmdline [%s -s 300 -t 3]", burner, burner);
  g_assert_nonnull (strstr (line, expected));
  /* root's process: listed, its program path kept back from nobody */
  g_clear_pointer (&line, g_free);
  line = list_line (out, root_pid);
  g_assert_nonnull (strstr (line, "uid 0 user root name fc-target-burn"));
  g_assert_nonnull (strstr (line, "exe []"));
  g_assert_nonnull (strstr (line, " -s 600]"));

  /* not sandboxed: this process's /proc, no helper asked */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_as_nobody (argv + 1, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "source: proc\n"));
  g_assert_cmpuint (count_polkit_checks (), ==, 0);

  /* polkit says no: a clear refusal */
  set_polkit_allowed (none);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_as_nobody (argv, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "refused: Flamecast runs in a sandbox that does not see the host's processes, "
                                 "and polkit did not authorise flamecast-helper to list them"));
  g_assert_nonnull (strstr (out, FC_HELPER_LIST_ACTION_ID));
  own_target_end ();
}

/* ListProcesses as root: everything, program paths included; the answer's form. */
static void
test_list_as_root (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) processes = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autofree char *burner = fc_test_target_path ("burner");
  guint32 left_out;
  int target;
  gboolean found = FALSE;

  target = atoi (g_subprocess_get_identifier (bus.target));
  reply = helper_call ("ListProcesses", NULL, G_VARIANT_TYPE ("(" FC_PROCESS_LIST_TYPE "u)"), NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(@" FC_PROCESS_LIST_TYPE "u)", &processes, &left_out);
  g_assert_cmpuint (left_out, ==, 0);
  list = fc_process_list_from_variant (processes, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < list->len; i++)
    {
      FcProcessInfo *info = g_ptr_array_index (list, i);

      if (info->pid != target)
        continue;
      found = TRUE;
      g_assert_cmpstr (info->exe, ==, burner);
      g_assert_cmpuint (info->uid, ==, 0);
      g_assert_cmpint (info->ppid, ==, getpid ());
      g_assert_cmpuint (info->start_time, >, 0);
    }
  g_assert_true (found);
}

/* Sandboxed, a process of nobody's own (which it could open itself) is recorded through the helper
 * alone, in cpu and wall mode, and says so; polkit's no is a clear refusal. Not sandboxed, the same
 * record asks no helper. */
static void
test_sandbox_record (void)
{
  const char *sandboxed = "FLAMECAST_FORCE_SANDBOX=1";
  g_autofree char *pid = NULL;
  g_auto(Recorded) r = { 0 };

  pid = g_strdup (own_target ());
  set_polkit_allows (TRUE);

  /* the premise: nobody records its own process directly */
  record_as_nobody (&r, NULL, NULL, pid, "own-direct", "--mode=cpu");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.err, "flamecast-helper"));
  g_assert_cmpuint (count_polkit_checks (), ==, 0);

  record_as_nobody (&r, NULL, sandboxed, pid, "sandbox-cpu", "--mode=cpu");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_polkit_checks (), ==, 1);
  g_assert_nonnull (strstr (r.err, "recorded through flamecast-helper (sandboxed)"));
  g_assert_nonnull (r.chunk);
  /* 70% of the burner's time: in none of 20 samples once in 10^10 */
  g_assert_nonnull (strstr (r.chunk, "\"hot_a\""));

  record_as_nobody (&r, NULL, sandboxed, pid, "sandbox-wall", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_polkit_checks (), ==, 1);
  g_assert_nonnull (strstr (r.err, "recorded through flamecast-helper (sandboxed)"));
  g_assert_nonnull (strstr (r.err, "threads stopped by flamecast-helper"));
  g_assert_nonnull (r.chunk);
  g_assert_nonnull (strstr (r.chunk, "\"hot_a\""));
  assert_not_traced (atoi (pid));

  set_polkit_allows (FALSE);
  record_as_nobody (&r, NULL, sandboxed, pid, "sandbox-refused", "--mode=cpu");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "is outside Flamecast's sandbox"));
  g_assert_nonnull (strstr (r.err, "polkit did not authorise"));
  /* the kernel was not asked: its rules are not the reason */
  g_assert_null (strstr (r.err, "perf_event_paranoid"));
  g_assert_null (r.chunk);

  /* wall mode: the same answer for the helper's stops */
  record_as_nobody (&r, NULL, sandboxed, pid, "sandbox-refused-wall", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "is outside Flamecast's sandbox"));
  g_assert_nonnull (strstr (r.err, "polkit did not authorise"));
  g_assert_null (r.chunk);
  own_target_end ();
}

/* Whether the kernel lets us make a PID and mount namespace with a /proc of its own; why not in
 * @why */
static gboolean
can_unshare (char **why)
{
  const char *argv[] = { "unshare", "--pid", "--fork", "--mount-proc", "true", NULL };
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  if (g_subprocess_get_if_exited (proc) && g_subprocess_get_exit_status (proc) == 0)
    return TRUE;
  *why = g_strdup_printf ("the kernel refuses a PID and mount namespace (unshare --pid --fork --mount-proc: %s)",
                          err != NULL ? g_strstrip (err) : "");
  return FALSE;
}

/* flamecast-cli record --pid @pid as nobody, sandboxed, in a PID and mount namespace of its own,
 * with its own /proc (as in a Flatpak), where the targets' folder is hidden under an empty one;
 * the script first checks that neither the process nor its program is to be seen. */
static void
record_in_namespace (Recorded   *r,
                     const char *pid,
                     const char *name,
                     const char *extra)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  g_autofree char *targets = g_path_get_dirname (threads);
  g_autofree char *empty = g_build_filename (bus.dir, "empty", NULL);
  g_autofree char *proc_dir = g_strdup_printf ("/proc/%s", pid);
  const char *prefix[] = { "unshare", "--pid", "--fork", "--mount-proc", "sh", "-ec",
                           "mount --bind \"$1\" \"$2\"; test ! -e \"$3\"; test ! -e \"$4\"; shift 4; exec \"$@\"",
                           "sh", empty, targets, threads, proc_dir, NULL };

  g_mkdir (empty, 0755);
  record_as_nobody (r, prefix, "FLAMECAST_FORCE_SANDBOX=1", pid, name, extra);
}

/* A Flatpak's view: in a PID namespace of its own the host's process is not in /proc, and in a
 * mount namespace of its own the host's files are not at their paths (here the target's program
 * is hidden). Through the helper alone (existence, threads and their names, maps, memory, the
 * mapped files, the exit), the recording has the target's threads by name and its functions, in
 * wall and cpu mode; without the helper, a clear refusal. */
static void
test_sandbox_namespace (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  g_autoptr(GSubprocess) target = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ready = NULL;
  g_autofree char *why = NULL;
  g_auto(Recorded) r = { 0 };
  const char *pid;
  const char *modes[] = { NULL, "--mode=cpu" };

  if (!can_unshare (&why))
    {
      g_test_skip (why);
      return;
    }
  /* nobody's, started outside the namespace: named threads, two busy and one asleep */
  target = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "setpriv",
                             "--reuid=" NOBODY, "--regid=" NOBODY, "--clear-groups", threads, "-", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (target));
  ready = read_line (out);
  g_assert_cmpstr (ready, ==, "ready");
  pid = g_subprocess_get_identifier (target);
  set_polkit_allows (TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree char *name = g_strdup_printf ("namespace-%u", i);

      record_in_namespace (&r, pid, name, modes[i]);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.err, "recorded through flamecast-helper (sandboxed)"));
      g_assert_nonnull (r.chunk);
      /* the workers spin all the time: each is in every wall tick and in most cpu samples of
       * 2 s, and their function is named from the program only the helper could open */
      g_assert_nonnull (strstr (r.chunk, "\"fc-worker-1\""));
      g_assert_nonnull (strstr (r.chunk, "\"fc-worker-2\""));
      g_assert_nonnull (strstr (r.chunk, "\"worker_spin\""));
      g_assert_nonnull (strstr (r.chunk, "\"worker_main\""));
      /* wall mode samples the sleeper at every tick too */
      if (modes[i] == NULL)
        {
          g_assert_nonnull (strstr (r.chunk, "\"fc-sleeper\""));
          g_assert_nonnull (strstr (r.chunk, "\"sleeper_main\""));
        }
    }
  assert_not_traced (atoi (pid));

  /* without the helper: the process is not to be seen, and the message says why */
  record_in_namespace (&r, pid, "namespace-no-helper", "--no-helper");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "No process"));
  g_assert_nonnull (strstr (r.err, "runs in a sandbox whose /proc holds only its own processes"));
  g_assert_null (r.chunk);

  g_output_stream_close (g_subprocess_get_stdin_pipe (target), NULL, NULL);
  g_assert_true (g_subprocess_wait (target, NULL, &error));
  g_assert_no_error (error);
}

/* The helper runs as root and its caller as nobody: where this machine or user cannot run this
 * build as nobody, each test says why. */
static void
skip_no_other_user (void)
{
  fc_test_skip_unless (FC_TEST_FACILITY_OTHER_USER, NULL);
}

static void
add_test (const char *path,
          GTestFunc   func)
{
  g_test_add_func (path, fc_test_facility_available (FC_TEST_FACILITY_OTHER_USER, NULL) ? func : skip_no_other_user);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  if (fc_test_facility_available (FC_TEST_FACILITY_OTHER_USER, NULL))
    bus_start ();
  add_test ("/helper/direct-refused", test_direct_refused);
  add_test ("/helper/polkit-no", test_polkit_no);
  add_test ("/helper/polkit-yes", test_polkit_yes);
  add_test ("/helper/arguments", test_arguments);
  add_test ("/helper/sample-threads", test_sample_threads);
  add_test ("/helper/sample-late", test_sample_late);
  add_test ("/helper/list-processes", test_list_processes);
  add_test ("/helper/list-as-root", test_list_as_root);
  add_test ("/helper/sandbox-record", test_sandbox_record);
  add_test ("/helper/sandbox-namespace", test_sandbox_namespace);
  /* a build without the app (-Dapp=false, the UBSan build) has no window to test */
  if (g_getenv ("FC_HELPER_APP") != NULL)
    {
      add_test ("/helper/app-attach", test_app_attach);
      add_test ("/helper/app-list", test_app_list);
    }
  status = g_test_run ();
  bus_stop ();
  return status;
}
