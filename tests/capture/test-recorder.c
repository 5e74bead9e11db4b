/* test-recorder.c - recording real programs into valid V2 chunks, delivered on the main context
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-chunk-meta.h"
#include "fc-capture-error.h"
#include "fc-proc-maps.h"
#include "fc-recorder.h"
#include "fc-validate.h"
#include "fc-writer.h"
#include "fc-test-util.h"

typedef struct {
  GMainLoop *loop;
  GPtrArray *chunks;
  guint      n_deliveries;
  guint      n_delivered;
  gboolean   ranges_ok;
  gboolean   exited;
  int        status;
  GThread   *main_thread;
} Capture;

static void
chunk_ready_cb (FcRecorder *recorder,
                FcProfile  *chunk,
                Capture    *cap)
{
  g_assert_true (g_thread_self () == cap->main_thread);
  g_ptr_array_add (cap->chunks, g_object_ref (chunk));
}

static void
samples_added_cb (FcRecorder *recorder,
                  guint       first,
                  guint       n,
                  Capture    *cap)
{
  FcProfile *live = fc_recorder_get_live_profile (recorder);

  /* delivered on the consumer's context, as ranges of the live chunk */
  g_assert_true (g_thread_self () == cap->main_thread);
  if (first + n != fc_profile_get_n_samples (live) && cap->chunks->len == 0)
    cap->ranges_ok = FALSE;
  g_assert_cmpuint (n, >, 0);
  cap->n_deliveries++;
  cap->n_delivered += n;
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

/* threads with samples in the chunk being recorded, as its views read it */
static guint
live_threads (FcRecorder *recorder)
{
  FcProfile *live = fc_recorder_get_live_profile (recorder);

  return live != NULL ? fc_profile_get_n_threads (live) : 0;
}

static void
capture_init (Capture    *cap,
              FcRecorder *recorder)
{
  memset (cap, 0, sizeof *cap);
  cap->loop = g_main_loop_new (NULL, FALSE);
  cap->chunks = g_ptr_array_new_with_free_func (g_object_unref);
  cap->ranges_ok = TRUE;
  cap->status = -1;
  cap->main_thread = g_thread_self ();
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), cap);
  g_signal_connect (recorder, "samples-added", G_CALLBACK (samples_added_cb), cap);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), cap);
}

static void
capture_clear (Capture *cap)
{
  g_main_loop_unref (cap->loop);
  g_ptr_array_unref (cap->chunks);
}

static gboolean
is_hex32 (const char *s)
{
  if (s == NULL || strlen (s) != 32)
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isxdigit (*s) || g_ascii_isupper (*s))
      return FALSE;
  return TRUE;
}

/* Every chunk stands on its own: metadata, debug images, and Relay's rules. */
static void
check_chunk (FcProfile  *chunk,
             const char *profiler_id)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *payload;
  JsonObject *sdk;
  JsonArray *images;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (fc_profile_get_meta_string (chunk, "version"), ==, "2");
  g_assert_cmpstr (fc_profile_get_profiler_id (chunk), ==, profiler_id);
  g_assert_true (is_hex32 (fc_profile_get_chunk_id (chunk)));
  g_assert_cmpstr (fc_profile_get_platform (chunk), ==, "native");
  g_assert_cmpstr (fc_profile_get_release (chunk), ==, "test-release@1.0");
  g_assert_cmpstr (fc_profile_get_environment (chunk), ==, "test");
  g_assert_cmpstr (fc_profile_get_client_sdk (chunk)->name, ==, "flamecast");
  g_assert_cmpstr (fc_profile_get_client_sdk (chunk)->version, ==, FC_VERSION);

  /* the SDK and images as Sentry gets them */
  bytes = fc_writer_write_profile (chunk, &error);
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  payload = json_node_get_object (json_parser_get_root (parser));
  sdk = json_object_get_object_member (payload, "client_sdk");
  g_assert_cmpstr (json_object_get_string_member (sdk, "name"), ==, "flamecast");
  g_assert_cmpstr (json_object_get_string_member (sdk, "version"), ==, FC_VERSION);
  images = json_object_get_array_member (json_object_get_object_member (payload, "debug_meta"), "images");
  g_assert_cmpuint (json_array_get_length (images), >=, 2);
  for (guint i = 0; i < json_array_get_length (images); i++)
    {
      JsonObject *image = json_array_get_object_element (images, i);
      g_autofree char *debug_id = fc_build_id_to_debug_id (json_object_get_string_member (image, "code_id"));

      g_assert_cmpstr (json_object_get_string_member (image, "type"), ==, "symbolic");
      g_assert_true (g_str_has_prefix (json_object_get_string_member (image, "code_file"), "/"));
      g_assert_cmpstr (json_object_get_string_member (image, "debug_id"), ==, debug_id);
      g_assert_true (g_str_has_prefix (json_object_get_string_member (image, "image_addr"), "0x"));
      g_assert_true (g_str_has_prefix (json_object_get_string_member (image, "image_vmaddr"), "0x"));
      g_assert_cmpint (json_object_get_int_member (image, "image_size"), >, 0);
    }

  /* every frame has a name and an address */
  for (guint i = 0; i < fc_profile_get_n_frames (chunk); i++)
    {
      const FcFrame *frame = fc_profile_get_frame (chunk, i);
      g_assert_cmpuint (frame->function, !=, FC_STRING_NONE);
      g_assert_cmpstr (fc_profile_string (chunk, frame->function), !=, "");
      g_assert_true (frame->has_instruction_addr);
      g_assert_cmpint (frame->in_app, !=, FC_IN_APP_UNKNOWN);
    }

  problems = fc_validate_profile (chunk);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *text = fc_problem_to_string (g_ptr_array_index (problems, i));
      g_test_message ("%s", text);
    }
  g_assert_false (fc_problems_has_errors (problems));
}

static guint64
n_unwound (FcRecorder *recorder)
{
  FcUnwindStats stats;

  fc_recorder_get_unwind_stats (recorder, &stats);
  return stats.n_unwound;
}

/* the file that ends a `burner -u FILE` */
static void
end_burner (const char *stop)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (stop, "", 0, &error);
  g_assert_no_error (error);
}

/* Whether the samples of @chunk before @end_ns make a chunk Relay keeps: a chunk that did not
 * by its time limit takes the samples after it. */
static gboolean
keeps_a_thread_within (FcProfile *chunk,
                       gint64     end_ns)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint n_samples;
  const FcSample *samples = fc_profile_get_samples (chunk, &n_samples);

  for (guint i = 0; i < n_samples; i++)
    {
      gpointer thread = GUINT_TO_POINTER (samples[i].thread + 1);

      if (samples[i].timestamp_ns >= end_ns || samples[i].stack == FC_STACK_EMPTY)
        continue;
      if (g_hash_table_contains (seen, thread))
        return TRUE;
      g_hash_table_add (seen, thread);
    }
  return FALSE;
}

static void
test_spawn_chunks (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-chunks");
  g_autofree char *stop = g_build_filename (tmp, "stop", NULL);
  g_autofree char *script = g_strdup_printf ("exec '%s' -u '%s' -t 2 -x 3 > /dev/null", burner, stop);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) chunk_ids = g_hash_table_new (g_str_hash, g_str_equal);
  FcUnwindStats ustats;
  const char *profiler_id;
  guint total = 0;
  Capture cap;

  capture_init (&cap, recorder);
  g_assert_cmpuint (fc_recorder_get_frequency (recorder), ==, 101);
  g_assert_cmpuint (fc_recorder_get_chunk_duration_ms (recorder), ==, 60000);
  g_assert_cmpstr (fc_recorder_get_platform (recorder), ==, "native");
  g_object_set (recorder,
                "chunk-duration-ms", 500,
                "frequency", 250,
                "release", "test-release@1.0",
                "environment", "test",
                NULL);

  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  profiler_id = fc_recorder_get_profiler_id (recorder);
  g_assert_true (is_hex32 (profiler_id));

  /* until three 500 ms chunks are out, batches arrived while chunks filled (every 50 ms, not
   * only when a chunk is done: all samples in one batch would make one delivery a chunk) and
   * enough stacks came for the share below to mean something; then the burner ends */
  fc_test_spin_until (cap.chunks->len >= 3 && cap.n_deliveries > cap.chunks->len && n_unwound (recorder) > 100);
  end_burner (stop);
  g_main_loop_run (cap.loop);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);
  fc_test_remove_tree (tmp);

  /* the command's exit status comes through */
  g_assert_true (cap.exited);
  g_assert_true (WIFEXITED (cap.status));
  g_assert_cmpint (WEXITSTATUS (cap.status), ==, 3);

  /* chunks of at most 500 ms; the last one may also hold the few samples past its end that
   * were too few for a chunk of their own (/core/recorder/chunks-keep-a-thread) */
  g_assert_cmpuint (cap.chunks->len, >=, 3);
  for (guint i = 0; i < cap.chunks->len; i++)
    {
      FcProfile *chunk = g_ptr_array_index (cap.chunks, i);
      gint64 first, last;

      check_chunk (chunk, profiler_id);
      g_assert_true (g_hash_table_add (chunk_ids, (gpointer) fc_profile_get_chunk_id (chunk)));
      fc_profile_get_time_range (chunk, &first, &last);
      if (i + 1 < cap.chunks->len && !keeps_a_thread_within (chunk, first + 500 * G_GINT64_CONSTANT (1000000)))
        g_test_message ("chunk %u: %.3f s, no thread with two samples in its first 500 ms", i, (last - first) / 1e9);
      else if (i + 1 < cap.chunks->len)
        g_assert_cmpint (last - first, <, 500 * G_GINT64_CONSTANT (1000000));
      total += fc_profile_get_n_samples (chunk);
    }
  g_assert_cmpuint (total, ==, fc_recorder_get_n_samples (recorder));
  g_assert_cmpuint (cap.n_delivered, ==, total);
  g_assert_true (cap.ranges_ok);
  g_test_message ("%u deliveries, %u chunks", cap.n_deliveries, cap.chunks->len);
  g_assert_cmpuint (cap.n_deliveries, >, cap.chunks->len);

  fc_recorder_get_unwind_stats (recorder, &ustats);
  g_assert_cmpuint (ustats.n_unwound, >, 100);
  g_assert_cmpuint (ustats.n_complete * 100, >=, ustats.n_unwound * 95);
  capture_clear (&cap);
}

static void
test_attach_thread_names (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  const char *argv[] = { threads, "-", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  FcProfile *chunk;
  char ready[6];
  Capture cap;
  GPid pid;
  int in_fd, out_fd, status;
  ssize_t n;

  capture_init (&cap, recorder);
  g_object_set (recorder, "release", "test-release@1.0", "environment", "test", NULL);
  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &pid, &in_fd, &out_fd, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (read (out_fd, ready, sizeof ready), ==, sizeof ready);

  g_assert_true (fc_recorder_attach (recorder, pid, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  /* until every thread was sampled, the one that sleeps included */
  fc_test_spin_until (live_threads (recorder) == 4);
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);
  g_assert_false (cap.exited);

  g_assert_cmpuint (cap.chunks->len, ==, 1);
  chunk = g_ptr_array_index (cap.chunks, 0);
  check_chunk (chunk, fc_recorder_get_profiler_id (recorder));
  for (guint i = 0; i < fc_profile_get_n_threads (chunk); i++)
    {
      const FcThread *t = fc_profile_get_thread (chunk, i);
      g_assert_true (t->has_metadata);
      if (t->name != FC_STRING_NONE)
        g_hash_table_add (names, (gpointer) fc_profile_string (chunk, t->name));
    }
  /* names from /proc/PID/task/TID/comm, set by the program after its threads started */
  g_assert_true (g_hash_table_contains (names, "fc-main"));
  g_assert_true (g_hash_table_contains (names, "fc-worker-1"));
  g_assert_true (g_hash_table_contains (names, "fc-worker-2"));
  g_assert_true (g_hash_table_contains (names, "fc-sleeper"));
  g_assert_cmpuint (fc_profile_get_n_threads (chunk), ==, 4);

  /* released: the program finishes normally */
  close (in_fd);
  {
    char buf[64] = { 0 };
    gsize got = 0;
    while ((n = read (out_fd, buf + got, sizeof buf - 1 - got)) > 0)
      got += n;
    g_assert_cmpstr (buf, ==, "threads done\n");
  }
  close (out_fd);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  capture_clear (&cap);
}

static void
test_attach_errors (void)
{
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  pid_t pid = fork ();

  if (pid == 0)
    _exit (0);
  waitpid (pid, NULL, 0);

  g_assert_false (fc_recorder_start (recorder, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS);
  g_clear_error (&error);
  g_assert_false (fc_recorder_attach (recorder, pid, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS);
  /* always safe */
  fc_recorder_stop (recorder);
  fc_recorder_detach (recorder);
}

typedef struct {
  Capture    *cap;
  FcRecorder *recorder;
  GArray     *chunks_at_stopped;  /* cap->chunks->len at each "stopped" */
  gboolean    timeout_fired;
  gboolean    stopping_in_timeout;
  guint       chunks_in_timeout;
} StopCapture;

static void
stopped_cb (FcRecorder  *recorder,
            StopCapture *sc)
{
  guint n = sc->cap->chunks->len;

  g_assert_true (g_thread_self () == sc->cap->main_thread);
  g_array_append_val (sc->chunks_at_stopped, n);
}

static gboolean
pending_flush_timeout_cb (gpointer data)
{
  StopCapture *sc = data;

  sc->timeout_fired = TRUE;
  sc->stopping_in_timeout = fc_recorder_get_stopping (sc->recorder);
  sc->chunks_in_timeout = sc->cap->chunks->len;
  return G_SOURCE_REMOVE;
}

/* stop() leaves the chunk to the main context: the loop runs on while the
 * worker hands over the last samples, and a start() at once records the next
 * chunk without mixing the two runs. */
static void
test_stop_does_not_block (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-stop");
  g_autofree char *stop = g_build_filename (tmp, "stop", NULL);
  const char *argv[] = { burner, "-u", stop, "-t", "2", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) chunks_at_stopped = g_array_new (FALSE, FALSE, sizeof (guint));
  const char *profiler_id;
  gint64 first[2], last[2];
  guint total = 0;
  StopCapture sc = { 0 };
  Capture cap;

  capture_init (&cap, recorder);
  sc.cap = &cap;
  sc.recorder = recorder;
  sc.chunks_at_stopped = chunks_at_stopped;
  g_signal_connect (recorder, "stopped", G_CALLBACK (stopped_cb), &sc);
  g_object_set (recorder, "frequency", 200, "release", "test-release@1.0", "environment", "test", NULL);

  /* nothing to wait for yet */
  g_assert_false (fc_recorder_get_stopping (recorder));

  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  profiler_id = fc_recorder_get_profiler_id (recorder);
  /* until the run makes a chunk Relay keeps (a thread with two samples): a shorter one waits for
   * the next run (/core/recorder/chunks-keep-a-thread) */
  fc_test_spin_until (fc_validate_keeps_a_thread (fc_recorder_get_live_profile (recorder)));
  g_assert_false (cap.exited);

  /* returns before the chunk is finished: that happens on this context, which stop() does not run */
  fc_recorder_stop (recorder);
  g_assert_true (fc_recorder_get_stopping (recorder));
  g_assert_cmpuint (cap.chunks->len, ==, 0);
  g_assert_cmpuint (chunks_at_stopped->len, ==, 0);

  /* the next run starts while the first one's samples are still on their way */
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (fc_recorder_get_profiler_id (recorder), ==, profiler_id);

  /* a higher priority than the delivery: it runs first, with the flush still pending */
  {
    GSource *source = g_timeout_source_new (0);
    g_source_set_priority (source, G_PRIORITY_HIGH);
    g_source_set_callback (source, pending_flush_timeout_cb, &sc, NULL);
    g_source_attach (source, NULL);
    g_source_unref (source);
  }
  /* until the first run's chunk is out and the second run has a chunk's worth of its own */
  fc_test_spin_until (cap.chunks->len == 1 &&
                      cap.n_delivered > fc_profile_get_n_samples (g_ptr_array_index (cap.chunks, 0)) &&
                      fc_validate_keeps_a_thread (fc_recorder_get_live_profile (recorder)));
  g_assert_false (cap.exited);
  g_assert_true (sc.timeout_fired);
  g_assert_true (sc.stopping_in_timeout);
  g_assert_cmpuint (sc.chunks_in_timeout, ==, 0);
  /* the first run's chunk came out while the loop ran, before the second run ended */
  g_assert_cmpuint (cap.chunks->len, ==, 1);
  g_assert_cmpuint (chunks_at_stopped->len, ==, 1);

  /* the caller's loop delivers the chunk and "stopped"; nothing in the recorder runs it */
  fc_recorder_stop (recorder);
  g_assert_true (fc_recorder_get_stopping (recorder));
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (cap.chunks->len, ==, 2);
  g_assert_cmpuint (chunks_at_stopped->len, ==, 2);
  /* each "stopped" follows its own chunk */
  g_assert_cmpuint (g_array_index (chunks_at_stopped, guint, 0), ==, 1);
  g_assert_cmpuint (g_array_index (chunks_at_stopped, guint, 1), ==, 2);

  for (guint i = 0; i < 2; i++)
    {
      FcProfile *chunk = g_ptr_array_index (cap.chunks, i);

      check_chunk (chunk, profiler_id);
      g_assert_cmpuint (fc_profile_get_n_samples (chunk), >, 0);
      fc_profile_get_time_range (chunk, &first[i], &last[i]);
      total += fc_profile_get_n_samples (chunk);
    }
  g_assert_cmpstr (fc_profile_get_chunk_id (g_ptr_array_index (cap.chunks, 0)), !=,
                   fc_profile_get_chunk_id (g_ptr_array_index (cap.chunks, 1)));
  /* every sample of the first run precedes every sample of the second */
  g_assert_cmpint (last[0], <, first[1]);
  g_assert_cmpuint (total, ==, fc_recorder_get_n_samples (recorder));
  g_assert_cmpuint (cap.n_delivered, ==, total);

  /* released: the burner finishes on its own, with its normal status */
  fc_recorder_detach (recorder);
  g_assert_cmpuint (cap.chunks->len, ==, 2);
  end_burner (stop);
  fc_test_spin_until (cap.exited);
  fc_test_remove_tree (tmp);
  g_assert_true (WIFEXITED (cap.status));
  g_assert_cmpint (WEXITSTATUS (cap.status), ==, 0);
  capture_clear (&cap);
}

static void
setpgid_cb (gpointer data)
{
  setpgid (0, 0);
}

static JsonObject *
load_chunk (const char *dir,
            const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Ctrl-C in a terminal reaches the profiler and the command it launched: the recording is written,
 * and the command's fate (killed by SIGINT) is the exit status. */
/* A tick every 200 ms and chunks of 100 ms: each tick is past the chunk's end. No chunk goes out
 * that Relay would refuse (no thread with two samples with a stack): a chunk short of that takes
 * the next samples, and samples past a chunk's end start the next one only once they make a
 * chunk of their own; at the stop, those left join the chunk before. Nothing is lost. */
static void
test_chunks_keep_a_thread (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-keep");
  g_autofree char *stop = g_build_filename (tmp, "stop", NULL);
  const char *argv[] = { burner, "-u", stop, "-t", "2", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  guint total = 0;
  Capture cap;

  capture_init (&cap, recorder);
  g_object_set (recorder, "mode", FC_SAMPLER_MODE_WALL, "frequency", 5, "chunk-duration-ms", 100,
                "release", "test-release@1.0", "environment", "test", NULL);
  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  /* three chunks out, and samples past the third's end on their way */
  fc_test_spin_until (cap.chunks->len >= 3 && cap.n_delivered > 0);
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  /* released, the burner ends when it sees the file */
  fc_recorder_detach (recorder);
  end_burner (stop);
  fc_test_spin_until (cap.exited);
  fc_test_remove_tree (tmp);

  g_assert_cmpuint (cap.chunks->len, >=, 3);
  for (guint i = 0; i < cap.chunks->len; i++)
    {
      FcProfile *chunk = g_ptr_array_index (cap.chunks, i);

      g_test_message ("chunk %u: %u samples", i, fc_profile_get_n_samples (chunk));
      g_assert_true (fc_validate_keeps_a_thread (chunk));
      check_chunk (chunk, fc_recorder_get_profiler_id (recorder));
      total += fc_profile_get_n_samples (chunk);
    }
  g_assert_cmpuint (total, ==, fc_recorder_get_n_samples (recorder));
  g_assert_cmpuint (cap.n_delivered, ==, total);
  capture_clear (&cap);
}

/* A run too short for a chunk Relay keeps (at 1 Hz, a tick or two) is not finished at its stop:
 * it waits for the next run, and when the recording ends instead, it goes out then, whole. */
static void
test_short_run_kept (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-short");
  g_autofree char *stop = g_build_filename (tmp, "stop", NULL);
  const char *argv[] = { burner, "-u", stop, "-t", "2", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  gboolean kept;
  guint total = 0;
  Capture cap;

  capture_init (&cap, recorder);
  g_object_set (recorder, "mode", FC_SAMPLER_MODE_WALL, "frequency", 1,
                "release", "test-release@1.0", "environment", "test", NULL);
  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  fc_test_spin_until (cap.n_delivered > 0);
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  kept = cap.chunks->len == 0;
  g_test_message ("%u samples at the stop: %s", cap.n_delivered, kept ? "kept for the next run" : "a chunk");
  /* a chunk only when Relay keeps it; else the samples stay in the live one */
  if (kept)
    g_assert_false (fc_validate_keeps_a_thread (fc_recorder_get_live_profile (recorder)));
  else
    g_assert_true (fc_validate_keeps_a_thread (g_ptr_array_index (cap.chunks, 0)));
  fc_recorder_detach (recorder);
  end_burner (stop);
  fc_test_spin_until (cap.exited);
  fc_test_remove_tree (tmp);

  /* the recording ended: what was kept went out, nothing was lost */
  g_assert_cmpuint (cap.chunks->len, ==, 1);
  for (guint i = 0; i < cap.chunks->len; i++)
    total += fc_profile_get_n_samples (g_ptr_array_index (cap.chunks, i));
  g_assert_cmpuint (total, ==, fc_recorder_get_n_samples (recorder));
  g_assert_cmpuint (cap.n_delivered, ==, total);
  capture_clear (&cap);
}

/* A chunk too sparse to have a thread with two samples grows past its length, but never past
 * Relay's span (60 s; 150 ms here): cpu mode at 10 Hz on a thread that uses 50 ms of CPU every
 * 200 ms gives a sample every other burst at most, each alone in its burst, >= 150 ms from any
 * other. Held samples that wait that long go out without the one that came too late for them. */
static void
test_sparse_chunks_within_span (void)
{
  g_autofree char *pool = fc_test_target_path ("pool");
  const char *argv[] = { pool, "-n", "1", "-b", "50000", "-p", "200000", "-c", "40", "-o", "/dev/null", NULL };
  const gint64 cap_ns = 150 * G_GINT64_CONSTANT (1000000);
  g_autoptr(FcRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;
  guint total = 0;
  Capture cap;

  g_setenv ("FC_RECORDER_SPAN_CAP_MS", "150", TRUE);
  recorder = fc_recorder_new ();
  g_unsetenv ("FC_RECORDER_SPAN_CAP_MS");
  capture_init (&cap, recorder);
  g_object_set (recorder, "mode", FC_SAMPLER_MODE_CPU, "frequency", 10, "chunk-duration-ms", 100,
                "release", "test-release@1.0", "environment", "test", NULL);
  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  g_main_loop_run (cap.loop);
  fc_recorder_stop (recorder);
  while (fc_recorder_get_stopping (recorder))
    g_main_context_iteration (NULL, TRUE);
  fc_recorder_detach (recorder);

  for (guint i = 0; i < cap.chunks->len; i++)
    {
      FcProfile *chunk = g_ptr_array_index (cap.chunks, i);
      gint64 first, last;

      fc_profile_get_time_range (chunk, &first, &last);
      g_test_message ("chunk %u: %u samples over %.3f s", i, fc_profile_get_n_samples (chunk), (last - first) / 1e9);
      g_assert_cmpint (last - first, <, cap_ns);
      total += fc_profile_get_n_samples (chunk);
    }
  /* one sample a full period of CPU time: 2 s of it at 10 Hz are ~20 */
  g_assert_cmpuint (total, >=, 3);
  g_assert_cmpuint (total, ==, fc_recorder_get_n_samples (recorder));
  capture_clear (&cap);
}

static void
test_cli_ctrl_c (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  g_autofree char *tmp = g_dir_make_tmp ("fc-test-record-XXXXXX", NULL);
  g_autoptr(GString) status_text = g_string_new (NULL);
  g_autoptr(JsonObject) chunk = NULL;
  const char *cli = g_getenv ("FC_CLI");
  const char *argv[] = { cli, "record", "--frequency", "200", "--release", "r1", "--output", tmp, "--",
                         burner, "-s", "300", NULL };
  int terminal;
  GPid pid;
  int status;

  g_assert_nonnull (cli);
  pid = fc_test_spawn_on_terminal (argv, setpgid_cb, &terminal);
  /* Ctrl-C once the status line shows more than 10 samples */
  fc_test_poll_until (fc_test_terminal_count (terminal, status_text, " sample") > 10);
  g_assert_cmpint (kill (-pid, SIGINT), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 128 + SIGINT);
  close (terminal);

  chunk = load_chunk (tmp, "chunk-001.json");
  g_assert_cmpstr (json_object_get_string_member (chunk, "version"), ==, "2");
  g_assert_cmpstr (json_object_get_string_member (chunk, "platform"), ==, "native");
  g_assert_cmpstr (json_object_get_string_member (chunk, "release"), ==, "r1");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                      json_object_get_object_member (chunk, "profile"), "samples")), >, 10);
  {
    g_autofree char *path = g_build_filename (tmp, "chunk-001.json", NULL);
    g_unlink (path);
    g_rmdir (tmp);
  }
}

/* --pid: Ctrl-C (to the profiler only) stops the recording and releases the program. */
static void
test_cli_pid_sigint_v1 (void)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  g_autofree char *tmp = NULL;
  g_autofree char *pid_arg = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GString) status_text = g_string_new (NULL);
  const char *cli = g_getenv ("FC_CLI");
  const char *target_argv[] = { threads, "-", NULL };
  const char *name;
  GPid target, profiler;
  int in_fd, out_fd, status, terminal;
  char buf[64] = { 0 };
  gsize got = 0;
  ssize_t n;
  guint n_files = 0;

  /* the CLI, a child of this test, records its sibling */
  if (!fc_test_skip_unless (FC_TEST_FACILITY_PTRACE_NON_CHILD, NULL))
    return;
  tmp = fc_test_make_tmp_dir ("fc-test-record");
  g_spawn_async_with_pipes (NULL, (char **) target_argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &target, &in_fd, &out_fd, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (read (out_fd, buf, 6), ==, 6);
  pid_arg = g_strdup_printf ("%d", target);
  {
    const char *argv[] = { cli, "record", "--pid", pid_arg, "--format", "v1", "--output", tmp, NULL };

    profiler = fc_test_spawn_on_terminal (argv, NULL, &terminal);
  }
  /* SIGINT once the status line shows more than 10 samples */
  fc_test_poll_until (fc_test_terminal_count (terminal, status_text, " sample") > 10);
  g_assert_cmpint (kill (profiler, SIGINT), ==, 0);
  g_assert_cmpint (waitpid (profiler, &status, 0), ==, profiler);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  close (terminal);

  /* the program runs on and finishes normally */
  close (in_fd);
  memset (buf, 0, sizeof buf);
  while ((n = read (out_fd, buf + got, sizeof buf - 1 - got)) > 0)
    got += n;
  close (out_fd);
  g_assert_cmpstr (buf, ==, "threads done\n");
  g_assert_cmpint (waitpid (target, &status, 0), ==, target);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  /* one envelope: a transaction and its V1 profile */
  dir = g_dir_open (tmp, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp, name, NULL);
      g_autofree char *contents = NULL;
      g_assert_true (g_str_has_suffix (name, ".envelope"));
      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      g_assert_nonnull (strstr (contents, "\"type\":\"transaction\""));
      g_assert_nonnull (strstr (contents, "\"type\":\"profile\""));
      g_unlink (path);
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, 1);
  g_rmdir (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/recorder/spawn-chunks", test_spawn_chunks);
  g_test_add_func ("/core/recorder/attach-thread-names", test_attach_thread_names);
  g_test_add_func ("/core/recorder/attach-errors", test_attach_errors);
  g_test_add_func ("/core/recorder/stop-does-not-block", test_stop_does_not_block);
  g_test_add_func ("/core/recorder/chunks-keep-a-thread", test_chunks_keep_a_thread);
  g_test_add_func ("/core/recorder/short-run-kept", test_short_run_kept);
  g_test_add_func ("/core/recorder/sparse-chunks-within-span", test_sparse_chunks_within_span);
  g_test_add_func ("/cli/record/ctrl-c", test_cli_ctrl_c);
  g_test_add_func ("/cli/record/pid-sigint-v1", test_cli_pid_sigint_v1);

  return g_test_run ();
}
