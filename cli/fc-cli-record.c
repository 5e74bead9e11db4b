/* fc-cli-record.c - flamecast-cli record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-access.h"
#include "fc-cli.h"
#include "fc-capture-error.h"
#include "fc-lifecycle-control.h"
#include "fc-record-options.h"
#include "fc-recording.h"
#include "fc-settings.h"

/* The CLI's side of a recording: its own main loop, the terminal status line
 * and the summary. FcRecording does the rest, as for the app. */
typedef struct {
  GMainLoop   *loop;
  FcRecording *recording;
  gboolean     interrupted;
  int          signal_number;  /* SIGINT or SIGTERM received, 0 if none */
  gboolean     launched;
  gboolean     tty;
  gint64       started_us;
  guint        status_width;
  guint        duration_id;
  gboolean     stopping;       /* between stop_async and its callback */
  gboolean     stop_ok;
  GError      *stop_error;
  FcFlushReport *report;
} Record;

static void
warning_cb (FcRecording *recording,
            const char  *message,
            Record      *rec)
{
  fprintf (stderr, "flamecast-cli record: %s\n", message);
}

static void
target_exited_cb (FcRecording *recording,
                  int          status,
                  Record      *rec)
{
  if (!rec->stopping)
    g_main_loop_quit (rec->loop);
}

#define END_GRACE_MS 3000

/* Launch mode ends the command the way perf does: the signal goes to it, and
 * a command still there after a grace period is killed; recording goes on
 * until it has exited. An attached process is only released. */
static void
interrupted (Record *rec,
             int     signal_number)
{
  rec->interrupted = TRUE;
  if (rec->signal_number == 0)
    rec->signal_number = signal_number;
  if (rec->launched && !fc_recording_get_target_exited (rec->recording, NULL))
    fc_recorder_end_target (fc_recording_get_recorder (rec->recording), signal_number, END_GRACE_MS);
  else if (!rec->stopping)
    g_main_loop_quit (rec->loop);
}

static gboolean
sigint_cb (gpointer user_data)
{
  interrupted (user_data, SIGINT);
  return G_SOURCE_CONTINUE;
}

static gboolean
sigterm_cb (gpointer user_data)
{
  interrupted (user_data, SIGTERM);
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
  guint n_samples;
  g_autofree char *samples = NULL;
  g_autofree char *threads = NULL;
  int n;

  fc_recording_get_sampler_stats (rec->recording, &stats);
  n_samples = fc_recorder_get_n_samples (fc_recording_get_recorder (rec->recording));
  samples = g_strdup_printf (ngettext ("%u sample", "%u samples", n_samples), n_samples);
  threads = g_strdup_printf (ngettext ("%u thread", "%u threads", stats.n_threads), stats.n_threads);
  /* the carriage return stays out of the message: it is how the line is redrawn, not text */
  n = fprintf (stderr, "\r");
  n += fprintf (stderr, _("%.1f s  %s  %s  stop %.0f us  dropped %" PRIu64 "   "),
                elapsed, samples, threads, stats.median_stop_us, stats.dropped_ticks);
  rec->status_width = MAX (rec->status_width, (guint) MAX (n, 0));
  return G_SOURCE_CONTINUE;
}

static void
stopped_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Record *rec = user_data;

  rec->stop_ok = fc_recording_stop_finish (FC_RECORDING (object), result, &rec->report, &rec->stop_error);
  rec->stopping = FALSE;
  g_main_loop_quit (rec->loop);
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
  g_autoptr(FcRecording) recording = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_auto(GStrv) command = NULL;
  g_autofree char *output = NULL;
  g_autofree char *mode = NULL;
  g_autofree char *format = NULL;
  g_autofree char *release = NULL;
  g_autofree char *environment = NULL;
  g_autofree char *platform = NULL;
  g_autofree char *stacks_name = NULL;
  g_autofree char *lifecycle_name = NULL;
  g_autofree char *control_path = NULL;
  g_autofree char *dsn_option = NULL;
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_autoptr(FcLifecycleControl) control = NULL;
  g_autoptr(FcSender) sender = NULL;
  FcRecorder *recorder;
  FcProfileLifecycle lifecycle_mode;
  FcStacksMode stacks = FC_STACKS_AUTO;
  gboolean send = FALSE, follow_children = FALSE, no_helper = FALSE, v1, pid_given;
  int pid = 0, frequency = G_MININT, exit_code = 0, status = -1;
  double duration = 0;
  guint sigint_id, sigterm_id, status_id = 0;
  g_autoptr(FcCaptureSummary) summary = NULL;
  Record rec = { 0 };
  const FcRecordOptionInfo *hz = fc_record_option_get (FC_RECORD_OPTION_FREQUENCY);
  g_autofree char *frequency_help =
    g_strdup_printf (_("Samples per second per thread, %d to %d (default: the settings' frequency, %d)"),
                     hz->minimum, hz->maximum, hz->default_value);
  GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_INT, &pid, N_("Profile the running process PID"), "PID" },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration, N_("Stop after SECONDS (default: until the target exits or Ctrl-C)"), "SECONDS" },
    { "frequency", 'F', 0, G_OPTION_ARG_INT, &frequency, frequency_help, "HZ" },
    { "mode", 'm', 0, G_OPTION_ARG_STRING, &mode, N_("wall (every thread, running or not) or cpu (on-CPU time, perf events); default: the settings' mode, wall"), "wall|cpu" },
    { "follow-children", 0, 0, G_OPTION_ARG_NONE, &follow_children, N_("Record the processes the target starts too, and theirs, through exec, each with its own profiler_id and chunk files (threads named “comm (pid)”; default: the settings' follow-children)"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Directory for the chunk files (default: .)"), "DIR" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, N_("v2: one chunk file per chunk (default); v1: one envelope per 30 s"), "v2|v1" },
    { "release", 'r', 0, G_OPTION_ARG_STRING, &release, N_("Release of the profiled program"), "R" },
    { "environment", 'e', 0, G_OPTION_ARG_STRING, &environment, N_("Environment, e.g. production"), "E" },
    { "platform", 0, 0, G_OPTION_ARG_STRING, &platform, N_("Platform of the chunks (default: the settings' platform, native)"), "P" },
    { "stacks", 0, 0, G_OPTION_ARG_STRING, &stacks_name, N_("python: Python frames only, platform python, as the Python SDK sends; mixed: native stacks with the Python frames in them; native: machine code only; auto: python for a CPython program, native otherwise (default: the settings' stacks, auto)"), "python|mixed|native|auto" },
    { "lifecycle", 0, 0, G_OPTION_ARG_STRING, &lifecycle_name, N_("manual: record from start to end (default); trace: record while a root span is active"), "manual|trace" },
    { "control", 0, 0, G_OPTION_ARG_FILENAME, &control_path, N_("FIFO of span commands: lines “begin NAME”, “end NAME”, “start”, “stop”"), "PATH" },
    { "send", 0, 0, G_OPTION_ARG_NONE, &send, N_("Send each chunk to Sentry as it is ready"), NULL },
    { "dsn", 0, 0, G_OPTION_ARG_STRING, &dsn_option, N_("Sentry DSN for --send (default: $SENTRY_DSN, then the saved settings)"), "DSN" },
    { "no-helper", 0, 0, G_OPTION_ARG_NONE, &no_helper, N_("Never ask flamecast-helper (polkit) to open a process this user may not trace"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &command, NULL, NULL },
    { NULL }
  };

  context = g_option_context_new (_("(--pid PID | -- COMMAND [ARGS...]) - profile a process"));
  g_option_context_set_summary (context,
                                _("Samples every thread of a running process (--pid) or of a command it\n"
                                  "launches, writes Sentry V2 chunk files (or V1 envelopes) to --output\n"
                                  "and ends with a summary of what was captured. Ctrl-C or SIGTERM stops\n"
                                  "the recording and releases the process, which keeps running.\n"
                                  "\n"
                                  "Exit status: that of the launched command (128+signal when a signal\n"
                                  "ended it or the recording, 127 when it cannot be started); 0 with --pid;\n"
                                  "1 when the capture, writing or sending failed; 2 on bad usage."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_strict_posix (context, TRUE);
  pid = G_MININT;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      return 2;
    }
  pid_given = pid != G_MININT;
  if (!pid_given)
    pid = 0;
  if (pid_given && pid <= 0)
    {
      fprintf (stderr, "flamecast-cli record: --pid %d: %s\n", pid, _("a process id is a positive number"));
      return 2;
    }
  if (pid_given == (command != NULL && command[0] != NULL))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", _("give either --pid PID or -- COMMAND [ARGS...]"));
      return 2;
    }
  if (frequency != G_MININT && (frequency < hz->minimum || frequency > hz->maximum))
    {
      fprintf (stderr, "flamecast-cli record: ");
      fprintf (stderr, _("--frequency must be between %d and %d"), hz->minimum, hz->maximum);
      fprintf (stderr, "\n");
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
  v1 = g_strcmp0 (format, "v1") == 0;
  if (stacks_name != NULL && !fc_stacks_mode_from_string (stacks_name, &stacks))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", _("--stacks must be python, mixed, native or auto"));
      return 2;
    }

  /* Every recording option and the DSN default to the saved settings (the
   * app's GSettings keys, then settings.ini): the app records the same way. */
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
      if (v1)
        fc_sender_set_format (sender, FC_FORMAT_V1, TRUE, NULL);
    }

  /* The options the user gave override the settings; the rest keep theirs. */
  recording = fc_recording_new ();
  fc_recording_apply_settings (recording, settings);
  g_object_set (recording,
                "lifecycle", lifecycle_mode,
                "output-dir", output ? output : ".",
                "format", v1 ? FC_FORMAT_V1 : FC_FORMAT_V2,
                "sender", sender,
                NULL);
  if (frequency != G_MININT)
    g_object_set (recording, "frequency", (guint) frequency, NULL);
  if (mode != NULL)
    g_object_set (recording, "mode", strcmp (mode, "cpu") == 0 ? FC_SAMPLER_MODE_CPU : FC_SAMPLER_MODE_WALL, NULL);
  if (release != NULL)
    g_object_set (recording, "release", release, NULL);
  if (environment != NULL)
    g_object_set (recording, "environment", environment, NULL);
  if (platform != NULL)
    g_object_set (recording, "platform", platform, NULL);
  if (stacks_name != NULL)
    g_object_set (recording, "stacks", stacks, NULL);
  /* the flag turns it on; without it, the saved setting (the app's switch) decides */
  if (follow_children)
    g_object_set (recording, "follow-children", TRUE, NULL);
  recorder = fc_recording_get_recorder (recording);
  rec.recording = recording;
  rec.tty = isatty (STDERR_FILENO);

  loop = g_main_loop_new (NULL, FALSE);
  rec.loop = loop;
  g_signal_connect (recording, "warning", G_CALLBACK (warning_cb), &rec);
  g_signal_connect (recording, "target-exited", G_CALLBACK (target_exited_cb), &rec);

  /* Ctrl-C and SIGTERM stop the recording cleanly: the target is released and everything written */
  sigint_id = g_unix_signal_add (SIGINT, sigint_cb, &rec);
  sigterm_id = g_unix_signal_add (SIGTERM, sigterm_cb, &rec);
  rec.launched = pid == 0;

  fc_access_set_use_helper (!no_helper);
  if (pid > 0 ? !fc_recording_attach (recording, pid, &error)
              : !fc_recording_spawn (recording, (const char * const *) command, NULL, &error))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      g_source_remove (sigint_id);
      g_source_remove (sigterm_id);
      return g_error_matches (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED) && pid == 0 ? 127 : 1;
    }
  {
    g_autofree char *note = fc_recorder_dup_access_note (recorder);

    if (note != NULL)
      fprintf (stderr, "flamecast: %s\n", note);
  }
  if (control_path != NULL &&
      !(control = fc_lifecycle_control_new (fc_recording_get_lifecycle (recording), control_path, &error)))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      exit_code = 2;
      goto out;
    }
  /* Manual: from now on (a no-op with a warning when the session is not
   * sampled). Trace: the control FIFO's spans start and stop recording. */
  if (!fc_recording_start (recording, &error))
    {
      fprintf (stderr, "flamecast-cli record: %s\n", error->message);
      exit_code = 1;
      goto out;
    }

  rec.started_us = g_get_monotonic_time ();
  if (rec.tty)
    status_id = g_timeout_add (250, status_cb, &rec);
  if (duration > 0)
    rec.duration_id = g_timeout_add ((guint) (duration * 1000), duration_cb, &rec);

  if (!fc_recording_get_target_exited (recording, NULL))
    g_main_loop_run (loop);

  g_clear_handle_id (&status_id, g_source_remove);
  g_clear_handle_id (&rec.duration_id, g_source_remove);
  clear_status (&rec);

  /* Commands the target wrote just before exiting still count. */
  if (control != NULL)
    fc_lifecycle_control_drain (control);
  g_clear_object (&control);

  /* Open spans end, the last chunks are finished and written, the target is
   * released, and what was queued for sending is delivered, all on this loop. */
  rec.stopping = TRUE;
  fc_recording_stop_async (recording, NULL, stopped_cb, &rec);
  while (rec.stopping)
    g_main_loop_run (loop);

  /* a launched command keeps running after the recording ends; its exit status is ours */
  if (pid == 0)
    {
      if (!fc_recording_get_target_exited (recording, &status))
        {
          if (rec.tty)
            fprintf (stderr, _("Recording stopped; waiting for %s to exit\n"), command[0]);
          while (!fc_recording_get_target_exited (recording, &status))
            g_main_loop_run (loop);
        }
      exit_code = status >= 0 ? exit_code_for_status (status) : 1;
    }
  /* ended by a signal to us: exit as perf does, whatever the command's status */
  if (rec.signal_number != 0 && pid == 0)
    exit_code = 128 + rec.signal_number;

  /* counted in core, so that the app tells the same */
  summary = fc_recorder_dup_summary (recorder);
  {
    g_autofree char *text = fc_capture_summary_format (summary);
    fputs (text, stderr);
  }
  fprintf (stderr, v1 ? ngettext ("flamecast: %u envelope in %s (profiler_id %s)\n",
                                  "flamecast: %u envelopes in %s (profiler_id %s)\n",
                                  fc_recording_get_n_files (recording))
                      : ngettext ("flamecast: %u chunk file in %s (profiler_id %s)\n",
                                  "flamecast: %u chunk files in %s (profiler_id %s)\n",
                                  fc_recording_get_n_files (recording)),
           fc_recording_get_n_files (recording), output ? output : ".",
           fc_recorder_get_profiler_id (recorder) ? fc_recorder_get_profiler_id (recorder) : _("none"));
  if (fc_recording_get_write_failed (recording) && exit_code == 0)
    exit_code = 1;

  /* What could not go now waits in the outbox. */
  if (sender != NULL)
    {
      if (!rec.stop_ok)
        {
          fprintf (stderr, "flamecast-cli record: %s\n", rec.stop_error->message);
          exit_code = exit_code ? exit_code : 1;
        }
      else
        {
          g_autofree char *text = fc_transport_describe_report (fc_sender_get_transport (sender), rec.report);

          fputs (text, stderr);
          if (!fc_flush_report_all_delivered (rec.report) && exit_code == 0)
            exit_code = 1;
        }
    }

out:
  g_clear_error (&rec.stop_error);
  g_clear_pointer (&rec.report, fc_flush_report_unref);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  return exit_code;
}
