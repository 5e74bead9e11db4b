/* test-send-hostile.c - flamecast-cli send: each envelope to its own project, hostile servers, masked credentials
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CLI runs as a child process against the fake Relay
 * (tests/fc-test-relay.c) and a server that drips or keeps silent
 * (tests/fc-test-hostile-server.c), all on 127.0.0.1, with the isolated
 * state dirs of the test as its outbox.
 */

#include <glib/gstdio.h>
#include <string.h>

#include "fc-test-hostile-server.h"
#include "fc-test-relay.h"

#define CHUNK \
  "{\"version\":\"2\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\",\"profiler_id\":" \
  "\"4d229f1d3807421ba62a5f8bc295d836\",\"release\":\"1.0\",\"environment\":\"test\",\"client_sdk\":" \
  "{\"name\":\"sentry.python\",\"version\":\"2.13.0\"},\"platform\":\"python\",\"profile\":{\"samples\":[" \
  "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.5},{\"stack_id\":0,\"thread_id\":\"1\"," \
  "\"timestamp\":1710805788.51}],\"stacks\":[[0]],\"frames\":[{\"function\":\"main\"}]}}"

typedef struct {
  int   status;
  char *out;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static GSubprocess *
spawn_cli (const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  g_assert_nonnull (g_getenv ("FC_CLI"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("FC_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  /* the test's isolated dirs (GLib sets them for itself, not in the environment) */
  g_subprocess_launcher_setenv (launcher, "HOME", g_get_home_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_STATE_HOME", g_get_user_state_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  /* no desktop proxy settings (no schemas with isolated dirs), no proxy from the environment */
  g_subprocess_launcher_setenv (launcher, "GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "http_proxy");
  g_subprocess_launcher_unsetenv (launcher, "HTTP_PROXY");
  g_subprocess_launcher_unsetenv (launcher, "all_proxy");
  g_subprocess_launcher_unsetenv (launcher, "ALL_PROXY");
  g_subprocess_launcher_unsetenv (launcher, "SENTRY_DSN");
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  return process;
}

static void
run_cli (Run                *run,
         const char * const *args)
{
  g_autoptr(GSubprocess) process = spawn_cli (args);
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
  g_test_message ("$ flamecast-cli %s ... -> %d\n%s", args[0], run->status, run->out);
}

static char *
write_chunk (void)
{
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "chunk.json", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (g_get_user_cache_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, CHUNK, -1, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static char *
dsn_text (guint       port,
          const char *project)
{
  return g_strdup_printf ("http://" KEY "@127.0.0.1:%u/%s", port, project);
}

static void
assert_contains (const char *text,
                 const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("expected \"%s\" in:\n%s", part, text);
}

/* An envelope kept after a 500 from project 42 must never be delivered to
 * project 43 by a flush with 43's DSN: it says one waits for 42, lists it,
 * and only 42's DSN delivers it, to 42. */
static void
test_dsn_per_project (void)
{
  Relay *relay = relay_new ();
  g_autofree char *chunk = write_chunk ();
  g_autofree char *dsn42 = dsn_text (relay->port, PROJECT);
  g_autofree char *dsn43 = dsn_text (relay->port, "43");
  g_autofree char *waits = g_strdup_printf ("1 envelope waits for another DSN's project (1 for http://127.0.0.1:%u/42)",
                                            relay->port);
  g_autofree char *listed = g_strdup_printf ("waiting for http://127.0.0.1:%u/42: 1", relay->port);
  g_auto(Run) queued = { 0 };
  g_auto(Run) other = { 0 };
  g_auto(Run) list = { 0 };
  g_auto(Run) own = { 0 };

  relay_script (relay, REPLY_500, -1);
  run_cli (&queued, (const char *[]) { "send", chunk, "--dsn", dsn42, "--attempts", "1", NULL });
  g_assert_cmpint (queued.status, ==, 1);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);

  run_cli (&other, (const char *[]) { "send", "--flush", "--dsn", dsn43, "--attempts", "1", NULL });
  /* nothing of 43's failed: the one of 42 is not this flush's */
  g_assert_cmpint (other.status, ==, 0);
  assert_contains (other.out, "Delivered 0 envelopes.");
  assert_contains (other.out, waits);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);

  run_cli (&list, (const char *[]) { "send", "--list", NULL });
  g_assert_cmpint (list.status, ==, 0);
  assert_contains (list.out, listed);
  /* each with why it waits */
  assert_contains (list.out, "HTTP 500");

  run_cli (&own, (const char *[]) { "send", "--flush", "--dsn", dsn42, "--attempts", "1", NULL });
  g_assert_cmpint (own.status, ==, 0);
  assert_contains (own.out, "Delivered 1 envelope.");
  g_assert_cmpuint (relay_n_requests (relay), ==, 2);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  /* the relay checked every request's path: /api/42/envelope/ */
  relay_free (relay);
}

/* An entry an older version left without a destination: kept and said so,
 * sent to the DSN at hand only with --unaddressed. */
static void
test_unaddressed (void)
{
  Relay *relay = relay_new ();
  g_autofree char *dsn = dsn_text (relay->port, PROJECT);
  g_autofree char *outbox = g_build_filename (g_get_user_state_dir (), "flamecast", "outbox", NULL);
  g_autofree char *entry = g_build_filename (outbox, "1700000000000000-000001-00000001.envelope", NULL);
  g_autofree char *envelope = g_strdup_printf ("{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n"
                                               "{\"type\":\"profile_chunk\",\"platform\":\"python\"}\n%s\n", CHUNK);
  g_autoptr(GError) error = NULL;
  g_auto(Run) kept = { 0 };
  g_auto(Run) sent = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (outbox, 0700), ==, 0);
  g_assert_true (g_file_set_contents (entry, envelope, -1, &error));
  g_assert_no_error (error);

  run_cli (&kept, (const char *[]) { "send", "--flush", "--dsn", dsn, NULL });
  g_assert_cmpint (kept.status, ==, 0);
  assert_contains (kept.out, "1 entry of an older Flamecast records no destination: kept, not sent to a guessed project");
  g_assert_cmpuint (relay_n_requests (relay), ==, 0);

  run_cli (&sent, (const char *[]) { "send", "--flush", "--dsn", dsn, "--unaddressed", NULL });
  g_assert_cmpint (sent.status, ==, 0);
  assert_contains (sent.out, "Delivered 1 envelope.");
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  relay_free (relay);
}

/* "Sending to http://user:PASSWORD@..." printed the OTLP endpoint's
 * password; it is masked there, in every message, and never on disk. */
static void
test_otlp_credentials (void)
{
  HostileServer *server = hostile_server_new (HOSTILE_500);
  g_autofree char *chunk = write_chunk ();
  g_autofree char *endpoint = g_strdup_printf ("http://flamecast:PASSWORD@127.0.0.1:%u",
                                               hostile_server_get_port (server));
  g_autofree char *outbox = g_build_filename (g_get_user_state_dir (), "flamecast", "otlp-outbox", NULL);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint n_files = 0;
  g_auto(Run) run = { 0 };

  run_cli (&run, (const char *[]) { "send", "--otlp", "--endpoint", endpoint, "--attempts", "1", chunk, NULL });
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpuint (hostile_server_n_requests (server), ==, 1);
  assert_contains (run.out, "Sending to http://***:***@127.0.0.1:");
  g_assert_null (strstr (run.out, "PASSWORD"));

  /* the request waits in the outbox: its destination has no password */
  dir = g_dir_open (outbox, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (outbox, name, NULL);
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (!g_file_get_contents (path, &contents, &len, NULL))
        continue;
      n_files++;
      g_assert_null (g_strstr_len (contents, len, "PASSWORD"));
    }
  g_assert_cmpuint (n_files, >=, 2);
  hostile_server_free (server);
}

/* At least once: killed (-9) after the server read the envelope but
 * before its answer, the CLI leaves it in the outbox, and the next flush
 * sends the same bytes, with the same event_id, so the server can drop
 * the copy. */
static void
test_at_least_once (void)
{
  HostileServer *server = hostile_server_new (HOSTILE_SILENT);
  g_autofree char *chunk = write_chunk ();
  g_autofree char *dsn = dsn_text (hostile_server_get_port (server), PROJECT);
  g_autoptr(GSubprocess) first = spawn_cli ((const char *[]) { "send", chunk, "--dsn", dsn, "--attempts", "1",
                                                               "--timeout", "120", NULL });
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) sent = NULL;
  g_autoptr(GBytes) resent = NULL;
  g_autofree char *line = NULL;
  g_autofree char *event_id = NULL;
  g_autofree char *event_id_again = NULL;
  g_auto(Run) flush = { 0 };

  hostile_server_wait (server, 1);
  g_subprocess_force_exit (first);
  g_subprocess_wait (first, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_subprocess_get_if_exited (first));

  hostile_server_set_mode (server, HOSTILE_OK);
  run_cli (&flush, (const char *[]) { "send", "--flush", "--dsn", dsn, NULL });
  g_assert_cmpint (flush.status, ==, 0);
  assert_contains (flush.out, "Delivered 1 envelope.");
  g_assert_cmpuint (hostile_server_n_requests (server), ==, 2);

  line = hostile_server_dup_request (server, 0, &sent);
  g_assert_true (g_str_has_prefix (line, "POST /api/42/envelope/"));
  g_clear_pointer (&line, g_free);
  line = hostile_server_dup_request (server, 1, &resent);
  g_assert_true (g_str_has_prefix (line, "POST /api/42/envelope/"));
  {
    g_autofree char *a = g_strndup (g_bytes_get_data (sent, NULL), g_bytes_get_size (sent));
    g_autofree char *b = g_strndup (g_bytes_get_data (resent, NULL), g_bytes_get_size (resent));
    const char *ia = strstr (a, "\"event_id\":\"");
    const char *ib = strstr (b, "\"event_id\":\"");

    g_assert_nonnull (ia);
    g_assert_nonnull (ib);
    event_id = g_strndup (ia, 12 + 32);
    event_id_again = g_strndup (ib, 12 + 32);
    g_assert_cmpstr (event_id, ==, event_id_again);
    g_assert_cmpstr (a, ==, b);
  }
  hostile_server_free (server);
}

/* send --timeout 3 --attempts 1 against a server that drips its answer a
 * byte every 100 ms: the request ends at its deadline, and says so. */
static void
test_drip (void)
{
  HostileServer *server = hostile_server_new (HOSTILE_DRIP);
  g_autofree char *chunk = write_chunk ();
  g_autofree char *dsn = dsn_text (hostile_server_get_port (server), PROJECT);
  g_auto(Run) run = { 0 };

  run_cli (&run, (const char *[]) { "send", chunk, "--dsn", dsn, "--attempts", "1", "--timeout", "3", NULL });
  g_assert_cmpint (run.status, ==, 1);
  assert_contains (run.out, "no complete answer from http://0123***@127.0.0.1:");
  assert_contains (run.out, "within 3 s");
  hostile_server_free (server);
}

/* --strip-home: the paths under $HOME reach Relay as "~/...", a sibling
 * directory's stay; without it they go as they are. */
static void
test_strip_home (void)
{
  Relay *relay = relay_new ();
  g_autofree char *dsn = dsn_text (relay->port, PROJECT);
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "home-chunk.json", NULL);
  g_autofree char *in_home = g_build_filename (g_get_home_dir (), "src", "app.py", NULL);
  g_autofree char *sibling = g_strconcat (g_get_home_dir (), "x/lib.py", NULL);
  g_autofree char *chunk = NULL;
  g_auto(Run) stripped = { 0 };
  g_auto(Run) plain = { 0 };
  g_autoptr(GError) error = NULL;

  chunk = g_strdup_printf ("{\"version\":\"2\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\",\"profiler_id\":"
                           "\"4d229f1d3807421ba62a5f8bc295d836\",\"release\":\"1.0\",\"environment\":\"test\","
                           "\"client_sdk\":{\"name\":\"sentry.python\",\"version\":\"2.13.0\"},\"platform\":\"python\","
                           "\"profile\":{\"samples\":[{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.5},{\"stack_id\":0,"
                           "\"thread_id\":\"1\",\"timestamp\":1710805788.51}],\"stacks\":[[0,1]],\"frames\":["
                           "{\"function\":\"work\",\"abs_path\":\"%s\"},{\"function\":\"main\",\"abs_path\":\"%s\"}]}}",
                           in_home, sibling);
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_cache_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, chunk, -1, &error));
  g_assert_no_error (error);

  run_cli (&stripped, (const char *[]) { "send", path, "--dsn", dsn, "--strip-home", NULL });
  g_assert_cmpint (stripped.status, ==, 0);
  run_cli (&plain, (const char *[]) { "send", path, "--dsn", dsn, NULL });
  g_assert_cmpint (plain.status, ==, 0);

  g_assert_cmpuint (relay->delivered->len, ==, 2);
  {
    gsize len;
    const char *data = g_bytes_get_data (g_ptr_array_index (relay->delivered, 0), &len);
    g_autofree char *text = g_strndup (data, len);

    assert_contains (text, "\"~/src/app.py\"");
    assert_contains (text, sibling);
    g_assert_null (strstr (text, in_home));
  }
  {
    gsize len;
    const char *data = g_bytes_get_data (g_ptr_array_index (relay->delivered, 1), &len);
    g_autofree char *text = g_strndup (data, len);

    assert_contains (text, in_home);
  }
  relay_free (relay);
}

/* --strip-home rewrites envelopes: with --otlp it is a usage error, before anything is sent. */
static void
test_strip_home_otlp (void)
{
  g_autofree char *chunk = write_chunk ();
  g_auto(Run) run = { 0 };

  run_cli (&run, (const char *[]) { "send", "--otlp", "--endpoint", "http://127.0.0.1:9", "--strip-home", chunk, NULL });
  g_assert_cmpint (run.status, ==, 2);
  assert_contains (run.out, "--strip-home");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli/send/dsn-per-project", test_dsn_per_project);
  g_test_add_func ("/cli/send/unaddressed", test_unaddressed);
  g_test_add_func ("/cli/send/otlp-credentials", test_otlp_credentials);
  g_test_add_func ("/cli/send/at-least-once", test_at_least_once);
  g_test_add_func ("/cli/send/drip", test_drip);
  g_test_add_func ("/cli/send/strip-home", test_strip_home);
  g_test_add_func ("/cli/send/strip-home-otlp", test_strip_home_otlp);

  return g_test_run ();
}
