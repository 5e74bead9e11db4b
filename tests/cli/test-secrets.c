/* test-secrets.c - no DSN key in anything the CLI prints, logs or writes, whatever happens to a send
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * flamecast-cli send runs against the fake Relay (tests/fc-test-relay.c)
 * with a DSN that has a public and a secret key, with every GLib debug
 * message on. After a delivered send, a failed one (503, nothing listening)
 * and rejected ones (400 with a reason, 403), its stdout, its stderr and
 * every file under the isolated home, config, state, cache and data dirs
 * (outbox entries, their index and claims, rate limits) are searched for
 * both keys.
 */

#include <string.h>

#include <glib/gstdio.h>

#include "flamecast.h"
#include "fc-test-fixtures.h"
#include "fc-test-relay.h"

typedef struct {
  int   status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
run_send (Run        *run,
          const char *dsn,
          const char *attempts)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *chunk = fc_test_fixture_path ("payloads/v2-cocoa.json");

  g_assert_nonnull (g_getenv ("FC_CLI"));
  /* every log line the CLI can print */
  g_subprocess_launcher_setenv (launcher, "G_MESSAGES_DEBUG", "all", TRUE);
  g_subprocess_launcher_setenv (launcher, "HOME", g_get_home_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_STATE_HOME", g_get_user_state_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");
  /* the system's GSettings schemas, for GIO's proxy resolver (writes go to
   * the memory backend) */
  g_subprocess_launcher_unsetenv (launcher, "XDG_DATA_DIRS");
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("FC_CLI"), "send", "--dsn", dsn,
                                         "--attempts", attempts, "--timeout", "5", chunk, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_test_message ("send -> %d\nstdout:\n%s\nstderr:\n%s", g_subprocess_get_status (process), run->out, run->err);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
}

static void
assert_no_key (const char *what,
               const char *text,
               gsize       len)
{
  if (g_strstr_len (text, len, SECRET) != NULL)
    g_error ("%s holds the DSN's secret key", what);
  if (g_strstr_len (text, len, KEY) != NULL)
    g_error ("%s holds the DSN's public key", what);
}

/* Searches every file under @dir; returns how many there were. */
static guint
assert_no_key_in_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  if (d == NULL)
    return 0;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          n += assert_no_key_in_files (path);
          continue;
        }
      if (g_file_get_contents (path, &contents, &len, NULL))
        {
          g_test_message ("searched %s (%" G_GSIZE_FORMAT " bytes)", path, len);
          assert_no_key (path, contents, len);
          n++;
        }
    }
  return n;
}

static guint
assert_no_key_anywhere (Run *run)
{
  /* the isolated dirs all live under the parent of HOME */
  g_autofree char *root = g_path_get_dirname (g_get_home_dir ());

  assert_no_key ("stdout", run->out, strlen (run->out));
  assert_no_key ("stderr", run->err, strlen (run->err));
  return assert_no_key_in_files (root);
}

static char *
dsn_for_port (guint port)
{
  return g_strdup_printf ("http://" KEY ":" SECRET "@127.0.0.1:%u/" PROJECT, port);
}

static void
test_secrets_delivered (void)
{
  Relay *relay = relay_new ();
  g_autofree char *dsn = dsn_for_port (relay->port);
  g_auto(Run) run = { 0 };

  run_send (&run, dsn, "1");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);
  assert_no_key_anywhere (&run);
  relay_free (relay);
}

static void
test_secrets_failed (void)
{
  Relay *relay = relay_new ();
  g_autofree char *dsn = dsn_for_port (relay->port);
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autofree char *closed_dsn = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Run) busy = { 0 };
  g_auto(Run) refused = { 0 };

  /* 503: the envelope waits in the outbox, which is searched too */
  relay_script (relay, REPLY_503, -1);
  run_send (&busy, dsn, "1");
  g_assert_cmpint (busy.status, ==, 1);
  g_assert_cmpuint (assert_no_key_anywhere (&busy), >, 0);

  /* nothing listening: a bound but not listening port refuses */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, TRUE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  closed_dsn = dsn_for_port (g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  run_send (&refused, closed_dsn, "1");
  g_assert_cmpint (refused.status, ==, 1);
  assert_no_key_anywhere (&refused);

  relay_free (relay);
}

static void
test_secrets_rejected (void)
{
  Relay *relay = relay_new ();
  g_autofree char *dsn = dsn_for_port (relay->port);
  g_auto(Run) bad = { 0 };
  g_auto(Run) forbidden = { 0 };
  g_auto(Run) invalid = { 0 };

  relay_script (relay, REPLY_400, -1);
  run_send (&bad, dsn, "1");
  g_assert_cmpint (bad.status, ==, 1);
  assert_no_key_anywhere (&bad);

  relay_script (relay, REPLY_403, -1);
  run_send (&forbidden, dsn, "1");
  g_assert_cmpint (forbidden.status, ==, 1);
  assert_no_key_anywhere (&forbidden);

  /* a DSN that does not parse is named in the error, keys masked */
  run_send (&invalid, "http://" KEY ":" SECRET "@127.0.0.1:1/not-a-project", "1");
  g_assert_cmpint (invalid.status, ==, 2);
  g_assert_nonnull (strstr (invalid.err, "not-a-project"));
  assert_no_key_anywhere (&invalid);

  relay_free (relay);
}

#ifdef __SANITIZE_ADDRESS__
/* As in test-transport: LeakSanitizer's tracer thread crashes now and then
 * with the fake Relay's server thread and CLI children around. ASan still
 * checks every access; leaks are checked by the other suites. */
const char *__asan_default_options (void);
const char *
__asan_default_options (void)
{
  return "detect_leaks=0";
}
#endif

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli/secrets/delivered", test_secrets_delivered);
  g_test_add_func ("/cli/secrets/failed", test_secrets_failed);
  g_test_add_func ("/cli/secrets/rejected", test_secrets_rejected);

  return g_test_run ();
}
