/* test-hostile.c - files made to hurt a reader: the CLI stops each one with a located message, never a signal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each shape of tests/fc-hostile-shapes.c (deep nesting, compression
 * bombs, amplification, long tokens) is written by the test, at the
 * smallest size that still passes the limit it is about, and given to
 * `flamecast-cli validate`: the process must exit (1 or 2; 0 or 1 for the
 * shape that is only big) and print the file's name with the message that
 * names the limit and the place. The small nesting shapes also go through
 * inspect, convert, diff and send --otlp, which crashed on them. Time and
 * memory figures are bench/bench-hostile.c's.
 */

#include <glib/gstdio.h>
#include <string.h>

#include "fc-hostile-shapes.h"
#include "fc-test-util.h"

typedef struct {
  gboolean  exited;
  int       status;
  char     *out;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
run_cli (Run                *run,
         const char * const *args,
         gboolean            many_allocations)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("FC_CLI");

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  /* the system's GSettings schemas, for GIO's proxy resolver in send */
  g_subprocess_launcher_unsetenv (launcher, "XDG_DATA_DIRS");
  /* Under AddressSanitizer (make check-sanitize sets ASAN_OPTIONS), an amplified file's millions
   * of allocations each cost an exact (DWARF) malloc stack, which LeakSanitizer's suppressions of
   * GLib's own allocations need: ~100 s of CPU for one file. Those runs take frame-pointer stacks
   * and no leak check; ASan still checks every access. The other shapes keep the leak check. */
  if (many_allocations && g_getenv ("ASAN_OPTIONS") != NULL)
    {
      g_autofree char *options = g_strdup_printf ("%s:fast_unwind_on_malloc=1:detect_leaks=0",
                                                  g_getenv ("ASAN_OPTIONS"));
      g_subprocess_launcher_setenv (launcher, "ASAN_OPTIONS", options, TRUE);
    }
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, NULL, &error);
  g_assert_no_error (error);
  run->exited = g_subprocess_get_if_exited (process);
  run->status = run->exited ? g_subprocess_get_exit_status (process) : -g_subprocess_get_term_sig (process);
  g_test_message ("$ flamecast-cli %s ... -> %s %d\n%.2000s", args[0], run->exited ? "exit" : "signal",
                  ABS (run->status), run->out);
}

static void
assert_stopped (const Run  *run,
                const char *path,
                const char *expect)
{
  g_autofree char *name = g_path_get_basename (path);

  if (!run->exited)
    g_error ("%s: killed by signal %d", name, -run->status);
  if (expect == NULL)
    {
      g_assert_cmpint (run->status, <=, 1);
      return;
    }
  g_assert_cmpint (run->status, >=, 1);
  g_assert_cmpint (run->status, <=, 2);
  if (strstr (run->out, name) == NULL || strstr (run->out, expect) == NULL)
    g_error ("%s: expected \"%s\" with the file name in:\n%s", name, expect, run->out);
}

static void
test_shape (gconstpointer data)
{
  const FcHostileShape *shape = data;
  g_autofree char *dir = fc_test_make_tmp_dir ("fc-hostile");
  g_autofree char *path = NULL;
  g_auto(Run) run = { 0 };

  /* gzip at its fastest: these test the reader, not the compression */
  path = fc_hostile_shape_write (shape, dir, shape->test_size > 0 ? shape->test_size : shape->size, 1);
  run_cli (&run, (const char *[]) { "validate", path, NULL }, shape->gzip);
  assert_stopped (&run, path, shape->expect);
  fc_test_remove_tree (dir);
}

/* inspect, convert, diff and send --otlp died of these (SIGSEGV in json-glib) */
static void
test_every_command (void)
{
  static const char * const names[] = { "otlp-json-brackets.json", "speedscope-brackets.json",
                                        "otlp-json-anyvalues.json", "otlp-anyvalues.pb" };
  g_autofree char *dir = fc_test_make_tmp_dir ("fc-hostile");
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  guint n_shapes = 0;
  const FcHostileShape *shapes = fc_hostile_shapes (&n_shapes);

  for (guint i = 0; i < n_shapes; i++)
    {
      g_autofree char *path = NULL;

      if (!g_strv_contains (names, shapes[i].name))
        continue;
      path = fc_hostile_shape_write (&shapes[i], dir, shapes[i].size, 1);
      {
        g_auto(Run) run = { 0 };

        run_cli (&run, (const char *[]) { "inspect", path, NULL }, FALSE);
        assert_stopped (&run, path, shapes[i].expect);
      }
      {
        g_auto(Run) run = { 0 };

        run_cli (&run, (const char *[]) { "convert", path, "-o", out, "--to", "v2", NULL }, FALSE);
        assert_stopped (&run, path, shapes[i].expect);
        g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      }
      {
        g_auto(Run) run = { 0 };

        run_cli (&run, (const char *[]) { "diff", path, path, NULL }, FALSE);
        assert_stopped (&run, path, shapes[i].expect);
      }
      {
        g_auto(Run) run = { 0 };

        /* nothing is queued, so nothing is posted: port 9 (discard) is never reached */
        run_cli (&run, (const char *[]) { "send", "--otlp", "--endpoint", "http://127.0.0.1:9", path, NULL }, FALSE);
        assert_stopped (&run, path, shapes[i].expect);
      }
    }
  fc_test_remove_tree (dir);
}

/* Strict like Relay: a key given twice is an error (exit 1) that names it */
static void
test_duplicate_key (void)
{
  static const char chunk[] =
    "{\"version\":\"2\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\",\"profiler_id\":"
    "\"4d229f1d3807421ba62a5f8bc295d836\",\"release\":\"1.0\",\"environment\":\"test\",\"client_sdk\":"
    "{\"name\":\"sentry.python\",\"version\":\"2.13.0\"},\"platform\":\"python\",\"platform\":\"python\","
    "\"profile\":{\"samples\":[{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.5},"
    "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.51}],\"stacks\":[[0]],"
    "\"frames\":[{\"function\":\"main\"}]}}";
  g_autofree char *dir = fc_test_make_tmp_dir ("fc-hostile");
  g_autofree char *path = g_build_filename (dir, "twice.json", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(Run) run = { 0 };

  g_assert_true (g_file_set_contents (path, chunk, -1, &error));
  run_cli (&run, (const char *[]) { "validate", path, NULL }, FALSE);
  g_assert_true (run.exited);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "error: platform: the key is given twice"));
  fc_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  guint n_shapes = 0;
  const FcHostileShape *shapes = fc_hostile_shapes (&n_shapes);

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < n_shapes; i++)
    {
      g_autofree char *name = g_strdup_printf ("/cli/hostile/%s", shapes[i].name);

      g_test_add_data_func (name, &shapes[i], test_shape);
    }
  g_test_add_func ("/cli/hostile/every-command", test_every_command);
  g_test_add_func ("/cli/strict/duplicate-key", test_duplicate_key);

  return g_test_run ();
}
