/* test-children.c - child processes followed through fork and exec, in cpu and wall mode
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-module-file.h"
#include "fc-reader.h"
#include "fc-recorder.h"
#include "fc-symbolizer.h"
#include "fc-validate.h"
#include "fc-test-util.h"

typedef struct {
  GMainLoop *loop;
  GPtrArray *chunks;
  gboolean   exited;
  int        status;
} Capture;

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
  cap->exited = TRUE;
  cap->status = status;
  g_main_loop_quit (cap->loop);
}

/* A recorder following children in @mode at 250 Hz; @cap catches its chunks and the target's
 * exit. */
static FcRecorder *
follow_recorder_new (Capture       *cap,
                     FcSamplerMode  mode)
{
  FcRecorder *recorder = fc_recorder_new ();

  cap->loop = g_main_loop_new (NULL, FALSE);
  cap->chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), cap);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), cap);
  g_object_set (recorder, "mode", mode, "frequency", 250, NULL);
  fc_recorder_set_follow_children (recorder, TRUE);
  return recorder;
}

static void
capture_clear (Capture *cap)
{
  g_main_loop_unref (cap->loop);
  g_ptr_array_unref (cap->chunks);
}

/* Launches @argv and records it from its start. */
static void
spawn_and_start (FcRecorder         *recorder,
                 const char * const *argv)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
}

/* The fifo the forker's children wait at (--many): each byte written lets one through. Open
 * for reading and writing, so that opening it never waits for them. */
static int
open_gate (const char *gate)
{
  int fd;

  g_assert_cmpint (mkfifo (gate, 0600), ==, 0);
  fd = open (gate, O_RDWR | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  return fd;
}

/* Counts the samples whose leaf function is @function, and checks that their thread's name
 * ends with its pid, "comm (pid)" */
static guint
count_leaf (GPtrArray  *chunks,
            const char *function,
            GHashTable *thread_names)
{
  guint n = 0;

  for (guint c = 0; c < chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, c);

      for (guint i = 0; i < fc_profile_get_n_threads (chunk); i++)
        {
          const FcThread *t = fc_profile_get_thread (chunk, i);
          if (t->name != FC_STRING_NONE)
            g_hash_table_add (thread_names, g_strdup (fc_profile_string (chunk, t->name)));
        }
      guint n_samples = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (guint i = 0; i < n_samples; i++)
        {
          const FcSample *s = &samples[i];
          const FcStackNode *leaf = fc_profile_get_stack (chunk, s->stack);
          const FcThread *t = fc_profile_get_thread (chunk, s->thread);
          g_autofree char *suffix = g_strdup_printf ("(%s)", fc_profile_string (chunk, t->tid));

          if (leaf->depth == 0 ||
              g_strcmp0 (fc_profile_string (chunk, fc_profile_get_frame (chunk, leaf->frame)->function), function) != 0)
            continue;
          n++;
          /* the grandchild is its process's only thread: its tid is its pid */
          g_assert_true (t->name != FC_STRING_NONE);
          g_assert_true (g_str_has_suffix (fc_profile_string (chunk, t->name), suffix));
        }
    }
  return n;
}

/* The pid a thread name "comm (pid)" ends with */
static int
name_pid (const char *name)
{
  const char *open = strrchr (name, '(');

  g_assert_nonnull (open);
  g_assert_true (g_str_has_suffix (name, ")"));
  return atoi (open + 1);
}

/* Following children, each process is a profile session of its own: one profiler_id per
 * process and one process per profiler_id, each chunk holding only its own process's threads,
 * and every chunk valid for Relay. The target's own chunks (@target_id) are never left out, as
 * children's are when Relay would keep none of their threads: such a chunk (a shell that ran
 * for one cpu-mode sample, gone before its name was read) is passed over. Returns the number
 * of distinct profiler_ids. */
static guint
check_sessions (GPtrArray  *chunks,
                const char *target_id)
{
  g_autoptr(GHashTable) pid_of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) id_of = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (guint c = 0; c < chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, c);
      g_autoptr(GPtrArray) problems = fc_validate_profile (chunk);
      const char *id = fc_profile_get_profiler_id (chunk);
      const char *known_id;
      int pid = 0;

      g_assert_nonnull (id);
      if (g_strcmp0 (id, target_id) == 0 && !fc_validate_keeps_a_thread (chunk))
        {
          g_test_message ("chunk %u: the target's, %u samples, none that Relay keeps", c,
                          fc_profile_get_n_samples (chunk));
          continue;
        }
      for (guint i = 0; i < problems->len; i++)
        {
          g_autofree char *text = fc_problem_to_string (g_ptr_array_index (problems, i));
          g_test_message ("chunk %u: %s", c, text);
        }
      g_assert_false (fc_problems_has_errors (problems));
      for (guint i = 0; i < fc_profile_get_n_threads (chunk); i++)
        {
          const FcThread *t = fc_profile_get_thread (chunk, i);
          int thread_pid;

          g_assert_true (t->name != FC_STRING_NONE);
          thread_pid = name_pid (fc_profile_string (chunk, t->name));
          if (pid == 0)
            pid = thread_pid;
          /* only its own process's threads */
          g_assert_cmpint (thread_pid, ==, pid);
        }
      g_test_message ("chunk %u: process %d, profiler_id %s, %u samples", c, pid, id, fc_profile_get_n_samples (chunk));
      if (g_hash_table_contains (pid_of, id))
        g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (pid_of, id)), ==, pid);
      else
        g_hash_table_insert (pid_of, g_strdup (id), GINT_TO_POINTER (pid));
      if ((known_id = g_hash_table_lookup (id_of, GINT_TO_POINTER (pid))) != NULL)
        g_assert_cmpstr (known_id, ==, id);
      else
        g_hash_table_insert (id_of, GINT_TO_POINTER (pid), g_strdup (id));
    }
  return g_hash_table_size (pid_of);
}

/* The profiler_id of the chunks where @function is a leaf, or NULL */
static const char *
profiler_id_of_leaf (GPtrArray  *chunks,
                     const char *function)
{
  for (guint c = 0; c < chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, c);
      guint n_samples = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      for (guint i = 0; i < n_samples; i++)
        {
          const FcStackNode *leaf = fc_profile_get_stack (chunk, samples[i].stack);
          if (leaf->depth > 0 &&
              g_strcmp0 (fc_profile_string (chunk, fc_profile_get_frame (chunk, leaf->frame)->function), function) == 0)
            return fc_profile_get_profiler_id (chunk);
        }
    }
  return NULL;
}

/* The command's grandchild does the work, after fork, fork and exec: its function is sampled,
 * and the processes in between are recorded (waiting, in wall mode). */
static void
check_follow (FcSamplerMode mode,
              gboolean      force_ptrace)
{
  g_autofree char *forker = fc_test_target_path ("forker");
  const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
  g_autofree char *script = g_strdup_printf ("'%s' 1.2; true", forker);
  g_autoptr(FcRecorder) recorder = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autofree char *text = NULL;
  GHashTableIter iter;
  const char *name;
  guint n_burn, n_forker = 0, n_ids;
  Capture cap = { 0 };

  argv[2] = script;
  recorder = follow_recorder_new (&cap, mode);
  fc_recorder_set_force_ptrace (recorder, force_ptrace);
  g_assert_true (fc_recorder_get_follow_children (recorder));

  spawn_and_start (recorder, argv);
  g_main_loop_run (cap.loop);
  summary = fc_recorder_dup_summary (recorder);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);

  g_assert_true (cap.exited);
  g_assert_true (WIFEXITED (cap.status));
  g_assert_cmpint (WEXITSTATUS (cap.status), ==, 0);

  n_burn = count_leaf (cap.chunks, "grandchild_burn", names);
  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
    {
      g_test_message ("thread %s", name);
      if (g_str_has_prefix (name, "fc-target-forke ("))
        n_forker++;
    }
  g_test_message ("%u samples in grandchild_burn", n_burn);
  g_assert_cmpuint (n_burn, >, 0);
  g_assert_nonnull (fc_recorder_get_profiler_id (recorder));
  n_ids = check_sessions (cap.chunks, fc_recorder_get_profiler_id (recorder));
  /* the grandchild's chunks are its own, not the target's (the shell) */
  g_assert_cmpstr (profiler_id_of_leaf (cap.chunks, "grandchild_burn"), !=, fc_recorder_get_profiler_id (recorder));
  if (mode == FC_SAMPLER_MODE_WALL)
    {
      /* the shell, the forker and its child wait: a thread each */
      g_assert_cmpuint (n_forker, ==, 2);
      g_assert_cmpuint (g_hash_table_size (names), >=, 4);
      /* and each is a session: the shell, the forker, its child, the grandchild */
      g_assert_cmpuint (n_ids, >=, 4);
    }
  g_assert_cmpuint (summary->processes->len, >=, n_ids);

  text = fc_capture_summary_format (summary);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "child processes followed"));
  g_assert_null (strstr (text, "use --follow-children"));

  capture_clear (&cap);
}

static void
test_follow_cpu (void)
{
  if (fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS, "cpu mode's refusal is checked by /core/sampler/cpu-mode"))
    check_follow (FC_SAMPLER_MODE_CPU, FALSE);
}

static void
test_follow_wall (void)
{
  check_follow (FC_SAMPLER_MODE_WALL, FALSE);
}

static void
test_follow_wall_ptrace (void)
{
  check_follow (FC_SAMPLER_MODE_WALL, TRUE);
}

static gboolean
too_long_cb (gpointer user_data)
{
  g_error ("the target did not exit within %d s", FC_TEST_DEADLINE_SECONDS);
  return G_SOURCE_REMOVE;
}

/* --pid with --follow-children: descendants that exist before the attach are followed too.
 * The forker forks its child and grandchild first, then the recorder attaches to it: the
 * grandchild's work (it never execs) is recorded, in a session of its own. */
static void
check_attach_existing (FcSamplerMode mode)
{
  g_autofree char *forker = fc_test_target_path ("forker");
  const char *argv[] = { forker, "--early", "1.0", NULL };
  g_autoptr(FcRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autofree char *text = NULL;
  Capture cap = { 0 };
  char ready[8] = { 0 };
  guint n_burn, n_ids, timeout_id;
  int out_fd;
  GPid pid;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                           &pid, NULL, &out_fd, NULL, &error));
  g_assert_no_error (error);
  /* the child and the grandchild exist: attach now */
  g_assert_cmpint (read (out_fd, ready, sizeof ready - 1), >, 0);
  g_assert_true (g_str_has_prefix (ready, "ready"));
  close (out_fd);

  recorder = follow_recorder_new (&cap, mode);
  g_assert_true (fc_recorder_attach (recorder, pid, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  /* a hang, not a slow machine: the grandchild burns its CPU time however long that takes */
  timeout_id = g_timeout_add_seconds (FC_TEST_DEADLINE_SECONDS, too_long_cb, NULL);
  g_main_loop_run (cap.loop);
  g_source_remove (timeout_id);
  summary = fc_recorder_dup_summary (recorder);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);
  text = fc_capture_summary_format (summary);
  g_test_message ("%s", text);

  n_burn = count_leaf (cap.chunks, "grandchild_burn", names);
  g_test_message ("%u samples in grandchild_burn", n_burn);
  g_assert_cmpuint (n_burn, >, 0);
  n_ids = check_sessions (cap.chunks, fc_recorder_get_profiler_id (recorder));
  g_assert_cmpstr (profiler_id_of_leaf (cap.chunks, "grandchild_burn"), !=, fc_recorder_get_profiler_id (recorder));
  /* wall mode: the forker and its child wait, the grandchild works, each a session */
  if (mode == FC_SAMPLER_MODE_WALL)
    g_assert_cmpuint (n_ids, >=, 3);

  capture_clear (&cap);
}

static void
test_attach_existing_wall (void)
{
  check_attach_existing (FC_SAMPLER_MODE_WALL);
}

static void
test_attach_existing_cpu (void)
{
  if (fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS, "cpu mode's refusal is checked by /core/sampler/cpu-mode"))
    check_attach_existing (FC_SAMPLER_MODE_CPU);
}

typedef struct {
  FcRecorder *recorder;
  guint       max_held;
} HeldWatch;

static gboolean
watch_held_cb (gpointer user_data)
{
  HeldWatch *watch = user_data;

  watch->max_held = MAX (watch->max_held, fc_recorder_get_n_held_processes (watch->recorder));
  return G_SOURCE_CONTINUE;
}

/* Children of the target with at least two samples (what Relay needs to keep a chunk). */
static guint
n_children_sampled (FcRecorder *recorder)
{
  g_autoptr(FcCaptureSummary) summary = fc_recorder_dup_summary (recorder);
  guint n = 0;

  for (guint i = 0; i < summary->processes->len; i++)
    {
      const FcProcessSummary *p = &g_array_index (summary->processes, FcProcessSummary, i);

      n += p->pid != fc_recorder_get_pid (recorder) && p->n_samples >= 2;
    }
  return n;
}

/* Many short-lived children, one after the other: what read each one's stacks (maps,
 * unwinder, symbolizer) is let go when it exits and its last chunk is out, not kept until
 * the recording ends. */
static void
test_release_exited (void)
{
  g_autofree char *forker = fc_test_target_path ("forker");
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-release");
  g_autofree char *gate = g_build_filename (tmp, "gate", NULL);
  const char *argv[] = { forker, "--many", "24", "0.06", gate, NULL };
  int gate_fd;
  Capture cap = { 0 };
  g_autoptr(FcRecorder) recorder = follow_recorder_new (&cap, FC_SAMPLER_MODE_WALL);
  g_autoptr(FcCaptureSummary) summary = NULL;
  g_autofree char *text = NULL;
  HeldWatch watch = { recorder, 0 };
  FcUnwindStats unwind;
  guint held_at_exit, watch_id, n_children = 0;

  gate_fd = open_gate (gate);
  spawn_and_start (recorder, argv);
  watch_id = g_timeout_add (5, watch_held_cb, &watch);
  /* each child, once it has burnt its 60 ms of CPU, lives until it was sampled twice; then it
   * is let go (a byte through the gate) and the next one starts */
  for (guint i = 0; i < 24; i++)
    {
      fc_test_spin_until (n_children_sampled (recorder) > i);
      g_assert_cmpint (write (gate_fd, "x", 1), ==, 1);
    }
  if (!cap.exited)
    g_main_loop_run (cap.loop);
  g_source_remove (watch_id);
  close (gate_fd);
  fc_test_remove_tree (tmp);
  held_at_exit = fc_recorder_get_n_held_processes (recorder);
  summary = fc_recorder_dup_summary (recorder);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);
  g_assert_cmpuint (fc_recorder_get_n_held_processes (recorder), ==, 0);

  text = fc_capture_summary_format (summary);
  g_test_message ("%s", text);
  for (guint i = 0; i < summary->processes->len; i++)
    if (g_array_index (summary->processes, FcProcessSummary, i).pid != fc_recorder_get_pid (recorder))
      n_children++;
  fc_recorder_get_unwind_stats (recorder, &unwind);
  g_test_message ("%u children recorded; processes held: at most %u at once, %u when the target exited; "
                  "worker CPU: %.0f ms unwinding, %.0f ms symbolizing", n_children, watch.max_held, held_at_exit,
                  unwind.unwind_ns / 1e6, unwind.symbolize_ns / 1e6);
  g_assert_true (cap.exited);
  g_assert_cmpint (WEXITSTATUS (cap.status), ==, 0);
  /* every child sampled, each a session of its own (and the target's) */
  g_assert_cmpuint (n_children, ==, 24);
  g_assert_cmpuint (check_sessions (cap.chunks, fc_recorder_get_profiler_id (recorder)), >=, 25);
  /* Kept until the end, there would be two per child (its program before and after exec)
   * plus the target's two (launched: the fork before its exec, then the forker). Released at
   * exit, when the target's exit arrives, behind every child's, only the target's are held.
   * While it runs, those whose samples still wait for the unwinder are held too (printed). */
  g_assert_cmpuint (held_at_exit, <=, 2);
  capture_clear (&cap);
}

/* Waits for the recorder's "stopped": everything sampled before the stop is appended. */
static void
stopped_cb (FcRecorder *recorder,
            gboolean   *stopped)
{
  *stopped = TRUE;
}

/* 50 children of one executable, each sampled (it lives until it was sampled twice): each gets
 * its own maps, but the files they map are mapped once and each file's symbol table read once,
 * shared by all of them. Without sharing, each child maps its program, libc and the loader
 * and reads two symbol tables or more: 150 files and 100 tables. */
static void
test_shared_setup (void)
{
  g_autofree char *forker = fc_test_target_path ("forker");
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-shared");
  g_autofree char *gate = g_build_filename (tmp, "gate", NULL);
  const char *argv[] = { forker, "--many", "50", "0.005", gate, NULL };
  Capture cap = { 0 };
  g_autoptr(FcRecorder) recorder = follow_recorder_new (&cap, FC_SAMPLER_MODE_WALL);
  guint files0 = fc_module_file_get_n_mapped ();
  guint tables0 = fc_symbolizer_get_n_symbol_tables_read ();
  guint maps0 = fc_proc_maps_get_n_created ();
  guint files, tables, maps;
  int gate_fd;

  gate_fd = open_gate (gate);
  spawn_and_start (recorder, argv);
  for (guint i = 0; i < 50; i++)
    {
      fc_test_spin_until (n_children_sampled (recorder) > i);
      g_assert_cmpint (write (gate_fd, "x", 1), ==, 1);
    }
  if (!cap.exited)
    g_main_loop_run (cap.loop);
  close (gate_fd);
  fc_test_remove_tree (tmp);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);

  files = fc_module_file_get_n_mapped () - files0;
  tables = fc_symbolizer_get_n_symbol_tables_read () - tables0;
  maps = fc_proc_maps_get_n_created () - maps0;
  g_test_message ("50 children sampled: %u processes set up, %u files mapped, %u symbol tables read", maps,
                  files, tables);
  g_assert_true (cap.exited);
  g_assert_cmpint (WEXITSTATUS (cap.status), ==, 0);
  /* each child was set up (its program, after exec), and shared what its files give */
  g_assert_cmpuint (maps, >=, 50);
  g_assert_cmpuint (files, <=, 8);
  g_assert_cmpuint (tables, <=, 8);

  capture_clear (&cap);
}

/* Children that run while the recording is paused are traced (fork, exec, exit) but never
 * sampled: none of them costs the recorder a process set up, maps read or a file mapped. */
static void
test_unsampled_costs_nothing (void)
{
  g_autofree char *forker = fc_test_target_path ("forker");
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-unsampled");
  g_autofree char *gate = g_build_filename (tmp, "gate", NULL);
  const char *argv[] = { forker, "--many", "30", "0", gate, NULL };
  Capture cap = { 0 };
  g_autoptr(FcRecorder) recorder = follow_recorder_new (&cap, FC_SAMPLER_MODE_WALL);
  g_autoptr(FcCaptureSummary) summary = NULL;
  guint files0, maps0, held0, n_processes0;
  gboolean stopped = FALSE;
  int gate_fd;

  g_signal_connect (recorder, "stopped", G_CALLBACK (stopped_cb), &stopped);
  gate_fd = open_gate (gate);
  spawn_and_start (recorder, argv);
  /* the first child is sampled, waiting at the gate; then the recording pauses */
  fc_test_spin_until (n_children_sampled (recorder) >= 1);
  fc_recorder_stop (recorder);
  fc_test_spin_until (stopped);
  files0 = fc_module_file_get_n_mapped ();
  maps0 = fc_proc_maps_get_n_created ();
  held0 = fc_recorder_get_n_held_processes (recorder);
  summary = fc_recorder_dup_summary (recorder);
  n_processes0 = summary->processes->len;
  g_clear_pointer (&summary, fc_capture_summary_free);

  /* every child goes through the gate at once: 30 forks, execs and exits, none sampled */
  for (guint i = 0; i < 30; i++)
    g_assert_cmpint (write (gate_fd, "x", 1), ==, 1);
  if (!cap.exited)
    g_main_loop_run (cap.loop);
  close (gate_fd);
  fc_test_remove_tree (tmp);

  summary = fc_recorder_dup_summary (recorder);
  g_test_message ("before the pause: %u processes recorded, %u held; after 30 children unsampled: %u recorded, "
                  "%u held; %u maps read, %u files mapped meanwhile", n_processes0, held0, summary->processes->len,
                  fc_recorder_get_n_held_processes (recorder), fc_proc_maps_get_n_created () - maps0,
                  fc_module_file_get_n_mapped () - files0);
  g_assert_true (cap.exited);
  g_assert_cmpint (WEXITSTATUS (cap.status), ==, 0);
  g_assert_cmpuint (fc_proc_maps_get_n_created (), ==, maps0);
  g_assert_cmpuint (fc_module_file_get_n_mapped (), ==, files0);
  g_assert_cmpuint (summary->processes->len, ==, n_processes0);
  fc_recorder_detach (recorder);

  capture_clear (&cap);
}

/* cpu mode: children that exit as soon as they have burnt 40 ms (10 samples at 250 Hz, and
 * Relay keeps a thread with 2). With 12 ms a child got 2-6 samples (its start-up counts, its
 * last period may end with it), and at load 24 two of sixteen got fewer than 2. A
 * child's perf ring was drained by the sampler's tick, or once it was reaped, when /proc had
 * neither its name nor its maps: under load, a child drained only then was a session with an
 * unnamed thread. Drained at its exit stop, every one is named. */
static void
test_short_lived_cpu (void)
{
  g_autofree char *forker = fc_test_target_path ("forker");
  const char *argv[] = { forker, "--many", "16", "0.040", NULL };
  g_autoptr(FcRecorder) recorder = NULL;
  guint n_ids;
  Capture cap = { 0 };

  if (!fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS, "cpu mode's refusal is checked by /core/sampler/cpu-mode"))
    return;
  recorder = follow_recorder_new (&cap, FC_SAMPLER_MODE_CPU);
  spawn_and_start (recorder, argv);
  g_main_loop_run (cap.loop);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);
  g_assert_true (cap.exited);
  g_assert_cmpint (WEXITSTATUS (cap.status), ==, 0);
  /* every thread of every child's chunk named "comm (pid)", and each child a session */
  n_ids = check_sessions (cap.chunks, fc_recorder_get_profiler_id (recorder));
  g_test_message ("%u sessions", n_ids);
  g_assert_cmpuint (n_ids, >=, 16);
  /* and its stacks are read with its maps: known while it ran, at its first sample, not after
   * its exit (when /proc has no maps) */
  for (guint c = 0; c < cap.chunks->len; c++)
    {
      FcProfile *chunk = g_ptr_array_index (cap.chunks, c);
      guint n_samples, n_burn = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

      if (g_strcmp0 (fc_profile_get_profiler_id (chunk), fc_recorder_get_profiler_id (recorder)) == 0)
        continue;
      for (guint i = 0; i < n_samples; i++)
        {
          guint32 frames[256];
          guint depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));

          for (guint k = 0; k < depth; k++)
            if (g_strcmp0 (fc_profile_string (chunk, fc_profile_get_frame (chunk, frames[k])->function),
                           "grandchild_burn") == 0)
              {
                n_burn++;
                break;
              }
        }
      g_test_message ("chunk %u: %u of %u samples in grandchild_burn", c, n_burn, n_samples);
      /* one may be of its start (the dynamic loader) */
      if (n_samples >= 2)
        g_assert_cmpuint (n_burn, >, 0);
    }

  capture_clear (&cap);
}

/* Runs flamecast-cli (FC_CLI) to its end; returns what it printed on stderr. */
static char *
run_cli (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  char *err = NULL;
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return err;
}

/* record --follow-children: the chunk files hold one profile session per process, each with
 * its own profiler_id and only its own threads, each valid; the summary lists them. */
static void
test_cli_follow_sessions (void)
{
  g_autofree char *forker = fc_test_target_path ("forker");
  g_autofree char *tmp = g_dir_make_tmp ("fc-test-children-XXXXXX", NULL);
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GDir) d = NULL;
  const char *cli = g_getenv ("FC_CLI");
  const char *argv[] = { cli, "record", "--follow-children", "-F", "250", "-o", tmp, "--", forker, "0.8", NULL };
  const char *file;
  guint n_child_files = 0;

  err = run_cli (argv);
  d = g_dir_open (tmp, 0, &error);
  g_assert_no_error (error);
  while ((file = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp, file, NULL);
      g_autoptr(GFile) gfile = g_file_new_for_path (path);
      g_autoptr(FcDocument) doc = fc_reader_load_file (gfile, 0, NULL, &error);

      const char *profiler_id;

      g_assert_no_error (error);
      g_assert_cmpuint (fc_document_get_n_profiles (doc), ==, 1);
      profiler_id = fc_profile_get_profiler_id (fc_document_get_profile (doc, 0));
      /* the target's files are chunk-NNN.json, a child's chunk-<its profiler_id's first 8>-NNN.json */
      if (g_regex_match_simple ("^chunk-[0-9]{3}\\.json$", file, 0, 0))
        {
          g_autofree char *said = g_strdup_printf ("(profiler_id %s)", profiler_id);
          g_assert_nonnull (strstr (err, said));
        }
      else
        {
          g_autofree char *prefix = g_strdup_printf ("chunk-%.8s-", profiler_id);
          g_assert_true (g_str_has_prefix (file, prefix));
          n_child_files++;
        }
      g_ptr_array_add (chunks, g_object_ref (fc_document_get_profile (doc, 0)));
    }
  g_assert_cmpuint (n_child_files, >=, 2);
  /* the forker, its child and the grandchild */
  g_assert_cmpuint (check_sessions (chunks, NULL), >=, 3);
  g_assert_nonnull (strstr (err, "3 processes, each with its own profiler_id and chunks"));
  fc_test_remove_tree (tmp);
}

/* Without --follow-children, cpu mode on a command whose work is in a grandchild: the summary
 * says where the work is and what to do. */
static void
test_cli_cpu_hint (void)
{
  g_autofree char *forker = fc_test_target_path ("forker");
  g_autofree char *tmp = NULL;
  const char *cli = g_getenv ("FC_CLI");
  const char *argv[] = { cli, "record", "--mode", "cpu", "-o", NULL, "--", forker, "0.8", NULL };
  g_autofree char *err = NULL;

  if (!fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS, "cpu mode's refusal is checked by /core/sampler/cpu-mode"))
    return;
  tmp = fc_test_make_tmp_dir ("fc-test-children");
  argv[5] = tmp;
  err = run_cli (argv);
  g_assert_nonnull (strstr (err, "the work is in child processes: use --follow-children"));
  fc_test_remove_tree (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/children/follow-cpu", test_follow_cpu);
  g_test_add_func ("/core/children/follow-wall", test_follow_wall);
  g_test_add_func ("/core/children/follow-wall-ptrace", test_follow_wall_ptrace);
  g_test_add_func ("/core/children/release-exited", test_release_exited);
  g_test_add_func ("/core/children/short-lived-cpu", test_short_lived_cpu);
  g_test_add_func ("/core/children/shared-setup", test_shared_setup);
  g_test_add_func ("/core/children/unsampled-costs-nothing", test_unsampled_costs_nothing);
  g_test_add_func ("/core/children/attach-existing-wall", test_attach_existing_wall);
  g_test_add_func ("/core/children/attach-existing-cpu", test_attach_existing_cpu);
  g_test_add_func ("/cli/record/children-cpu-hint", test_cli_cpu_hint);
  g_test_add_func ("/cli/record/follow-sessions", test_cli_follow_sessions);
  return g_test_run ();
}
