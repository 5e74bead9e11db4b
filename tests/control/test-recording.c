/* test-recording.c - FcRecording on real traced programs: files, sending, lifecycle, stopping
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-capture-error.h"
#include "fc-reader.h"
#include "fc-recording.h"
#include "fc-settings.h"
#include "fc-test-relay.h"
#include "fc-validate.h"
#include "fc-test-util.h"

typedef struct {
  GMainLoop     *loop;
  guint          n_batches;
  guint          n_added;
  guint          n_chunks;
  guint          n_chunk_samples;
  gboolean       exited;
  gboolean       done;
  gboolean       stop_ok;
  FcFlushReport *report;
  GError        *error;
} Run;

static void
samples_added_cb (FcRecording *recording,
                  guint        first,
                  guint        n,
                  Run         *run)
{
  g_assert_cmpuint (n, >, 0);
  /* the target's live chunk */
  g_assert_cmpuint (first + n, <=, fc_profile_get_n_samples (fc_recording_get_live_profile (recording)));
  run->n_batches++;
  run->n_added += n;
}

static void
chunk_ready_cb (FcRecording *recording,
                FcProfile   *chunk,
                Run         *run)
{
  run->n_chunks++;
  run->n_chunk_samples += fc_profile_get_n_samples (chunk);
}

static void
target_exited_cb (FcRecording *recording,
                  int          status,
                  Run         *run)
{
  run->exited = TRUE;
  g_main_loop_quit (run->loop);
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
run_init (Run         *run,
          FcRecording *recording)
{
  memset (run, 0, sizeof *run);
  run->loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (recording, "samples-added", G_CALLBACK (samples_added_cb), run);
  g_signal_connect (recording, "chunk-ready", G_CALLBACK (chunk_ready_cb), run);
  g_signal_connect (recording, "target-exited", G_CALLBACK (target_exited_cb), run);
}

static void
run_clear (Run *run)
{
  g_main_loop_unref (run->loop);
  g_clear_pointer (&run->report, fc_flush_report_unref);
  g_clear_error (&run->error);
}

static void
run_for (Run  *run,
         guint ms)
{
  g_timeout_add (ms, quit_cb, run->loop);
  g_main_loop_run (run->loop);
}

static void
stopped_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Run *run = user_data;

  run->stop_ok = fc_recording_stop_finish (FC_RECORDING (object), result, &run->report, &run->error);
  run->done = TRUE;
  g_main_loop_quit (run->loop);
}

static gboolean
flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Stops, checking that stop_async returns without running this context:
 * a ready source of the highest priority has not run when it returns. */
static void
stop_and_wait (FcRecording *recording,
               Run         *run)
{
  gboolean ran = FALSE;
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_HIGH);
  g_source_set_callback (source, flag_cb, &ran, NULL);
  g_source_attach (source, NULL);
  g_source_unref (source);

  fc_recording_stop_async (recording, NULL, stopped_cb, run);
  g_assert_false (ran);
  g_assert_false (run->done);
  while (!run->done)
    g_main_loop_run (run->loop);
  g_assert_true (ran);
}

static char *
proc_status_field (GPid        pid,
                   const char *key)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], key))
      return g_strstrip (g_strdup (lines[i] + strlen (key)));
  return NULL;
}

/* A launched command, manual lifecycle, two chunks' worth of files. */
static void
test_recording_spawn_files (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *dir = g_dir_make_tmp ("fc-recording-XXXXXX", NULL);
  g_autofree char *output = g_build_filename (dir, "out", NULL);
  const char *argv[] = { burner, "-s", "30", "-t", "2", NULL };
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) listing = NULL;
  const char *name;
  guint n_files = 0, n_samples = 0;
  FcSamplerStats stats;
  int status = -1;
  Run run;

  run_init (&run, recording);
  g_object_set (recording, "frequency", 250, "chunk-duration-ms", 300, "output-dir", output,
                "release", "test@1.0", "environment", "test", NULL);
  g_assert_true (fc_recording_spawn (recording, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (fc_recording_get_lifecycle (recording));
  g_assert_false (fc_recording_get_profiling (recording));
  g_assert_true (fc_recording_start (recording, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recording_get_profiling (recording));

  /* the live view's feed: several batches while recording, and more than one chunk */
  fc_test_spin_until (run.n_batches >= 4 && run.n_chunks >= 1);
  g_assert_false (run.exited);

  stop_and_wait (recording, &run);
  g_assert_true (run.stop_ok);
  g_assert_null (run.report);
  g_assert_true (fc_recording_get_stopped (recording));
  g_assert_false (fc_recording_get_profiling (recording));
  g_assert_false (fc_recording_get_write_failed (recording));
  g_assert_cmpuint (fc_recording_get_n_files (recording), ==, run.n_chunks);
  g_assert_cmpuint (fc_recording_get_n_files (recording), >=, 2);
  fc_recording_get_sampler_stats (recording, &stats);
  g_assert_cmpuint (stats.n_samples, >, 0);

  /* every file is a valid chunk; together they hold every sample delivered */
  listing = g_dir_open (output, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (output, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(FcDocument) doc = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
      FcProfile *chunk;

      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (name, "chunk-") && g_str_has_suffix (name, ".json"));
      chunk = fc_document_get_profile (doc, 0);
      g_assert_cmpstr (fc_profile_get_release (chunk), ==, "test@1.0");
      n_samples += fc_profile_get_n_samples (chunk);
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, fc_recording_get_n_files (recording));
  g_assert_cmpuint (n_samples, ==, run.n_added);

  /* a launched command outlives the recording: untraced, still running */
  g_assert_false (fc_recording_get_target_exited (recording, NULL));
  {
    g_autofree char *tracer = proc_status_field (fc_recording_get_pid (recording), "TracerPid:");
    g_assert_cmpstr (tracer, ==, "0");
  }
  /* until asked to end */
  g_assert_true (fc_recording_terminate_target (recording));
  while (!fc_recording_get_target_exited (recording, &status))
    g_main_loop_run (run.loop);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGTERM);
  g_assert_false (fc_recording_terminate_target (recording));

  /* only once */
  run.done = FALSE;
  fc_recording_stop_async (recording, NULL, stopped_cb, &run);
  while (!run.done)
    g_main_loop_run (run.loop);
  g_assert_false (run.stop_ok);
  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_PENDING);

  run_clear (&run);
  fc_test_remove_tree (dir);
}

/* A running process: attached, recorded, released; it runs on untraced. */
static void
test_recording_attach (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  char *argv[] = { burner, "-s", "30", NULL };
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *tracer = NULL;
  g_autofree char *state = NULL;
  GPid pid;
  int status;
  Run run;

  g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  run_init (&run, recording);
  g_object_set (recording, "frequency", 200, NULL);
  g_assert_true (fc_recording_attach (recording, pid, &error));
  g_assert_no_error (error);
  g_assert_false (fc_recording_terminate_target (recording));   /* not ours to end */
  g_assert_true (fc_recording_start (recording, &error));
  fc_test_spin_until (run.n_added > 0);

  stop_and_wait (recording, &run);
  g_assert_true (run.stop_ok);
  g_assert_cmpuint (run.n_chunks, ==, 1);
  tracer = proc_status_field (pid, "TracerPid:");
  g_assert_cmpstr (tracer, ==, "0");
  state = proc_status_field (pid, "State:");
  g_assert_nonnull (state);
  g_assert_false (state[0] == 't' || state[0] == 'T');
  g_assert_cmpint (waitpid (pid, &status, WNOHANG), ==, 0);

  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  run_clear (&run);
}

/* Trace lifecycle with a sender: profiling runs while a root span is
 * active, and the span's transaction goes out after the chunk it links to. */
static void
test_recording_trace_send (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "30", NULL };
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcSender) sender = fc_sender_new (transport);
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  FcLifecycle *lifecycle;
  guint span;
  Run run;

  run_init (&run, recording);
  g_object_set (recording, "frequency", 200, "lifecycle", FC_PROFILE_LIFECYCLE_TRACE, "sender", sender, NULL);
  g_assert_true (fc_recording_spawn (recording, argv, NULL, &error));
  g_assert_true (fc_recording_start (recording, &error));
  g_assert_no_error (error);
  /* nothing is recorded until a span begins */
  g_assert_false (fc_recording_get_profiling (recording));
  run_for (&run, 200);
  g_assert_cmpuint (run.n_added, ==, 0);

  lifecycle = fc_recording_get_lifecycle (recording);
  span = fc_lifecycle_begin_root_span (lifecycle, "checkout");
  g_assert_true (fc_recording_get_profiling (recording));
  fc_test_spin_until (run.n_added > 0);
  g_assert_true (fc_lifecycle_end_root_span (lifecycle, span));
  g_assert_false (fc_recording_get_profiling (recording));

  stop_and_wait (recording, &run);
  g_assert_no_error (run.error);
  g_assert_true (run.stop_ok);
  g_assert_nonnull (run.report);
  g_assert_true (fc_flush_report_all_delivered (run.report));
  g_assert_cmpuint (relay->delivered->len, ==, 2);
  first = g_strndup (g_bytes_get_data (g_ptr_array_index (relay->delivered, 0), NULL),
                     g_bytes_get_size (g_ptr_array_index (relay->delivered, 0)));
  second = g_strndup (g_bytes_get_data (g_ptr_array_index (relay->delivered, 1), NULL),
                      g_bytes_get_size (g_ptr_array_index (relay->delivered, 1)));
  g_assert_nonnull (strstr (first, "\"type\":\"profile_chunk\""));
  g_assert_nonnull (strstr (second, "\"type\":\"transaction\""));
  g_assert_nonnull (strstr (second, "checkout"));
  g_assert_nonnull (strstr (second, fc_recorder_get_profiler_id (fc_recording_get_recorder (recording))));

  fc_recording_terminate_target (recording);
  while (!fc_recording_get_target_exited (recording, NULL))
    g_main_loop_run (run.loop);
  run_clear (&run);
  relay_free (relay);
}

/* Whether the live chunk has a frame named @function. */
static gboolean
live_has_function (FcRecording *recording,
                   const char  *function)
{
  FcProfile *live = fc_recording_get_live_profile (recording);

  for (guint i = 0; live != NULL && i < fc_profile_get_n_frames (live); i++)
    if (g_strcmp0 (fc_profile_string (live, fc_profile_get_frame (live, i)->function), function) == 0)
      return TRUE;
  return FALSE;
}

/* A Python program sent as the Python SDK sends it: a platform python chunk of Python
 * frames, delivered to the fake Relay and accepted by Relay's checks */
static void
test_recording_python_send (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "targets", "split.py", NULL);
  /* runs until killed: a program that ends after a fixed time may end, on a loaded machine,
   * before the interpreter is found and any of its samples has a Python frame (nothing to
   * send then, and nothing that could fail to be delivered) */
  const char *argv[] = { "/usr/bin/python3.11", script, "0", NULL };
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcSender) sender = fc_sender_new (transport);
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(GError) error = NULL;
  gboolean named = FALSE;
  Run run;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    g_error ("%s is not installed: the Debian package python3.11 is (DEB_PACKAGES)", argv[0]);
  run_init (&run, recording);
  /* the default: Python stacks for a CPython program */
  g_object_set (recording, "frequency", 199, "sender", sender, "environment", "test", NULL);
  g_assert_true (fc_recording_spawn (recording, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recording_start (recording, &error));
  g_assert_no_error (error);
  /* fc_hot has 70% of the CPU time: it is in the chunk soon, however slow the machine */
  fc_test_spin_until (live_has_function (recording, "fc_hot"));
  g_assert_true (fc_recording_terminate_target (recording));
  fc_test_spin_until (run.exited);
  stop_and_wait (recording, &run);
  g_assert_no_error (run.error);
  g_assert_true (run.stop_ok);
  /* "all delivered" of nothing says nothing: chunks were made first (one, or more if the
   * machine is so slow that the chunk's duration passed) */
  g_assert_cmpuint (run.n_chunks, >=, 1);
  g_assert_true (fc_flush_report_all_delivered (run.report));
  g_assert_cmpuint (relay->delivered->len, ==, run.n_chunks);

  for (guint e = 0; e < relay->delivered->len; e++)
    {
      GBytes *envelope = g_ptr_array_index (relay->delivered, e);
      g_autofree char *text = g_strndup (g_bytes_get_data (envelope, NULL), g_bytes_get_size (envelope));
      g_autoptr(FcDocument) document = NULL;
      g_autoptr(GPtrArray) problems = NULL;
      FcProfile *chunk;

      /* the item header carries the platform Relay rate-limits by */
      g_assert_nonnull (strstr (text, "\"type\":\"profile_chunk\""));
      g_assert_nonnull (strstr (text, "\"platform\":\"python\""));
      document = fc_reader_load_bytes (envelope, FC_READ_FLAGS_NONE, &error);
      g_assert_no_error (error);
      problems = fc_validate_document (document);
      for (guint i = 0; i < problems->len; i++)
        {
          g_autofree char *problem = fc_problem_to_string (g_ptr_array_index (problems, i));
          g_test_message ("%s", problem);
        }
      g_assert_false (fc_problems_has_errors (problems));
      chunk = fc_document_get_profile (document, 0);
      g_assert_cmpstr (fc_profile_get_platform (chunk), ==, "python");
      for (guint i = 0; i < fc_profile_get_n_frames (chunk); i++)
        {
          const FcFrame *f = fc_profile_get_frame (chunk, i);

          /* Python frames: no instruction address, a module, a line */
          g_assert_false (f->has_instruction_addr);
          if (g_strcmp0 (fc_profile_string (chunk, f->function), "fc_hot") == 0)
            {
              named = TRUE;
              g_assert_cmpstr (fc_profile_string (chunk, f->module), ==, "split");
              g_assert_cmpstr (fc_profile_string (chunk, f->filename), ==, "split.py");
              g_assert_cmpint (f->in_app, ==, FC_IN_APP_YES);
              g_assert_cmpint (f->lineno, >, 0);
            }
        }
    }
  g_assert_true (named);
  run_clear (&run);
  relay_free (relay);
}

/* A target that exits while recording: the recording ends with it. */
static void
test_recording_target_exits (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  /* a fixed amount of work (about 100 ms of CPU), however loaded the machine */
  const char *argv[] = { burner, "-n", "400", "-x", "3", NULL };
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;
  Run run;

  run_init (&run, recording);
  g_assert_true (fc_recording_spawn (recording, argv, NULL, &error));
  g_assert_true (fc_recording_start (recording, &error));
  g_assert_no_error (error);
  fc_test_spin_until (run.exited);
  g_assert_true (fc_recording_get_target_exited (recording, &status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 3);

  stop_and_wait (recording, &run);
  g_assert_true (run.stop_ok);
  g_assert_cmpuint (run.n_chunks, ==, 1);
  g_assert_cmpuint (run.n_added, >, 0);
  run_clear (&run);
}

/* keep-profile: the document holds every chunk as the files and Sentry get
 * them (ids, client_sdk, release, debug images), and the follower's copy the
 * whole recording by function, across chunks, with the threads' names. */
static void
test_recording_keep_profile (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  const char *argv[] = { threads, NULL };
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  FcProfileFollower *follower;
  FcDocument *document;
  FcProfile *profile;
  guint n_document_samples = 0;
  Run run;

  run_init (&run, recording);
  g_object_set (recording, "frequency", 200, "chunk-duration-ms", 200, "keep-profile", TRUE, NULL);
  g_assert_null (fc_recording_get_profile (recording));
  g_assert_null (fc_recording_get_document (recording));
  g_assert_true (fc_recording_spawn (recording, argv, NULL, &error));
  g_assert_no_error (error);
  profile = fc_recording_get_profile (recording);
  follower = fc_recording_get_follower (recording);
  document = fc_recording_get_document (recording);
  g_assert_nonnull (profile);
  g_assert_nonnull (document);
  g_assert_true (fc_profile_is_live (profile));
  g_assert_true (fc_recording_start (recording, &error));
  /* the copy grows as it is brought up to date, across chunks */
  fc_test_spin_until (run.n_chunks >= 2 &&
                      (fc_profile_follower_update (follower), fc_profile_get_n_threads (profile) >= 3));
  g_assert_cmpuint (fc_profile_get_n_samples (profile), >, 0);

  stop_and_wait (recording, &run);
  g_assert_true (run.stop_ok);
  g_assert_true (fc_profile_follower_finish (follower) == profile);
  g_assert_true (fc_profile_is_finished (profile));
  g_assert_cmpuint (fc_profile_follower_update (follower), ==, 0);
  g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, run.n_added);
  g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, run.n_chunk_samples);
  for (guint i = 0; i < fc_profile_get_n_threads (profile); i++)
    {
      const FcThread *thread = fc_profile_get_thread (profile, i);

      if (thread->name != FC_STRING_NONE)
        g_hash_table_add (names, (gpointer) fc_profile_string (profile, thread->name));
    }
  g_assert_cmpuint (g_hash_table_size (names), >=, 2);

  /* the chunks, as the files and Sentry get them */
  g_assert_cmpuint (fc_document_get_n_profiles (document), ==, run.n_chunks);
  for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
    {
      FcProfile *chunk = fc_document_get_profile (document, i);
      GPtrArray *images = fc_profile_get_images (chunk);

      g_assert_true (fc_profile_is_finished (chunk));
      g_assert_cmpstr (fc_profile_get_profiler_id (chunk), ==,
                       fc_recorder_get_profiler_id (fc_recording_get_recorder (recording)));
      g_assert_nonnull (fc_profile_get_chunk_id (chunk));
      g_assert_nonnull (fc_profile_get_client_sdk (chunk));
      /* <exe>@<build id> */
      g_assert_true (g_str_has_prefix (fc_profile_get_release (chunk), "fc-target-threads@"));
      g_assert_nonnull (images);
      g_assert_cmpuint (images->len, >, 0);
      n_document_samples += fc_profile_get_n_samples (chunk);
    }
  g_assert_cmpuint (n_document_samples, ==, run.n_chunk_samples);

  fc_recording_terminate_target (recording);
  while (!fc_recording_get_target_exited (recording, NULL))
    g_main_loop_run (run.loop);
  run_clear (&run);
}

/* Nothing to record yet, or nothing allowed to: clear errors, no samples. */
static void
test_recording_errors (void)
{
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(FcRecording) unsampled = fc_recording_new ();
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "30", NULL };
  const char *missing[] = { "/nonexistent/fc-no-such-program", NULL };
  g_autoptr(GError) error = NULL;
  Run run;

  g_assert_false (fc_recording_start (recording, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS);
  g_clear_error (&error);
  g_assert_false (fc_recording_spawn (recording, missing, NULL, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED);
  g_clear_error (&error);

  /* a session that was not sampled records nothing, and says so once */
  run_init (&run, unsampled);
  g_object_set (unsampled, "profile-session-sample-rate", 0.0, NULL);
  g_assert_true (fc_recording_spawn (unsampled, argv, NULL, &error));
  g_test_expect_message ("flamecast-lifecycle", G_LOG_LEVEL_WARNING, "*not sampled*");
  g_assert_true (fc_recording_start (unsampled, &error));
  g_test_assert_expected_messages ();
  g_assert_false (fc_recording_get_profiling (unsampled));
  run_for (&run, 200);
  g_assert_cmpuint (run.n_added, ==, 0);
  stop_and_wait (unsampled, &run);
  g_assert_true (run.stop_ok);
  g_assert_cmpuint (run.n_chunks, ==, 0);
  fc_recording_terminate_target (unsampled);
  while (!fc_recording_get_target_exited (unsampled, NULL))
    g_main_loop_run (run.loop);
  run_clear (&run);
}

/* A launched command runs in the directory given to it: the child enters it after fork, the
 * test process (and every thread in it) stays where it was; a directory that is not there is
 * named in the error. */
static void
test_recording_spawn_cwd (void)
{
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(FcRecording) nowhere = fc_recording_new ();
  g_autofree char *dir = fc_test_make_tmp_dir ("fc-test-cwd");
  g_autofree char *missing = g_build_filename (dir, "not-here", NULL);
  g_autofree char *before = g_get_current_dir ();
  g_autofree char *after = NULL;
  g_autofree char *written = NULL;
  g_autofree char *out = g_build_filename (dir, "pwd.txt", NULL);
  const char *argv[] = { "sh", "-c", "pwd -P > pwd.txt", NULL };
  g_autoptr(GError) error = NULL;
  Run run;

  run_init (&run, recording);
  g_assert_true (fc_recording_spawn (recording, argv, dir, &error));
  g_assert_no_error (error);
  after = g_get_current_dir ();
  g_assert_cmpstr (after, ==, before);
  g_assert_true (fc_recording_start (recording, &error));
  g_assert_no_error (error);
  fc_test_spin_until (run.exited);
  stop_and_wait (recording, &run);
  g_assert_true (g_file_get_contents (out, &written, NULL, &error));
  g_assert_no_error (error);
  g_strchomp (written);
  {
    g_autofree char *real = realpath (dir, NULL);

    g_assert_cmpstr (written, ==, real);
  }

  g_assert_false (fc_recording_spawn (nowhere, argv, missing, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, missing));
  run_clear (&run);
  fc_test_remove_tree (dir);
}

/* A launched command that ends before Start is a recording of nothing, not a failure: Start
 * succeeds and Stop finishes with no chunk. The exit is awaited first, so this is the order a
 * loaded machine gives `sh -c pwd` now and then. */
static void
test_recording_start_after_exit (void)
{
  g_autoptr(FcRecording) recording = fc_recording_new ();
  const char *argv[] = { "true", NULL };
  g_autoptr(GError) error = NULL;
  Run run;

  run_init (&run, recording);
  g_assert_true (fc_recording_spawn (recording, argv, NULL, &error));
  g_assert_no_error (error);
  fc_test_spin_until (run.exited);
  g_assert_true (fc_recording_get_target_exited (recording, NULL));
  g_assert_true (fc_recording_start (recording, &error));
  g_assert_no_error (error);
  stop_and_wait (recording, &run);
  g_assert_no_error (run.error);
  g_assert_true (run.stop_ok);
  g_assert_cmpuint (run.n_chunk_samples, ==, 0);
  run_clear (&run);
}

/* The user's settings are a recording's defaults: every recording key of the
 * schema reaches the recording (the CLI starts from these, flags on top). */
static void
test_recording_apply_settings (void)
{
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_autofree char *platform = NULL;
  g_autofree char *environment = NULL;
  FcSamplerMode mode;
  guint frequency, stack_size, chunk_ms;

  g_object_set (settings,
                "frequency", 250,
                "mode", FC_SAMPLER_MODE_CPU,
                "stack-bytes", 4096,
                "platform", "c",
                "chunk-duration", 5,
                "environment", "staging",
                "follow-children", TRUE,
                "stacks", FC_STACKS_MIXED,
                NULL);
  g_assert_false (fc_recorder_get_follow_children (fc_recording_get_recorder (recording)));
  fc_recording_apply_settings (recording, settings);
  g_object_get (recording,
                "frequency", &frequency,
                "mode", &mode,
                "stack-size", &stack_size,
                "platform", &platform,
                "chunk-duration-ms", &chunk_ms,
                "environment", &environment,
                NULL);
  g_assert_cmpuint (frequency, ==, 250);
  g_assert_cmpint (mode, ==, FC_SAMPLER_MODE_CPU);
  g_assert_cmpuint (stack_size, ==, 4096);
  g_assert_cmpstr (platform, ==, "c");
  g_assert_cmpuint (chunk_ms, ==, 5000);
  g_assert_cmpstr (environment, ==, "staging");
  /* the option the CLI's --follow-children and the app's switch set, read at attach */
  g_assert_true (fc_recorder_get_follow_children (fc_recording_get_recorder (recording)));
  /* --stacks and the Preferences row */
  g_assert_cmpint (fc_recorder_get_stacks (fc_recording_get_recorder (recording)), ==, FC_STACKS_MIXED);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the fake Relay is on 127.0.0.1: no proxy, and no GSettings for finding one */
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);

  g_test_add_func ("/control/recording/spawn-files", test_recording_spawn_files);
  g_test_add_func ("/control/recording/attach", test_recording_attach);
  g_test_add_func ("/control/recording/trace-send", test_recording_trace_send);
  g_test_add_func ("/control/recording/python-send", test_recording_python_send);
  g_test_add_func ("/control/recording/target-exits", test_recording_target_exits);
  g_test_add_func ("/control/recording/keep-profile", test_recording_keep_profile);
  g_test_add_func ("/control/recording/errors", test_recording_errors);
  g_test_add_func ("/control/recording/spawn-cwd", test_recording_spawn_cwd);
  g_test_add_func ("/control/recording/start-after-exit", test_recording_start_after_exit);
  g_test_add_func ("/control/recording/apply-settings", test_recording_apply_settings);

  return g_test_run ();
}
