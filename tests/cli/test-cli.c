/* test-cli.c - the built flamecast-cli on the fixtures: exit codes, output, --json keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <string.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gio.h>
#include <gio/gsettingsbackend.h>

#include "flamecast.h"
#include "fc-writer.h"
#include "fc-test-fixtures.h"
#include "fc-test-profiles.h"

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

/* runs flamecast-cli with the arguments, NULL-terminated; arguments
 * starting with "@" name a file of tests/data */
static void
run_cli (Run        *run,
         const char *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("FC_CLI");
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, g_strdup (cli));
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, arg[0] == '@' ? fc_test_fixture_path (arg + 1) : g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
  g_test_message ("$ %s ... -> %d\n%s%s", cli, run->status, run->out, run->err);
}

static void
test_validate_fixtures (void)
{
  static const struct {
    const char *fixture;
    int         status;
    const char *line;         /* a line validate must print */
  } cases[] = {
    { "@payloads/v2-cocoa.json", 0, "ok (2 warnings)" },
    { "@payloads/v1-cocoa.json", 0, "warning: transactions[0].active_thread_id" },
    { "@payloads/v1-node-stored.json", 0, "ok (" },
    { "@payloads/v2-cocoa-stored.json", 0, "ok (" },
    { "@payloads/v2-android.json", 0, "warning: platform" },
    { "@payloads/v2-python-cut.json", 1, "error: profile.samples: not enough samples" },
    { "@payloads/v1-python-stored.json", 1, "error: profile.stacks[0][4]: frame 4 but only 4 frames" },
    { "@payloads/v1-cocoa-symbolicated.json", 1, "error: profile.samples[3].stack_id" },
    { "@payloads/android-trace-chunk.json", 2, "Android trace" },
    { "@payloads/legacy-cocoa.json", 2, "legacy" },
    { "@recorded/burner-chunk.json", 0, "ok" },
    { "@recorded/burner.envelope", 0, "ok" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) run = { 0 };

      run_cli (&run, "validate", cases[i].fixture, NULL);
      g_assert_cmpint (run.status, ==, cases[i].status);
      g_assert_nonnull (strstr (run.out, cases[i].line));
    }

  /* --strict: what the spec recommends (here: environment) is required */
  {
    g_auto(Run) strict = { 0 };

    run_cli (&strict, "validate", "--strict", "@payloads/v2-cocoa.json", NULL);
    g_assert_cmpint (strict.status, ==, 1);
    g_assert_nonnull (strstr (strict.out, "error: environment: missing; recommended"));
  }
}

static void
test_validate_several (void)
{
  g_auto(Run) good = { 0 };
  g_auto(Run) mixed = { 0 };
  g_auto(Run) unreadable = { 0 };
  g_auto(Run) missing = { 0 };
  g_auto(Run) quiet = { 0 };

  run_cli (&good, "validate", "@payloads/v2-cocoa.json", "@payloads/v1-node-stored.json", NULL);
  g_assert_cmpint (good.status, ==, 0);

  run_cli (&mixed, "validate", "@payloads/v2-cocoa.json", "@payloads/v2-python-cut.json", NULL);
  g_assert_cmpint (mixed.status, ==, 1);
  g_assert_nonnull (strstr (mixed.out, "v2-python-cut.json: rejected ("));

  run_cli (&unreadable, "validate", "@payloads/v2-python-cut.json", "/nonexistent/x.json", NULL);
  g_assert_cmpint (unreadable.status, ==, 2);
  g_assert_nonnull (strstr (unreadable.out, "/nonexistent/x.json: cannot read"));

  run_cli (&missing, "validate", NULL);
  g_assert_cmpint (missing.status, ==, 2);

  run_cli (&quiet, "validate", "--quiet", "@payloads/v2-cocoa.json", NULL);
  g_assert_cmpint (quiet.status, ==, 0);
  g_assert_null (strstr (quiet.out, "warning:"));
}

static JsonObject *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
assert_inspect_keys (JsonObject *root)
{
  static const char * const keys[] = {
    "format", "platform", "samples", "stacks", "frames", "duration_ns", "threads", "top_self", "top_total",
  };
  static const char * const tops[] = { "top_self", "top_total" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_assert_true (json_object_has_member (root, keys[i]));

  for (guint i = 0; i < json_array_get_length (json_object_get_array_member (root, "threads")); i++)
    {
      JsonObject *t = json_array_get_object_element (json_object_get_array_member (root, "threads"), i);

      g_assert_true (json_object_has_member (t, "id"));
      g_assert_true (json_object_has_member (t, "name"));
      g_assert_true (json_object_has_member (t, "samples"));
    }
  for (guint k = 0; k < G_N_ELEMENTS (tops); k++)
    {
      JsonArray *top = json_object_get_array_member (root, tops[k]);

      g_assert_cmpuint (json_array_get_length (top), <=, 10);
      for (guint i = 0; i < json_array_get_length (top); i++)
        {
          JsonObject *f = json_array_get_object_element (top, i);

          g_assert_nonnull (json_object_get_string_member (f, "function"));
          g_assert_cmpint (json_object_get_int_member (f, "samples"), >, 0);
        }
    }
}

static void
test_inspect_json (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(JsonObject) root = NULL;
  JsonObject *thread;
  JsonObject *top;

  run_cli (&run, "inspect", "--json", "@payloads/v1-node-stored.json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = parse_json (run.out);
  assert_inspect_keys (root);

  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "v1");
  g_assert_cmpstr (json_object_get_string_member (root, "platform"), ==, "node");
  g_assert_cmpint (json_object_get_int_member (root, "samples"), ==, 44);
  g_assert_cmpint (json_object_get_int_member (root, "stacks"), ==, 38);
  /* last minus first sample: 484554000 - 55000 ns */
  g_assert_cmpint (json_object_get_int_member (root, "duration_ns"), ==, 484499000);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "threads")), ==, 1);
  thread = json_array_get_object_element (json_object_get_array_member (root, "threads"), 0);
  g_assert_cmpstr (json_object_get_string_member (thread, "id"), ==, "0");
  g_assert_cmpstr (json_object_get_string_member (thread, "name"), ==, "main");
  g_assert_cmpint (json_object_get_int_member (thread, "samples"), ==, 44);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "top_self")), ==, 10);
  top = json_array_get_object_element (json_object_get_array_member (root, "top_total"), 0);
  g_assert_cmpstr (json_object_get_string_member (top, "function"), ==, "(root)");
  g_assert_cmpint (json_object_get_int_member (top, "samples"), ==, 44);
}

/* inspect works on every readable fixture, and refuses the two others */
static void
test_inspect_fixtures (void)
{
  g_auto(Run) android = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (fc_test_readable_fixtures); i++)
    {
      g_autofree char *arg = g_strconcat ("@", fc_test_readable_fixtures[i], NULL);
      g_auto(Run) json = { 0 };
      g_auto(Run) text = { 0 };
      g_autoptr(JsonObject) root = NULL;

      run_cli (&json, "inspect", "--json", arg, NULL);
      g_assert_cmpint (json.status, ==, 0);
      root = parse_json (json.out);
      assert_inspect_keys (root);
      g_assert_cmpint (json_object_get_int_member (root, "samples"), >, 0);

      run_cli (&text, "inspect", arg, NULL);
      g_assert_cmpint (text.status, ==, 0);
      g_assert_nonnull (strstr (text.out, "Top functions by self samples:"));
      g_assert_nonnull (strstr (text.out, "Top functions by total samples:"));
    }

  run_cli (&android, "inspect", "@payloads/android-trace-chunk.json", NULL);
  g_assert_cmpint (android.status, ==, 2);
  g_assert_nonnull (strstr (android.err, "unsupported format"));
}

static void
test_inspect_text (void)
{
  g_auto(Run) run = { 0 };
  g_auto(Run) lenient = { 0 };

  run_cli (&run, "inspect", "@payloads/v2-cocoa.json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Format:       v2 (1 profile)"));
  g_assert_nonnull (strstr (run.out, "Platform:     cocoa"));
  g_assert_nonnull (strstr (run.out, "Chunk id:     5f0b9a8c3e2d4f61a7b8c9d0e1f2a3b4"));
  g_assert_nonnull (strstr (run.out, "Duration:     0.030000 s"));
  g_assert_nonnull (strstr (run.out, "0x00000001045f0c80"));
  g_assert_nonnull (strstr (run.out, "com.apple.main-thread"));

  /* the lenient reader's problems are shown, the summary still printed */
  run_cli (&lenient, "inspect", "@payloads/v2-python-cut.json", NULL);
  g_assert_cmpint (lenient.status, ==, 0);
  g_assert_nonnull (strstr (lenient.err, "profile.stacks[0][1]"));
  g_assert_nonnull (strstr (lenient.out, "Samples:      1"));
}

static char *
write_long_chunk (const char *dir)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  JsonObject *meta = fc_profile_get_meta (profile);
  char *path = g_build_filename (dir, "long.json", NULL);

  for (gint64 ms = 300; ms < 45000; ms += 100)
    fc_test_sample (profile, 0, ms, 2, FC_TEST_MAIN, FC_TEST_FOO);
  json_object_set_string_member (meta, "platform", "native");
  json_object_set_string_member (meta, "release", "app@1");
  json_object_set_string_member (meta, "environment", "test");
  json_object_set_string_member (meta, "chunk_id", "0432a0a4c25f4697bf9f0a2fcbe6a814");
  json_object_set_string_member (meta, "profiler_id", "4d229f1d3807421ba62a5f8bc295d836");
  bytes = fc_writer_write_v2 (profile, &error);
  g_assert_no_error (error);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

static void
test_convert (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flamecast-cli-XXXXXX", &error);
  g_autofree char *chunk = NULL;
  g_autofree char *v1 = NULL;
  g_autofree char *v1_2 = NULL;
  g_autofree char *v1_3 = NULL;
  g_autofree char *v2 = NULL;
  g_autofree char *envelope = NULL;
  g_auto(Run) refused = { 0 };
  g_auto(Run) split = { 0 };
  g_auto(Run) check = { 0 };
  g_auto(Run) to_v2 = { 0 };
  g_auto(Run) to_env = { 0 };
  g_auto(Run) inspect = { 0 };
  g_auto(Run) bad = { 0 };
  g_auto(Run) no_out = { 0 };
  g_autoptr(JsonObject) root = NULL;

  g_assert_no_error (error);
  chunk = write_long_chunk (dir);
  v1 = g_build_filename (dir, "long-v1.json", NULL);

  /* 45 s do not fit a V1 profile */
  run_cli (&refused, "convert", chunk, "-o", v1, "--to", "v1", "--transaction-name", "boot", NULL);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.err, "at most 30 s"));
  g_assert_false (g_file_test (v1, G_FILE_TEST_EXISTS));

  run_cli (&split, "convert", chunk, "-o", v1, "--to", "v1", "--transaction-name", "boot", "--split", NULL);
  g_assert_cmpint (split.status, ==, 0);
  g_free (v1);
  v1 = g_build_filename (dir, "long-v1.1.json", NULL);
  v1_2 = g_build_filename (dir, "long-v1.2.json", NULL);
  v1_3 = g_build_filename (dir, "long-v1.3.json", NULL);
  g_assert_true (g_file_test (v1, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (v1_2, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (v1_3, G_FILE_TEST_EXISTS));
  run_cli (&check, "validate", v1, v1_2, NULL);
  g_assert_cmpint (check.status, ==, 0);

  /* and back to a chunk, then into an envelope */
  v2 = g_build_filename (dir, "again.json", NULL);
  run_cli (&to_v2, "convert", v1, "-o", v2, "--to", "v2", NULL);
  g_assert_cmpint (to_v2.status, ==, 0);
  envelope = g_build_filename (dir, "again.envelope", NULL);
  run_cli (&to_env, "convert", v2, "-o", envelope, "--to", "envelope", NULL);
  g_assert_cmpint (to_env.status, ==, 0);
  run_cli (&inspect, "inspect", "--json", envelope, NULL);
  g_assert_cmpint (inspect.status, ==, 0);
  root = parse_json (inspect.out);
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "envelope");
  g_assert_cmpstr (json_object_get_string_member (root, "platform"), ==, "native");

  run_cli (&bad, "convert", chunk, "-o", v2, "--to", "v3", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  run_cli (&no_out, "convert", chunk, "--to", "v2", NULL);
  g_assert_cmpint (no_out.status, ==, 2);

  g_unlink (chunk);
  g_unlink (v1);
  g_unlink (v1_2);
  g_unlink (v2);
  g_unlink (envelope);
  g_rmdir (dir);
}

/* a V1 fixture into its envelope: transaction + profile, accepted */
static void
test_convert_v1_envelope (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flamecast-cli-XXXXXX", &error);
  g_autofree char *out = g_build_filename (dir, "node.envelope", NULL);
  g_autofree char *text = NULL;
  g_auto(Run) convert = { 0 };
  g_auto(Run) check = { 0 };
  g_auto(Run) inspect = { 0 };
  g_autoptr(JsonObject) root = NULL;
  JsonArray *transactions;

  g_assert_no_error (error);
  run_cli (&convert, "convert", "@payloads/v1-node-stored.json", "-o", out, "--to", "envelope", NULL);
  g_assert_cmpint (convert.status, ==, 0);
  g_file_get_contents (out, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "\"type\":\"transaction\""));
  g_assert_nonnull (strstr (text, "\"type\":\"profile\""));
  run_cli (&check, "validate", out, NULL);
  g_assert_cmpint (check.status, ==, 0);

  /* inspect names the transaction the envelope carries */
  run_cli (&inspect, "inspect", "--json", out, NULL);
  g_assert_cmpint (inspect.status, ==, 0);
  root = parse_json (inspect.out);
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "envelope");
  transactions = json_object_get_array_member (root, "transactions");
  g_assert_cmpuint (json_array_get_length (transactions), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (transactions, 0), "event_id"),
                   ==, "c8d9e0f1a2b34c4d9e5f60718293a4b5");

  g_unlink (out);
  g_rmdir (dir);
}

/* every other tool's format from a fixture, then read back by inspect */
static void
test_convert_interop (void)
{
  static const char * const targets[] = { "otlp", "otlp-json", "pprof", "speedscope", "collapsed" };
  g_autofree char *dir = g_dir_make_tmp ("fc-cli-XXXXXX", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_auto(Run) convert = { 0 };
      g_auto(Run) inspect = { 0 };
      g_autofree char *out = g_build_filename (dir, targets[i], NULL);

      run_cli (&convert, "convert", "@payloads/v2-cocoa.json", "-o", out, "--to", targets[i], NULL);
      g_assert_cmpint (convert.status, ==, 0);
      run_cli (&inspect, "inspect", out, "--json", NULL);
      g_assert_cmpint (inspect.status, ==, 0);
      g_assert_nonnull (strstr (inspect.out, "\"format\""));
      g_unlink (out);
    }
  {
    g_auto(Run) run = { 0 };

    run_cli (&run, "convert", "@payloads/v2-cocoa.json", "-o", "-", "--to", "collapsed", "--per-thread", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strchr (run.out, ';'));
  }
  {
    g_auto(Run) run = { 0 };

    run_cli (&run, "convert", "@payloads/v2-cocoa.json", "-o", "-", "--to", "flamegraph", NULL);
    g_assert_cmpint (run.status, ==, 2);
  }
  g_rmdir (dir);
}

static void
test_diff (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fc-cli-XXXXXX", NULL);
  g_autofree char *before = g_build_filename (dir, "before.folded", NULL);
  g_autofree char *after = g_build_filename (dir, "after.folded", NULL);
  g_auto(Run) json = { 0 };
  g_auto(Run) folded = { 0 };
  g_auto(Run) text = { 0 };
  g_auto(Run) bad = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *functions;
  JsonObject *first;

  g_assert_true (g_file_set_contents (before, "main;foo 60\nmain;bar 30\nmain 10\n", -1, NULL));
  g_assert_true (g_file_set_contents (after, "main;foo 5\nmain;bar;baz 10\nmain;bar 20\nmain 15\n", -1, NULL));

  run_cli (&json, "diff", before, after, "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json.out, -1, NULL));
  functions = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "functions");
  first = json_array_get_object_element (functions, 0);
  /* foo: 60% -> 10% of all samples is the biggest change of self */
  g_assert_cmpstr (json_object_get_string_member (first, "function"), ==, "foo");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (first, "before_self"), 0.6, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (first, "after_self"), 0.1, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (first, "delta_self"), -0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (first, "delta_total"), -0.5, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (functions, 1), "function"), ==, "baz");

  /* baz (+20%) before main (+20% self, total unchanged); difffolded: before
   * counts scaled to the after total (100 -> 50) */
  run_cli (&folded, "diff", before, after, "--folded", NULL);
  g_assert_cmpint (folded.status, ==, 0);
  g_assert_cmpstr (folded.out, ==, "main 5 15\nmain;bar 15 20\nmain;bar;baz 0 10\nmain;foo 30 5\n");

  run_cli (&text, "diff", before, after, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "main;bar;baz (new)"));

  run_cli (&bad, "diff", before, NULL);
  g_assert_cmpint (bad.status, ==, 2);

  g_unlink (before);
  g_unlink (after);
  g_rmdir (dir);
}

static void
test_help (void)
{
  static const char * const commands[] = { "inspect", "validate", "convert", "diff" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(Run) run = { 0 };

      run_cli (&run, commands[i], "--help", NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, "Usage:"));
      g_assert_nonnull (strstr (run.out, "Exit status"));
    }
}

/* The CLI reads the GSettings store the app writes (here the keyfile backend
 * under the test's own XDG_CONFIG_HOME): a DSN set there is the one it uses. */
static void
test_settings_from_gsettings (void)
{
  g_auto(Run) before = { 0 };
  g_auto(Run) after = { 0 };
  g_auto(Run) otlp_before = { 0 };
  g_auto(Run) otlp_after = { 0 };
  g_autofree char *store = g_build_filename (g_get_user_config_dir (), "glib-2.0", "settings", "keyfile", NULL);
  g_autoptr(GSettingsSchemaSource) source = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsBackend) backend = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dirs = NULL;

  source = g_settings_schema_source_new_from_directory (g_getenv ("FC_SCHEMA_DIR"), NULL, TRUE, &error);
  g_assert_no_error (error);
  schema = g_settings_schema_source_lookup (source, FC_APP_ID, FALSE);
  g_assert_nonnull (schema);

  /* the child gets the isolated config dir, not the caller's */
  g_setenv ("XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_setenv ("XDG_STATE_HOME", g_get_user_state_dir (), TRUE);
  g_setenv ("GSETTINGS_BACKEND", "keyfile", TRUE);
  g_unsetenv ("SENTRY_DSN");
  /* the system's GSettings schemas, for GIO's proxy resolver (as test-secrets) */
  data_dirs = g_strdup (g_getenv ("XDG_DATA_DIRS"));
  g_unsetenv ("XDG_DATA_DIRS");

  run_cli (&before, "send", "--flush", NULL);
  g_assert_nonnull (strstr (before.err, "No DSN"));
  g_unsetenv ("OTEL_EXPORTER_OTLP_ENDPOINT");
  g_unsetenv ("OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT");
  run_cli (&otlp_before, "send", "--otlp", "--flush", NULL);
  g_assert_cmpint (otlp_before.status, ==, 2);

  backend = g_keyfile_settings_backend_new (store, "/", NULL);
  settings = g_settings_new_full (schema, backend, NULL);
  g_assert_true (g_settings_set_string (settings, "dsn", "https://gsettingskey@127.0.0.1:1/42"));
  g_settings_sync ();
  g_assert_true (g_file_test (store, G_FILE_TEST_EXISTS));

  /* the app's OTLP endpoint preference is send --otlp's default */
  g_assert_true (g_settings_set_string (settings, "otlp-endpoint", "http://127.0.0.1:1"));
  g_settings_sync ();

  run_cli (&after, "send", "--flush", NULL);
  g_assert_null (strstr (after.err, "No DSN"));
  run_cli (&otlp_after, "send", "--otlp", "--flush", NULL);
  g_assert_nonnull (strstr (otlp_after.out, "Sending to http://127.0.0.1:1/v1development/profiles"));
  /* never echoed */
  g_assert_null (strstr (after.err, "gsettingskey"));
  g_assert_null (strstr (after.out, "gsettingskey"));

  /* record starts from the same keys as the app's Record button: mode and
   * platform from the store; a flag overrides its key, the others stay */
  g_assert_true (g_settings_set_string (settings, "mode", "cpu"));
  g_assert_true (g_settings_set_string (settings, "platform", "c"));
  g_settings_sync ();
  {
    g_auto(Run) cpu = { 0 };
    g_auto(Run) wall = { 0 };
    /* in the test's isolated dirs, which GLib removes */
    g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "record", NULL);
    g_autofree char *chunk_path = g_build_filename (dir, "chunk-001.json", NULL);
    g_autofree char *chunk = NULL;

    g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
    run_cli (&cpu, "record", "-d", "0.3", "-o", dir, "--", "/bin/sleep", "2", NULL);
    g_assert_cmpint (cpu.status, ==, 0);
    g_assert_nonnull (strstr (cpu.err, "cpu mode"));

    run_cli (&wall, "record", "--mode", "wall", "-d", "0.5", "-o", dir, "--", "/bin/sleep", "2", NULL);
    g_assert_cmpint (wall.status, ==, 0);
    g_assert_nonnull (strstr (wall.err, "wall mode"));
    g_assert_true (g_file_get_contents (chunk_path, &chunk, NULL, NULL));
    g_assert_nonnull (strstr (chunk, "\"platform\":\"c\""));
    g_assert_null (strstr (chunk, "\"platform\":\"native\""));
  }

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_unsetenv ("XDG_CONFIG_HOME");
  g_unsetenv ("XDG_STATE_HOME");
  if (data_dirs != NULL)
    g_setenv ("XDG_DATA_DIRS", data_dirs, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli/validate/fixtures", test_validate_fixtures);
  g_test_add_func ("/cli/validate/several", test_validate_several);
  g_test_add_func ("/cli/inspect/json", test_inspect_json);
  g_test_add_func ("/cli/inspect/fixtures", test_inspect_fixtures);
  g_test_add_func ("/cli/inspect/text", test_inspect_text);
  g_test_add_func ("/cli/convert/split-and-back", test_convert);
  g_test_add_func ("/cli/convert/v1-envelope", test_convert_v1_envelope);
  g_test_add_func ("/cli/convert/interop", test_convert_interop);
  g_test_add_func ("/cli/diff", test_diff);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/settings/from-gsettings", test_settings_from_gsettings);

  return g_test_run ();
}
