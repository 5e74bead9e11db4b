/* test-ticks.c - wall mode's account of every tick, the bursty thread's share, cpu mode fair to
 * light threads; checked against the recording itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target is tests/targets/pool.c, launched: it prints what it measured of itself (its
 * threads' lifetimes, the bursty thread's busy share) to a file read after it exits.
 */

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-capture-summary.h"
#include "fc-recorder.h"
#include "fc-test-capture.h"
#include "fc-test-util.h"

typedef enum {
  METHOD_PERF,       /* switch-out stacks where the kernel gives them (root here) */
  METHOD_PERF_STOPS, /* perf for running threads, a ptrace stop per sleep */
  METHOD_PTRACE,     /* a ptrace stop per thread per tick */
} Method;

typedef struct {
  GMainLoop        *loop;
  GPtrArray        *chunks;
  FcCaptureSummary *summary;
  GHashTable       *facts;      /* "tid" or "tid.field" -> value, from the target's own file */
} Run;

static void
chunk_ready_cb (FcRecorder *recorder,
                FcProfile  *chunk,
                Run        *run)
{
  g_ptr_array_add (run->chunks, g_object_ref (chunk));
}

static void
target_exited_cb (FcRecorder *recorder,
                  int         status,
                  Run        *run)
{
  g_main_loop_quit (run->loop);
}

/* "name value..." lines: name -> the rest of the line */
static GHashTable *
read_facts (const char *path)
{
  GHashTable *facts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strchr (lines[i], ' ');
      if (space != NULL)
        g_hash_table_insert (facts, g_strndup (lines[i], space - lines[i]), g_strdup (space + 1));
    }
  return facts;
}

/* Launches the pool with @args, records it in @mode at @frequency until it exits; the pool's
 * light threads begin their work once the sampler knows @n_known threads. */
static void
run_pool (Run          *run,
          FcSamplerMode mode,
          Method        method,
          guint         frequency,
          guint         n_known,
          const char   *args)
{
  g_autofree char *pool = fc_test_target_path ("pool");
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "fc-test-ticks.out", NULL);
  g_autofree char *fifo = g_build_filename (g_get_tmp_dir (), "fc-test-ticks.go", NULL);
  g_autofree char *command = g_strdup_printf ("%s %s -o %s -w %s", pool, args, out, fifo);
  g_auto(GStrv) argv = NULL;
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (g_shell_parse_argv (command, NULL, &argv, NULL));
  g_unlink (fifo);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_unsetenv ("FC_SAMPLER_NO_SWITCH_STACKS");
  if (method == METHOD_PERF_STOPS)
    g_setenv ("FC_SAMPLER_NO_SWITCH_STACKS", "1", TRUE);
  fc_recorder_set_force_ptrace (recorder, method == METHOD_PTRACE);
  fc_recorder_set_mode (recorder, mode);
  fc_recorder_set_frequency (recorder, frequency);

  run->loop = g_main_loop_new (NULL, FALSE);
  run->chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), run);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), run);
  g_assert_true (fc_recorder_spawn (recorder, (const char * const *) argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  /* the pool begins once sampling has and the sampler knows its threads: the lifetimes of the
   * threads it starts then all lie in the recording */
  {
    FcSamplerStats stats = { 0 };
    int fd;

    fc_test_poll_until ((fc_recorder_get_sampler_stats (recorder, &stats), stats.n_threads >= n_known));
    fd = open (fifo, O_WRONLY);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (write (fd, "x", 1), ==, 1);
    close (fd);
  }
  g_unlink (fifo);
  g_main_loop_run (run->loop);
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  run->summary = fc_recorder_dup_summary (recorder);
  fc_recorder_detach (recorder);
  g_unsetenv ("FC_SAMPLER_NO_SWITCH_STACKS");

  text = fc_capture_summary_format (run->summary);
  g_test_message ("%s", text);
  run->facts = read_facts (out);
  g_unlink (out);
}

static void
run_clear (Run *run)
{
  g_main_loop_unref (run->loop);
  g_ptr_array_unref (run->chunks);
  fc_capture_summary_free (run->summary);
  g_hash_table_unref (run->facts);
}

/* The recording's own samples of thread @tid (0: of every thread), and of those the ones whose
 * stack holds @function (if not NULL). */
static guint64
count_samples (Run        *run,
               int         tid,
               const char *function,
               guint64    *n_with)
{
  g_autoptr(GHashTable) with = NULL;
  g_autoptr(GHashTable) counts = fc_test_count_thread_samples (run->chunks, function, function != NULL ? &with : NULL);
  GHashTableIter iter;
  gpointer key, value;
  guint64 n = 0;

  if (n_with != NULL)
    *n_with = 0;
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (tid == 0 || GPOINTER_TO_INT (key) == tid)
      {
        n += GPOINTER_TO_UINT (value);
        if (n_with != NULL && with != NULL)
          *n_with += GPOINTER_TO_UINT (g_hash_table_lookup (with, key));
      }
  return n;
}

static const FcThreadSummary *
thread_summary (Run *run,
                int  tid)
{
  for (guint i = 0; i < run->summary->threads->len; i++)
    {
      const FcThreadSummary *t = &g_array_index (run->summary->threads, FcThreadSummary, i);
      if (t->tid == tid)
        return t;
    }
  return NULL;
}

/* "late TID START END": the thread's tid and the ticks its own lifetime must hold */
static int
timed_thread (Run        *run,
              const char *name,
              guint       frequency,
              guint64    *min_ticks)
{
  const char *line = g_hash_table_lookup (run->facts, name);
  int tid;
  gint64 start, end;

  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line, "%d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, &tid, &start, &end), ==, 3);
  g_assert_cmpint (end, >, start);
  /* the timer fires every 1/frequency s: a span of L s holds at least floor(L * frequency) */
  *min_ticks = (guint64) floor ((end - start) / 1e9 * frequency);
  return tid;
}

/* Every thread's ticks add up, and its captured ticks are the recording's samples; a thread that
 * starts 0.6 s in and one that ends 0.4 s in are requested the ticks of their own lifetimes. */
static void
check_account (Method method)
{
  const guint frequency = 101;
  guint64 late_min, early_min, requested = 0, captured = 0;
  int late_tid, early_tid;
  const FcThreadSummary *late, *early;
  Run run = { 0 };

  run_pool (&run, FC_SAMPLER_MODE_WALL, method, frequency, 7, "-n 6 -b 300 -p 20000 -d 1.5 -L 600 -E 400");

  if (method == METHOD_PTRACE)
    g_assert_nonnull (strstr (run.summary->method, "ptrace stops of every thread"));
  else if (method == METHOD_PERF_STOPS)
    g_assert_nonnull (strstr (run.summary->method, "one ptrace stop per sleep"));
  g_assert_cmpuint (run.summary->threads->len, ==, 9);
  fc_test_assert_ticks_add_up (run.summary, run.chunks);
  for (guint i = 0; i < run.summary->threads->len; i++)
    {
      requested += g_array_index (run.summary->threads, FcThreadSummary, i).n_ticks;
      captured += g_array_index (run.summary->threads, FcThreadSummary, i).n_samples;
    }
  g_assert_cmpuint (captured, ==, count_samples (&run, 0, NULL, NULL));
  g_assert_cmpuint (captured, ==, run.summary->n_samples);
  g_assert_cmpuint (requested, >, 0);

  late_tid = timed_thread (&run, "late", frequency, &late_min);
  early_tid = timed_thread (&run, "early", frequency, &early_min);
  late = thread_summary (&run, late_tid);
  early = thread_summary (&run, early_tid);
  g_assert_nonnull (late);
  g_assert_nonnull (early);
  /* a new thread waits in its first ptrace stop until the sampler knows it, and the sampler
   * learns of an exit after it happened: the ticks of its own lifetime are all requested */
  g_assert_cmpuint (late->n_ticks + 1, >=, late_min);
  g_assert_cmpuint (early->n_ticks + 1, >=, early_min);
  run_clear (&run);
}

static void
test_account_perf (void)
{
  check_account (METHOD_PERF);
}

static void
test_account_perf_stops (void)
{
  check_account (METHOD_PERF_STOPS);
}

static void
test_account_ptrace (void)
{
  check_account (METHOD_PTRACE);
}

static guint64
thread_late (FcRecorder *recorder,
             int         tid)
{
  FcCaptureSummary *summary = fc_recorder_dup_summary (recorder);
  guint64 late = 0;

  for (guint i = 0; i < summary->threads->len; i++)
    if (g_array_index (summary->threads, FcThreadSummary, i).tid == tid)
      late = g_array_index (summary->threads, FcThreadSummary, i).n_late;
  fc_capture_summary_free (summary);
  return late;
}

/* A stop asked for at a tick that has not come by the next: the parent of a vfork child cannot
 * stop until the child is gone. The next ticks are late; the tick that asked for it ends when
 * the stop comes (captured) or when the thread ends without it (too short). The later ticks
 * used to end it as late, and a thread that ended before its stop left it without an outcome:
 * one tick unaccounted (165 vs 166 under UBSan). Each thread's ticks add up either way. */
static void
check_account_stop_after_tick (gboolean stop_comes)
{
  g_autofree char *vforker = fc_test_target_path ("vforker");
  const char *argv[] = { vforker, NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  FcSamplerStats stats = { 0 };
  char buf[8] = { 0 };
  int in_fd, out_fd;
  guint64 late;
  GPid pid;
  Run run = { 0 };

  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &in_fd,
                            &out_fd, NULL, &error);
  g_assert_no_error (error);
  /* the child runs: the parent waits for it in the kernel, where no stop reaches it */
  g_assert_cmpint (read (out_fd, buf, 6), ==, 6);
  g_setenv ("FC_SAMPLER_NO_SWITCH_STACKS", "1", TRUE);
  fc_recorder_set_mode (recorder, FC_SAMPLER_MODE_WALL);
  run.loop = g_main_loop_new (NULL, FALSE);
  run.chunks = g_ptr_array_new_with_free_func (g_object_unref);
  run.facts = g_hash_table_new (g_str_hash, g_str_equal);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), &run);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), &run);
  g_assert_true (fc_recorder_attach (recorder, pid, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  run.summary = fc_recorder_dup_summary (recorder);
  if (strstr (run.summary->method, "one ptrace stop per sleep") == NULL)
    {
      /* no perf events here: every tick's stops are waited for, none comes after its tick */
      g_test_skip ("needs perf events for running threads (the ptrace fallback waits for every stop)");
      kill (pid, SIGKILL);
      g_main_loop_run (run.loop);
      fc_recorder_detach (recorder);
      g_unsetenv ("FC_SAMPLER_NO_SWITCH_STACKS");
      close (in_fd);
      close (out_fd);
      run_clear (&run);
      return;
    }
  /* a stop was sent, and a tick after it counted it late */
  fc_test_poll_until ((fc_recorder_get_sampler_stats (recorder, &stats), stats.n_stops >= 1));
  late = thread_late (recorder, pid);
  fc_test_poll_until (thread_late (recorder, pid) > late);
  if (stop_comes)
    {
      /* the child exits, the parent takes its stop, then prints "done" and exits */
      g_assert_cmpint (write (in_fd, "x", 1), ==, 1);
    }
  else
    kill (pid, SIGKILL);   /* the child reads end-of-file once in_fd is closed */
  /* the sampler, its tracer, reaps it */
  g_main_loop_run (run.loop);
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  fc_capture_summary_free (run.summary);
  run.summary = fc_recorder_dup_summary (recorder);
  fc_recorder_detach (recorder);
  g_unsetenv ("FC_SAMPLER_NO_SWITCH_STACKS");
  close (in_fd);
  close (out_fd);

  fc_test_assert_ticks_add_up (run.summary, run.chunks);
  /* the parent's stack, taken when its stop came at last */
  if (stop_comes)
    g_assert_cmpuint (count_samples (&run, pid, NULL, NULL), >=, 1);
  run_clear (&run);
}

static void
test_account_stop_after_tick (void)
{
  check_account_stop_after_tick (TRUE);
}

static void
test_account_stop_never_comes (void)
{
  check_account_stop_after_tick (FALSE);
}

/* A thread busy ~5% of its time (1 ms of each 20 ms) shows its work in as many of its wall
 * samples as it measured itself, within five binomial standard deviations of that many. */
static void
check_bursty (Method method)
{
  guint64 n, n_work;
  double share, measured, margin;
  int tid;
  Run run = { 0 };

  run_pool (&run, FC_SAMPLER_MODE_WALL, method, 101, 1, "-n 0 -B -d 4");
  g_assert_cmpint (sscanf (g_hash_table_lookup (run.facts, "bursty"), "%d busy_share %lf", &tid, &measured), ==, 2);
  n = count_samples (&run, tid, "pool_bursty_work", &n_work);
  g_assert_cmpuint (n, >, 100);
  share = (double) n_work / n;
  margin = fc_test_binomial_margin (n, measured) / n;
  g_test_message ("bursty thread: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples in its work (%.1f%%), "
                  "busy %.1f%% by its own clock; margin %.1f points",
                  n_work, n, 100 * share, 100 * measured, 100 * margin);
  g_assert_cmpfloat (fabs (share - measured), <=, margin);
  run_clear (&run);
}

static void
test_bursty_perf (void)
{
  check_bursty (METHOD_PERF);
}

static void
test_bursty_perf_stops (void)
{
  check_bursty (METHOD_PERF_STOPS);
}

/* cpu mode's samples of each light thread (whose stack holds light_thread()), by tid */
static GHashTable *
count_light_samples (Run *run)
{
  g_autoptr(GHashTable) all = NULL;
  GHashTable *light;

  all = fc_test_count_thread_samples (run->chunks, "light_thread", &light);
  return light;
}

/* cpu mode: 200 threads each using 6 ms of CPU time in 20 us bursts (a fiftieth of a period at
 * 1000 Hz per burst, 6 periods in all), all sampled: each thread's first period starts at a
 * random phase and its CPU time counts from its first instruction of work. */
static void
test_cpu_light_threads (void)
{
  g_autoptr(GHashTable) tids = NULL;
  g_autofree char *hint = NULL;
  guint64 n;
  Run run = { 0 };

  run_pool (&run, FC_SAMPLER_MODE_CPU, METHOD_PERF, 1000, 201, "-n 200 -b 20 -p 10000 -c 300");
  n = count_samples (&run, 0, NULL, NULL);
  tids = count_light_samples (&run);
  g_test_message ("%" G_GUINT64_FORMAT " samples; %u light threads sampled", n, g_hash_table_size (tids));
  g_assert_cmpuint (g_hash_table_size (tids), ==, 200);
  hint = fc_capture_summary_dup_hint (run.summary);
  g_assert_cmpstr (hint, ==, NULL);
  run_clear (&run);
}

/* cpu mode: 200 threads that each start, run 2 ms and end, at 101 Hz (a period of 9.9 ms). Each
 * is sampled once with a chance of 2/9.9 (its first period is drawn from the whole period), never
 * more than twice: the first period lasts until the sampler sets the full one, and a thread
 * running past a short one gave a burst of samples (up to one every 10 us). */
static void
test_cpu_first_period (void)
{
  const guint frequency = 101, n_threads = 200;
  const double cpu_s = 0.002;
  g_autoptr(GHashTable) counts = NULL;
  GHashTableIter iter;
  gpointer value;
  guint64 total = 0;
  double p = cpu_s * frequency, margin;
  Run run = { 0 };

  run_pool (&run, FC_SAMPLER_MODE_CPU, METHOD_PERF, frequency, n_threads + 1, "-n 200 -b 2000 -c 1");
  counts = count_light_samples (&run);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_assert_cmpuint (GPOINTER_TO_UINT (value), <=, 2);
      total += GPOINTER_TO_UINT (value);
    }
  margin = fc_test_binomial_margin (n_threads, p);
  g_test_message ("%" G_GUINT64_FORMAT " samples of %u threads of 2 ms; expected %.1f +- %.1f, %" G_GUINT64_FORMAT
                  " lost by the kernel", total, n_threads, n_threads * p, margin, run.summary->lost_samples);
  g_assert_cmpfloat (fabs (total - n_threads * p), <=, margin);
  run_clear (&run);
}

/* cpu mode: two threads each using 150 ms of CPU time (5 ms of every 10 ms) at 1000 Hz get
 * 150 samples each, within five standard deviations (of a Poisson count, more than a sampler
 * with a random phase varies): the first period's burst is thinned to full periods, not dropped,
 * however late the sampler drains the ring, and samples the kernel lost are counted. */
static void
test_cpu_known_time (void)
{
  const guint frequency = 1000;
  const double cpu_s = 0.150;
  g_autoptr(GHashTable) counts = NULL;
  GHashTableIter iter;
  gpointer key, value;
  double expected = cpu_s * frequency, margin = 5 * sqrt (expected);
  Run run = { 0 };

  run_pool (&run, FC_SAMPLER_MODE_CPU, METHOD_PERF, frequency, 3, "-n 2 -b 5000 -p 10000 -c 30");
  counts = count_light_samples (&run);
  g_assert_cmpuint (g_hash_table_size (counts), ==, 2);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint n = GPOINTER_TO_UINT (value);

      g_test_message ("thread %d: %u samples, expected %.0f +- %.0f; %" G_GUINT64_FORMAT " lost by the kernel "
                      "(of every thread)", GPOINTER_TO_INT (key), n, expected, margin, run.summary->lost_samples);
      g_assert_cmpfloat (fabs (n + 0.0 - expected), <=, margin);
    }
  run_clear (&run);
}

/* 1,000 light threads in wall mode, where perf events give running and sleeping threads'
 * stacks: every thread gets ticks, each thread's ticks add up, and no thread is stopped more than
 * once. The one stop a thread may cost is by design: one asleep since before the sampler opened its
 * events, with no stack 250 ms on (the pool's main thread blocked in opening the go FIFO, light
 * threads waiting for go when the sampler was slow to learn them on a loaded machine) is stopped
 * once to learn where. Per-tick stops would be ~100 a thread, per-sleep ones ~20. */
static void
test_many_threads_perf (void)
{
  Run run = { 0 };

  run_pool (&run, FC_SAMPLER_MODE_WALL, METHOD_PERF, 101, 1001, "-n 1000 -b 20 -p 50000 -c 20");
  if (strstr (run.summary->method, "switch-out stacks") == NULL)
    {
      g_test_skip_printf ("the kernel gives no switch-out stacks here: %s", run.summary->method);
      run_clear (&run);
      return;
    }
  fc_test_assert_ticks_add_up (run.summary, run.chunks);
  for (guint i = 0; i < run.summary->threads->len; i++)
    g_assert_cmpuint (g_array_index (run.summary->threads, FcThreadSummary, i).n_samples, >, 0);
  g_test_message ("%u threads, %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " ptrace stops",
                  run.summary->threads->len, run.summary->n_samples, run.summary->n_ptrace_stops);
  /* the pool's main thread and its 1,000 light ones */
  g_assert_cmpuint (run.summary->threads->len, ==, 1001);
  g_assert_cmpuint (run.summary->n_samples, ==, count_samples (&run, 0, NULL, NULL));
  g_assert_cmpuint (run.summary->n_ptrace_stops, <=, run.summary->threads->len);
  run_clear (&run);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/core/ticks/account-perf", test_account_perf);
  g_test_add_func ("/core/ticks/account-perf-stops", test_account_perf_stops);
  g_test_add_func ("/core/ticks/account-ptrace", test_account_ptrace);
  g_test_add_func ("/core/ticks/account-stop-after-tick", test_account_stop_after_tick);
  g_test_add_func ("/core/ticks/account-stop-never-comes", test_account_stop_never_comes);
  g_test_add_func ("/core/ticks/bursty-perf", test_bursty_perf);
  g_test_add_func ("/core/ticks/bursty-perf-stops", test_bursty_perf_stops);
  g_test_add_func ("/core/ticks/cpu-light-threads", test_cpu_light_threads);
  g_test_add_func ("/core/ticks/cpu-first-period", test_cpu_first_period);
  g_test_add_func ("/core/ticks/cpu-known-time", test_cpu_known_time);
  g_test_add_func ("/core/ticks/many-threads-perf", test_many_threads_perf);
  return g_test_run ();
}
