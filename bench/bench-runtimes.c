/* bench-runtimes.c - each runtime's split program recorded: names, split, roots, profiler CPU
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/targets/split.* spend 70% of their work in one function and 30% in another, by
 * construction. For each runtime and mode this records one for a few seconds and prints the
 * share of samples naming either function, the split found (70% is the truth), the share of
 * those samples whose stack reaches a root, and the profiler's CPU time per sample (this
 * process: sampler, sink, unwinder and symbolizer threads). For CPython, --stacks native is
 * the baseline the Python reads are measured against. Where perf can name the functions
 * (machine code, and JIT code with a perf map), `perf record -g` on the same program gives
 * its split next to ours. Figures, never a verdict.
 *
 *   bench-runtimes [SECONDS]   (default 4)
 */

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fc-capture-summary.h"
#include "fc-recorder.h"

static double seconds = 4;

typedef struct {
  const char  *runtime;
  const char  *hot;
  const char  *cold;
  gboolean     exact;
  char       **argv;
  FcStacksMode stacks;
  FcSamplerMode mode;
  gboolean     perf;       /* perf can name these functions too */
} Row;

typedef struct {
  GPtrArray *chunks;
  gboolean   exited;
} Rec;

static void
chunk_cb (FcRecorder *r,
          FcProfile  *chunk,
          Rec        *rec)
{
  g_ptr_array_add (rec->chunks, g_object_ref (chunk));
}

static void
exited_cb (FcRecorder *r,
           int         status,
           Rec        *rec)
{
  rec->exited = TRUE;
}

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static gboolean
matches (const Row  *row,
         const char *function,
         const char *name)
{
  return row->exact ? strcmp (function, name) == 0 : strstr (function, name) != NULL;
}

/* perf's split of the same program: `perf report` self time of the two functions */
static double
perf_split (const Row *row)
{
  g_autofree char *dir = g_dir_make_tmp ("fc-bench-perf-XXXXXX", NULL);
  g_autofree char *data = g_build_filename (dir, "perf.data", NULL);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) record = NULL;
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  double hot = 0, cold = 0;
  int status;
  const char *report[] = { "perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "sym", NULL };

  g_strv_builder_add_many (b, "perf", "record", "-q", "-F", "499", "-g", "-o", data, "--", NULL);
  g_strv_builder_addv (b, (const char **) row->argv);
  record = g_strv_builder_end (b);
  if (!g_spawn_sync (NULL, record, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL) ||
      !g_spawn_sync (NULL, (char **) report, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                     NULL, &status, NULL))
    return -1;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      double pct = g_ascii_strtod (g_strchug (lines[i]), NULL);

      if (lines[i][0] == '#' || lines[i][0] == '|' || lines[i][0] == '-')
        continue;
      if (matches (row, lines[i], row->hot))
        hot += pct;
      else if (matches (row, lines[i], row->cold))
        cold += pct;
    }
  g_unlink (data);
  g_rmdir (dir);
  return hot + cold > 0 ? 100 * hot / (hot + cold) : -1;
}

static void
run_row (const Row *row)
{
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(FcCaptureSummary) summary = NULL;
  Rec rec = { g_ptr_array_new_with_free_func (g_object_unref), FALSE };
  guint n_all = 0, n_hot = 0, n_cold = 0, n_rooted = 0;
  double cpu0, cpu1, ours, perf = -1;
  gint64 end;
  GPid pid;

  g_object_set (recorder, "mode", row->mode, "frequency", 499, "stacks", row->stacks, NULL);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_cb), &rec);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (exited_cb), &rec);
  cpu0 = cpu_seconds ();
  if (!fc_recorder_spawn (recorder, (const char * const *) row->argv, NULL, &error) ||
      !fc_recorder_start (recorder, &error))
    {
      printf ("%-22s %s\n", row->runtime, error->message);
      g_ptr_array_unref (rec.chunks);
      return;
    }
  end = g_get_monotonic_time () + (gint64) ((seconds + 60) * G_USEC_PER_SEC);
  while (!rec.exited && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  cpu1 = cpu_seconds ();
  summary = fc_recorder_dup_summary (recorder);
  pid = fc_recorder_get_pid (recorder);
  fc_recorder_detach (recorder);
  waitpid (pid, NULL, 0);

  for (guint k = 0; k < rec.chunks->len; k++)
    {
      FcProfile *chunk = g_ptr_array_index (rec.chunks, k);
      guint n = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n);

      for (guint i = 0; i < n; i++)
        {
          guint32 frames[512];
          guint depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          gboolean named = FALSE;

          n_all++;
          for (guint f = 0; f < depth && !named; f++)
            {
              const char *fn = fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[f])->function);
              if (matches (row, fn, row->hot))
                n_hot++, named = TRUE;
              else if (matches (row, fn, row->cold))
                n_cold++, named = TRUE;
            }
          for (guint f = depth, seen = 0; named && f-- > 0 && seen < 4; seen++)
            if (fc_capture_is_root_function (fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[f])->function)))
              {
                n_rooted++;
                break;
              }
        }
    }
  ours = summary->n_samples > 0 ? (cpu1 - cpu0) * 1e6 / summary->n_samples : 0;
  if (row->perf)
    perf = perf_split (row);
  printf ("%-22s %-7s %-4s %7u %7.1f%% %7.1f%% (±%.1f) %6.1f%% %9.0f us",
          row->runtime, fc_stacks_mode_to_string (row->stacks), row->mode == FC_SAMPLER_MODE_CPU ? "cpu" : "wall",
          n_all, n_all ? 100.0 * (n_hot + n_cold) / n_all : 0.0,
          n_hot + n_cold ? 100.0 * n_hot / (n_hot + n_cold) : 0.0,
          n_hot + n_cold ? 100 * sqrt (0.21 / (n_hot + n_cold)) : 0.0,
          n_hot + n_cold ? 100.0 * n_rooted / (n_hot + n_cold) : 0.0, ours);
  if (perf >= 0)
    printf ("   perf %.1f%%", perf);
  printf ("\n");
  fflush (stdout);
  g_ptr_array_unref (rec.chunks);
}

static char **
argv_new (const char *first,
          ...)
{
  GStrvBuilder *b = g_strv_builder_new ();
  char **argv;
  va_list ap;
  const char *arg;

  va_start (ap, first);
  for (arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_strv_builder_add (b, arg);
  va_end (ap);
  argv = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return argv;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *secs = NULL;
  g_autofree char *py = g_build_filename (FC_SOURCE_TARGETS, "split.py", NULL);
  g_autofree char *js = g_build_filename (FC_SOURCE_TARGETS, "split.js", NULL);
  g_autofree char *go = g_build_filename (FC_TARGETS_DIR, "fc-target-split-go", NULL);
  g_autofree char *rust = g_build_filename (FC_TARGETS_DIR, "fc-target-split-rust", NULL);
  const char *pythons[][2] = {
    { "python 3.11 (Debian)", "/usr/bin/python3.11" },
    { "python 3.12 (pyenv)", NULL },
    { "python 3.13 (pyenv)", NULL },
  };
  g_autofree char *py312 = g_build_filename (g_get_home_dir (), ".pyenv/versions/3.12.1/bin/python3.12", NULL);
  g_autofree char *py313 = g_build_filename (g_get_home_dir (), ".pyenv/versions/3.13.0/bin/python3.13", NULL);

  if (argc > 1)
    seconds = g_ascii_strtod (argv[1], NULL);
  secs = g_strdup_printf ("%g", seconds);
  pythons[1][1] = py312;
  pythons[2][1] = py313;

  printf ("%-22s %-7s %-4s %7s %8s %8s %6s %6s %12s\n", "runtime", "stacks", "mode", "samples", "named", "split",
          "(5sd/5)", "rooted", "CPU/sample");
  for (guint p = 0; p < G_N_ELEMENTS (pythons); p++)
    {
      static const FcStacksMode modes[] = { FC_STACKS_NATIVE, FC_STACKS_PYTHON, FC_STACKS_MIXED };

      if (!g_file_test (pythons[p][1], G_FILE_TEST_IS_EXECUTABLE))
        {
          printf ("%-22s not on this machine\n", pythons[p][0]);
          continue;
        }
      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        for (guint w = 0; w < 2; w++)
          {
            g_auto(GStrv) args = argv_new (pythons[p][1], py, secs, NULL);
            Row row = { pythons[p][0], "fc_hot", "fc_cold", TRUE, args, modes[m],
                        w == 0 ? FC_SAMPLER_MODE_CPU : FC_SAMPLER_MODE_WALL, FALSE };
            run_row (&row);
          }
    }
  for (guint w = 0; w < 2; w++)
    {
      g_auto(GStrv) node = argv_new ("node", "--perf-basic-prof", js, secs, NULL);
      g_auto(GStrv) java = argv_new ("java", "-XX:+PreserveFramePointer", "-XX:+UnlockDiagnosticVMOptions",
                                     "-XX:+DumpPerfMapAtExit", "-cp", FC_TARGETS_DIR, "Split", secs, NULL);
      g_auto(GStrv) goargs = argv_new (go, secs, NULL);
      g_auto(GStrv) rustargs = argv_new (rust, secs, NULL);
      FcSamplerMode mode = w == 0 ? FC_SAMPLER_MODE_CPU : FC_SAMPLER_MODE_WALL;
      Row rows[] = {
        { "node --perf-basic-prof", "JS:*fcHot ", "JS:*fcCold ", FALSE, node, FC_STACKS_AUTO, mode, w == 0 },
        { "java 17 (map at exit)", "Split.fcHot", "Split.fcCold", FALSE, java, FC_STACKS_AUTO, mode, w == 0 },
        { "go", "main.fcHot", "main.fcCold", TRUE, goargs, FC_STACKS_AUTO, mode, w == 0 },
        { "rust (legacy names)", "::fc_hot", "::fc_cold", FALSE, rustargs, FC_STACKS_AUTO, mode, w == 0 },
      };

      for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
        run_row (&rows[i]);
    }
  return 0;
}
