/* fc-recording.c - one recording end to end: target, lifecycle, chunk files, sending
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "fc-convert.h"
#include "fc-capture-error.h"
#include "fc-record-options.h"
#include "fc-recording.h"
#include "fc-writer.h"

struct _FcRecording
{
  GObject             parent_instance;

  /* owned */
  FcRecorder         *recorder;
  FcLifecycle        *lifecycle;
  FcSender           *sender;
  char               *output_dir;
  GTask              *stop_task;       /* stop_async in progress */
  FcDocument         *document;        /* keep-profile: every chunk, as written */
  FcProfileFollower  *follower;        /* keep-profile: the whole recording by function, for views */
  GHashTable         *live_sources;    /* keep-profile: profiler_id -> the follower's current source */

  /* settings */
  FcProfileLifecycle  lifecycle_mode;
  double              session_sample_rate;
  double              traces_sample_rate;
  FcFormat            format;
  gboolean            keep_profile;

  /* state */
  gboolean            spawned;
  gboolean            profiling;
  gboolean            stopped;
  gboolean            starting;        /* in fc_recording_start(): a start error is returned, not warned */
  GError             *start_error;
  guint               n_files;
  guint               n_chunks;
  gboolean            write_failed;
  guint               n_stops;         /* fc_recorder_stop() calls */
  guint               n_stopped;       /* their "stopped": the chunk is out */
  GQueue              deferred_spans;  /* DeferredSpan*: ended while their chunk was being finished */
  gboolean            have_final_stats;
  FcSamplerStats      final_stats;
  FcUnwindStats       final_unwind_stats;
};

typedef struct {
  FcRootSpan *span;
  guint       stop;            /* n_stops when it ended: sent once that stop's chunk is out */
} DeferredSpan;

enum {
  PROP_0,
  PROP_FREQUENCY,
  PROP_MODE,
  PROP_STACK_SIZE,
  PROP_CHUNK_DURATION_MS,
  PROP_PLATFORM,
  PROP_RELEASE,
  PROP_ENVIRONMENT,
  PROP_FOLLOW_CHILDREN,
  PROP_STACKS,
  PROP_LIFECYCLE,
  PROP_PROFILE_SESSION_SAMPLE_RATE,
  PROP_TRACES_SAMPLE_RATE,
  PROP_OUTPUT_DIR,
  PROP_FORMAT,
  PROP_SENDER,
  PROP_KEEP_PROFILE,
  PROP_PROFILING,
  PROP_STOPPED,
  PROP_N_FILES,
  N_PROPS
};

enum {
  SAMPLES_ADDED,
  CHUNK_READY,
  TARGET_EXITED,
  WARNING,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (FcRecording, fc_recording, G_TYPE_OBJECT)

static void
warn (FcRecording *self,
      const char  *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
warn (FcRecording *self,
      const char  *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_signal_emit (self, signals[WARNING], 0, message);
}

/* ---- chunk files ---- */

static void
write_file (FcRecording *self,
            const char  *kind,
            GBytes      *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("%s-%03u.%s", kind, self->n_files + 1,
                                           self->format == FC_FORMAT_V1 ? "envelope" : "json");
  g_autofree char *path = g_build_filename (self->output_dir, name, NULL);

  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    {
      warn (self, "%s", error->message);
      self->write_failed = TRUE;
      return;
    }
  self->n_files++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FILES]);
}

static void
write_chunk (FcRecording *self,
             FcProfile   *chunk)
{
  g_autoptr(GError) error = NULL;
  const char *target_id = fc_recorder_get_profiler_id (self->recorder);
  const char *chunk_id = fc_profile_get_profiler_id (chunk);
  g_autofree char *chunk_kind = NULL;
  g_autofree char *profile_kind = NULL;

  /* A followed child's files carry the start of its profiler_id, which the
   * summary prints beside the process's name and pid. */
  if (target_id != NULL && chunk_id != NULL && strlen (chunk_id) >= 8 && g_strcmp0 (chunk_id, target_id) != 0)
    {
      chunk_kind = g_strdup_printf ("chunk-%.8s", chunk_id);
      profile_kind = g_strdup_printf ("profile-%.8s", chunk_id);
    }
  else
    {
      chunk_kind = g_strdup ("chunk");
      profile_kind = g_strdup ("profile");
    }

  if (self->format != FC_FORMAT_V1)
    {
      g_autoptr(GBytes) bytes = fc_writer_write_profile (chunk, &error);

      if (bytes == NULL)
        {
          warn (self, _("chunk %u: %s"), self->n_chunks, error->message);
          self->write_failed = TRUE;
          return;
        }
      write_file (self, chunk_kind, bytes);
    }
  else
    {
      /* V1 profiles cover at most 30 s: one envelope (transaction + profile) per window */
      g_autoptr(GPtrArray) profiles = fc_convert_v2_to_v1 (chunk, NULL, TRUE, &error);

      if (profiles == NULL)
        {
          warn (self, _("chunk %u: %s"), self->n_chunks, error->message);
          self->write_failed = TRUE;
          return;
        }
      for (guint i = 0; i < profiles->len; i++)
        {
          FcProfile *v1 = g_ptr_array_index (profiles, i);
          g_autoptr(GBytes) bytes = fc_writer_write_v1_envelope (v1, fc_profile_get_linked_event (v1), &error);

          if (bytes == NULL)
            {
              warn (self, _("profile %u: %s"), i + 1, error->message);
              g_clear_error (&error);
              self->write_failed = TRUE;
              continue;
            }
          write_file (self, profile_kind, bytes);
        }
    }
}

static void
chunk_ready_cb (FcRecording *self,
                FcProfile   *chunk)
{
  g_autoptr(GError) error = NULL;

  self->n_chunks++;
  if (self->sender != NULL && !fc_sender_add_chunk (self->sender, chunk, &error))
    {
      /* Not sent (invalid, or the outbox cannot be written); the file is still written. */
      warn (self, _("chunk %u: %s"), self->n_chunks, error->message);
      g_clear_error (&error);
    }
  if (self->output_dir != NULL)
    write_chunk (self, chunk);
  if (self->document != NULL)
    {
      fc_document_add_profile (self->document, chunk);
      fc_profile_follower_source_done (self->follower, chunk);
    }
  g_signal_emit (self, signals[CHUNK_READY], 0, chunk);
}

/* ---- root spans: a transaction is linked to the last chunk sent ---- */

static void
send_root_span (FcRecording      *self,
                const FcRootSpan *span)
{
  g_autoptr(GError) error = NULL;

  if (self->sender != NULL && !fc_sender_add_root_span (self->sender, span, &error))
    warn (self, _("span “%s”: %s"), span->name, error->message);
}

static void
deferred_span_free (DeferredSpan *deferred)
{
  fc_root_span_free (deferred->span);
  g_free (deferred);
}

static void
send_deferred_spans (FcRecording *self,
                     gboolean     all)
{
  DeferredSpan *deferred;

  while ((deferred = g_queue_peek_head (&self->deferred_spans)) != NULL &&
         (all || deferred->stop <= self->n_stopped))
    {
      g_queue_pop_head (&self->deferred_spans);
      send_root_span (self, deferred->span);
      deferred_span_free (deferred);
    }
}

static void
root_span_ended_cb (FcRecording      *self,
                    const FcRootSpan *span)
{
  DeferredSpan *deferred;

  /* While the span's own chunk is still being finished, it waits for it. */
  if (self->sender == NULL || !fc_recorder_get_stopping (self->recorder))
    {
      send_root_span (self, span);
      return;
    }
  deferred = g_new0 (DeferredSpan, 1);
  deferred->span = fc_root_span_copy (span);
  deferred->stop = self->n_stops;
  g_queue_push_tail (&self->deferred_spans, deferred);
}

/* ---- the lifecycle decides when to record; these carry it out ---- */

static void
set_profiling (FcRecording *self,
               gboolean     profiling)
{
  if (self->profiling == profiling)
    return;
  self->profiling = profiling;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILING]);
}

static void
start_profiling_cb (FcRecording *self)
{
  g_autoptr(GError) error = NULL;

  if (self->profiling || self->stopped)
    return;
  if (!fc_recorder_start (self->recorder, &error))
    {
      if (self->starting && self->start_error == NULL)
        self->start_error = g_steal_pointer (&error);
      else
        warn (self, "%s", error->message);
      return;
    }
  set_profiling (self, TRUE);
}

static void
stop_recorder (FcRecording *self)
{
  if (!self->profiling)
    return;
  /* Returns at once; the chunk in progress is finished (chunk-ready, then
   * sent) when the unwinder has caught up, and "stopped" follows. */
  fc_recorder_stop (self->recorder);
  self->n_stops++;
  set_profiling (self, FALSE);
}

static void
stop_profiling_cb (FcRecording *self)
{
  stop_recorder (self);
}

/* ---- the recorder ---- */

static void
samples_added_cb (FcRecording *self,
                  guint        first,
                  guint        n)
{
  g_signal_emit (self, signals[SAMPLES_ADDED], 0, first, n);
}

/* keep-profile: every process's live chunk is a source of the view, one
 * after the other (following children, side by side); a chunk the
 * recorder replaced, finished or dropped (a child's that Sentry would
 * refuse), grows no more. */
static void
process_samples_added_cb (FcRecording *self,
                          FcProfile   *live,
                          guint        first,
                          guint        n)
{
  const char *profiler_id = fc_profile_get_profiler_id (live);
  FcProfile *current;

  if (self->follower == NULL || profiler_id == NULL)
    return;
  current = g_hash_table_lookup (self->live_sources, profiler_id);
  if (current == live)
    return;
  if (current != NULL)
    fc_profile_follower_source_done (self->follower, current);
  fc_profile_follower_add_source (self->follower, live);
  g_hash_table_insert (self->live_sources, g_strdup (profiler_id), g_object_ref (live));
}

static void
target_exited_cb (FcRecording *self,
                  int          status)
{
  g_signal_emit (self, signals[TARGET_EXITED], 0, status);
}

static void stop_continue (FcRecording *self);

static void
recorder_stopped_cb (FcRecording *self)
{
  self->n_stopped++;
  send_deferred_spans (self, FALSE);
  if (self->stop_task != NULL && !fc_recorder_get_stopping (self->recorder))
    stop_continue (self);
}

static void
create_document (FcRecording *self)
{
  g_clear_object (&self->document);
  g_clear_pointer (&self->follower, fc_profile_follower_unref);
  g_hash_table_remove_all (self->live_sources);
  if (!self->keep_profile)
    return;
  self->document = fc_document_new (FC_DOCUMENT_V2);
  self->follower = fc_profile_follower_new (NULL);
}

static void
create_lifecycle (FcRecording *self)
{
  g_clear_object (&self->lifecycle);
  self->lifecycle = fc_lifecycle_new (self->lifecycle_mode, self->session_sample_rate, self->traces_sample_rate);
  g_signal_connect_object (self->lifecycle, "start-profiling", G_CALLBACK (start_profiling_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lifecycle, "stop-profiling", G_CALLBACK (stop_profiling_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lifecycle, "root-span-ended", G_CALLBACK (root_span_ended_cb), self, G_CONNECT_SWAPPED);
}

static gboolean
prepare (FcRecording  *self,
         GError      **error)
{
  g_return_val_if_fail (self->lifecycle == NULL, FALSE);

  if (self->output_dir != NULL && g_mkdir_with_parents (self->output_dir, 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("cannot create %s: %s"), self->output_dir, g_strerror (saved_errno));
      return FALSE;
    }
  /* an output directory that cannot be written is found now, not after a long recording */
  if (self->output_dir != NULL)
    {
      g_autofree char *probe = g_build_filename (self->output_dir, ".flamecast-write-test-XXXXXX", NULL);
      int fd = g_mkstemp (probe);

      if (fd < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       _("cannot write in %s: %s"), self->output_dir, g_strerror (saved_errno));
          return FALSE;
        }
      close (fd);
      g_unlink (probe);
    }
  return TRUE;
}

gboolean
fc_recording_attach (FcRecording  *self,
                     GPid          pid,
                     GError      **error)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);
  g_return_val_if_fail (pid > 0, FALSE);

  if (!prepare (self, error) || !fc_recorder_attach (self->recorder, pid, error))
    return FALSE;
  create_document (self);
  create_lifecycle (self);
  return TRUE;
}

gboolean
fc_recording_spawn (FcRecording        *self,
                    const char * const *argv,
                    const char         *cwd,
                    GError            **error)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);

  if (!prepare (self, error) || !fc_recorder_spawn (self->recorder, argv, cwd, error))
    return FALSE;
  self->spawned = TRUE;
  create_document (self);
  create_lifecycle (self);
  return TRUE;
}

gboolean
fc_recording_start (FcRecording  *self,
                    GError      **error)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);

  if (self->lifecycle == NULL)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                   _("Nothing to record: attach to a process or launch a command first"));
      return FALSE;
    }
  if (fc_lifecycle_get_mode (self->lifecycle) != FC_PROFILE_LIFECYCLE_MANUAL)
    return TRUE;
  if (fc_lifecycle_get_running (self->lifecycle))
    return TRUE;
  /* a no-op with a warning when the session is not sampled */
  self->starting = TRUE;
  fc_lifecycle_start_profiler (self->lifecycle);
  self->starting = FALSE;
  if (self->start_error != NULL)
    {
      fc_lifecycle_stop_profiler (self->lifecycle);
      g_propagate_error (error, g_steal_pointer (&self->start_error));
      return FALSE;
    }
  return TRUE;
}

/* ---- stopping ---- */

static void
flush_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  FcFlushReport *report;

  report = fc_sender_flush_finish (FC_SENDER (object), result, &error);
  if (report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, report, (GDestroyNotify) fc_flush_report_unref);
}

/* The last chunk is out: release the target, then deliver what was queued. */
static void
stop_continue (FcRecording *self)
{
  GTask *task = g_steal_pointer (&self->stop_task);

  fc_recorder_get_sampler_stats (self->recorder, &self->final_stats);
  fc_recorder_get_unwind_stats (self->recorder, &self->final_unwind_stats);
  self->have_final_stats = TRUE;
  /* nothing left in the unwinder's queue: returns at once */
  fc_recorder_detach (self->recorder);
  send_deferred_spans (self, TRUE);
  /* every chunk is out: the view grows no more */
  if (self->follower != NULL)
    {
      GHashTableIter iter;
      gpointer live;

      g_hash_table_iter_init (&iter, self->live_sources);
      while (g_hash_table_iter_next (&iter, NULL, &live))
        fc_profile_follower_source_done (self->follower, live);
      g_hash_table_remove_all (self->live_sources);
    }
  self->stopped = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STOPPED]);

  if (self->sender != NULL)
    fc_sender_flush_async (self->sender, g_task_get_cancellable (task), flush_cb, task);
  else
    {
      g_task_return_pointer (task, NULL, NULL);
      g_object_unref (task);
    }
}

void
fc_recording_stop_async (FcRecording         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (FC_IS_RECORDING (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_recording_stop_async);
  if (self->stop_task != NULL || self->stopped)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               self->stopped ? _("The recording is already stopped")
                                             : _("The recording is already stopping"));
      return;
    }
  self->stop_task = g_steal_pointer (&task);

  /* Open spans end with the recording and the profiler stops with the last one. */
  if (self->lifecycle != NULL)
    {
      fc_lifecycle_end_all (self->lifecycle);
      if (fc_lifecycle_get_mode (self->lifecycle) == FC_PROFILE_LIFECYCLE_MANUAL &&
          fc_lifecycle_get_running (self->lifecycle))
        fc_lifecycle_stop_profiler (self->lifecycle);
    }
  stop_recorder (self);
  /* The last chunks are finished on this context when the unwinder has
   * caught up: "stopped" continues from there. */
  if (!fc_recorder_get_stopping (self->recorder))
    stop_continue (self);
}

gboolean
fc_recording_stop_finish (FcRecording    *self,
                          GAsyncResult   *result,
                          FcFlushReport **report,
                          GError        **error)
{
  g_autoptr(FcFlushReport) out = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  out = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (report != NULL)
    *report = g_steal_pointer (&out);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

gboolean
fc_recording_terminate_target (FcRecording *self)
{
  FcRecorder *recorder;

  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);

  recorder = self->recorder;
  if (!self->spawned || fc_recorder_get_pid (recorder) <= 0 || fc_recorder_get_target_exited (recorder, NULL))
    return FALSE;
  return kill (fc_recorder_get_pid (recorder), SIGTERM) == 0;
}

/* ---- getters ---- */

FcRecorder *
fc_recording_get_recorder (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), NULL);
  return self->recorder;
}

FcLifecycle *
fc_recording_get_lifecycle (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), NULL);
  return self->lifecycle;
}

FcProfile *
fc_recording_get_profile (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), NULL);
  return self->follower != NULL ? fc_profile_follower_get_profile (self->follower) : NULL;
}

FcProfileFollower *
fc_recording_get_follower (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), NULL);
  return self->follower;
}

FcDocument *
fc_recording_get_document (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), NULL);
  return self->document;
}

FcProfile *
fc_recording_get_live_profile (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), NULL);
  return fc_recorder_get_live_profile (self->recorder);
}

gboolean
fc_recording_get_profiling (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);
  return self->profiling;
}

gboolean
fc_recording_get_stopped (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);
  return self->stopped;
}

GPid
fc_recording_get_pid (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), 0);
  return fc_recorder_get_pid (self->recorder);
}

gboolean
fc_recording_get_target_exited (FcRecording *self,
                                int         *status)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);
  return fc_recorder_get_target_exited (self->recorder, status);
}

guint
fc_recording_get_n_files (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), 0);
  return self->n_files;
}

guint
fc_recording_get_n_chunks (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), 0);
  return self->n_chunks;
}

gboolean
fc_recording_get_write_failed (FcRecording *self)
{
  g_return_val_if_fail (FC_IS_RECORDING (self), FALSE);
  return self->write_failed;
}

void
fc_recording_get_sampler_stats (FcRecording    *self,
                                FcSamplerStats *stats)
{
  g_return_if_fail (FC_IS_RECORDING (self));

  if (self->have_final_stats)
    *stats = self->final_stats;
  else
    fc_recorder_get_sampler_stats (self->recorder, stats);
}

void
fc_recording_get_unwind_stats (FcRecording   *self,
                               FcUnwindStats *stats)
{
  g_return_if_fail (FC_IS_RECORDING (self));

  if (self->have_final_stats)
    *stats = self->final_unwind_stats;
  else
    fc_recorder_get_unwind_stats (self->recorder, stats);
}

void
fc_recording_apply_settings (FcRecording *self,
                             FcSettings  *settings)
{
  g_return_if_fail (FC_IS_RECORDING (self));
  g_return_if_fail (FC_IS_SETTINGS (settings));

  g_object_set (self,
                "frequency", (guint) fc_settings_get_frequency (settings),
                "mode", fc_settings_get_mode (settings),
                "stack-size", (guint) fc_settings_get_stack_bytes (settings),
                "platform", fc_settings_get_platform (settings),
                "chunk-duration-ms", fc_record_option_chunk_ms (fc_settings_get_chunk_duration (settings)),
                "lifecycle", fc_settings_get_profile_lifecycle (settings),
                "profile-session-sample-rate", fc_settings_get_profile_session_sample_rate (settings),
                "traces-sample-rate", fc_settings_get_traces_sample_rate (settings),
                "follow-children", fc_settings_get_follow_children (settings),
                "stacks", fc_settings_get_stacks (settings),
                NULL);
  if (*fc_settings_get_release (settings) != '\0')
    g_object_set (self, "release", fc_settings_get_release (settings), NULL);
  if (*fc_settings_get_environment (settings) != '\0')
    g_object_set (self, "environment", fc_settings_get_environment (settings), NULL);
}

/* ---- GObject ---- */

FcRecording *
fc_recording_new (void)
{
  return g_object_new (FC_TYPE_RECORDING, NULL);
}

static void
fc_recording_dispose (GObject *object)
{
  FcRecording *self = FC_RECORDING (object);

  /* A stop in progress holds a reference: nothing to cancel here. Releasing
   * the target still hands over what was captured (and blocks for it). */
  if (self->recorder != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->recorder, self);
      fc_recorder_detach (self->recorder);
    }
  g_clear_object (&self->lifecycle);
  g_clear_object (&self->recorder);
  g_clear_object (&self->sender);
  g_clear_object (&self->document);
  g_clear_pointer (&self->follower, fc_profile_follower_unref);
  g_clear_pointer (&self->live_sources, g_hash_table_unref);

  G_OBJECT_CLASS (fc_recording_parent_class)->dispose (object);
}

static void
fc_recording_finalize (GObject *object)
{
  FcRecording *self = FC_RECORDING (object);

  g_assert (self->stop_task == NULL);
  g_clear_error (&self->start_error);
  g_queue_clear_full (&self->deferred_spans, (GDestroyNotify) deferred_span_free);
  g_free (self->output_dir);

  G_OBJECT_CLASS (fc_recording_parent_class)->finalize (object);
}

/* the recorder's own properties are the recording's */
static gboolean
is_recorder_property (guint prop_id)
{
  return prop_id >= PROP_FREQUENCY && prop_id <= PROP_STACKS;
}

static void
fc_recording_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  FcRecording *self = FC_RECORDING (object);

  if (is_recorder_property (prop_id))
    {
      g_object_get_property (G_OBJECT (self->recorder), pspec->name, value);
      return;
    }
  switch (prop_id)
    {
    case PROP_LIFECYCLE:
      g_value_set_enum (value, self->lifecycle_mode);
      break;
    case PROP_PROFILE_SESSION_SAMPLE_RATE:
      g_value_set_double (value, self->session_sample_rate);
      break;
    case PROP_TRACES_SAMPLE_RATE:
      g_value_set_double (value, self->traces_sample_rate);
      break;
    case PROP_OUTPUT_DIR:
      g_value_set_string (value, self->output_dir);
      break;
    case PROP_FORMAT:
      g_value_set_int (value, self->format);
      break;
    case PROP_SENDER:
      g_value_set_object (value, self->sender);
      break;
    case PROP_KEEP_PROFILE:
      g_value_set_boolean (value, self->keep_profile);
      break;
    case PROP_PROFILING:
      g_value_set_boolean (value, self->profiling);
      break;
    case PROP_STOPPED:
      g_value_set_boolean (value, self->stopped);
      break;
    case PROP_N_FILES:
      g_value_set_uint (value, self->n_files);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_recording_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  FcRecording *self = FC_RECORDING (object);

  if (is_recorder_property (prop_id))
    {
      /* a platform of NULL keeps the recorder's default */
      if (prop_id == PROP_PLATFORM && g_value_get_string (value) == NULL)
        return;
      g_object_set_property (G_OBJECT (self->recorder), pspec->name, value);
      g_object_notify_by_pspec (object, pspec);
      return;
    }
  switch (prop_id)
    {
    case PROP_LIFECYCLE:
      self->lifecycle_mode = g_value_get_enum (value);
      break;
    case PROP_PROFILE_SESSION_SAMPLE_RATE:
      self->session_sample_rate = g_value_get_double (value);
      break;
    case PROP_TRACES_SAMPLE_RATE:
      self->traces_sample_rate = g_value_get_double (value);
      break;
    case PROP_OUTPUT_DIR:
      g_free (self->output_dir);
      self->output_dir = g_value_dup_string (value);
      break;
    case PROP_FORMAT:
      self->format = g_value_get_int (value);
      break;
    case PROP_SENDER:
      g_set_object (&self->sender, g_value_get_object (value));
      break;
    case PROP_KEEP_PROFILE:
      self->keep_profile = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  g_object_notify_by_pspec (object, pspec);
}

static void
fc_recording_class_init (FcRecordingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = fc_recording_dispose;
  object_class->finalize = fc_recording_finalize;
  object_class->get_property = fc_recording_get_property;
  object_class->set_property = fc_recording_set_property;

  /* passed on to the recorder: the same names, ranges and defaults */
  properties[PROP_FREQUENCY] = fc_record_option_property_spec (FC_RECORD_OPTION_FREQUENCY, rw);
  properties[PROP_MODE] = g_param_spec_enum ("mode", NULL, NULL, FC_TYPE_SAMPLER_MODE, FC_RECORD_DEFAULT_MODE, rw);
  properties[PROP_STACK_SIZE] = fc_record_option_property_spec (FC_RECORD_OPTION_STACK_BYTES, rw);
  properties[PROP_CHUNK_DURATION_MS] = fc_record_option_property_spec (FC_RECORD_OPTION_CHUNK_MS, rw);
  properties[PROP_PLATFORM] = g_param_spec_string ("platform", NULL, NULL, FC_RECORD_DEFAULT_PLATFORM, rw);
  properties[PROP_RELEASE] = g_param_spec_string ("release", NULL, NULL, NULL, rw);
  properties[PROP_ENVIRONMENT] = g_param_spec_string ("environment", NULL, NULL, NULL, rw);
  properties[PROP_FOLLOW_CHILDREN] =
    g_param_spec_boolean ("follow-children", NULL, NULL, FC_RECORD_DEFAULT_FOLLOW_CHILDREN, rw);
  properties[PROP_STACKS] = g_param_spec_enum ("stacks", NULL, NULL, FC_TYPE_STACKS_MODE, FC_RECORD_DEFAULT_STACKS, rw);
  properties[PROP_LIFECYCLE] =
    g_param_spec_enum ("lifecycle", NULL, NULL, FC_TYPE_PROFILE_LIFECYCLE, FC_PROFILE_LIFECYCLE_MANUAL, rw);
  properties[PROP_PROFILE_SESSION_SAMPLE_RATE] =
    g_param_spec_double ("profile-session-sample-rate", NULL, NULL, 0.0, 1.0, 1.0, rw);
  properties[PROP_TRACES_SAMPLE_RATE] =
    g_param_spec_double ("traces-sample-rate", NULL, NULL, 0.0, 1.0, 1.0, rw);
  properties[PROP_OUTPUT_DIR] =
    g_param_spec_string ("output-dir", NULL, NULL, NULL, rw);
  properties[PROP_FORMAT] =
    g_param_spec_int ("format", NULL, NULL, FC_FORMAT_V1, FC_FORMAT_V2, FC_FORMAT_V2, rw);
  properties[PROP_SENDER] =
    g_param_spec_object ("sender", NULL, NULL, FC_TYPE_SENDER, rw);
  properties[PROP_KEEP_PROFILE] =
    g_param_spec_boolean ("keep-profile", NULL, NULL, FALSE, rw);
  properties[PROP_PROFILING] =
    g_param_spec_boolean ("profiling", NULL, NULL, FALSE, ro);
  properties[PROP_STOPPED] =
    g_param_spec_boolean ("stopped", NULL, NULL, FALSE, ro);
  properties[PROP_N_FILES] =
    g_param_spec_uint ("n-files", NULL, NULL, 0, G_MAXUINT, 0, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SAMPLES_ADDED] = g_signal_new ("samples-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[CHUNK_READY] = g_signal_new ("chunk-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, FC_TYPE_PROFILE);
  signals[TARGET_EXITED] = g_signal_new ("target-exited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  signals[WARNING] = g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
fc_recording_init (FcRecording *self)
{
  self->lifecycle_mode = FC_PROFILE_LIFECYCLE_MANUAL;
  self->session_sample_rate = 1.0;
  self->traces_sample_rate = 1.0;
  self->format = FC_FORMAT_V2;
  g_queue_init (&self->deferred_spans);
  self->live_sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);

  self->recorder = fc_recorder_new ();
  g_signal_connect_swapped (self->recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), self);
  g_signal_connect_swapped (self->recorder, "samples-added", G_CALLBACK (samples_added_cb), self);
  g_signal_connect_swapped (self->recorder, "process-samples-added", G_CALLBACK (process_samples_added_cb), self);
  g_signal_connect_swapped (self->recorder, "target-exited", G_CALLBACK (target_exited_cb), self);
  g_signal_connect_swapped (self->recorder, "stopped", G_CALLBACK (recorder_stopped_cb), self);
}
