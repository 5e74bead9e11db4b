/* test-wall.c - wall mode: every thread every tick, right stacks from the first sample, an honest
 * summary; with perf events and with the ptrace fallback forced
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-capture-summary.h"
#include "fc-recorder.h"
#include "fc-test-capture.h"
#include "fc-test-util.h"

typedef struct {
  GMainLoop *loop;
  GPtrArray *chunks;
} Capture;

/* per thread: what its samples showed */
typedef struct {
  guint n;
  guint n_marker;      /* stacks holding the thread's own function */
  guint n_marker_root; /* ... and reaching start_thread / clone */
  guint n_leaf;        /* ... with the expected call at the leaf */
  guint max_repeat;    /* most times one function appears in one stack */
} ThreadFacts;

static void
chunk_ready_cb (FcRecorder *recorder,
                FcProfile  *chunk,
                Capture    *cap)
{
  g_ptr_array_add (cap->chunks, g_object_ref (chunk));
}

static void
target_exited_cb (FcRecorder *recorder,
                  int         status,
                  Capture    *cap)
{
  g_main_loop_quit (cap->loop);
}

typedef struct {
  FcRecorder *recorder;
  GMainLoop  *loop;
  gint64      end_us;      /* no sooner than this */
  gint64      limit_us;    /* a test still recording then is stuck (the suite's deadline) */
  guint       min_ticks;   /* every thread sampled this many times */
} Stop;

/* A loaded machine ticks late or skips ticks: the recording lasts until enough ticks came,
 * not a fixed time, so the counts below do not depend on the load. */
static gboolean
quit_cb (gpointer data)
{
  Stop *stop = data;
  gint64 now = g_get_monotonic_time ();
  guint n_threads = fc_recorder_get_n_threads (stop->recorder);

  if (now >= stop->end_us && fc_recorder_get_n_samples (stop->recorder) >= stop->min_ticks * MAX (n_threads, 1))
    g_main_loop_quit (stop->loop);
  else if (now >= stop->limit_us)
    g_error ("still recording after %d s: %u samples of %u threads, waiting for %u each",
             FC_TEST_DEADLINE_SECONDS, fc_recorder_get_n_samples (stop->recorder), n_threads, stop->min_ticks);
  return G_SOURCE_CONTINUE;   /* removed by record() */
}

/* Records for `seconds` and until about `min_ticks` ticks were sampled (however long a loaded
 * machine takes, up to the suite's deadline), or until the target exits; returns the summary.
 * The target is left running, released. */
static FcCaptureSummary *
record (FcRecorder *recorder,
        Capture    *cap,
        double      seconds,
        guint       min_ticks)
{
  g_autoptr(GError) error = NULL;
  FcCaptureSummary *summary;
  guint timeout;
  Stop stop;

  cap->loop = g_main_loop_new (NULL, FALSE);
  cap->chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), cap);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), cap);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  stop.recorder = recorder;
  stop.loop = cap->loop;
  stop.end_us = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  stop.limit_us = stop.end_us + FC_TEST_DEADLINE_SECONDS * G_USEC_PER_SEC;
  stop.min_ticks = min_ticks;
  timeout = g_timeout_add (20, quit_cb, &stop);
  g_main_loop_run (cap->loop);
  g_source_remove (timeout);
  fc_recorder_stop (recorder);
  /* the chunk in progress is finished once the unwinder has caught up */
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  summary = fc_recorder_dup_summary (recorder);
  fc_recorder_detach (recorder);
  return summary;
}

static void
capture_clear (Capture *cap)
{
  g_main_loop_unref (cap->loop);
  g_ptr_array_unref (cap->chunks);
}

static gboolean
stack_has (const char * const *names,
           guint               n,
           const char         *function)
{
  for (guint i = 0; i < n; i++)
    if (strcmp (names[i], function) == 0)
      return TRUE;
  return FALSE;
}

/* Facts about the threads whose stacks hold `marker`, the leaf expected to contain `leaf`. */
static ThreadFacts
facts_for (Capture    *cap,
           const char *marker,
           const char *leaf)
{
  ThreadFacts facts = { 0 };
  g_autoptr(GHashTable) marked_threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* the threads: those with the marker in any stack */
  for (guint c = 0; c < cap->chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (cap->chunks, c);
      guint n_samples;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (guint i = 0; i < n_samples; i++)
        {
          guint32 frames[512];
          const char *names[512];
          guint n = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          const FcThread *t = fc_profile_get_thread (chunk, samples[i].thread);

          for (guint k = 0; k < n; k++)
            names[k] = fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[k])->function);
          if (stack_has (names, n, marker))
            g_hash_table_add (marked_threads, g_strdup (fc_profile_string (chunk, t->tid)));
        }
    }

  for (guint c = 0; c < cap->chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (cap->chunks, c);
      guint n_samples;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (guint i = 0; i < n_samples; i++)
        {
          guint32 frames[512];
          const char *names[512];
          const FcThread *t = fc_profile_get_thread (chunk, samples[i].thread);
          guint n;

          if (!g_hash_table_contains (marked_threads, fc_profile_string (chunk, t->tid)))
            continue;
          n = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          for (guint k = 0; k < n; k++)
            names[k] = fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[k])->function);
          facts.n++;
          for (guint k = 0; k < n; k++)
            {
              guint repeat = 0;
              for (guint j = 0; j < n; j++)
                repeat += strcmp (names[j], names[k]) == 0;
              facts.max_repeat = MAX (facts.max_repeat, repeat);
            }
          if (!stack_has (names, n, marker))
            {
              g_test_message ("%s thread, other stack: %s ... %s (%u frames)", marker, n ? names[0] : "-",
                              n ? names[n - 1] : "-", n);
              continue;
            }
          facts.n_marker++;
          if (stack_has (names, n, "start_thread") || stack_has (names, n, "clone3") || stack_has (names, n, "clone"))
            facts.n_marker_root++;
          if (leaf != NULL && n > 0 && strstr (names[0], leaf) != NULL)
            facts.n_leaf++;
        }
    }
  return facts;
}

static void
assert_every_thread_ticked (const FcCaptureSummary *summary,
                            GPtrArray              *chunks,
                            guint                   min_percent)
{
  g_assert_cmpuint (summary->threads->len, >=, 4);
  /* every tick requested is captured or lost for a reason */
  fc_test_assert_ticks_add_up (summary, chunks);
  for (guint i = 0; i < summary->threads->len; i++)
    {
      const FcThreadSummary *t = &g_array_index (summary->threads, FcThreadSummary, i);

      g_assert_cmpuint (t->n_ticks, >, 50);
      /* those the sampler was late for (a loaded machine) are not the method's */
      g_assert_cmpuint (t->n_samples * 100, >=, (t->n_ticks - t->n_late) * min_percent);
    }
}

/* The waiters target with @argv, once its reader sits in read() and its sleeper in its sleep;
 * its stdout in @out_fd */
static GPid
start_waiters (const char * const *argv,
               int                *out_fd)
{
  g_autoptr(GError) error = NULL;
  char buf[8] = { 0 };
  GPid pid;

  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, fc_test_die_with_test, NULL,
                            &pid, NULL, out_fd, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (read (*out_fd, buf, 6), ==, 6);
  g_assert_cmpstr (buf, ==, "ready\n");
  fc_test_poll_until (fc_test_tasks_in_syscall (pid, SYS_read, FALSE, FALSE) &&
                      (fc_test_tasks_in_syscall (pid, SYS_nanosleep, FALSE, FALSE) ||
                       fc_test_tasks_in_syscall (pid, SYS_clock_nanosleep, FALSE, FALSE)));
  return pid;
}

/* Threads blocked in read() and nanosleep() since before the attach: captured once, right, and
 * repeated at every tick; busy threads sampled at every tick too. @perf: perf events are
 * allowed (else, not forced, the sampler falls back to ptrace by itself). */
static void
check_blocked_before_attach (gboolean force_ptrace,
                             gboolean perf)
{
  g_autofree char *waiters = fc_test_target_path ("waiters");
  const char *argv[] = { waiters, "-b", "2", "-s", "30", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  ThreadFacts reader, sleeper, busy;
  GPid pid;
  int out_fd, status;
  Capture cap;

  /* the reader sits in read() and the sleeper in its sleep before the attach */
  pid = start_waiters (argv, &out_fd);

  fc_recorder_set_force_ptrace (recorder, force_ptrace);
  g_assert_true (fc_recorder_attach (recorder, pid, &error));
  g_assert_no_error (error);
  summary = record (recorder, &cap, 1.5, 130);
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  close (out_fd);

  text = fc_capture_summary_format (summary);
  g_test_message ("%s", text);
  if (force_ptrace)
    {
      g_assert_nonnull (strstr (summary->method, "ptrace stops"));
      g_assert_nonnull (strstr (summary->method_reason, "forced"));
      g_assert_nonnull (strstr (text, "forced"));
    }
  else if (perf)
    {
      g_assert_nonnull (strstr (summary->method, "perf events"));
      g_assert_null (summary->method_reason);
    }
  else
    {
      /* refused: every thread stopped each tick, and the summary says why */
      g_assert_nonnull (strstr (summary->method, "ptrace stops"));
      g_assert_nonnull (strstr (summary->method_reason, "perf_event_open"));
    }
  assert_every_thread_ticked (summary, cap.chunks, 90);

  reader = facts_for (&cap, "waiters_read", "read");
  sleeper = facts_for (&cap, "waiters_sleep", "nanosleep");
  busy = facts_for (&cap, "waiters_busy", NULL);
  g_test_message ("reader %u/%u/%u/%u sleeper %u/%u/%u/%u busy %u/%u/%u",
                  reader.n, reader.n_marker, reader.n_marker_root, reader.n_leaf,
                  sleeper.n, sleeper.n_marker, sleeper.n_marker_root, sleeper.n_leaf,
                  busy.n, busy.n_marker, busy.n_marker_root);
  /* every sample of the blocked threads, the first included: their call, whole */
  g_assert_cmpuint (reader.n, >, 100);
  g_assert_cmpuint (reader.n_marker, ==, reader.n);
  g_assert_cmpuint (reader.n_marker_root, ==, reader.n);
  g_assert_cmpuint (reader.n_leaf, ==, reader.n);
  g_assert_cmpuint (sleeper.n, >, 100);
  g_assert_cmpuint (sleeper.n_marker_root, ==, sleeper.n);
  g_assert_cmpuint (sleeper.n_leaf, ==, sleeper.n);
  /* the busy ones, in their loop (a sample may land in the thread's own loop code) */
  g_assert_cmpuint (busy.n, >, 200);
  g_assert_cmpuint (busy.n_marker_root * 100, >=, busy.n * 90);
  g_assert_cmpuint (summary->n_root * 100, >=, summary->n_samples * 95);
  capture_clear (&cap);
}

static void
test_blocked_before_attach_perf (void)
{
  gboolean perf = fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS,
                                       "checked the ptrace fallback the sampler took instead");

  check_blocked_before_attach (FALSE, perf);
}

static void
test_blocked_before_attach_ptrace (void)
{
  check_blocked_before_attach (TRUE, TRUE);
}

/* Threads asleep from before the attach to the end are unwound about once each, however many
 * ticks repeat their stacks: a tick of a thread that has not run reuses its stack. */
static void
test_sleepers_unwound_once (void)
{
  g_autofree char *waiters = fc_test_target_path ("waiters");
  const char *argv[] = { waiters, "-b", "0", "-s", "300", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  FcUnwindStats unwind = { 0 };
  gint64 t0, wakes;
  GPid pid;
  int out_fd, status;
  Capture cap;

  pid = start_waiters (argv, &out_fd);

  g_assert_true (fc_recorder_attach (recorder, pid, &error));
  g_assert_no_error (error);
  /* until each of its three threads had 200 ticks */
  t0 = g_get_monotonic_time ();
  summary = record (recorder, &cap, 0, 200);
  wakes = (g_get_monotonic_time () - t0) / (10 * G_USEC_PER_SEC) + 1;
  fc_recorder_get_unwind_stats (recorder, &unwind);
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  close (out_fd);

  g_test_message ("%" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " stacks unwound", summary->n_samples,
                  unwind.n_unwound);
  g_assert_cmpuint (summary->n_samples, >=, 3 * 200);
  /* Each thread: its first stack, and perhaps one more after the stop that took it (the stop
   * makes a sleeper run a little); the sleeper wakes every 10 s, the main thread never, the
   * reader never. One unwind a tick would be 600. */
  g_assert_cmpuint (unwind.n_unwound, <=, 3 * 3 + wakes * 2);
  capture_clear (&cap);
}

/* Ends a launched target once recorded. */
static void
end_target (GPid pid)
{
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
}

/* Samples of each thread from its first whole one on (one of its four outermost frames a root,
 * fc_capture_is_root_function(), as the summary counts), and how many of them are whole: what
 * comes before is the dynamic loader's first instants or a thread being born, which a loaded
 * machine stretches over more ticks. */
static void
count_whole_from_first (Capture *cap,
                        guint   *n,
                        guint   *n_whole)
{
  g_autoptr(GHashTable) started = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) logged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  *n = *n_whole = 0;
  for (guint c = 0; c < cap->chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (cap->chunks, c);
      guint n_samples;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (guint i = 0; i < n_samples; i++)
        {
          guint32 frames[512];
          guint depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          const char *tid = fc_profile_string (chunk, fc_profile_get_thread (chunk, samples[i].thread)->tid);
          gboolean whole = FALSE;

          for (guint k = depth; k-- > 0 && k + 4 >= depth && !whole;)
            {
              const FcFrame *frame = fc_profile_get_frame (chunk, frames[k]);

              whole = fc_capture_is_root_function (fc_profile_string (chunk, frame->function));
            }

          /* each stack a thread stood in, once: a failure shows where the samples stood */
          {
            g_autofree char *key = g_strdup_printf ("%u %s %u", c, tid, samples[i].stack);

            if (!g_hash_table_contains (logged, key))
              {
                g_autoptr(GString) text = g_string_new (NULL);

                for (guint k = 0; k < depth; k++)
                  {
                    const FcFrame *frame = fc_profile_get_frame (chunk, frames[k]);
                    g_string_append_printf (text, "%s%s (%s)", k > 0 ? " <- " : "",
                                            fc_profile_string (chunk, frame->function),
                                            fc_profile_string (chunk, frame->module));
                  }
                g_test_message ("thread %s, sample %u: %s", tid, i, text->str);
                g_hash_table_add (logged, g_steal_pointer (&key));
              }
          }
          if (whole && !g_hash_table_contains (started, tid))
            g_hash_table_add (started, g_strdup (tid));
          if (!g_hash_table_contains (started, tid))
            continue;
          (*n)++;
          *n_whole += whole;
        }
    }
}

/* Launched: threads idle from their start reach a root from the first sample on. */
static void
test_launch_idle_threads (void)
{
  g_autofree char *waiters = fc_test_target_path ("waiters");
  const char *argv[] = { waiters, "-q", "-b", "0", "-s", "300", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint n, n_whole;
  Capture cap;

  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  /* until its three threads had 110 ticks each */
  summary = record (recorder, &cap, 0, 110);
  end_target (fc_recorder_get_pid (recorder));
  text = fc_capture_summary_format (summary);
  g_test_message ("%s", text);
  g_assert_cmpuint (summary->n_samples, >, 300);
  /* the dynamic loader's first instants and thread starts aside, every stack is whole */
  count_whole_from_first (&cap, &n, &n_whole);
  g_test_message ("%u of %u samples from each thread's first whole one on are whole", n_whole, n);
  g_assert_cmpuint (n * 100, >=, summary->n_samples * 90);
  g_assert_cmpuint (n_whole * 100, >=, n * 98);
  g_assert_cmpuint (summary->n_unnamed_leaf * 100, <=, summary->n_samples * 2);
  capture_clear (&cap);
}

/* A stack whose unwind info loops ends where it starts looping, and does not reach a root. */
static void
test_looping_unwind (void)
{
  g_autofree char *waiters = fc_test_target_path ("waiters");
  const char *argv[] = { waiters, "-q", "-b", "0", "-l", "-s", "300", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  ThreadFacts looper;
  Capture cap;

  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  /* until each of its four threads had 110 ticks */
  summary = record (recorder, &cap, 0, 110);
  end_target (fc_recorder_get_pid (recorder));
  looper = facts_for (&cap, "waiters_badcfi", NULL);
  g_test_message ("looper %u samples, %u in the loop, %u reaching a root, a function at most %u times",
                  looper.n, looper.n_marker, looper.n_marker_root, looper.max_repeat);
  g_assert_cmpuint (looper.n_marker, >, 50);
  g_assert_cmpuint (looper.n_marker_root, ==, 0);
  g_assert_cmpuint (looper.max_repeat, <=, 2);
  /* the summary does not count them as whole */
  g_assert_cmpuint (summary->n_root + looper.n_marker, <=, summary->n_samples);
  capture_clear (&cap);
}

/* Runs flamecast-cli to its end and returns its stderr. With @signal_number, the CLI gets it once
 * its status line shows samples; @seconds is from then (else from the start) to its exit. */
static char *
run_cli (const char * const *argv,
         int                 signal_number,
         int                *exit_status,
         double             *seconds)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) err = g_string_new (NULL);
  GPid pid;
  int err_fd, status;
  char buf[4096];
  ssize_t n;
  gint64 t0 = g_get_monotonic_time (), t1;

  if (signal_number != 0)
    {
      /* the signal once the status line (stderr on a terminal) shows samples */
      pid = fc_test_spawn_on_terminal (argv, NULL, &err_fd);
      fc_test_poll_until (fc_test_terminal_count (err_fd, err, " sample") > 0);
      t0 = g_get_monotonic_time ();
      g_assert_cmpint (kill (pid, signal_number), ==, 0);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      t1 = g_get_monotonic_time ();
      fc_test_terminal_read (err_fd, err);
      close (err_fd);
    }
  else
    {
      g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                NULL, NULL, &pid, NULL, NULL, &err_fd, &error);
      g_assert_no_error (error);
      while ((n = read (err_fd, buf, sizeof buf)) > 0)
        g_string_append_len (err, buf, n);
      close (err_fd);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      t1 = g_get_monotonic_time ();
    }
  g_assert_true (WIFEXITED (status));
  *exit_status = WEXITSTATUS (status);
  *seconds = (t1 - t0) / 1e6;
  return g_string_free (g_steal_pointer (&err), FALSE);
}

/* SIGTERM to the profiler alone, in launch mode: the command gets it, everything is written, and
 * the profiler exits 128 + SIGTERM; a command that ignores it is killed after a grace period. */
static void
check_cli_sigterm (gboolean command_ignores)
{
  g_autofree char *waiters = fc_test_target_path ("waiters");
  g_autofree char *tmp = g_dir_make_tmp ("fc-test-wall-XXXXXX", NULL);
  g_autofree char *chunk = g_build_filename (tmp, "chunk-001.json", NULL);
  g_autofree char *err = NULL;
  const char *cli = g_getenv ("FC_CLI");
  const char *argv[] = { cli, "record", "-o", tmp, "--", waiters, "-b", "1", "-s", "60",
                         command_ignores ? "-i" : NULL, NULL };
  double seconds;
  int status;

  err = run_cli (argv, SIGTERM, &status, &seconds);
  g_test_message ("%s(%.1f s after SIGTERM)", err, seconds);
  g_assert_cmpint (status, ==, 128 + SIGTERM);
  g_assert_true (g_file_test (chunk, G_FILE_TEST_EXISTS));
  g_assert_nonnull (strstr (err, "samples of"));
  /* killed after its grace period (3 s), never sooner; that it ends at all is the waitpid */
  if (command_ignores)
    g_assert_cmpfloat (seconds, >=, 2.5);
  fc_test_remove_tree (tmp);
}

static void
test_cli_sigterm (void)
{
  check_cli_sigterm (FALSE);
}

static void
test_cli_sigterm_ignored (void)
{
  check_cli_sigterm (TRUE);
}

/* A shell that only waits for the program it started: the summary says where the work is. */
/* its own process group: the shell and the sleep it waits for end together */
static void
own_process_group (gpointer unused)
{
  setpgid (0, 0);
}

/* Whether the shell @pid has a child and waits for it in wait4 (the kernel's do_wait). Where
 * /proc/PID/wchan hides the name ("0" for an unprivileged reader), a child is enough: until it
 * has run exec the shell waits in vfork, which the summary counts as a wait for a child too. */
static gboolean
shell_waits_for_child (GPid pid)
{
  g_autofree char *children_path = g_strdup_printf ("/proc/%d/task/%d/children", pid, pid);
  g_autofree char *wchan_path = g_strdup_printf ("/proc/%d/wchan", pid);
  g_autofree char *children = NULL;
  g_autofree char *wchan = NULL;

  if (!g_file_get_contents (children_path, &children, NULL, NULL) || children[0] == 0)
    return FALSE;
  if (!g_file_get_contents (wchan_path, &wchan, NULL, NULL) || strcmp (wchan, "0") == 0)
    return TRUE;
  return strcmp (wchan, "do_wait") == 0;
}

/* A shell waiting for the program it started: the summary says the work is in child processes.
 * The shell is recorded from the moment it waits (attached with --pid) until the recording is
 * stopped, so every sample of it is its wait: launched, its start and its forks on a loaded
 * machine were more than the hint's tenth of the samples (waiting for a CPU, in its own unnamed
 * code: 27.7% at load 30-40, 10.1% at load 12) and the hint rightly stayed away. */
static void
test_cli_children_hint (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *pid_arg = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  /* "; exit" keeps dash from running the last command in place of itself */
  const char *shell_argv[] = { "/bin/sh", "-c", "sleep 600; exit 0", NULL };
  const char *cli = g_getenv ("FC_CLI");
  double seconds;
  int status;
  GPid pid;

  if (!fc_test_skip_unless (FC_TEST_FACILITY_PTRACE_NON_CHILD, NULL))
    return;
  tmp = fc_test_make_tmp_dir ("fc-test-wall");
  g_spawn_async (NULL, (char **) shell_argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, own_process_group, NULL, &pid, &error);
  g_assert_no_error (error);
  fc_test_poll_until (shell_waits_for_child (pid));
  pid_arg = g_strdup_printf ("%d", pid);
  {
    const char *argv[] = { cli, "record", "-o", tmp, "--pid", pid_arg, NULL };
    err = run_cli (argv, SIGINT, &status, &seconds);
  }
  g_test_message ("%s", err);
  kill (-pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (err, "the work is in child processes: use --follow-children"));
  g_assert_nonnull (strstr (err, "reaching a root"));
  fc_test_remove_tree (tmp);
}

/* cpu mode on a program that never runs gets no samples, and the summary says why: asleep, or
 * stopped (by a debugger or SIGSTOP). */
static void
check_cli_cpu_no_samples (gboolean stopped)
{
  g_autofree char *waiters = fc_test_target_path ("waiters");
  g_autofree char *tmp = NULL;
  g_autofree char *pid_arg = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *target_argv[] = { waiters, "-b", "0", "-s", "30", NULL };
  const char *cli = g_getenv ("FC_CLI");
  char buf[8] = { 0 };
  double seconds;
  int out_fd, status;
  GPid pid;

  /* cpu mode, by a CLI that records its sibling (cpu mode's refusal: /core/sampler/cpu-mode) */
  if (!fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS, NULL) ||
      !fc_test_skip_unless (FC_TEST_FACILITY_PTRACE_NON_CHILD, NULL))
    return;
  tmp = fc_test_make_tmp_dir ("fc-test-wall");
  g_spawn_async_with_pipes (NULL, (char **) target_argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &pid, NULL, &out_fd, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (read (out_fd, buf, 6), ==, 6);
  if (stopped)
    {
      kill (pid, SIGSTOP);
      g_assert_cmpint (waitpid (pid, &status, WUNTRACED), ==, pid);
    }
  pid_arg = g_strdup_printf ("%d", pid);
  {
    const char *argv[] = { cli, "record", "--mode", "cpu", "-d", "0.6", "-o", tmp, "--pid", pid_arg, NULL };
    err = run_cli (argv, 0, &status, &seconds);
  }
  g_test_message ("%s", err);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (err, "0 samples"));
  if (stopped)
    g_assert_nonnull (strstr (err, "hint: no samples: the target was stopped (by a debugger or SIGSTOP)"));
  else
    g_assert_nonnull (strstr (err, "hint: no samples: cpu mode samples only threads running on a CPU"));
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  close (out_fd);
  fc_test_remove_tree (tmp);
}

static void
test_cli_cpu_asleep (void)
{
  check_cli_cpu_no_samples (FALSE);
}

static void
test_cli_cpu_stopped (void)
{
  check_cli_cpu_no_samples (TRUE);
}

/* Wrong --pid values and an output directory that cannot be written are found before recording. */
static void
test_cli_bad_arguments (void)
{
  const char *cli = g_getenv ("FC_CLI");
  const char *pid0[] = { cli, "record", "--pid", "0", NULL };
  const char *pid_neg[] = { cli, "record", "--pid", "-5", NULL };
  const char *unwritable[] = { cli, "record", "-o", "/proc/self", "--", "/bin/true", NULL };
  g_autofree char *e1 = NULL, *e2 = NULL, *e3 = NULL;
  double seconds;
  int status;

  e1 = run_cli (pid0, 0, &status, &seconds);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (e1, "--pid 0: a process id is a positive number"));
  e2 = run_cli (pid_neg, 0, &status, &seconds);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (e2, "--pid -5: a process id is a positive number"));
  e3 = run_cli (unwritable, 0, &status, &seconds);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (e3, "cannot write in /proc/self"));
  /* nothing ran: no summary */
  g_assert_null (strstr (e3, "samples of"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/wall/blocked-before-attach-perf", test_blocked_before_attach_perf);
  g_test_add_func ("/core/wall/blocked-before-attach-ptrace", test_blocked_before_attach_ptrace);
  g_test_add_func ("/core/wall/launch-idle-threads", test_launch_idle_threads);
  g_test_add_func ("/core/wall/looping-unwind", test_looping_unwind);
  g_test_add_func ("/core/wall/sleepers-unwound-once", test_sleepers_unwound_once);
  g_test_add_func ("/cli/record/sigterm", test_cli_sigterm);
  g_test_add_func ("/cli/record/sigterm-ignored", test_cli_sigterm_ignored);
  g_test_add_func ("/cli/record/children-hint", test_cli_children_hint);
  g_test_add_func ("/cli/record/bad-arguments", test_cli_bad_arguments);
  g_test_add_func ("/cli/record/cpu-asleep", test_cli_cpu_asleep);
  g_test_add_func ("/cli/record/cpu-stopped", test_cli_cpu_stopped);

  return g_test_run ();
}
