/* test-lto.c - programs built with link-time optimisation: inlined frames and names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-proc-maps.h"
#include "fc-recorder.h"
#include "fc-symbolizer.h"
#include "fc-test-util.h"

static int
line_of (const char *file,
         const char *marker)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "targets", file, NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], marker) != NULL)
      return i + 1;
  g_assert_not_reached ();
}

/* The loop of lto_outer() inlines lto_helper() from another file at link time: its DWARF
 * origin is in another compilation unit, where dwarf_getscopes() does not look. Some address
 * of the loop is lto_helper in lto-b.c, inlined into lto_outer at the call's line. */
static void
test_lto_inlined (void)
{
  g_autofree char *lto = fc_test_target_path ("lto");
  const char *argv[] = { lto, "30", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(FcProcMaps) maps = NULL;
  g_autoptr(FcSymbolizer) symbolizer = NULL;
  int call_line = line_of ("lto-a.c", "LTO_CALL_SITE");
  char buf[64] = { 0 };
  guint n_inlined = 0;
  guint64 outer;
  int out_fd, status;
  GPid pid;

  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, NULL,
                            &out_fd, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (read (out_fd, buf, sizeof buf - 1), >, 2);
  outer = g_ascii_strtoull (buf, NULL, 16);
  g_assert_cmpuint (outer, !=, 0);

  maps = fc_proc_maps_new (pid);
  g_assert_true (fc_proc_maps_reload (maps, &error));
  g_assert_no_error (error);
  symbolizer = fc_symbolizer_new (maps);
  for (guint64 addr = outer; addr < outer + 128; addr++)
    {
      const FcSymbol *sym = fc_symbolizer_lookup (symbolizer, addr, FALSE);

      if (g_strcmp0 (sym->function, "lto_helper") != 0)
        continue;
      n_inlined++;
      g_assert_cmpstr (sym->filename, ==, "lto-b.c");
      g_assert_nonnull (sym->caller);
      g_assert_cmpstr (sym->caller->function, ==, "lto_outer");
      g_assert_cmpstr (sym->caller->filename, ==, "lto-a.c");
      g_assert_cmpint (sym->caller->lineno, ==, call_line);
      g_assert_null (sym->caller->caller);
    }
  g_test_message ("%u addresses of lto_outer are the inlined lto_helper", n_inlined);
  g_assert_cmpuint (n_inlined, >, 0);

  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  close (out_fd);
}

static void
chunk_cb (FcRecorder *recorder,
          FcProfile  *chunk,
          GPtrArray  *chunks)
{
  g_ptr_array_add (chunks, g_object_ref (chunk));
}

static void
exited_cb (FcRecorder *recorder,
           int         status,
           GMainLoop  *loop)
{
  g_main_loop_quit (loop);
}

/* Debian's python3 (3.11) is built with LTO and stripped: its interpreter loop is named from
 * the dynamic symbol table. */
static void
test_python_names (void)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  const char *argv[] = { python, "-c", "import time\nt = time.time()\nwhile time.time() - t < 1.0: pass", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  guint n_eval = 0, n_samples = 0;

  g_assert_nonnull (python);   /* python3-jsonschema, in DEB_PACKAGES, brings it */
  if (!fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS, "cpu mode's refusal is checked by /core/sampler/cpu-mode"))
    return;
  /* the interpreter's own frames: machine code only */
  g_object_set (recorder, "mode", FC_SAMPLER_MODE_CPU, "frequency", 500, "stacks", FC_STACKS_NATIVE, NULL);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_cb), chunks);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (exited_cb), loop);
  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  g_main_loop_run (loop);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);

  for (guint c = 0; c < chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, c);
      guint n = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n);

      for (guint i = 0; i < n; i++)
        {
          guint32 frames[256];
          guint depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));

          n_samples++;
          for (guint f = 0; f < depth; f++)
            if (g_strcmp0 (fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[f])->function),
                           "_PyEval_EvalFrameDefault") == 0)
              {
                n_eval++;
                break;
              }
        }
    }
  g_test_message ("%u of %u samples in _PyEval_EvalFrameDefault", n_eval, n_samples);
  g_assert_cmpuint (n_samples, >, 0);
  g_assert_cmpuint (n_eval * 2, >=, n_samples);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/symbolizer/lto-inlined", test_lto_inlined);
  g_test_add_func ("/core/symbolizer/python-names", test_python_names);
  return g_test_run ();
}
