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
 * Then the issue-10 targets, each printed beside its goal: wall mode's
 * slowdown of one busy thread in alternating bare/profiled pairs (perf events,
 * the forced ptrace fallback, perf record -g); 5 busy + 2 blocked threads (ticks
 * per thread, blocked threads' leaves); the share of stacks reaching a root in
 * launch mode on sh, make -j2, zstd -T2 and xz -T2; the profiler's own CPU at
 * 101 Hz x 20 threads and at 1000 Hz on cc1.
 *
 * Environment: FC_BENCH_REPEAT (runs per configuration, default 3),
 * FC_BENCH_PAIRS (bare/profiled pairs, default 5), FC_BENCH_SECONDS (bare
 * single-thread work, default 1.0), FC_BENCH_STACK (bytes of stack copied per
 * sample, default 32768), FC_BENCH_CC1_FUNCTIONS (size of the program cc1 compiles, default
 * 1500), FC_BENCH_ONLY=targets (skip the first tables), slowdown (only
 * the wall slowdown pairs), profiler (only the profiler CPU, per sample too) or tables (only
 * the first tables).
 */

#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fc-attach-check.h"
#include "fc-recorder.h"
#include "fc-sampler.h"

#ifndef FC_TARGETS_DIR
# error "FC_TARGETS_DIR must point to the built test targets"
#endif

static const char *burner = FC_TARGETS_DIR "/fc-target-burner";
static const char *waiters = FC_TARGETS_DIR "/fc-target-waiters";

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
run_recorder_full (guint         threads,
                   long          rounds,
                   FcSamplerMode mode,
                   guint         frequency,
                   gboolean      force_ptrace)
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
  fc_recorder_set_force_ptrace (recorder, force_ptrace);
  if (g_getenv ("FC_BENCH_STACK"))
    g_object_set (recorder, "stack-size", (guint) atoi (g_getenv ("FC_BENCH_STACK")), NULL);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), loop);
  if (!fc_recorder_spawn (recorder, argv, NULL, &error) || !fc_recorder_start (recorder, &error))
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
run_recorder (guint         threads,
              long          rounds,
              FcSamplerMode mode,
              guint         frequency)
{
  return run_recorder_full (threads, rounds, mode, frequency, FALSE);
}

static Run
run_perf_freq (guint       threads,
               long        rounds,
               const char *call_graph,
               guint       frequency)
{
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "fc-bench-sampler.out", NULL);
  g_autofree char *data = g_build_filename (g_get_tmp_dir (), "fc-bench-sampler.perf", NULL);
  g_autofree char *inner = burner_command (threads, rounds, out);
  g_autofree char *quoted = g_shell_quote (inner);
  g_autofree char *cmd = g_strdup_printf ("perf record -q -F %u %s -o '%s' -- /bin/sh -c %s 2>/dev/null",
                                          frequency, call_graph, data, quoted);
  Run run = { -1, 0 };

  if (run_shell (cmd))
    run.seconds = read_burner_time (out, &run.cpu_seconds);
  unlink (data);
  return run;
}

static Run
run_perf (guint       threads,
          long        rounds,
          const char *call_graph)
{
  return run_perf_freq (threads, rounds, call_graph, 1000);
}

static int
compare_us (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The bare PTRACE_INTERRUPT + wait + PTRACE_CONT round trip on @pid: the
 * floor under the sampler's stop times. Benchmark-only, so it lives here. */
static gboolean
interrupt_round_trip (GPid     pid,
                      guint    n,
                      double  *median_us,
                      double  *p99_us,
                      GError **error)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  int status;

  if (ptrace (PTRACE_SEIZE, pid, NULL, NULL) != 0)
    {
      fc_attach_error_set (error, pid, errno, "PTRACE_SEIZE");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      if (ptrace (PTRACE_INTERRUPT, pid, NULL, NULL) != 0)
        break;
      if (waitpid (pid, &status, __WALL) != pid || !WIFSTOPPED (status))
        break;
      ptrace (PTRACE_CONT, pid, NULL, (status >> 16) == 0 ? GINT_TO_POINTER (WSTOPSIG (status)) : NULL);
      double us = (double) (g_get_monotonic_time () - t0);
      g_array_append_val (times, us);
      g_usleep (G_USEC_PER_SEC / 101);
    }
  ptrace (PTRACE_INTERRUPT, pid, NULL, NULL);
  while (waitpid (pid, &status, __WALL) == pid && WIFSTOPPED (status))
    {
      if ((status >> 16) == PTRACE_EVENT_STOP)
        {
          ptrace (PTRACE_DETACH, pid, NULL, NULL);
          break;
        }
      ptrace (PTRACE_CONT, pid, NULL, GINT_TO_POINTER (WSTOPSIG (status)));
    }
  g_array_sort (times, compare_us);
  *median_us = times->len ? g_array_index (times, double, times->len / 2) : 0;
  *p99_us = times->len ? g_array_index (times, double, MIN (times->len - 1, times->len * 99 / 100)) : 0;
  return times->len > 0;
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
  if (interrupt_round_trip (pid, 200, &median, &p99, &error))
    printf ("  bare PTRACE_INTERRUPT + wait + PTRACE_CONT round trip, busy thread: median %.0f us, p99 %.0f us\n",
            median, p99);
  else
    printf ("  bare interrupt round trip: %s\n", error->message);
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
}

/* ---- issue-10 targets ---- */

static double
process_cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

typedef struct {
  GPtrArray        *chunks;
  FcCaptureSummary *summary;
  double            wall_seconds;
  double            profiler_cpu;   /* share of one core the profiler (this process) used */
  double            cpu_seconds;    /* the profiler's CPU time, all threads */
  FcUnwindStats     unwind;
} Recorded;

static void
recorded_clear (Recorded *r)
{
  g_clear_pointer (&r->chunks, g_ptr_array_unref);
  g_clear_pointer (&r->summary, fc_capture_summary_free);
}

static void
collect_chunk_cb (FcRecorder *recorder,
                  FcProfile  *chunk,
                  GPtrArray  *chunks)
{
  g_ptr_array_add (chunks, g_object_ref (chunk));
}

/* Launches argv under the recorder until it exits; FALSE if it could not start. */
static gboolean
record_command (const char * const *argv,
                FcSamplerMode       mode,
                guint               frequency,
                gboolean            force_ptrace,
                Recorded           *out)
{
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  double cpu0, cpu1;
  gint64 t0, t1;

  memset (out, 0, sizeof *out);
  out->chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_object_set (recorder, "mode", mode, "frequency", frequency, NULL);
  fc_recorder_set_force_ptrace (recorder, force_ptrace);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), loop);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (collect_chunk_cb), out->chunks);
  cpu0 = process_cpu_seconds ();
  t0 = g_get_monotonic_time ();
  if (!fc_recorder_spawn (recorder, argv, NULL, &error) || !fc_recorder_start (recorder, &error))
    {
      printf ("  (%s: %s)\n", argv[0], error->message);
      fc_recorder_detach (recorder);
      return FALSE;
    }
  if (!fc_recorder_get_target_exited (recorder, NULL))
    g_main_loop_run (loop);
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  t1 = g_get_monotonic_time ();
  cpu1 = process_cpu_seconds ();
  out->summary = fc_recorder_dup_summary (recorder);
  fc_recorder_get_unwind_stats (recorder, &out->unwind);
  fc_recorder_detach (recorder);
  out->wall_seconds = (t1 - t0) / 1e6;
  out->cpu_seconds = cpu1 - cpu0;
  out->profiler_cpu = out->wall_seconds > 0 ? (cpu1 - cpu0) / out->wall_seconds : 0;
  return TRUE;
}

static double
root_share (const FcCaptureSummary *s)
{
  return s->n_samples ? 100.0 * s->n_root / s->n_samples : 0;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median_of (GArray *values)
{
  if (values->len == 0)
    return 0;
  g_array_sort (values, compare_double);
  return g_array_index (values, double, values->len / 2);
}

/* Wall mode on one busy thread: bare and profiled runs alternate (the order
 * flips every pair), and the slowdown is the median of the pairs' ratios. */
static void
add_ratio (GArray    *wall,
           GArray    *cpu,
           const Run *profiled,
           const Run *bare)
{
  double r;

  if (profiled->seconds <= 0 || bare->seconds <= 0)
    return;
  r = profiled->seconds / bare->seconds;
  g_array_append_val (wall, r);
  if (profiled->cpu_seconds > 0 && bare->cpu_seconds > 0)
    {
      r = profiled->cpu_seconds / bare->cpu_seconds;
      g_array_append_val (cpu, r);
    }
}

/* Wall mode on one busy thread: bare and profiled runs alternate (the order
 * flips every pair), and the slowdown is the median of the pairs' ratios, in
 * the target's wall time and in its own CPU time (steadier when other
 * programs share the CPUs). */
static void
target_wall_slowdown (long  rounds,
                      guint pairs,
                      gboolean have_perf)
{
  g_autoptr(GArray) perf_wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) perf_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ptrace_wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ptrace_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) rec_wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) rec_cpu = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < pairs; i++)
    {
      Run bare1, bare2, bare3, w, p, pr = { -1, 0 };

      if (i % 2 == 0)
        {
          bare1 = run_bare (1, rounds);
          w = run_recorder_full (1, rounds, FC_SAMPLER_MODE_WALL, 101, FALSE);
          bare2 = run_bare (1, rounds);
          p = run_recorder_full (1, rounds, FC_SAMPLER_MODE_WALL, 101, TRUE);
          bare3 = run_bare (1, rounds);
          if (have_perf)
            pr = run_perf_freq (1, rounds, "-g", 101);
        }
      else
        {
          if (have_perf)
            pr = run_perf_freq (1, rounds, "-g", 101);
          bare3 = run_bare (1, rounds);
          p = run_recorder_full (1, rounds, FC_SAMPLER_MODE_WALL, 101, TRUE);
          bare2 = run_bare (1, rounds);
          w = run_recorder_full (1, rounds, FC_SAMPLER_MODE_WALL, 101, FALSE);
          bare1 = run_bare (1, rounds);
        }
      add_ratio (perf_wall, perf_cpu, &w, &bare1);
      add_ratio (ptrace_wall, ptrace_cpu, &p, &bare2);
      add_ratio (rec_wall, rec_cpu, &pr, &bare3);
    }
  printf ("\n wall 101 Hz, one busy thread: median change of %u alternating bare/profiled pairs (goal <= 0.5%%)\n",
          pairs);
  printf ("  %-44s wall %+6.2f%%  target CPU %+6.2f%%\n", "flamecast wall, perf events (default)",
          100.0 * (median_of (perf_wall) - 1), 100.0 * (median_of (perf_cpu) - 1));
  printf ("  %-44s wall %+6.2f%%  target CPU %+6.2f%%\n", "flamecast wall, ptrace forced (fallback)",
          100.0 * (median_of (ptrace_wall) - 1), 100.0 * (median_of (ptrace_cpu) - 1));
  if (have_perf)
    printf ("  %-44s wall %+6.2f%%  target CPU %+6.2f%%\n", "perf record -g -F 101",
            100.0 * (median_of (rec_wall) - 1), 100.0 * (median_of (rec_cpu) - 1));
}

typedef struct {
  guint n, n_leaf, n_root;
} LeafFacts;

/* Samples of the threads whose stacks hold `marker`: how many have `leaf` in their leaf
 * function's name and reach start_thread / clone3. */
static LeafFacts
leaf_facts (GPtrArray  *chunks,
            const char *marker,
            const char *leaf)
{
  LeafFacts f = { 0 };

  for (guint c = 0; c < chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, c);
      g_autoptr(GHashTable) marked = g_hash_table_new (NULL, NULL);
      guint n_samples;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < n_samples; i++)
          {
            guint32 frames[256];
            guint n = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
            gboolean has_marker = FALSE, has_root = FALSE;

            for (guint k = 0; k < n; k++)
              {
                const char *fn = fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[k])->function);
                has_marker |= strcmp (fn, marker) == 0;
                has_root |= strcmp (fn, "start_thread") == 0 || strcmp (fn, "__clone3") == 0 || strcmp (fn, "clone3") == 0;
              }
            if (pass == 0)
              {
                if (has_marker)
                  g_hash_table_add (marked, GUINT_TO_POINTER (samples[i].thread + 1));
                continue;
              }
            if (!g_hash_table_contains (marked, GUINT_TO_POINTER (samples[i].thread + 1)))
              continue;
            f.n++;
            if (n > 0 && strstr (fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[0])->function), leaf))
              f.n_leaf++;
            if (has_root)
              f.n_root++;
          }
    }
  return f;
}

static void
target_busy_and_blocked (void)
{
  const char *argv[] = { waiters, "-b", "5", "-s", "4", NULL };
  Recorded r;
  LeafFacts reader, sleeper;
  double min_share = 101;
  int min_tid = 0;

  printf ("\n 5 busy + 2 blocked threads, wall 101 Hz, %u CPUs (goal: every thread >= 99%% of its ticks)\n",
          g_get_num_processors ());
  if (!record_command (argv, FC_SAMPLER_MODE_WALL, 101, FALSE, &r))
    return;
  for (guint i = 0; i < r.summary->threads->len; i++)
    {
      const FcThreadSummary *t = &g_array_index (r.summary->threads, FcThreadSummary, i);
      double share = t->n_ticks ? 100.0 * MIN (t->n_samples, t->n_ticks) / t->n_ticks : 100;
      if (t->n_ticks > 10 && share < min_share)
        {
          min_share = share;
          min_tid = t->tid;
        }
    }
  reader = leaf_facts (r.chunks, "waiters_read", "read");
  sleeper = leaf_facts (r.chunks, "waiters_sleep", "nanosleep");
  printf ("  %s\n  least-sampled thread %d: %.1f%% of its ticks; %" G_GUINT64_FORMAT " ticks dropped\n",
          r.summary->method, min_tid, min_share, r.summary->dropped_ticks);
  printf ("  read() thread: %u samples, %.1f%% with read at the leaf, %.1f%% reaching start_thread\n",
          reader.n, reader.n ? 100.0 * reader.n_leaf / reader.n : 0, reader.n ? 100.0 * reader.n_root / reader.n : 0);
  printf ("  nanosleep() thread: %u samples, %.1f%% with nanosleep at the leaf, %.1f%% reaching start_thread\n",
          sleeper.n, sleeper.n ? 100.0 * sleeper.n_leaf / sleeper.n : 0,
          sleeper.n ? 100.0 * sleeper.n_root / sleeper.n : 0);
  printf ("  profiler CPU %.1f%% of one core\n", 100.0 * r.profiler_cpu);
  recorded_clear (&r);
}

static void
target_launch_roots (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fc-bench-sampler-XXXXXX", NULL);
  g_autofree char *data = g_build_filename (dir, "data", NULL);
  g_autofree char *makefile = g_build_filename (dir, "Makefile", NULL);
  g_autofree char *gen = g_strdup_printf ("head -c 24000000 /dev/urandom | od -A n -t x8 | head -c 24000000 > '%s'", data);
  g_autofree char *make_dir = g_strdup_printf ("-C%s", dir);
  g_autofree char *zstd_out = g_build_filename (dir, "data.zst", NULL);
  g_autofree char *xz_out = g_build_filename (dir, "data.xz", NULL);
  const char *mk =
    "all: a b c d\n"
    "a b c d:\n"
    "\t@i=0; while [ $$i -lt 60000 ]; do i=$$((i+1)); done\n";
  struct {
    const char *label;
    const char *argv[10];
  } commands[] = {
    { "sh -c 'sleep 2'", { "/bin/sh", "-c", "sleep 2", NULL } },
    { "make -j2 (4 shell loops)", { "make", "-s", "-j2", make_dir, NULL } },
    { "zstd -19 -T2", { "zstd", "-q", "-f", "-19", "-T2", data, "-o", zstd_out, NULL } },
    { "xz -6 -T2", { "xz", "-q", "-k", "-f", "-6", "-T2", data, NULL } },
  };

  printf ("\n launch mode, wall 101 Hz: samples reaching a root (goal >= 99%%)\n");
  if (!run_shell (gen) || !g_file_set_contents (makefile, mk, -1, NULL))
    {
      printf ("  (cannot prepare the inputs in %s)\n", dir);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      Recorded r;

      if (!record_command (commands[i].argv, FC_SAMPLER_MODE_WALL, 101, FALSE, &r))
        continue;
      printf ("  %-28s %6" G_GUINT64_FORMAT " samples of %2u threads  root %5.1f%%  unnamed leaf %4.1f%%  %.1f s  profiler CPU %4.1f%%\n",
              commands[i].label, r.summary->n_samples, r.summary->threads->len, root_share (r.summary),
              r.summary->n_samples ? 100.0 * r.summary->n_unnamed_leaf / r.summary->n_samples : 0,
              r.wall_seconds, 100.0 * r.profiler_cpu);
      recorded_clear (&r);
    }
  g_unlink (data);
  g_unlink (makefile);
  g_unlink (zstd_out);
  g_unlink (xz_out);
  g_rmdir (dir);
}

/* cc1 on a generated translation unit: thousands of distinct functions, deep stacks, a big
 * binary to symbolize. */
/* load-robust: the profiler's own CPU time, per sample, and the worker's share of it */
static void
print_per_sample (const Recorded *r)
{
  double n = MAX (r->unwind.n_unwound, 1);

  printf ("    profiler CPU per sample %6.1f us (all threads); worker: unwind %6.1f us, symbolize %6.1f us "
          "per unwound stack (%" G_GUINT64_FORMAT ")\n",
          r->summary->n_samples ? 1e6 * r->cpu_seconds / r->summary->n_samples : 0,
          r->unwind.unwind_ns / 1e3 / n, r->unwind.symbolize_ns / 1e3 / n, r->unwind.n_unwound);
}

static void
target_profiler_cpu (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fc-bench-sampler-XXXXXX", NULL);
  g_autofree char *src = g_build_filename (dir, "big.c", NULL);
  g_autoptr(GString) code = g_string_new (NULL);
  g_autofree char *cc1 = NULL;
  const char *argv20[] = { waiters, "-b", "20", "-s", "3", NULL };
  int n_functions = g_getenv ("FC_BENCH_CC1_FUNCTIONS") ? atoi (g_getenv ("FC_BENCH_CC1_FUNCTIONS")) : 1500;
  Recorded r;

  printf ("\n profiler CPU (sampler + unwinder + symbolizer, one process), share of one core\n");
  if (record_command (argv20, FC_SAMPLER_MODE_WALL, 101, FALSE, &r))
    {
      printf ("  wall 101 Hz x 20 busy threads (+2 blocked):  %5.1f%%  (goal <= 5%%; %" G_GUINT64_FORMAT " samples in %.1f s)\n",
              100.0 * r.profiler_cpu, r.summary->n_samples, r.wall_seconds);
      print_per_sample (&r);
      recorded_clear (&r);
    }

  n_functions = CLAMP (n_functions, 2, 5000);
  for (int i = 0; i < n_functions; i++)
    {
      g_autofree char *callee = i ? g_strdup_printf ("f%d (x - 1)", i - 1) : g_strdup ("0");
      g_string_append_printf (code,
                              "static int f%d (int x) { int s = 0; for (int i = 0; i < x; i++) s += (i * %d) ^ (s >> 3);"
                              " return s + %s; }\n", i, i + 1, callee);
    }
  g_string_append_printf (code, "int main (int c, char **v) { return f%d (c); }\n", n_functions - 1);
  g_file_set_contents (src, code->str, code->len, NULL);
  if (!g_spawn_command_line_sync ("gcc -print-prog-name=cc1", &cc1, NULL, NULL, NULL) || cc1 == NULL)
    return;
  g_strstrip (cc1);
  {
    const char *argv[] = { cc1, "-quiet", "-O2", src, "-o", "/dev/null", NULL };
    if (record_command (argv, FC_SAMPLER_MODE_CPU, 1000, FALSE, &r))
      {
        printf ("  cpu 1000 Hz on cc1 -O2 (%4d functions):    %5.1f%%  (goal <= 15%%; %" G_GUINT64_FORMAT " samples in %.1f s, root %.1f%%)\n",
                n_functions, 100.0 * r.profiler_cpu, r.summary->n_samples, r.wall_seconds, root_share (r.summary));
        print_per_sample (&r);
        recorded_clear (&r);
      }
  }
  g_unlink (src);
  g_rmdir (dir);
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

  guint pairs = g_getenv ("FC_BENCH_PAIRS") ? atoi (g_getenv ("FC_BENCH_PAIRS")) : 5;
  gboolean only_targets = g_strcmp0 (g_getenv ("FC_BENCH_ONLY"), "targets") == 0 ||
                          g_strcmp0 (g_getenv ("FC_BENCH_ONLY"), "slowdown") == 0 ||
                          g_strcmp0 (g_getenv ("FC_BENCH_ONLY"), "profiler") == 0;

  repeat = CLAMP (repeat, 1, 15);
  rounds = calibrate (seconds);
  if (only_targets)
    goto targets;
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

targets:
  if (g_strcmp0 (g_getenv ("FC_BENCH_ONLY"), "tables") == 0)
    return 0;
  printf ("\n issue-10 targets (load average now: see uptime; the machine is shared, figures are noisy)\n");
  if (g_strcmp0 (g_getenv ("FC_BENCH_ONLY"), "profiler") == 0)
    {
      target_profiler_cpu ();
      return 0;
    }
  target_wall_slowdown (rounds, CLAMP (pairs, 1, 31), have_perf);
  if (g_strcmp0 (g_getenv ("FC_BENCH_ONLY"), "slowdown") == 0)
    return 0;
  target_busy_and_blocked ();
  target_launch_roots ();
  target_profiler_cpu ();
  return 0;
}
