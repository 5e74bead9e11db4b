/* bench-sampler.c - what sampling costs the target, side by side in one run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target is the test burner doing a fixed amount of work (it prints its
 * own wall time). For 1 and 4 threads it is run bare, under the sampler in
 * wall mode at 101 Hz and cpu mode at 1000 Hz, and under `perf record -g`
 * and `perf record --call-graph dwarf` at 1000 Hz when perf works. Printed:
 * slowdown (median of the runs), per-sample stop time (median, p99) next to
 * the bare PTRACE_INTERRUPT round trip measured in the same run, unwind time
 * per sample, and the share of stacks unwound to the outermost frame.
 * Figures only: this never fails.
 *
 * Environment: FC_BENCH_REPEAT (runs per configuration, default 3),
 * FC_BENCH_SECONDS (bare single-thread work, default 1.0), FC_BENCH_STACK (bytes of
 * stack copied per sample, default 32768).
 */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-recorder.h"
#include "fc-sampler.h"

#ifndef FC_TARGETS_DIR
# error "FC_TARGETS_DIR must point to the built test targets"
#endif

static const char *burner = FC_TARGETS_DIR "/fc-target-burner";

typedef struct {
  double seconds;          /* target's own wall time for the work */
  double cpu_seconds;      /* target's own CPU time (user + system), steadier on a busy machine */
  double median_stop_us;
  double p99_stop_us;
  double unwind_us;        /* per sample */
  double complete;         /* share of stacks complete */
  guint64 samples;
  guint64 dropped;
} Run;

static double
read_burner_time (const char *path,
                  double     *cpu_seconds)
{
  g_autofree char *contents = NULL;
  const char *p, *c;

  *cpu_seconds = -1;
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return -1;
  p = strstr (contents, "burner done in ");
  if (p == NULL)
    return -1;
  c = strstr (p, "cpu ");
  if (c != NULL)
    *cpu_seconds = g_ascii_strtod (c + 4, NULL);
  return g_ascii_strtod (p + strlen ("burner done in "), NULL);
}

static char *
burner_command (guint threads,
                long  rounds,
                const char *out)
{
  return g_strdup_printf ("exec '%s' -n %ld -t %u > '%s'", burner, rounds, threads, out);
}

static gboolean
run_shell (const char *command)
{
  int status = system (command);
  return status != -1 && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static Run
run_bare (guint threads,
          long  rounds)
{
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "fc-bench-sampler.out", NULL);
  g_autofree char *cmd = burner_command (threads, rounds, out);
  Run run = { 0 };

  run_shell (cmd);
  run.seconds = read_burner_time (out, &run.cpu_seconds);
  return run;
}

static void
target_exited_cb (FcRecorder *recorder,
                  int         status,
                  GMainLoop  *loop)
{
  g_main_loop_quit (loop);
}

static Run
run_recorder (guint         threads,
              long          rounds,
              FcSamplerMode mode,
              guint         frequency)
{
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "fc-bench-sampler.out", NULL);
  g_autofree char *cmd = burner_command (threads, rounds, out);
  const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  FcSamplerStats stats;
  FcUnwindStats ustats;
  Run run = { -1, 0 };

  g_object_set (recorder, "mode", mode, "frequency", frequency, NULL);
  if (g_getenv ("FC_BENCH_STACK"))
    g_object_set (recorder, "stack-size", (guint) atoi (g_getenv ("FC_BENCH_STACK")), NULL);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), loop);
  if (!fc_recorder_spawn (recorder, argv, &error) || !fc_recorder_start (recorder, &error))
    {
      printf ("  (%s mode: %s)\n", mode == FC_SAMPLER_MODE_CPU ? "cpu" : "wall", error->message);
      fc_recorder_detach (recorder);
      return run;
    }
  if (!fc_recorder_get_target_exited (recorder, NULL))
    g_main_loop_run (loop);
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  fc_recorder_get_sampler_stats (recorder, &stats);
  fc_recorder_get_unwind_stats (recorder, &ustats);
  fc_recorder_detach (recorder);

  run.seconds = read_burner_time (out, &run.cpu_seconds);
  run.median_stop_us = stats.median_stop_us;
  run.p99_stop_us = stats.p99_stop_us;
  run.samples = stats.n_samples;
  run.dropped = stats.dropped_ticks;
  run.unwind_us = ustats.n_unwound ? ustats.unwind_ns / 1000.0 / ustats.n_unwound : 0;
  run.complete = ustats.n_unwound ? (double) ustats.n_complete / ustats.n_unwound : 0;
  return run;
}

static Run
run_perf (guint       threads,
          long        rounds,
          const char *call_graph)
{
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "fc-bench-sampler.out", NULL);
  g_autofree char *data = g_build_filename (g_get_tmp_dir (), "fc-bench-sampler.perf", NULL);
  g_autofree char *inner = burner_command (threads, rounds, out);
  g_autofree char *quoted = g_shell_quote (inner);
  g_autofree char *cmd = g_strdup_printf ("perf record -q -F 1000 %s -o '%s' -- /bin/sh -c %s 2>/dev/null",
                                          call_graph, data, quoted);
  Run run = { -1, 0 };

  if (run_shell (cmd))
    run.seconds = read_burner_time (out, &run.cpu_seconds);
  unlink (data);
  return run;
}

static int
compare_run (gconstpointer a,
             gconstpointer b)
{
  double x = ((const Run *) a)->seconds, y = ((const Run *) b)->seconds;
  return x < y ? -1 : x > y;
}

/* the run with the median target time, the others' figures dropped */
static Run
median_run (Run  *runs,
            guint n)
{
  qsort (runs, n, sizeof (Run), (int (*) (const void *, const void *)) compare_run);
  return runs[n / 2];
}

static gboolean
perf_works (void)
{
  return run_shell ("perf record -q -F 100 -o /dev/null -- /bin/true > /dev/null 2>&1");
}

static void
print_row (const char *label,
           Run        *r,
           Run        *bare)
{
  if (r->seconds <= 0)
    {
      printf ("  %-26s %9s\n", label, "n/a");
      return;
    }
  printf ("  %-26s %7.3f s %+6.1f%%  cpu %6.3f s %+6.1f%%", label,
          r->seconds, 100.0 * (r->seconds - bare->seconds) / bare->seconds,
          r->cpu_seconds, 100.0 * (r->cpu_seconds - bare->cpu_seconds) / bare->cpu_seconds);
  if (r->samples > 0)
    printf ("   %7" G_GUINT64_FORMAT " samples  stop %6.0f / %6.0f us  unwind %5.1f us  complete %5.1f%%  dropped %" G_GUINT64_FORMAT,
            r->samples, r->median_stop_us, r->p99_stop_us, r->unwind_us, 100.0 * r->complete, r->dropped);
  printf ("\n");
}

static long
calibrate (double seconds)
{
  Run r = run_bare (1, 200);
  double per_round = r.seconds > 0 ? r.seconds / 200 : 1e-4;
  return MAX (100, (long) (seconds / per_round));
}

static void
measure_interrupt (long rounds)
{
  g_autoptr(GError) error = NULL;
  char rounds_arg[32];
  const char *argv[] = { burner, "-n", rounds_arg, NULL };
  double median = 0, p99 = 0;
  GPid pid;

  g_snprintf (rounds_arg, sizeof rounds_arg, "%ld", rounds * 4);
  if (!g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                      NULL, NULL, &pid, &error))
    return;
  g_usleep (100 * 1000);
  if (fc_sampler_measure_interrupt (pid, 200, &median, &p99, &error))
    printf ("  bare PTRACE_INTERRUPT + wait + PTRACE_CONT round trip, busy thread: median %.0f us, p99 %.0f us\n",
            median, p99);
  else
    printf ("  bare interrupt round trip: %s\n", error->message);
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
}

int
main (int    argc,
      char **argv)
{
  guint repeat = g_getenv ("FC_BENCH_REPEAT") ? atoi (g_getenv ("FC_BENCH_REPEAT")) : 3;
  double seconds = g_getenv ("FC_BENCH_SECONDS") ? g_ascii_strtod (g_getenv ("FC_BENCH_SECONDS"), NULL) : 1.0;
  gboolean have_perf = perf_works ();
  const guint thread_counts[] = { 1, 4 };
  long rounds;

  repeat = CLAMP (repeat, 1, 15);
  rounds = calibrate (seconds);
  printf ("bench-sampler: burner %ld rounds (~%.1f s of single-thread work), median of %u runs, %u CPUs\n",
          rounds, seconds, repeat, g_get_num_processors ());
  printf ("  columns: target wall time and its change vs bare, target CPU time and its change;\n"
          "  stop = time a thread is held, median / p99; unwind = libunwind time per stack\n");
  measure_interrupt (rounds);

  for (guint t = 0; t < G_N_ELEMENTS (thread_counts); t++)
    {
      guint threads = thread_counts[t];
      g_autofree Run *bare = g_new0 (Run, repeat);
      g_autofree Run *wall = g_new0 (Run, repeat);
      g_autofree Run *cpu = g_new0 (Run, repeat);
      g_autofree Run *perf_fp = g_new0 (Run, repeat);
      g_autofree Run *perf_dwarf = g_new0 (Run, repeat);
      Run b, w, c, pf, pd;

      /* interleaved, so drift in the machine's load hits every configuration alike */
      for (guint i = 0; i < repeat; i++)
        {
          bare[i] = run_bare (threads, rounds);
          wall[i] = run_recorder (threads, rounds, FC_SAMPLER_MODE_WALL, 101);
          cpu[i] = run_recorder (threads, rounds, FC_SAMPLER_MODE_CPU, 1000);
          if (have_perf)
            {
              perf_fp[i] = run_perf (threads, rounds, "-g");
              perf_dwarf[i] = run_perf (threads, rounds, "--call-graph dwarf");
            }
        }
      b = median_run (bare, repeat);
      w = median_run (wall, repeat);
      c = median_run (cpu, repeat);
      printf ("\n %u thread%s\n", threads, threads > 1 ? "s" : "");
      print_row ("bare", &b, &b);
      print_row ("flamecast wall 101 Hz", &w, &b);
      print_row ("flamecast cpu 1000 Hz", &c, &b);
      if (have_perf)
        {
          pf = median_run (perf_fp, repeat);
          pd = median_run (perf_dwarf, repeat);
          print_row ("perf record -g 1000 Hz", &pf, &b);
          print_row ("perf --call-graph dwarf", &pd, &b);
        }
      else
        printf ("  perf record: not available (install linux-perf, kernel.perf_event_paranoid <= 2)\n");
    }
  return 0;
}
