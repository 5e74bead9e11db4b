/* test-sampler.c - the sampler on real child programs: safety, signals, threads, errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fc-capture-error.h"
#include "fc-sampler.h"
#include "fc-test-capture.h"
#include "fc-test-util.h"

typedef struct {
  GMutex      lock;
  GCond       cond;
  GHashTable *tids;        /* tid -> its snapshots (sampled or reused), for those with one */
  guint       n_samples;
  guint       n_reused;
  guint       n_exec;
  guint       n_flush;
  gboolean    exited;
  int         exit_status;
} Sink;

static void
sink_count (Sink *sink,
            int   tid)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (sink->tids, GINT_TO_POINTER (tid)));

  g_hash_table_insert (sink->tids, GINT_TO_POINTER (tid), GUINT_TO_POINTER (n + 1));
}

static void
sink_cb (FcSnapshot *snap,
         gpointer    user_data)
{
  Sink *sink = user_data;

  g_mutex_lock (&sink->lock);
  switch (snap->kind)
    {
    case FC_SNAPSHOT_SAMPLE:
      sink->n_samples++;
      sink_count (sink, snap->tid);
      g_assert_cmpuint (snap->regs[16], !=, 0);   /* RIP */
      break;
    case FC_SNAPSHOT_REUSE:
      sink->n_reused++;
      sink_count (sink, snap->tid);
      break;
    case FC_SNAPSHOT_EXEC:
      sink->n_exec++;
      break;
    case FC_SNAPSHOT_FLUSH:
      sink->n_flush++;
      break;
    case FC_SNAPSHOT_TARGET_EXIT:
      sink->exited = TRUE;
      sink->exit_status = snap->status;
      break;
    default:
      g_assert_not_reached ();
    }
  g_cond_broadcast (&sink->cond);
  g_mutex_unlock (&sink->lock);
  g_free (snap);
}

static void
sink_init (Sink *sink)
{
  memset (sink, 0, sizeof *sink);
  g_mutex_init (&sink->lock);
  g_cond_init (&sink->cond);
  sink->tids = g_hash_table_new (NULL, NULL);
  sink->exit_status = -2;
}

static void
sink_clear (Sink *sink)
{
  g_hash_table_unref (sink->tids);
  g_mutex_clear (&sink->lock);
  g_cond_clear (&sink->cond);
}

typedef struct {
  GPid  pid;
  int   in_fd;
  int   out_fd;
} Child;

/* Starts a target with its stdout on a pipe and waits for its "ready" line. */
static Child
child_start (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  Child child = { 0 };
  char buf[6] = { 0 };
  gsize got = 0;

  /* a test that fails with the target stopped does not wait for it: it holds the test's stderr */
  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, fc_test_die_with_test, NULL,
                            &child.pid, &child.in_fd, &child.out_fd, NULL, &error);
  g_assert_no_error (error);
  while (got < 6)
    {
      ssize_t n = read (child.out_fd, buf + got, 6 - got);
      g_assert_cmpint (n, >, 0);
      got += n;
    }
  g_assert_cmpmem (buf, 6, "ready\n", 6);
  return child;
}

static char *
child_finish (Child *child,
              int   *status)
{
  GString *out = g_string_new (NULL);
  char buf[256];
  ssize_t n;

  close (child->in_fd);
  while ((n = read (child->out_fd, buf, sizeof buf)) > 0)
    g_string_append_len (out, buf, n);
  close (child->out_fd);
  g_assert_cmpint (waitpid (child->pid, status, 0), ==, child->pid);
  return g_string_free (out, FALSE);
}

static char
task_state (GPid pid,
            int  tid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task/%d/stat", pid, tid);
  g_autofree char *stat = NULL;
  const char *p;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return 0;
  p = strrchr (stat, ')');
  return p && p[1] && p[2] ? p[2] : 0;
}

static char
process_state (GPid pid)
{
  return task_state (pid, pid);
}

/* After a detach no task may be stopped or traced. */
static void
assert_released (GPid pid)
{
  g_autofree char *dir_path = g_strdup_printf ("/proc/%d/task", pid);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  if (dir == NULL)
    g_error ("process %d is gone after the detach (state %c)", pid, process_state (pid));
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      int tid = atoi (name);
      g_autofree char *status_path = g_strdup_printf ("/proc/%d/task/%d/status", pid, tid);
      g_autofree char *status = NULL;
      char state = task_state (pid, tid);

      if (state == 0)
        continue;   /* exited meanwhile */
      g_assert_cmpint (state, !=, 't');
      g_assert_cmpint (state, !=, 'T');
      if (g_file_get_contents (status_path, &status, NULL, NULL) && strstr (status, "\nTracerPid:\t0\n") == NULL)
        g_error ("task %d of %d is still traced (state %c):\n%s", tid, pid, state, status);
      n++;
    }
  g_assert_cmpuint (n, >, 0);
}

static guint64
run_time_ns (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/schedstat", pid);
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return g_ascii_strtoull (contents, NULL, 10);
}

/* Stopped means: in a stop state ('T', or 't' while traced) and not running for a while. */
static gboolean
in_state (GPid     pid,
          gboolean stopped)
{
  char s = process_state (pid);
  guint64 before;

  if ((s == 'T' || s == 't') != stopped)
    return FALSE;
  before = run_time_ns (pid);
  g_usleep (50 * 1000);
  return (run_time_ns (pid) == before) == stopped;
}

/* as long as a loaded machine takes, up to the suite's deadline */
static void
wait_for_state (GPid     pid,
                gboolean stopped)
{
  fc_test_poll_until (in_state (pid, stopped));
}

static guint64
n_ticks (FcSampler *sampler)
{
  FcSamplerStats stats;

  fc_sampler_get_stats (sampler, &stats);
  return stats.n_ticks;
}

/* waits until the sink has @n more snapshots (sampled or reused) than now: the sampler ticked */
static void
wait_snapshots (Sink  *sink,
                guint  n)
{
  guint from;

  g_mutex_lock (&sink->lock);
  from = sink->n_samples + sink->n_reused;
  fc_test_cond_wait_until (&sink->cond, &sink->lock, sink->n_samples + sink->n_reused >= from + n);
  g_mutex_unlock (&sink->lock);
}

static guint64
n_group_stops (FcSampler *sampler)
{
  FcSamplerStats stats;

  fc_sampler_get_stats (sampler, &stats);
  return stats.n_group_stops;
}

static void
test_no_process (void)
{
  g_autoptr(GError) error = NULL;
  Sink sink;
  FcSampler *sampler;
  pid_t pid = fork ();

  if (pid == 0)
    _exit (0);
  waitpid (pid, NULL, 0);

  sink_init (&sink);
  sampler = fc_sampler_new (sink_cb, &sink);
  g_assert_false (fc_sampler_attach (sampler, pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS);
  g_clear_error (&error);
  g_assert_false (fc_sampler_attach (sampler, pid, FC_SAMPLER_MODE_CPU, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS);
  g_clear_error (&error);
  g_assert_false (fc_sampler_start (sampler, 101, 32768, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS);
  fc_sampler_free (sampler);
  sink_clear (&sink);
}

static void
test_already_traced (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  const char *argv[] = { threads, "-", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  Child child = child_start (argv);
  Sink sink;
  FcSampler *first, *second;
  int status;

  sink_init (&sink);
  first = fc_sampler_new (sink_cb, &sink);
  second = fc_sampler_new (sink_cb, &sink);
  g_assert_true (fc_sampler_attach (first, child.pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_no_error (error);

  g_assert_false (fc_sampler_attach (second, child.pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION);
  /* the message names the tracer */
  g_assert_nonnull (strstr (error->message, "already traced by process"));
  g_assert_nonnull (strstr (error->message, "fc-sampler"));

  fc_sampler_free (second);
  fc_sampler_detach (first);
  assert_released (child.pid);
  fc_sampler_free (first);

  out = child_finish (&child, &status);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpstr (out, ==, "threads done\n");
  sink_clear (&sink);
}

static void
test_attach_detach (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  const char *argv[] = { threads, "-", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  Child child = child_start (argv);
  FcSamplerStats stats;
  FcSampler *sampler;
  Sink sink;
  int status;

  sink_init (&sink);
  sampler = fc_sampler_new (sink_cb, &sink);
  g_assert_true (fc_sampler_attach (sampler, child.pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_sampler_start (sampler, 200, 32768, &error));
  g_assert_no_error (error);
  /* main, two workers and the sleeper all sampled; the sleeper and main mostly wait: their
   * stacks are reused without stopping them */
  g_mutex_lock (&sink.lock);
  fc_test_cond_wait_until (&sink.cond, &sink.lock,
                           g_hash_table_size (sink.tids) == 4 && sink.n_samples > 10 && sink.n_reused > 0);
  g_mutex_unlock (&sink.lock);
  fc_sampler_stop (sampler);
  fc_sampler_get_stats (sampler, &stats);
  fc_sampler_detach (sampler);
  assert_released (child.pid);

  g_mutex_lock (&sink.lock);
  /* no more threads than those four */
  g_assert_cmpuint (g_hash_table_size (sink.tids), ==, 4);
  g_assert_cmpuint (sink.n_flush, ==, 1);
  g_assert_false (sink.exited);
  g_mutex_unlock (&sink.lock);
  g_assert_cmpuint (stats.n_samples, ==, sink.n_samples + sink.n_reused);
  g_assert_cmpfloat (stats.median_stop_us, >, 0);

  fc_sampler_free (sampler);
  out = child_finish (&child, &status);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpstr (out, ==, "threads done\n");
  sink_clear (&sink);
}

static void
test_signals (void)
{
  g_autofree char *signals = fc_test_target_path ("signals");
  const char *argv[] = { signals, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *expected = NULL;
  Child child = child_start (argv);
  FcSampler *sampler;
  Sink sink;
  int status;
  const guint n_rt = 200, n_late_rt = 20;

  sink_init (&sink);
  sampler = fc_sampler_new (sink_cb, &sink);
  g_assert_true (fc_sampler_attach (sampler, child.pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_sampler_start (sampler, 500, 32768, &error));
  g_assert_no_error (error);

  /* real-time signals queue: every one must arrive, re-injected by the sampler */
  for (guint i = 0; i < n_rt; i++)
    {
      union sigval v = { .sival_int = i };
      g_assert_cmpint (sigqueue (child.pid, SIGRTMIN + 1, v), ==, 0);
      if (i % 20 == 0)
        g_usleep (2000);
    }
  g_assert_cmpint (kill (child.pid, SIGUSR1), ==, 0);

  /* job control is respected: a stopped target stays stopped while sampled (20 ticks' worth
   * of snapshots), then continues and is sampled on. The clock starts once the sampler has
   * handed the stop on: /proc says 't' already in the signal-delivery stop before it, and
   * the kernel runs the thread for a moment to complete the group-stop. A stack taken before
   * the stop means no tick has to interrupt the stopped thread for its first one. */
  wait_snapshots (&sink, 1);
  g_assert_cmpint (kill (child.pid, SIGSTOP), ==, 0);
  wait_for_state (child.pid, TRUE);
  fc_test_poll_until (n_group_stops (sampler) >= 1);
  {
    guint64 before = run_time_ns (child.pid);

    wait_snapshots (&sink, 20);
    g_assert_cmpuint (run_time_ns (child.pid), ==, before);
  }
  g_assert_cmpint (kill (child.pid, SIGCONT), ==, 0);
  wait_for_state (child.pid, FALSE);
  wait_snapshots (&sink, 10);

  fc_sampler_stop (sampler);
  /* signals that come as the sampler lets go, some of them in a delivery stop it has not
   * collected: the kernel delivers those when it detaches the thread */
  for (guint i = 0; i < n_late_rt; i++)
    {
      union sigval v = { .sival_int = n_rt + i };
      g_assert_cmpint (sigqueue (child.pid, SIGRTMIN + 1, v), ==, 0);
    }
  fc_sampler_detach (sampler);
  assert_released (child.pid);
  fc_sampler_free (sampler);

  g_assert_cmpint (kill (child.pid, SIGUSR2), ==, 0);
  out = child_finish (&child, &status);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  expected = g_strdup_printf ("usr1 1 rt %u\n", n_rt + n_late_rt);
  g_assert_cmpstr (out, ==, expected);
  g_assert_cmpuint (sink.n_samples, >, 0);
  sink_clear (&sink);
}

/* Context switches of a thread so far: a ptrace stop of a sleeping thread adds at least one */
static guint64
task_switches (GPid pid,
               int  tid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task/%d/status", pid, tid);
  g_autofree char *status = NULL;
  const char *v, *nv;

  g_assert_true (g_file_get_contents (path, &status, NULL, NULL));
  v = strstr (status, "\nvoluntary_ctxt_switches:");
  nv = strstr (status, "\nnonvoluntary_ctxt_switches:");
  g_assert_nonnull (v);
  g_assert_nonnull (nv);
  return g_ascii_strtoull (strchr (v + 1, ':') + 1, NULL, 10) + g_ascii_strtoull (strchr (nv + 1, ':') + 1, NULL, 10);
}

/* Whether every thread but the main one is blocked in clock_nanosleep */
static gboolean
pool_asleep (GPid pid)
{
  return fc_test_tasks_in_syscall (pid, SYS_clock_nanosleep, TRUE, TRUE);
}

/* Letting a recorded program go stops none of its threads: a pool's threads asleep through the
 * detach switch no more than they would without it (the kernel detaches every tracee when the
 * tracing thread ends; interrupting each for PTRACE_DETACH woke them all). */
static void
test_detach_stops_none (void)
{
  g_autofree char *pool = fc_test_target_path ("pool");
  /* 30 threads that work 0.1 ms, then sleep for a minute */
  const char *argv[] = { pool, "-n", "30", "-b", "100", "-p", "60000000", NULL };
  g_autoptr(GHashTable) before = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *dir_path = NULL;
  Child child = child_start (argv);
  FcSampler *sampler;
  Sink sink;
  GHashTableIter iter;
  gpointer key, value;
  int status;

  fc_test_poll_until (pool_asleep (child.pid));
  sink_init (&sink);
  sampler = fc_sampler_new (sink_cb, &sink);
  g_assert_true (fc_sampler_attach (sampler, child.pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_sampler_start (sampler, 101, 32768, &error));
  g_assert_no_error (error);
  wait_snapshots (&sink, 3 * 31);
  fc_sampler_stop (sampler);

  /* sampling may have stopped a sleeper once (a thread asleep since before the attach has no
   * switch-out stack): counted from here, once every one is back in its sleep. The stop
   * collects every stop it asked for, but a resumed thread is counted as switching only when it
   * runs and sleeps again, which at load 61 came after the count (1 switch "in the detach"). */
  fc_test_poll_until (pool_asleep (child.pid));
  dir_path = g_strdup_printf ("/proc/%d/task", child.pid);
  {
    g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
    const char *name;

    g_assert_nonnull (dir);
    while ((name = g_dir_read_name (dir)) != NULL)
      if (atoi (name) != child.pid)
        {
          guint64 n = task_switches (child.pid, atoi (name));
          g_hash_table_insert (before, GINT_TO_POINTER (atoi (name)), g_memdup2 (&n, sizeof n));
        }
  }
  g_assert_cmpuint (g_hash_table_size (before), ==, 30);
  fc_sampler_detach (sampler);
  assert_released (child.pid);
  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      int tid = GPOINTER_TO_INT (key);
      guint64 n = task_switches (child.pid, tid);

      if (n != *(guint64 *) value)
        {
          kill (child.pid, SIGKILL);   /* not left asleep for a minute */
          g_error ("thread %d, asleep, switched %" G_GUINT64_FORMAT " times in the detach", tid,
                   n - *(guint64 *) value);
        }
    }
  /* still asleep where it was, and the program runs on to its normal end */
  g_assert_true (pool_asleep (child.pid));
  fc_sampler_free (sampler);
  g_assert_cmpint (kill (child.pid, SIGTERM), ==, 0);
  out = child_finish (&child, &status);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_nonnull (strstr (out, "worst_wake_us "));
  sink_clear (&sink);
}

/* A program stopped before the attach stays stopped, is still sampled once, and continues later. */
static void
test_already_stopped (void)
{
  g_autofree char *signals = fc_test_target_path ("signals");
  const char *argv[] = { signals, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *status_path = NULL;
  g_autofree char *proc_status = NULL;
  Child child = child_start (argv);
  FcSampler *sampler;
  guint64 before;
  Sink sink;
  int status;

  g_assert_cmpint (kill (child.pid, SIGSTOP), ==, 0);
  wait_for_state (child.pid, TRUE);
  before = run_time_ns (child.pid);

  sink_init (&sink);
  sampler = fc_sampler_new (sink_cb, &sink);
  g_assert_true (fc_sampler_attach (sampler, child.pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_sampler_start (sampler, 200, 32768, &error));
  g_assert_no_error (error);
  g_mutex_lock (&sink.lock);
  fc_test_cond_wait_until (&sink.cond, &sink.lock, sink.n_reused > 10);
  g_mutex_unlock (&sink.lock);
  fc_sampler_stop (sampler);
  fc_sampler_detach (sampler);
  fc_sampler_free (sampler);

  /* one real capture, then its stack reused: the thread never ran */
  g_assert_cmpuint (sink.n_samples, ==, 1);
  g_assert_cmpuint (sink.n_reused, >, 10);
  g_assert_cmpuint (run_time_ns (child.pid), <, before + 5 * 1000 * 1000);
  /* the detach wakes the thread out of its ptrace stop and the kernel puts it straight back
   * into the group stop: on a loaded machine it may show 'R' for a moment before the 'T' */
  wait_for_state (child.pid, TRUE);
  g_assert_cmpint (process_state (child.pid), ==, 'T');
  status_path = g_strdup_printf ("/proc/%d/status", child.pid);
  g_assert_true (g_file_get_contents (status_path, &proc_status, NULL, NULL));
  g_assert_nonnull (strstr (proc_status, "\nTracerPid:\t0\n"));

  g_assert_cmpint (kill (child.pid, SIGCONT), ==, 0);
  wait_for_state (child.pid, FALSE);
  g_assert_cmpint (kill (child.pid, SIGUSR2), ==, 0);
  out = child_finish (&child, &status);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpstr (out, ==, "usr1 0 rt 0\n");
  sink_clear (&sink);
}

static void
test_thread_churn (void)
{
  g_autofree char *churn = fc_test_target_path ("churn");
  const char *argv[] = { churn, "-", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  Child child = child_start (argv);
  FcSampler *sampler;
  Sink sink;
  int status;

  sink_init (&sink);
  sampler = fc_sampler_new (sink_cb, &sink);
  g_assert_true (fc_sampler_attach (sampler, child.pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_sampler_start (sampler, 300, 32768, &error));
  g_assert_no_error (error);
  /* threads born after the attach are followed: more than the first four are sampled */
  g_mutex_lock (&sink.lock);
  fc_test_cond_wait_until (&sink.cond, &sink.lock, g_hash_table_size (sink.tids) > 5);
  g_mutex_unlock (&sink.lock);
  fc_sampler_stop (sampler);
  fc_sampler_detach (sampler);
  assert_released (child.pid);
  fc_sampler_free (sampler);
  out = child_finish (&child, &status);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_true (g_str_has_prefix (out, "churn ran "));
  sink_clear (&sink);
}

/* @argv launched with @envp (NULL: ours) and sampled in wall mode at 200 Hz */
static FcSampler *
spawn_started (Sink               *sink,
               const char * const *argv,
               const char * const *envp)
{
  g_autoptr(GError) error = NULL;
  FcSampler *sampler;

  sink_init (sink);
  sampler = fc_sampler_new (sink_cb, sink);
  fc_sampler_set_launch_environ (sampler, envp);
  g_assert_true (fc_sampler_spawn (sampler, argv, NULL, FC_SAMPLER_MODE_WALL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_sampler_is_spawned (sampler));
  g_assert_true (fc_sampler_start (sampler, 200, 32768, &error));
  g_assert_no_error (error);
  return sampler;
}

static void
test_spawn_exit_status (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-spawn");
  g_autofree char *stop = g_build_filename (tmp, "stop", NULL);
  g_autofree char *script = g_strdup_printf ("exec '%s' -u '%s' -t 2 -x 7 > /dev/null", burner, stop);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autoptr(GHashTable) ticks = NULL;
  FcSampler *sampler;
  FcSamplerStats stats;
  GHashTableIter iter;
  gpointer key, value;
  Sink sink;

  sampler = spawn_started (&sink, argv, NULL);

  /* the burner ends once both its threads were sampled, a few times, over more than five ticks */
  g_mutex_lock (&sink.lock);
  fc_test_cond_wait_until (&sink.cond, &sink.lock,
                           sink.n_exec >= 2 && g_hash_table_size (sink.tids) >= 2 && sink.n_samples > 5);
  g_mutex_unlock (&sink.lock);
  fc_test_poll_until (n_ticks (sampler) > 5);
  g_assert_true (g_file_set_contents (stop, "", 0, NULL));
  g_mutex_lock (&sink.lock);
  fc_test_cond_wait_until (&sink.cond, &sink.lock, sink.exited);
  g_mutex_unlock (&sink.lock);
  fc_test_remove_tree (tmp);

  /* sh, then the burner: the exit status passes through the exec */
  g_assert_true (WIFEXITED (sink.exit_status));
  g_assert_cmpint (WEXITSTATUS (sink.exit_status), ==, 7);
  g_assert_cmpuint (sink.n_exec, >=, 2);
  g_assert_cmpuint (g_hash_table_size (sink.tids), >=, 2);
  g_assert_false (fc_sampler_is_attached (sampler));
  fc_sampler_stop (sampler);
  fc_sampler_get_stats (sampler, &stats);
  g_test_message ("%" G_GUINT64_FORMAT " ticks, %u samples, %u reused",
                  stats.n_ticks, sink.n_samples, sink.n_reused);
  g_assert_cmpuint (stats.n_ticks, >, 5);
  g_assert_cmpuint (sink.n_samples, >, 5);
  g_assert_cmpuint (stats.n_samples, ==, sink.n_samples + sink.n_reused);
  /* Counted against each thread's own ticks, not against how many there were: a thread just
   * born, or just past the exec, that waits for a CPU has its ticks lost late, by design (under
   * load 24 samples for 26 ticks of two threads). Every tick is captured or lost for a reason,
   * and what was captured is what this sink received. */
  ticks = fc_sampler_dup_tick_counts (sampler);
  g_hash_table_iter_init (&iter, ticks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const FcTickCount *t = value;
      guint received = GPOINTER_TO_UINT (g_hash_table_lookup (sink.tids, key));

      g_test_message ("thread %d: %" G_GUINT64_FORMAT " ticks requested, %" G_GUINT64_FORMAT " captured, %"
                      G_GUINT64_FORMAT " late, %" G_GUINT64_FORMAT " refused, %" G_GUINT64_FORMAT
                      " too short; %u snapshots received", GPOINTER_TO_INT (key), t->requested, t->captured,
                      t->late, t->refused, t->too_short, received);
      g_assert_cmpuint (t->requested, ==, t->captured + t->late + t->refused + t->too_short);
      g_assert_cmpuint (t->captured, ==, received);
    }
  /* and every thread that sent one has its account */
  g_hash_table_iter_init (&iter, sink.tids);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_assert_true (g_hash_table_contains (ticks, key));
  fc_sampler_free (sampler);
  sink_clear (&sink);
}

static void
test_spawn_missing (void)
{
  const char *argv[] = { "/nonexistent/flamecast-no-such-command", NULL };
  g_autoptr(GError) error = NULL;
  FcSampler *sampler;
  Sink sink;

  sink_init (&sink);
  sampler = fc_sampler_new (sink_cb, &sink);
  g_assert_false (fc_sampler_spawn (sampler, argv, NULL, FC_SAMPLER_MODE_WALL, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "No such file"));
  fc_sampler_free (sampler);
  sink_clear (&sink);
}

static void
test_cpu_mode (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  /* a fixed amount of work, however loaded the machine: 400 rounds are 110 ms of CPU on the
   * machine this was written on (0.27 ms a round), ten times the 10 ms waited for below */
  const char *argv[] = { burner, "-n", "400", "-x", "0", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  FcSampler *sampler;
  Sink sink;
  GPid pid;
  int status;

  sink_init (&sink);
  sampler = fc_sampler_new (sink_cb, &sink);
  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                            NULL, NULL, &pid, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  if (!fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS, "checked that cpu mode says so and points to wall mode"))
    {
      g_assert_false (fc_sampler_attach (sampler, pid, FC_SAMPLER_MODE_CPU, &error));
      g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED);
      g_assert_nonnull (strstr (error->message, "wall mode"));
    }
  else
    {
      g_assert_true (fc_sampler_attach (sampler, pid, FC_SAMPLER_MODE_CPU, &error));
      g_assert_no_error (error);
      g_assert_true (fc_sampler_start (sampler, 1000, 16384, &error));
      g_assert_no_error (error);
      /* until the burner has run 10 ms of CPU: one sample a millisecond of it */
      g_mutex_lock (&sink.lock);
      fc_test_cond_wait_until (&sink.cond, &sink.lock, sink.n_samples > 10);
      g_mutex_unlock (&sink.lock);
      fc_sampler_stop (sampler);
      fc_sampler_detach (sampler);
      g_assert_cmpuint (sink.n_samples, >, 10);
      /* perf never stops the target */
      assert_released (pid);
    }
  fc_sampler_free (sampler);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  sink_clear (&sink);
}

/* The profiler dies (SIGKILL, so no cleanup runs) in the middle of sampling at 1000 Hz: the kernel
 * releases the seized threads, none is left stopped, and the program finishes normally. */
static void
test_profiler_crash (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  const char *argv[] = { threads, "-", NULL };
  g_autofree char *tmp = NULL;
  g_autofree char *pid_arg = NULL;
  g_autoptr(GString) status_text = g_string_new (NULL);
  g_autofree char *out = NULL;
  const char *cli = g_getenv ("FC_CLI");
  Child child;
  GPid profiler;
  int status, terminal;

  /* the CLI, a child of this test, records its sibling */
  if (!fc_test_skip_unless (FC_TEST_FACILITY_PTRACE_NON_CHILD, NULL))
    return;
  g_assert_nonnull (cli);
  tmp = fc_test_make_tmp_dir ("fc-test-crash");
  child = child_start (argv);
  pid_arg = g_strdup_printf ("%d", child.pid);
  {
    const char *cli_argv[] = { cli, "record", "--pid", pid_arg, "--frequency", "1000", "--output", tmp, NULL };

    profiler = fc_test_spawn_on_terminal (cli_argv, NULL, &terminal);
  }

  /* killed once its status line shows it sampling: more than 20 samples */
  fc_test_poll_until (fc_test_terminal_count (terminal, status_text, " sample") > 20);
  g_assert_cmpint (kill (profiler, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (profiler, &status, 0), ==, profiler);
  g_assert_true (WIFSIGNALED (status));
  close (terminal);

  assert_released (child.pid);
  out = child_finish (&child, &status);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpstr (out, ==, "threads done\n");
  g_rmdir (tmp);
}

static void
become_nobody_cb (gpointer data)
{
  if (geteuid () == 0)
    {
      /* 65534 is "nobody" on Debian */
      if (setgroups (0, NULL) != 0 || setgid (65534) != 0 || setuid (65534) != 0)
        _exit (99);
    }
}

/* Another user's process: a clear message with the fix, in both modes. As root the profiler runs
 * as nobody against our child; otherwise it runs as us against init. */
static void
test_other_user (void)
{
  const char *cli = g_getenv ("FC_CLI");
  g_autofree char *home = g_dir_make_tmp ("fc-test-home-XXXXXX", NULL);
  g_autofree char *home_env = g_strdup_printf ("HOME=%s", home);
  g_autofree char *pid_arg = NULL;
  const char *modes[] = { "wall", "cpu" };
  GPid target = 1;

  g_assert_nonnull (cli);
  if (geteuid () == 0 && !fc_test_skip_unless (FC_TEST_FACILITY_OTHER_USER, NULL))
    {
      g_rmdir (home);
      return;
    }
  g_assert_cmpint (chmod (home, 0777), ==, 0);
  if (geteuid () == 0)
    {
      g_autoptr(GError) error = NULL;
      const char *argv[] = { "/bin/sleep", "10", NULL };
      g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &target, &error);
      g_assert_no_error (error);
    }
  pid_arg = g_strdup_printf ("%d", target);

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      const char *argv[] = { cli, "record", "--mode", modes[i], "--duration", "0.2", "--output", home,
                             "--pid", pid_arg, NULL };
      const char *envp[] = { home_env, "PATH=/usr/bin:/bin", NULL };
      g_autoptr(GError) error = NULL;
      g_autofree char *err = NULL;
      int status;

      g_spawn_sync (NULL, (char **) argv, (char **) envp, G_SPAWN_STDOUT_TO_DEV_NULL,
                    become_nobody_cb, NULL, NULL, &err, &status, &error);
      g_assert_no_error (error);
      g_test_message ("%s mode: %s", modes[i], err);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 1);
      g_assert_nonnull (strstr (err, "another user"));
    }

  if (target != 1)
    {
      kill (target, SIGKILL);
      waitpid (target, NULL, 0);
    }
  g_rmdir (home);
}

/* The command's exit status: 0 when it saw FC_TEST_LAUNCH=users and no GDK_DEBUG. */
static int
spawn_environ_check (const char * const *envp)
{
  const char *argv[] = { "/bin/sh", "-c", "test \"$FC_TEST_LAUNCH\" = users && test -z \"$GDK_DEBUG\"", NULL };
  FcSampler *sampler;
  Sink sink;
  int status;

  sampler = spawn_started (&sink, argv, envp);
  g_mutex_lock (&sink.lock);
  fc_test_cond_wait_until (&sink.cond, &sink.lock, sink.exited);
  g_mutex_unlock (&sink.lock);
  status = sink.exit_status;
  fc_sampler_stop (sampler);
  fc_sampler_free (sampler);
  sink_clear (&sink);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* A launched command gets the environment it is given (the app gives the user's, not the one
 * it set for itself), or the profiler's own without one. */
static void
test_spawn_environ (void)
{
  const char *users[] = { "FC_TEST_LAUNCH=users", NULL };

  g_setenv ("FC_TEST_LAUNCH", "ours", TRUE);
  g_setenv ("GDK_DEBUG", "gl-disable", TRUE);
  g_assert_cmpint (spawn_environ_check (users), ==, 0);
  g_assert_cmpint (spawn_environ_check (NULL), ==, 1);
  g_unsetenv ("GDK_DEBUG");
  g_unsetenv ("FC_TEST_LAUNCH");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/sampler/no-process", test_no_process);
  g_test_add_func ("/core/sampler/already-traced", test_already_traced);
  g_test_add_func ("/core/sampler/attach-detach", test_attach_detach);
  g_test_add_func ("/core/sampler/detach-stops-none", test_detach_stops_none);
  g_test_add_func ("/core/sampler/signals", test_signals);
  g_test_add_func ("/core/sampler/already-stopped", test_already_stopped);
  g_test_add_func ("/core/sampler/thread-churn", test_thread_churn);
  g_test_add_func ("/core/sampler/spawn-exit-status", test_spawn_exit_status);
  g_test_add_func ("/core/sampler/spawn-missing", test_spawn_missing);
  g_test_add_func ("/core/sampler/spawn-environ", test_spawn_environ);
  g_test_add_func ("/core/sampler/cpu-mode", test_cpu_mode);
  g_test_add_func ("/core/sampler/profiler-crash", test_profiler_crash);
  g_test_add_func ("/core/sampler/other-user", test_other_user);

  return g_test_run ();
}
