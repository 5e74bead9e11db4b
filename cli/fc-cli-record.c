/* fc-cli-record.c - flamecast-cli record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-cli.h"
#include "fc-convert.h"
#include "fc-error.h"
#include "fc-lifecycle-control.h"
#include "fc-recorder.h"
#include "fc-sender.h"
#include "fc-settings.h"
#include "fc-writer.h"

typedef struct {
  GMainLoop  *loop;
  FcRecorder *recorder;
  char       *output;
  gboolean    v1;
  guint       n_files;
  guint       n_chunks;
  gboolean    write_failed;
  gboolean    interrupted;
  gboolean    tty;
  gint64      started_us;
  guint       status_width;
  /* lifecycle and sending (--lifecycle, --control, --send) */
  FcSender   *sender;
  gboolean    recording;
  GError     *start_error;
  guint       duration_id;
  guint       n_stops;         /* fc_recorder_stop() calls */
  guint       n_stopped;       /* their "stopped" signals: chunk finished */
  GQueue      deferred_spans;  /* DeferredSpan*: ended while their chunk was being finished */
} Record;

typedef struct {
  FcRootSpan *span;
  guint       stop;            /* n_stops when it ended: sent once that stop's chunk is out */
} DeferredSpan;

#define FLUSH_TIMEOUT_MS 10000

static gboolean
write_file (Record     *rec,
            const char *kind,
            GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("%s-%03u.%s", kind, rec->n_files + 1, rec->v1 ? "envelope" : "json");
  g_autofree char *path = g_build_filename (rec->output, name, NULL);

  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      rec->write_failed = TRUE;
      return FALSE;
    }
  rec->n_files++;
  return TRUE;
}

static void
chunk_ready_cb (FcRecorder *recorder,
                FcProfile  *chunk,
                Record     *rec)
{
  g_autoptr(GError) error = NULL;

  rec->n_chunks++;
  if (rec->sender != NULL && !fc_sender_add_chunk (rec->sender, chunk, &error))
    {
      /* Not sent (invalid, or the outbox cannot be written); the file is still written. */
      fprintf (stderr, "flamecast-cli record: chunk %u: %s\n", rec->n_chunks, error->message);
      g_clear_error (&error);
    }
  if (!rec->v1)
    {
      g_autoptr(GBytes) bytes = fc_writer_write_profile (chunk, &error);
      if (bytes == NULL)
        {
          fprintf (stderr, "flamecast-cli record: chunk %u: %s\n", rec->n_chunks, error->message);
          rec->write_failed = TRUE;
          return;
        }
      write_file (rec, "chunk", bytes);
    }
  else
    {
      /* V1 profiles cover at most 30 s: one envelope (transaction + profile) per window */
      g_autoptr(GPtrArray) profiles = fc_convert_v2_to_v1 (chunk, NULL, TRUE, &error);
      if (profiles == NULL)
        {
          fprintf (stderr, "flamecast-cli record: chunk %u: %s\n", rec->n_chunks, error->message);
          rec->write_failed = TRUE;
          return;
        }
      for (guint i = 0; i < profiles->len; i++)
        {
          FcProfile *v1 = g_ptr_array_index (profiles, i);
          g_autoptr(GBytes) bytes = fc_writer_write_v1_envelope (v1, fc_profile_get_linked_event (v1), &error);
          if (bytes == NULL)
            {
              fprintf (stderr, "flamecast-cli record: profile %u: %s\n", i + 1, error->message);
              g_clear_error (&error);
              rec->write_failed = TRUE;
              continue;
            }
          write_file (rec, "profile", bytes);
        }
    }
}

/* The lifecycle decides when to record; these carry it out. */
static void
start_profiling_cb (FcLifecycle *lifecycle,
                    Record      *rec)
{
  if (rec->recording || rec->start_error != NULL)
    return;
  if (!fc_recorder_start (rec->recorder, &rec->start_error))
    {
      g_main_loop_quit (rec->loop);
      return;
    }
  rec->recording = TRUE;
}

static void
stop_recording (Record *rec)
{
  if (!rec->recording)
    return;
  rec->recording = FALSE;
  /* Returns at once; the chunk in progress is finished (chunk-ready, then
   * sent) when the unwinder has caught up, and "stopped" follows. */
  fc_recorder_stop (rec->recorder);
  rec->n_stops++;
}

static void
stop_profiling_cb (FcLifecycle *lifecycle,
                   Record      *rec)
{
  stop_recording (rec);
}

static void
send_root_span (Record           *rec,
                const FcRootSpan *span)
{
  g_autoptr(GError) error = NULL;

  if (rec->sender != NULL && !fc_sender_add_root_span (rec->sender, span, &error))
    fprintf (stderr, "flamecast-cli record: span “%s”: %s\n", span->name, error->message);
}

static void
root_span_ended_cb (FcLifecycle      *lifecycle,
                    const FcRootSpan *span,
                    Record           *rec)
{
  DeferredSpan *deferred;

  /* The transaction is linked to the last chunk sent: while the span's own
   * chunk is still being finished, it waits for it. */
  if (rec->sender == NULL || !fc_recorder_get_stopping (rec->recorder))
    {
      send_root_span (rec, span);
      return;
    }
  deferred = g_new0 (DeferredSpan, 1);
  deferred->span = fc_root_span_copy (span);
  deferred->stop = rec->n_stops;
  g_queue_push_tail (&rec->deferred_spans, deferred);
}

static void
deferred_span_free (DeferredSpan *deferred)
{
  fc_root_span_free (deferred->span);
  g_free (deferred);
}

static void
send_deferred_spans (Record  *rec,
                     gboolean all)
{
  DeferredSpan *deferred;

  while ((deferred = g_queue_peek_head (&rec->deferred_spans)) != NULL &&
         (all || deferred->stop <= rec->n_stopped))
    {
      g_queue_pop_head (&rec->deferred_spans);
      send_root_span (rec, deferred->span);
      deferred_span_free (deferred);
    }
}

static void
recorder_stopped_cb (FcRecorder *recorder,
                     Record     *rec)
{
  rec->n_stopped++;
  send_deferred_spans (rec, FALSE);
}

static void
target_exited_cb (FcRecorder *recorder,
                  int         status,
                  Record     *rec)
{
  g_main_loop_quit (rec->loop);
}

static gboolean
quit_cb (gpointer user_data)
{
  Record *rec = user_data;
  rec->interrupted = TRUE;
  g_main_loop_quit (rec->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
duration_cb (gpointer user_data)
{
  Record *rec = user_data;
  rec->duration_id = 0;
  g_main_loop_quit (rec->loop);
  return G_SOURCE_REMOVE;
}

static void
clear_status (Record *rec)
{
  if (rec->tty && rec->status_width > 0)
    {
      fprintf (stderr, "\r%*s\r", rec->status_width, "");
      rec->status_width = 0;
    }
}

static gboolean
status_cb (gpointer user_data)
{
  Record *rec = user_data;
  FcSamplerStats stats;
  double elapsed = (g_get_monotonic_time () - rec->started_us) / 1e6;
  int n;

  fc_recorder_get_sampler_stats (rec->recorder, &stats);
  n = fprintf (stderr, "\r%.1f s  %u samples  %u threads  stop %.0f us  dropped %" G_GUINT64_FORMAT "   ",
               elapsed, fc_recorder_get_n_samples (rec->recorder), stats.n_threads,
               stats.median_stop_us, stats.dropped_ticks);
  rec->status_width = MAX (rec->status_width, (guint) MAX (n, 0));
  return G_SOURCE_CONTINUE;
}

static int
exit_code_for_status (int status)
{
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return 1;
}

int
fc_cli_record (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcRecorder) recorder = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_auto(GStrv) command = NULL;
  g_autofree char *output = NULL;
  g_autofree char *mode = NULL;
  g_autofree char *format = NULL;
  g_autofree char *release = NULL;
  g_autofree char *environment = NULL;
  g_autofree char *platform = NULL;
  g_autofree char *lifecycle_name = NULL;
  g_autofree char *control_path = NULL;
  g_autofree char *dsn_option = NULL;
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_autoptr(FcLifecycle) lifecycle = NULL;
  g_autoptr(FcLifecycleControl) control = NULL;
  g_autoptr(FcSender) sender = NULL;
  FcProfileLifecycle lifecycle_mode;
  gboolean send = FALSE;
  int pid = 0, frequency = 101, exit_code = 0, status = -1;
  double duration = 0;
  guint sigint_id, sigterm_id, status_id = 0;
  FcSamplerStats stats;
  FcUnwindStats ustats;
  Record rec = { 0 };
  GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_INT, &pid, N_("Profile the running process PID"), "PID" },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration, N_("Stop after SECONDS (default: until the target exits or Ctrl-C)"), "SECONDS" },
    { "frequency", 'F', 0, G_OPTION_ARG_INT, &frequency, N_("Samples per second per thread, 1 to 1000 (default 101)"), "HZ" },
    { "mode", 'm', 0, G_OPTION_ARG_STRING, &mode, N_("wall (every thread, running or not; default) or cpu (on-CPU time, perf events)"), "MODE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Directory for the chunk files (default: .)"), "DIR" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, N_("v2: one chunk file per chunk (default); v1: one envelope per 30 s"), "v2|v1" },
    { "release", 'r', 0, G_OPTION_ARG_STRING, &release, N_("Release of the profiled program"), "R" },
    { "environment", 'e', 0, G_OPTION_ARG_STRING, &environment, N_("Environment, e.g. production"), "E" },
    { "platform", 0, 0, G_OPTION_ARG_STRING, &platform, N_("Platform of the chunks (default native)"), "P" },
    { "lifecycle", 0, 0, G_OPTION_ARG_STRING, &lifecycle_name, N_("manual: record from start to end (default); trace: record while a root span is active"), "manual|trace" },
    { "control", 0, 0, G_OPTION_ARG_FILENAME, &control_path, N_("FIFO of span commands: lines “begin NAME”, “end NAME”, “start”, “stop”"), "PATH" },
    { "send", 0, 0, G_OPTION_ARG_NONE, &send, N_("Send each chunk to Sentry as it is ready"), NULL },
    { "dsn", 0, 0, G_OPTION_ARG_STRING, &dsn_option, N_("Sentry DSN for --send (default: $SENTRY_DSN, then the saved settings)"), "DSN" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &command, NULL, NULL },
    { NULL }
  };

  context = g_option_context_new (_("(--pid PID | -- COMMAND [ARGS...]) - profile a process"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_strict_posix (context, TRUE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      return 2;
    }
  if ((pid > 0) == (command != NULL && command[0] != NULL))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", _("give either --pid PID or -- COMMAND [ARGS...]"));
      return 2;
    }
  if (frequency < 1 || frequency > 1000)
    {
      fprintf (stderr, "flamecast-cli record: %s\n", _("--frequency must be between 1 and 1000"));
      return 2;
    }
  if (mode != NULL && strcmp (mode, "wall") != 0 && strcmp (mode, "cpu") != 0)
    {
      fprintf (stderr, "flamecast-cli record: %s\n", _("--mode must be wall or cpu"));
      return 2;
    }
  if (format != NULL && strcmp (format, "v1") != 0 && strcmp (format, "v2") != 0)
    {
      fprintf (stderr, "flamecast-cli record: %s\n", _("--format must be v2 or v1"));
      return 2;
    }

  /* Lifecycle, sample rates and DSN default to the saved settings. */
  if (!fc_settings_load (settings, NULL, &error))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      return 2;
    }
  lifecycle_mode = fc_settings_get_profile_lifecycle (settings);
  if (lifecycle_name != NULL && !fc_profile_lifecycle_from_string (lifecycle_name, &lifecycle_mode, &error))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      return 2;
    }
  if (lifecycle_mode == FC_PROFILE_LIFECYCLE_TRACE && control_path == NULL)
    {
      fprintf (stderr, "flamecast-cli record: %s\n",
               _("--lifecycle trace records only between “begin NAME” and “end NAME” lines: give them with --control PATH"));
      return 2;
    }
  if (send)
    {
      g_autofree char *dsn_text = fc_settings_dup_effective_dsn (settings, dsn_option);
      g_autoptr(FcDsn) dsn = NULL;
      g_autoptr(FcTransport) transport = NULL;

      if (dsn_text == NULL)
        {
          fprintf (stderr, "flamecast-cli record: %s\n", _("--send needs a DSN: pass --dsn, set SENTRY_DSN, or save one in the settings"));
          return 2;
        }
      if (!(dsn = fc_dsn_parse (dsn_text, &error)))
        {
          fprintf (stderr, "flamecast-cli record: %s\n", error->message);
          return 2;
        }
      transport = fc_transport_new (dsn, NULL, NULL);
      sender = fc_sender_new (transport);
      if (g_strcmp0 (format, "v1") == 0)
        fc_sender_set_format (sender, FC_FORMAT_V1, TRUE, NULL);
      rec.sender = sender;
    }

  rec.output = output ? output : (char *) ".";
  if (g_mkdir_with_parents (rec.output, 0755) != 0)
    {
      fprintf (stderr, "flamecast-cli record: cannot create %s: %s\n", rec.output, g_strerror (errno));
      return 1;
    }
  rec.v1 = g_strcmp0 (format, "v1") == 0;
  rec.tty = isatty (STDERR_FILENO);

  recorder = fc_recorder_new ();
  rec.recorder = recorder;
  g_object_set (recorder,
                "frequency", (guint) frequency,
                "mode", g_strcmp0 (mode, "cpu") == 0 ? FC_SAMPLER_MODE_CPU : FC_SAMPLER_MODE_WALL,
                "release", release,
                "environment", environment,
                NULL);
  if (platform != NULL)
    fc_recorder_set_platform (recorder, platform);

  loop = g_main_loop_new (NULL, FALSE);
  rec.loop = loop;
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), &rec);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), &rec);
  g_signal_connect (recorder, "stopped", G_CALLBACK (recorder_stopped_cb), &rec);

  /* Ctrl-C and SIGTERM stop the recording cleanly: the target is released and everything written */
  sigint_id = g_unix_signal_add (SIGINT, quit_cb, &rec);
  sigterm_id = g_unix_signal_add (SIGTERM, quit_cb, &rec);

  if (pid > 0 ? !fc_recorder_attach (recorder, pid, &error)
              : !fc_recorder_spawn (recorder, (const char * const *) command, &error))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      g_source_remove (sigint_id);
      g_source_remove (sigterm_id);
      return g_error_matches (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED) && pid == 0 ? 127 : 1;
    }
  lifecycle = fc_lifecycle_new (lifecycle_mode,
                                fc_settings_get_profile_session_sample_rate (settings),
                                fc_settings_get_traces_sample_rate (settings));
  g_signal_connect (lifecycle, "start-profiling", G_CALLBACK (start_profiling_cb), &rec);
  g_signal_connect (lifecycle, "stop-profiling", G_CALLBACK (stop_profiling_cb), &rec);
  g_signal_connect (lifecycle, "root-span-ended", G_CALLBACK (root_span_ended_cb), &rec);
  if (control_path != NULL && !(control = fc_lifecycle_control_new (lifecycle, control_path, &error)))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      fc_recorder_detach (recorder);
      exit_code = 2;
      goto out;
    }
  /* Manual: from now on (a no-op with a warning when the session is not
   * sampled). Trace: the control FIFO's spans start and stop recording. */
  if (lifecycle_mode == FC_PROFILE_LIFECYCLE_MANUAL)
    fc_lifecycle_start_profiler (lifecycle);
  if (rec.start_error != NULL)
    {
      fprintf (stderr, "flamecast-cli record: %s\n", rec.start_error->message);
      g_clear_error (&rec.start_error);
      fc_recorder_detach (recorder);
      exit_code = 1;
      goto out;
    }

  rec.started_us = g_get_monotonic_time ();
  if (rec.tty)
    status_id = g_timeout_add (250, status_cb, &rec);
  if (duration > 0)
    rec.duration_id = g_timeout_add ((guint) (duration * 1000), duration_cb, &rec);

  if (!fc_recorder_get_target_exited (recorder, NULL))
    g_main_loop_run (loop);

  g_clear_handle_id (&status_id, g_source_remove);
  g_clear_handle_id (&rec.duration_id, g_source_remove);
  clear_status (&rec);

  /* Commands the target wrote just before exiting still count; then open
   * spans end with the recording and the profiler stops with the last one. */
  if (control != NULL)
    fc_lifecycle_control_drain (control);
  g_clear_object (&control);
  fc_lifecycle_end_all (lifecycle);
  if (lifecycle_mode == FC_PROFILE_LIFECYCLE_MANUAL && fc_lifecycle_get_running (lifecycle))
    fc_lifecycle_stop_profiler (lifecycle);
  stop_recording (&rec);
  g_clear_error (&rec.start_error);
  /* The last chunks are finished on this context: run it until they are
   * out (detach waits for any rest), so the statistics count every sample. */
  fc_recorder_flush_sync (recorder, FLUSH_TIMEOUT_MS);
  fc_recorder_get_sampler_stats (recorder, &stats);
  fc_recorder_get_unwind_stats (recorder, &ustats);
  fc_recorder_detach (recorder);
  send_deferred_spans (&rec, TRUE);

  /* a launched command keeps running after the recording ends; its exit status is ours */
  if (pid == 0)
    {
      if (!fc_recorder_get_target_exited (recorder, &status))
        {
          if (rec.tty)
            fprintf (stderr, _("Recording stopped; waiting for %s to exit\n"), command[0]);
          while (!fc_recorder_get_target_exited (recorder, &status))
            g_main_context_iteration (NULL, TRUE);
        }
      exit_code = status >= 0 ? exit_code_for_status (status) : 1;
    }

  fprintf (stderr,
           _("flamecast: %u samples of %u threads, %.1f%% of stacks complete, median stop %.0f us, "
             "%" G_GUINT64_FORMAT " dropped ticks, %" G_GUINT64_FORMAT " lost; %u %s in %s (profiler_id %s)\n"),
           fc_recorder_get_n_samples (recorder), fc_recorder_get_n_threads (recorder),
           ustats.n_unwound ? 100.0 * ustats.n_complete / ustats.n_unwound : 100.0,
           stats.median_stop_us, stats.dropped_ticks, stats.lost_samples, rec.n_files,
           rec.v1 ? (rec.n_files == 1 ? "envelope" : "envelopes") : (rec.n_files == 1 ? "chunk file" : "chunk files"),
           rec.output, fc_recorder_get_profiler_id (recorder));
  if (rec.write_failed && exit_code == 0)
    exit_code = 1;

  /* Deliver what the recording queued; what cannot go now waits in the outbox. */
  if (sender != NULL)
    {
      g_autoptr(FcFlushReport) report = fc_sender_finish (sender, &error);

      if (report == NULL)
        {
          fprintf (stderr, "flamecast-cli record: %s\n", error->message);
          exit_code = exit_code ? exit_code : 1;
        }
      else
        {
          g_autofree char *text = fc_transport_describe_report (fc_sender_get_transport (sender), report);

          fputs (text, stderr);
          if (!fc_flush_report_all_delivered (report) && exit_code == 0)
            exit_code = 1;
        }
    }

out:
  g_queue_clear_full (&rec.deferred_spans, (GDestroyNotify) deferred_span_free);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  return exit_code;
}
