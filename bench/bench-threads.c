/* bench-threads.c - attached to 100, 300 and 1,000 light threads and a 5%-busy bursty one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target is tests/targets/pool.c: N threads, plus a bursty thread busy 1 ms in 20 that
 * measures its own busy share, in two shapes:
 *   - light: each thread burns 150 us of CPU time a period, the period N/2 ms (at least 50 ms),
 *     so the pool asks ~30% of one CPU and wakes at most 2,000 times a second whatever N;
 *   - dense: each thread burns 15000/N us every 50 ms. Its work also adds up to 30% of a CPU,
 *     but its N x 20 wake-ups a second cost more than the work on a virtual CPU: at 1,000 threads
 *     the pool alone used 1.2 CPUs of this 2-vCPU machine, and any profiler loses ticks to it.
 * For each N and shape, the pool runs once unprofiled and once attached to in wall mode (101 Hz)
 * and in cpu mode (101 Hz) for FC_BENCH_SECONDS (default 3). Printed, beside the goals:
 *   - wall: share of threads x ticks captured (>= 95%), ticks lost and why;
 *   - cpu: light threads with a sample, samples vs the pool's CPU time x rate;
 *   - the bursty thread's samples in its work vs its measured busy share (within 3 points);
 *   - the pool's worst wake-up delay, profiled vs unprofiled (within 2 ms);
 *   - the profiler's CPU per second (<= 5% of a core at 100 threads): this process's threads'
 *     run time from schedstat (nanoseconds, less noisy than clock ticks), each named;
 *   - the profiler's CPU time by phase (getrusage): attach, sampling (and its share of a core),
 *     stop, detach;
 *   - the median, p99 and longest ptrace stop.
 * Figures only: this never fails. FC_BENCH_THREADS (default "100,300,1000") picks the sizes,
 * FC_BENCH_MODES (default "wall,cpu") the modes, FC_BENCH_SHAPES (default "light,dense") the
 * pool's shapes.
 */

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-capture-summary.h"
#include "fc-recorder.h"

#ifndef FC_TARGETS_DIR
# error "FC_TARGETS_DIR must point to the built test targets"
#endif

/* this process's CPU seconds, threads that ended included */
static double
cpu_now (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

typedef struct {
  double  worst_wake_ms;
  gint64  worst_wake_us_at;   /* CLOCK_MONOTONIC, as g_get_monotonic_time() */
  double  bursty_share;
  int     bursty_tid;
  double  cpu_s;
} PoolFacts;

/* ns on a CPU of each thread of process @pid (0: this one; schedstat's first field, not the
 * clock ticks of stat): tid -> ns, and tid -> its name in @names */
static GHashTable *
threads_cpu (GPid        pid,
             GHashTable *names)
{
  g_autofree char *task_dir = pid > 0 ? g_strdup_printf ("/proc/%d/task", pid) : g_strdup ("/proc/self/task");
  g_autoptr(GDir) dir = g_dir_open (task_dir, 0, NULL);
  GHashTable *ns = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s/schedstat", task_dir, name);
      g_autofree char *comm_path = g_strdup_printf ("%s/%s/comm", task_dir, name);
      g_autofree char *text = NULL;
      char *comm = NULL;
      guint64 value;

      if (!g_file_get_contents (path, &text, NULL, NULL))
        continue;
      value = g_ascii_strtoull (text, NULL, 10);
      g_hash_table_insert (ns, GINT_TO_POINTER (atoi (name)), g_memdup2 (&value, sizeof value));
      if (names != NULL && g_file_get_contents (comm_path, &comm, NULL, NULL))
        g_hash_table_insert (names, GINT_TO_POINTER (atoi (name)), g_strchomp (comm));
    }
  return ns;
}

/* CPU seconds the threads named @comm used between @before and @after */
static double
threads_cpu_delta (GHashTable *before,
                   GHashTable *after,
                   GHashTable *names,
                   const char *comm)
{
  GHashTableIter iter;
  gpointer key, value;
  double sum = 0;

  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const guint64 *then = g_hash_table_lookup (before, key);
      const char *name = g_hash_table_lookup (names, key);

      if (g_strcmp0 (name, comm) != 0)
        continue;
      sum += (*(guint64 *) value - (then != NULL ? *then : 0)) / 1e9;
    }
  return sum;
}

static PoolFacts
read_pool (const char *path)
{
  g_autofree char *text = NULL;
  PoolFacts facts = { -1, 0, -1, 0, -1 };
  const char *p;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return facts;
  if ((p = strstr (text, "worst_wake_us ")) != NULL)
    facts.worst_wake_ms = g_ascii_strtod (p + 14, NULL) / 1000;
  if ((p = strstr (text, "worst_wake_at ")) != NULL)
    facts.worst_wake_us_at = g_ascii_strtoll (p + 14, NULL, 10) / 1000;
  if ((p = strstr (text, "bursty ")) != NULL)
    sscanf (p, "bursty %d busy_share %lf", &facts.bursty_tid, &facts.bursty_share);
  if ((p = strstr (text, "cpu_s ")) != NULL)
    facts.cpu_s = g_ascii_strtod (p + 6, NULL);
  return facts;
}

typedef struct {
  const char *name;
  guint       busy_us;     /* CPU time a thread burns each period */
  guint       period_us;
} PoolShape;

/* N threads that together ask 30% of one CPU (see the top of the file) */
static PoolShape
pool_shape (guint       n,
            const char *name)
{
  PoolShape shape = { "dense", MAX (15000 / n, 5), 50000 };

  if (g_strcmp0 (name, "light") == 0)
    {
      shape.name = "light";
      shape.period_us = MAX (50000, n * 500);
      shape.busy_us = shape.period_us * 3 / 10 / n;
    }
  return shape;
}

/* Starts the pool for @seconds; returns its pid, or -1. */
static GPid
start_pool (guint            n,
            const PoolShape *shape,
            double           seconds,
            const char      *out)
{
  g_autofree char *pool = g_strdup_printf ("%s/fc-target-pool", FC_TARGETS_DIR);
  g_autofree char *n_arg = g_strdup_printf ("%u", n);
  g_autofree char *busy_arg = g_strdup_printf ("%u", shape->busy_us);
  g_autofree char *period_arg = g_strdup_printf ("%u", shape->period_us);
  g_autofree char *d_arg = g_strdup_printf ("%.1f", seconds);
  const char *argv[] = { pool, "-n", n_arg, "-b", busy_arg, "-p", period_arg, "-B", "-d", d_arg, "-o", out, NULL };
  g_autoptr(GError) error = NULL;
  GPid pid;

  if (!g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error))
    {
      printf ("  cannot start the pool: %s\n", error->message);
      return -1;
    }
  return pid;
}

static void
wait_pool (GPid pid)
{
  int status;
  waitpid (pid, &status, 0);
}

/* samples of @tid in @chunks, and of those with @function in their stack */
static guint64
count_thread (GPtrArray  *chunks,
              int         tid,
              const char *function,
              guint64    *n_with,
              GHashTable *sampled_tids)
{
  g_autofree char *tid_string = g_strdup_printf ("%d", tid);
  guint64 n = 0;

  *n_with = 0;
  for (guint c = 0; c < chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, c);
      guint n_samples;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (guint i = 0; i < n_samples; i++)
        {
          const FcThread *t = fc_profile_get_thread (chunk, samples[i].thread);
          const char *sample_tid = fc_profile_string (chunk, t->tid);
          guint32 frames[256];
          guint depth;

          g_hash_table_add (sampled_tids, GINT_TO_POINTER (atoi (sample_tid)));
          if (strcmp (sample_tid, tid_string) != 0)
            continue;
          n++;
          depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          for (guint k = 0; k < depth; k++)
            if (g_strcmp0 (fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[k])->function),
                           function) == 0)
              {
                (*n_with)++;
                break;
              }
        }
    }
  return n;
}

static void
chunk_ready_cb (FcRecorder *recorder,
                FcProfile  *chunk,
                GPtrArray  *chunks)
{
  g_ptr_array_add (chunks, g_object_ref (chunk));
}

static gboolean
quit_cb (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
attached (guint            n,
          const PoolShape *shape,
          FcSamplerMode    mode,
          double        seconds,
          double        bare_wake_ms)
{
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "fc-bench-threads.out", NULL);
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) sampled = g_hash_table_new (NULL, NULL);
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  const char *name = mode == FC_SAMPLER_MODE_WALL ? "wall" : "cpu";
  FcSamplerStats stats;
  g_autoptr(GHashTable) names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) cpu0 = NULL;
  g_autoptr(GHashTable) cpu1 = NULL;
  g_autoptr(GHashTable) pool0 = NULL;
  g_autoptr(GHashTable) pool1 = NULL;
  double pool_cpu = 0, expected_threads = 0;
  guint64 n_ticks_threads = 0, n_unwound = 0, unwind_ns = 0, symbolize_ns = 0;
  double cpu_started = 0, cpu_stopping = 0, cpu_detaching = 0;
  double attach_s = 0, process_cpu0, all_cpu, sampler_cpu, unwinder_cpu, main_cpu, seconds_attached;
  gint64 t0, t1, t_started = 0, t_stop = 0, t_detach = 0;
  guint64 requested = 0, captured = 0, late = 0, refused = 0, too_short = 0, n_bursty, n_work;
  PoolFacts facts;
  GPid pid;

  /* the pool runs until the recording has ended (SIGTERM below): attaching to 1,000 threads took
   * 5-6 s on a busy machine, as long as the pool ran when it had a fixed end */
  pid = start_pool (n, shape, 3600, out);
  if (pid < 0)
    return;
  g_usleep (G_USEC_PER_SEC);
  g_object_set (recorder, "mode", mode, "frequency", 101, NULL);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), chunks);
  cpu0 = threads_cpu (0, NULL);
  process_cpu0 = cpu_now ();
  t0 = g_get_monotonic_time ();
  if (!fc_recorder_attach (recorder, pid, &error) || ((attach_s = (g_get_monotonic_time () - t0) / 1e6), FALSE) ||
      !fc_recorder_start (recorder, &error))
    {
      printf ("  %u threads (%s), %s mode: %s\n", n, shape->name, name, error->message);
      fc_recorder_detach (recorder);
      kill (pid, SIGKILL);
      wait_pool (pid);
      return;
    }
  t_started = g_get_monotonic_time ();
  cpu_started = cpu_now ();
  pool0 = threads_cpu (pid, NULL);
  g_timeout_add ((guint) (seconds * 1000), quit_cb, loop);
  g_main_loop_run (loop);
  pool1 = threads_cpu (pid, NULL);
  t_stop = g_get_monotonic_time ();
  cpu_stopping = cpu_now ();
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  summary = fc_recorder_dup_summary (recorder);
  fc_recorder_get_sampler_stats (recorder, &stats);
  /* the unwinder ends with the detach */
  cpu1 = threads_cpu (0, names);
  t_detach = g_get_monotonic_time ();
  cpu_detaching = cpu_now ();
  fc_recorder_detach (recorder);
  t1 = g_get_monotonic_time ();
  seconds_attached = (t1 - t0) / 1e6;
  all_cpu = (cpu_now () - process_cpu0) / seconds_attached;
  /* the process's CPU time (getrusage) by phase: what sampling costs per second, apart from the
   * one-off costs of attaching (perf rings, first stacks) and detaching (unmapping them) */
  {
    double cpu_end = cpu_now ();

    printf ("  %4u threads (%s), %-4s: profiler CPU by phase (getrusage): attach %.0f ms, sampling %.0f ms in "
            "%.2f s = %.1f%% of a core, stop %.0f ms, detach %.0f ms\n", n, shape->name, name,
            1000 * (cpu_started - process_cpu0), 1000 * (cpu_stopping - cpu_started), (t_stop - t_started) / 1e6,
            100 * (cpu_stopping - cpu_started) / MAX ((t_stop - t_started) / 1e6, 1e-3),
            1000 * (cpu_detaching - cpu_stopping), 1000 * (cpu_end - cpu_detaching));
  }
  sampler_cpu = threads_cpu_delta (cpu0, cpu1, names, "fc-sampler") / seconds_attached;
  unwinder_cpu = threads_cpu_delta (cpu0, cpu1, names, "fc-unwinder") / seconds_attached;
  main_cpu = threads_cpu_delta (cpu0, cpu1, names, "bench-threads") / seconds_attached;
  kill (pid, SIGTERM);
  wait_pool (pid);
  facts = read_pool (out);
  unlink (out);

  /* the pool's CPU while sampled, thread by thread: at 101 Hz a thread that ran c seconds is owed
   * c x 101 samples, and has one at all with probability min (1, c x 101) (a random phase) */
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, pool1);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        const guint64 *then = g_hash_table_lookup (pool0, key);
        double c = (*(guint64 *) value - (then != NULL ? *then : 0)) / 1e9;

        pool_cpu += c;
        if (c > 0)
          expected_threads += MIN (1.0, c * 101);
      }
  }
  {
    FcUnwindStats unwind;
    fc_recorder_get_unwind_stats (recorder, &unwind);
    n_unwound = unwind.n_unwound;
    unwind_ns = unwind.unwind_ns;
    symbolize_ns = unwind.symbolize_ns;
  }
  for (guint i = 0; i < summary->threads->len; i++)
    {
      const FcThreadSummary *t = &g_array_index (summary->threads, FcThreadSummary, i);
      requested += t->n_ticks;
      captured += t->n_samples;
      late += t->n_late;
      refused += t->n_refused;
      too_short += t->n_too_short;
    }
  n_bursty = count_thread (chunks, facts.bursty_tid, "pool_bursty_work", &n_work, sampled);

  printf ("  %4u threads (%s), %-4s: ", n, shape->name, name);
  if (mode == FC_SAMPLER_MODE_WALL)
    printf ("threads x ticks captured %5.1f%% (goal >= 95%%; lost %" G_GUINT64_FORMAT " late, %" G_GUINT64_FORMAT
            " refused, %" G_GUINT64_FORMAT " too short; sampler late for %" G_GUINT64_FORMAT " ticks)\n",
            requested ? 100.0 * captured / requested : 0, late, refused, too_short, summary->dropped_ticks);
  else
    printf ("threads sampled %u of %u (%.0f expected from their CPU time); %" G_GUINT64_FORMAT " samples for %.2f s "
            "of pool CPU while sampled: %.0f%% of CPU x rate (%" G_GUINT64_FORMAT " lost by the kernel)\n",
            g_hash_table_size (sampled), n + 2, expected_threads, summary->n_samples, pool_cpu,
            pool_cpu > 0 ? 100 * summary->n_samples / (pool_cpu * 101) : 0, summary->lost_samples);
  printf ("        bursty thread: %.1f%% of its %" G_GUINT64_FORMAT " samples in its work, busy %.1f%% by its clock "
          "(goal within 3 points)\n",
          n_bursty ? 100.0 * n_work / n_bursty : 0, n_bursty, 100 * facts.bursty_share);
  printf ("        worst wake-up delay %.1f ms (unprofiled %.1f ms; goal within 2 ms); ptrace stops %" G_GUINT64_FORMAT
          ", median %.0f us, p99 %.0f us, worst %.0f us\n", facts.worst_wake_ms, bare_wake_ms, stats.n_stops,
          stats.median_stop_us, stats.p99_stop_us, stats.max_stop_us);
  /* which part of the recording held the pool longest: attach, sampling, stop or detach */
  {
    gint64 at = facts.worst_wake_us_at;
    const char *phase = at < t0 ? "before the attach" : at < t_started ? "in the attach and start"
                        : at < t_stop ? "while sampling" : at < t_detach ? "in the stop"
                        : at < t1 ? "in the detach" : "after the detach";
    gint64 since = at < t0 ? at - t0 : at < t_started ? at - t0 : at < t_stop ? at - t_started
                   : at < t_detach ? at - t_stop : at < t1 ? at - t_detach : at - t1;
    printf ("        the worst wake-up came %s (%+.1f ms from its start; the detach took %.1f ms)\n", phase,
            since / 1e3, (t1 - t_detach) / 1e3);
  }
  printf ("        profiler CPU %.1f%% of a core (goal <= 5%% at 100 threads; attach to detach, per thread: sampler %.1f%%, "
          "unwinder %.1f%%, main loop %.1f%%, the rest and the detach %.1f%%); attach %.0f ms; the pool used %.2f s, %.0f%% of a CPU "
          "while sampled\n",
          100 * all_cpu, 100 * sampler_cpu, 100 * unwinder_cpu, 100 * main_cpu,
          100 * (all_cpu - sampler_cpu - unwinder_cpu - main_cpu), 1000 * attach_s, facts.cpu_s,
          100 * pool_cpu / MAX ((t_stop - t_started) / 1e6, 1e-3));
  n_ticks_threads = mode == FC_SAMPLER_MODE_WALL ? requested : 0;
  printf ("        per unit of work (robust under load): sampler %.2f us a thread x tick, unwinder %.1f us a stack "
          "unwound (%" G_GUINT64_FORMAT " unwound: %.1f us in libunwind, %.1f us symbolizing), %.2f us a sample; "
          "the sampler took %" G_GUINT64_FORMAT " stacks and reused %" G_GUINT64_FORMAT "\n",
          n_ticks_threads ? 1e6 * sampler_cpu * seconds_attached / n_ticks_threads : 0,
          n_unwound ? 1e6 * unwinder_cpu * seconds_attached / n_unwound : 0, n_unwound,
          n_unwound ? unwind_ns / 1e3 / n_unwound : 0, n_unwound ? symbolize_ns / 1e3 / n_unwound : 0,
          summary->n_samples ? 1e6 * unwinder_cpu * seconds_attached / summary->n_samples : 0,
          stats.n_samples - stats.n_reused, stats.n_reused);
  fflush (stdout);
}

int
main (int    argc,
      char **argv)
{
  const char *sizes = g_getenv ("FC_BENCH_THREADS");
  const char *modes = g_getenv ("FC_BENCH_MODES") ? g_getenv ("FC_BENCH_MODES") : "wall,cpu";
  double seconds = g_getenv ("FC_BENCH_SECONDS") ? g_ascii_strtod (g_getenv ("FC_BENCH_SECONDS"), NULL) : 3;
  const char *shapes = g_getenv ("FC_BENCH_SHAPES") ? g_getenv ("FC_BENCH_SHAPES") : "light,dense";
  g_auto(GStrv) list = g_strsplit (sizes ? sizes : "100,300,1000", ",", -1);
  g_auto(GStrv) shape_list = g_strsplit (shapes, ",", -1);
  double load[3];

  if (getloadavg (load, 3) == 3)
    printf ("bench-threads: load %.2f %.2f %.2f, %.1f s attached at 101 Hz\n", load[0], load[1], load[2], seconds);
  for (guint s = 0; shape_list[s] != NULL; s++)
    for (guint i = 0; list[i] != NULL; i++)
      {
        guint n = atoi (list[i]);
        PoolShape shape = pool_shape (n, shape_list[s]);
        g_autofree char *out = g_build_filename (g_get_tmp_dir (), "fc-bench-threads.bare", NULL);
        PoolFacts bare;
        GPid pid = start_pool (n, &shape, seconds + 2.5, out);

        if (pid < 0)
          return 0;
        wait_pool (pid);
        bare = read_pool (out);
        unlink (out);
        printf ("  %4u threads (%s: %u us of CPU every %u ms each, %.0f wake-ups/s, asks %.0f%% of a CPU), "
                "unprofiled: worst wake-up delay %.1f ms, bursty busy %.1f%%, pool CPU %.2f s in %.1f s (%.0f%% of a "
                "CPU)\n", n, shape.name, shape.busy_us, shape.period_us / 1000, n * 1e6 / shape.period_us,
                100.0 * n * shape.busy_us / shape.period_us, bare.worst_wake_ms, 100 * bare.bursty_share, bare.cpu_s,
                seconds + 2.5, 100 * bare.cpu_s / (seconds + 2.5));
        if (strstr (modes, "wall") != NULL)
          attached (n, &shape, FC_SAMPLER_MODE_WALL, seconds, bare.worst_wake_ms);
        if (strstr (modes, "cpu") != NULL)
          attached (n, &shape, FC_SAMPLER_MODE_CPU, seconds, bare.worst_wake_ms);
      }
  return 0;
}
