/* fc-live-recording.c - a recording under way, shown live in a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * It owns the FcRecording from the attach (or launch) to the end: the
 * sender, the live tick, the worker bringing the view up to date, the
 * transactions on the span track and the live edge the views follow. The
 * recording's signals reach only this object, which never lives without its
 * recording; a window shows it and drops it, nothing more.
 */

#include <glib/gi18n.h>

#include "fc-app-settings.h"
#include "fc-live-recording.h"

/* Live views update this often: at least 5 times a second. */
#define LIVE_INTERVAL_MS 200

struct _FcLiveRecording
{
  GObject      parent_instance;

  FcRecording *recording;
  FcSender    *sender;             /* the recording's, when it sends while recording */
  FcSession   *session;            /* where it is shown; NULL until shown */
  FcLiveEdge  *edge;
  char        *title;
  char        *subtitle;
  GPtrArray   *unheard;            /* warnings from before anyone listened */
  GPtrArray   *root_spans;         /* FcSpan: this recording's ended transactions */
  guint        live_source;
  guint        live_n_samples;
  guint        transaction_span;
  gint64       started_us;
  gint64       stopped_us;
  gboolean     updating;           /* a worker is bringing the view up to date */
  gboolean     stopping;
  gboolean     spawned;
};

G_DEFINE_FINAL_TYPE (FcLiveRecording, fc_live_recording, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  PROP_PROFILING,
  N_PROPS
};

enum {
  WARNING,
  STATUS_CHANGED,
  SEND_OUTCOME,
  PROFILE_SHOWN,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
warn (FcLiveRecording *self,
      const char      *message)
{
  if (self->session == NULL)
    g_ptr_array_add (self->unheard, g_strdup (message));
  else
    g_signal_emit (self, signals[WARNING], 0, message);
}

static void
warning_cb (FcLiveRecording *self,
            const char      *message)
{
  warn (self, message);
}

FcLiveState
fc_live_recording_get_state (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), FC_LIVE_STATE_STOPPED);

  /* until the stop completes (what was sent reported), though released before */
  if (self->stopping)
    return FC_LIVE_STATE_STOPPING;
  if (fc_recording_get_stopped (self->recording))
    return FC_LIVE_STATE_STOPPED;
  if (fc_recording_get_profiling (self->recording))
    return FC_LIVE_STATE_RECORDING;
  return FC_LIVE_STATE_WAITING;
}

gboolean
fc_live_recording_is_active (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), FALSE);

  return !fc_recording_get_stopped (self->recording);
}

static void
state_changed (FcLiveRecording *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_signal_emit (self, signals[STATUS_CHANGED], 0);
}

char *
fc_live_recording_describe (FcLiveRecording  *self,
                            char            **mode_text)
{
  FcRecorder *recorder;
  FcSamplerStats stats;
  double elapsed;
  g_autofree char *samples = NULL;
  g_autofree char *threads = NULL;
  g_autofree char *dropped = NULL;
  guint n_samples, n_threads;
  const char *state;

  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), NULL);

  recorder = fc_recording_get_recorder (self->recording);
  fc_recording_get_sampler_stats (self->recording, &stats);
  elapsed = ((self->stopped_us ? self->stopped_us : g_get_monotonic_time ()) - self->started_us) /
            (double) G_USEC_PER_SEC;
  switch (fc_live_recording_get_state (self))
    {
    case FC_LIVE_STATE_STOPPED:
      state = _("Recorded");
      break;
    case FC_LIVE_STATE_STOPPING:
      state = _("Stopping…");
      break;
    case FC_LIVE_STATE_RECORDING:
      state = _("Recording");
      break;
    case FC_LIVE_STATE_WAITING:
    default:
      state = _("Waiting");
      break;
    }
  n_samples = fc_recorder_get_n_samples (recorder);
  n_threads = fc_recorder_get_n_threads (recorder);
  samples = g_strdup_printf (ngettext ("%u sample", "%u samples", n_samples), n_samples);
  threads = g_strdup_printf (ngettext ("%u thread", "%u threads", n_threads), n_threads);
  dropped = g_strdup_printf (ngettext ("%" G_GUINT64_FORMAT " dropped tick", "%" G_GUINT64_FORMAT " dropped ticks",
                                       (gulong) MIN (stats.dropped_ticks, G_MAXULONG)),
                             stats.dropped_ticks);
  if (mode_text != NULL)
    /* Translators: after the status while recording: mode and rate */
    *mode_text = g_strdup_printf (_(" · %s · %u Hz"),
                                  fc_recorder_get_mode (recorder) == FC_SAMPLER_MODE_CPU ? "cpu" : "wall",
                                  fc_recorder_get_frequency (recorder));
  /* Translators: status while recording: state, seconds, samples, threads, dropped ticks */
  return g_strdup_printf (_("%s · %.1f s · %s · %s · %s"), state, elapsed, samples, threads, dropped);
}

/* ---- transactions on the span track ---- */

static FcSpan *
span_for_root (const FcRootSpan *root)
{
  return fc_span_new (root->span_id, NULL, root->trace_id, _("transaction"), root->name,
                      root->start_ns, root->end_ns);
}

/* The transactions of this recording: those that ended, and the one under
 * way, drawn up to now. */
static void
update_spans (FcLiveRecording *self)
{
  FcLifecycle *lifecycle = fc_recording_get_lifecycle (self->recording);
  const FcRootSpan *active = lifecycle && self->transaction_span
                             ? fc_lifecycle_get_root_span (lifecycle, self->transaction_span) : NULL;
  g_autoptr(GPtrArray) spans = NULL;

  if (self->session == NULL ||
      (self->root_spans->len == 0 && active == NULL && fc_session_get_spans (self->session)->len == 0))
    return;
  spans = fc_spans_new ();
  for (guint i = 0; i < self->root_spans->len; i++)
    g_ptr_array_add (spans, fc_span_copy (g_ptr_array_index (self->root_spans, i)));
  if (active != NULL)
    {
      FcSpan *span = span_for_root (active);

      span->end_ns = MAX (span->start_ns, g_get_real_time () * 1000);
      span->open = TRUE;
      g_ptr_array_add (spans, span);
    }
  fc_session_set_spans (self->session, spans);
}

static void
root_span_ended_cb (FcLiveRecording *self,
                    FcRootSpan      *root)
{
  g_ptr_array_add (self->root_spans, span_for_root (root));
  if (self->transaction_span == root->id)
    self->transaction_span = 0;
  update_spans (self);
}

void
fc_live_recording_set_transaction (FcLiveRecording *self,
                                   const char      *name)
{
  FcLifecycle *lifecycle;

  g_return_if_fail (FC_IS_LIVE_RECORDING (self));

  if ((lifecycle = fc_recording_get_lifecycle (self->recording)) == NULL)
    return;
  if (name != NULL && self->transaction_span == 0)
    self->transaction_span = fc_lifecycle_begin_root_span (lifecycle, *name ? name : _("transaction"));
  else if (name == NULL && self->transaction_span != 0)
    {
      /* "root-span-ended" files it */
      fc_lifecycle_end_root_span (lifecycle, self->transaction_span);
      self->transaction_span = 0;
    }
  if (fc_live_edge_is_showing_live (self->edge))
    update_spans (self);
}

gboolean
fc_live_recording_has_transaction (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), FALSE);

  return self->transaction_span != 0;
}

gboolean
fc_live_recording_is_manual (FcLiveRecording *self)
{
  FcLifecycle *lifecycle;

  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), FALSE);

  lifecycle = fc_recording_get_lifecycle (self->recording);
  return lifecycle != NULL && fc_lifecycle_get_mode (lifecycle) == FC_PROFILE_LIFECYCLE_MANUAL;
}

gboolean
fc_live_recording_get_profiling (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), FALSE);

  return fc_recording_get_profiling (self->recording);
}

void
fc_live_recording_set_profiling (FcLiveRecording *self,
                                 gboolean         profiling)
{
  FcLifecycle *lifecycle;

  g_return_if_fail (FC_IS_LIVE_RECORDING (self));

  if (!fc_live_recording_is_manual (self) || !fc_live_recording_is_active (self) ||
      profiling == fc_lifecycle_get_running (lifecycle = fc_recording_get_lifecycle (self->recording)))
    return;
  if (profiling)
    fc_lifecycle_start_profiler (lifecycle);
  else
    fc_lifecycle_stop_profiler (lifecycle);
}

static void
profiling_cb (FcLiveRecording *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILING]);
  state_changed (self);
}

/* ---- the live view ---- */

/* What the live views show: the recording by function, as after Stop, kept
 * up to date by a worker (a recorder interns a frame per address). */
static void
show_live (FcLiveRecording *self)
{
  /* documents hold finished profiles: the live one is only the session's
   * (merged) profile until the recording stops */
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);

  fc_live_edge_show (self->edge, document, fc_recording_get_profile (self->recording), FALSE);
  update_spans (self);
  g_signal_emit (self, signals[PROFILE_SHOWN], 0, TRUE);
}

/* brings the view (the recording by function) up to what was recorded */
static void
follower_update_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  fc_profile_follower_update (task_data);
  g_task_return_boolean (task, TRUE);
}

/* @done runs on this context once the worker brought the view up to date */
static void
update_view (FcLiveRecording     *self,
             GAsyncReadyCallback  done)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, done, NULL);

  g_task_set_task_data (task, fc_profile_follower_ref (fc_recording_get_follower (self->recording)),
                        (GDestroyNotify) fc_profile_follower_unref);
  g_task_run_in_thread (task, follower_update_thread);
}

static void
live_updated_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  FcLiveRecording *self = FC_LIVE_RECORDING (object);
  FcProfile *live = fc_recording_get_profile (self->recording);

  self->updating = FALSE;
  /* stopping meanwhile: the final update takes over */
  if (self->stopping || fc_recording_get_stopped (self->recording) || self->session == NULL)
    return;
  if (fc_session_get_profile (self->session) != live)
    {
      if (fc_profile_get_n_samples (live) > 0)
        show_live (self);
      return;
    }
  fc_live_edge_grew (self->edge);
}

static gboolean
live_tick_cb (gpointer user_data)
{
  FcLiveRecording *self = user_data;
  guint n_samples = fc_recorder_get_n_samples (fc_recording_get_recorder (self->recording));

  /* one update at a time; a tick that finds one under way leaves it to the next */
  if (!self->updating && n_samples != self->live_n_samples && self->session != NULL)
    {
      self->live_n_samples = n_samples;
      self->updating = TRUE;
      update_view (self, live_updated_cb);
    }
  if (self->transaction_span != 0 && fc_live_edge_is_showing_live (self->edge))
    update_spans (self);
  g_signal_emit (self, signals[STATUS_CHANGED], 0);
  return G_SOURCE_CONTINUE;
}

/* ---- stopping ---- */

static void
target_exited_cb (FcLiveRecording *self,
                  int              status)
{
  /* a launched command that ends ends its recording; it stays shown */
  fc_live_recording_stop (self, FALSE);
}

/* The last samples go into the view on a worker too (it may be far behind
 * on a loaded machine); the recording's live copy is then finished. */
static void
final_update_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  FcLiveRecording *self = FC_LIVE_RECORDING (object);
  FcProfile *profile = fc_profile_follower_finish (fc_recording_get_follower (self->recording));

  fc_live_edge_set_live (self->edge, NULL);
  if (self->session == NULL)
    return;
  if (fc_profile_get_n_samples (profile) == 0)
    {
      g_signal_emit (self, signals[PROFILE_SHOWN], 0, FALSE);
      return;
    }
  /* the chunks as written and sent: Send, Save and Export start from them;
   * on the thread the user chose, else on the busiest of the whole recording */
  fc_live_edge_show (self->edge, fc_recording_get_document (self->recording), profile,
                     fc_live_edge_get_thread_chosen (self->edge));
  if (fc_live_edge_get_following (self->edge))
    fc_session_reset_view (self->session);
  update_spans (self);
  g_signal_emit (self, signals[PROFILE_SHOWN], 0, TRUE);
}

static void
stopped_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(FcLiveRecording) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcFlushReport) report = NULL;

  if (!fc_recording_stop_finish (self->recording, result, &report, &error))
    warn (self, error->message);
  else
    {
      g_autoptr(FcCaptureSummary) summary = fc_recorder_dup_summary (fc_recording_get_recorder (self->recording));

      if (report != NULL)
        {
          g_autofree char *text = NULL;

          text = g_strstrip (fc_transport_describe_report (fc_sender_get_transport (self->sender), report));
          g_signal_emit (self, signals[SEND_OUTCOME], 0, text, !fc_flush_report_all_delivered (report));
        }
      /* a shell pipeline recorded is a shell in wait4: say where the work went, as the CLI does */
      if (fc_capture_summary_work_in_children (summary))
        warn (self, _("The work ran in child processes, which were not recorded: record again with "
                      "“Follow child processes”"));
    }
  self->stopping = FALSE;
  self->stopped_us = g_get_monotonic_time ();
  g_clear_handle_id (&self->live_source, g_source_remove);
  state_changed (self);

  /* the full recording, merged by function, stays shown */
  update_view (self, final_update_cb);
}

/**
 * fc_live_recording_stop:
 * @self: a live recording
 * @end_program: also end a launched command (SIGTERM)
 *
 * Stops and releases the target without blocking the main loop; "state"
 * is %FC_LIVE_STATE_STOPPED once the target is released. An attached
 * process keeps running, as does a launched command unless @end_program.
 */
void
fc_live_recording_stop (FcLiveRecording *self,
                        gboolean         end_program)
{
  g_return_if_fail (FC_IS_LIVE_RECORDING (self));

  if (self->stopping || fc_recording_get_stopped (self->recording))
    return;
  if (end_program)
    fc_recording_terminate_target (self->recording);
  self->stopping = TRUE;
  state_changed (self);
  fc_recording_stop_async (self->recording, NULL, stopped_cb, g_object_ref (self));
}

/* ---- starting ---- */

/* what the sender did so far changed (its flushes report as chunks go) */
static void
sender_notify_cb (FcLiveRecording *self)
{
  g_signal_emit (self, signals[STATUS_CHANGED], 0);
}

static FcLiveRecording *
live_new (void)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *mode = g_settings_get_string (settings, "mode");
  g_autofree char *lifecycle = g_settings_get_string (settings, "profile-lifecycle");
  g_autofree char *release = g_settings_get_string (settings, "release");
  g_autofree char *environment = g_settings_get_string (settings, "environment");
  g_autofree char *platform = g_settings_get_string (settings, "platform");
  FcLiveRecording *self = g_object_new (FC_TYPE_LIVE_RECORDING, NULL);

  self->recording = fc_recording_new ();
  /* the preferences, as the CLI reads them */
  g_object_set (self->recording,
                "keep-profile", TRUE,
                "frequency", (guint) g_settings_get_int (settings, "frequency"),
                "mode", g_strcmp0 (mode, "cpu") == 0 ? FC_SAMPLER_MODE_CPU : FC_SAMPLER_MODE_WALL,
                "stack-size", (guint) g_settings_get_int (settings, "stack-bytes"),
                "chunk-duration-ms", (guint) CLAMP (g_settings_get_int (settings, "chunk-duration") * 1000, 100, 66000),
                "lifecycle", g_strcmp0 (lifecycle, "trace") == 0 ? FC_PROFILE_LIFECYCLE_TRACE : FC_PROFILE_LIFECYCLE_MANUAL,
                "profile-session-sample-rate", g_settings_get_double (settings, "profile-session-sample-rate"),
                "traces-sample-rate", g_settings_get_double (settings, "traces-sample-rate"),
                "release", *release ? release : NULL,
                "environment", *environment ? environment : NULL,
                "platform", *platform ? platform : NULL,
                "follow-children", g_settings_get_boolean (settings, "follow-children"),
                NULL);
  /* as `flamecast-cli record --send`: each chunk is queued (in the outbox)
   * and delivered as it completes */
  if (g_settings_get_boolean (settings, "send-while-recording"))
    {
      g_autofree char *dsn_text = g_settings_get_string (settings, "dsn");
      g_autoptr(FcDsn) dsn = NULL;
      g_autoptr(GError) error = NULL;

      if (*dsn_text == '\0')
        warn (self, _("Recording without sending: no DSN is set in Preferences"));
      else if ((dsn = fc_dsn_parse (dsn_text, &error)) == NULL)
        {
          g_autofree char *text = g_strdup_printf (_("Recording without sending: %s"), error->message);

          warn (self, text);
        }
      else
        {
          g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);

          self->sender = fc_sender_new (transport);
          g_object_set (self->recording, "sender", self->sender, NULL);
        }
    }
  if (self->sender != NULL)
    g_signal_connect_object (self->sender, "notify", G_CALLBACK (sender_notify_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->recording, "warning", G_CALLBACK (warning_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->recording, "target-exited", G_CALLBACK (target_exited_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->recording, "notify::profiling", G_CALLBACK (profiling_cb), self, G_CONNECT_SWAPPED);
  return self;
}

/* Attached or launched: starts it. On failure the target is released and
 * the object goes with the caller's reference. */
static gboolean
begin (FcLiveRecording  *self,
       GError          **error)
{
  if (!fc_recording_start (self->recording, error))
    {
      /* released again; nothing was recorded (its signals die with @self) */
      fc_recording_stop_async (self->recording, NULL, NULL, NULL);
      return FALSE;
    }
  g_signal_connect_object (fc_recording_get_lifecycle (self->recording), "root-span-ended",
                           G_CALLBACK (root_span_ended_cb), self, G_CONNECT_SWAPPED);
  self->started_us = g_get_monotonic_time ();
  self->subtitle = g_strdup_printf (_("pid %d"), fc_recording_get_pid (self->recording));
  self->live_source = g_timeout_add (LIVE_INTERVAL_MS, live_tick_cb, self);
  return TRUE;
}

/**
 * fc_live_recording_attach:
 * @pid: a running process
 * @error: where the reason goes
 *
 * Attaches to @pid with the preferences' settings and starts recording.
 *
 * Returns: (transfer full) (nullable): the recording, or %NULL when
 *   attaching failed; @error names what stood in the way
 */
FcLiveRecording *
fc_live_recording_attach (GPid     pid,
                          GError **error)
{
  g_autoptr(FcLiveRecording) self = live_new ();
  g_autofree char *comm_path = g_strdup_printf ("/proc/%d/comm", pid);
  g_autofree char *comm = NULL;

  if (!fc_recording_attach (self->recording, pid, error))
    return NULL;
  if (g_file_get_contents (comm_path, &comm, NULL, NULL))
    g_strstrip (comm);
  self->title = g_strdup (comm ? comm : _("process"));
  if (!begin (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* @task's attach, now that nothing in it waits for polkit */
static void
attach_now (GTask *task)
{
  GError *error = NULL;
  FcLiveRecording *live = fc_live_recording_attach (GPOINTER_TO_INT (g_task_get_task_data (task)), &error);

  if (live == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, live, g_object_unref);
  g_object_unref (task);
}

static void
authorized_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  GPid pid = GPOINTER_TO_INT (g_task_get_task_data (task));
  g_autoptr(GError) refusal = NULL;
  g_autoptr(GError) check = NULL;

  if (fc_access_authorize_finish (result, &refusal))
    {
      attach_now (task);
      return;
    }
  /* what the kernel refuses, then the helper's answer, as the CLI says it (sandboxed, the
   * kernel is not asked: the host's process is not in our /proc) */
  if (g_error_matches (refusal, G_IO_ERROR, G_IO_ERROR_CANCELLED) || fc_access_through_helper (pid) ||
      fc_attach_check (pid, fc_app_settings_get_mode (), &check))
    g_task_return_error (task, g_steal_pointer (&refusal));
  else
    g_task_return_new_error (task, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION, "%s; %s", check->message,
                             refusal->message);
  g_object_unref (task);
}

/**
 * fc_live_recording_attach_async:
 * @pid: a running process
 * @cancellable: (nullable): ends the wait for polkit's answer
 * @callback: called with the recording, or why there is none
 * @user_data: for @callback
 *
 * fc_live_recording_attach(), for a process this user may not record: then
 * flamecast-helper is asked first, off the main loop (polkit may show a
 * password dialog), and the attach follows its yes.
 */
void
fc_live_recording_attach_async (GPid                pid,
                                GCancellable       *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer            user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, fc_live_recording_attach_async);
  g_task_set_task_data (task, GINT_TO_POINTER (pid), NULL);
  if (fc_access_needs_helper (pid, fc_app_settings_get_mode ()))
    fc_access_authorize_async (pid, cancellable, authorized_cb, task);
  else
    attach_now (task);
}

/**
 * fc_live_recording_attach_finish:
 *
 * Returns: (transfer full) (nullable): the recording, or %NULL with @error
 */
FcLiveRecording *
fc_live_recording_attach_finish (GAsyncResult *result,
                                 GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* the environment Flamecast was started with, before it set its own */
static char **user_environ;

/**
 * fc_live_recording_save_user_environ:
 *
 * Keeps the environment as it is now as the one of every command launched
 * later: call first in main(), before the app sets variables for itself (no
 * GL without a GPU, the Preferences' debuginfod servers) that a program the
 * user records must not inherit.
 */
void
fc_live_recording_save_user_environ (void)
{
  g_strfreev (user_environ);
  user_environ = g_get_environ ();
}

/**
 * fc_live_recording_spawn:
 * @argv: the command
 * @cwd: (nullable): its working directory (the command's alone)
 * @error: where the reason goes
 *
 * Launches @argv traced and starts recording, until the command exits or
 * Stop.
 *
 * Returns: (transfer full) (nullable): the recording, or %NULL
 */
FcLiveRecording *
fc_live_recording_spawn (const char * const  *argv,
                         const char          *cwd,
                         GError             **error)
{
  g_autoptr(FcLiveRecording) self = NULL;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  self = live_new ();
  fc_recorder_set_launch_environ (fc_recording_get_recorder (self->recording), (const char * const *) user_environ);
  if (!fc_recording_spawn (self->recording, argv, cwd, error))
    return NULL;
  self->spawned = TRUE;
  self->title = g_path_get_basename (argv[0]);
  if (!begin (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

void
fc_live_recording_show_in (FcLiveRecording *self,
                           FcSession       *session)
{
  g_return_if_fail (FC_IS_LIVE_RECORDING (self));
  g_return_if_fail (FC_IS_SESSION (session));
  g_return_if_fail (self->session == NULL);

  self->session = g_object_ref (session);
  self->edge = fc_live_edge_new (session);
  fc_live_edge_set_live (self->edge, fc_recording_get_profile (self->recording));
  for (guint i = 0; i < self->unheard->len; i++)
    g_signal_emit (self, signals[WARNING], 0, g_ptr_array_index (self->unheard, i));
  g_ptr_array_set_size (self->unheard, 0);
  /* stopped before it was shown: what it recorded */
  if (fc_recording_get_stopped (self->recording) && !self->stopping)
    update_view (self, final_update_cb);
}

/* ---- getters ---- */

FcRecording *
fc_live_recording_get_recording (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), NULL);

  return self->recording;
}

FcSender *
fc_live_recording_get_sender (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), NULL);

  return self->sender;
}

gboolean
fc_live_recording_get_spawned (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), FALSE);

  return self->spawned;
}

const char *
fc_live_recording_get_title (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), NULL);

  return self->title;
}

const char *
fc_live_recording_get_subtitle (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), NULL);

  return self->subtitle;
}

FcLiveEdge *
fc_live_recording_get_edge (FcLiveRecording *self)
{
  g_return_val_if_fail (FC_IS_LIVE_RECORDING (self), NULL);

  return self->edge;
}

/* ---- GObject ---- */

static void
fc_live_recording_dispose (GObject *object)
{
  FcLiveRecording *self = FC_LIVE_RECORDING (object);

  g_clear_handle_id (&self->live_source, g_source_remove);
  /* going while it records (the window went, the app quits): releasing the
   * target must not wait */
  if (self->recording != NULL && !fc_recording_get_stopped (self->recording) && !self->stopping)
    fc_recording_stop_async (self->recording, NULL, NULL, NULL);
  if (self->edge != NULL)
    fc_live_edge_set_live (self->edge, NULL);
  g_clear_object (&self->edge);
  g_clear_object (&self->session);
  g_clear_object (&self->sender);
  g_clear_object (&self->recording);

  G_OBJECT_CLASS (fc_live_recording_parent_class)->dispose (object);
}

static void
fc_live_recording_finalize (GObject *object)
{
  FcLiveRecording *self = FC_LIVE_RECORDING (object);

  g_clear_pointer (&self->root_spans, g_ptr_array_unref);
  g_clear_pointer (&self->unheard, g_ptr_array_unref);
  g_free (self->title);
  g_free (self->subtitle);

  G_OBJECT_CLASS (fc_live_recording_parent_class)->finalize (object);
}

static void
fc_live_recording_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  FcLiveRecording *self = FC_LIVE_RECORDING (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, fc_live_recording_get_state (self));
      break;
    case PROP_PROFILING:
      g_value_set_boolean (value, fc_recording_get_profiling (self->recording));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_live_recording_class_init (FcLiveRecordingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fc_live_recording_dispose;
  object_class->finalize = fc_live_recording_finalize;
  object_class->get_property = fc_live_recording_get_property;

  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, FC_LIVE_STATE_WAITING, FC_LIVE_STATE_STOPPED, FC_LIVE_STATE_WAITING,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PROFILING] =
    g_param_spec_boolean ("profiling", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* something to tell the user (a toast) */
  signals[WARNING] = g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* the status line changed: figures, state, what the sender did */
  signals[STATUS_CHANGED] = g_signal_new ("status-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* what sending while recording came to after Stop; TRUE when some waits in the outbox */
  signals[SEND_OUTCOME] = g_signal_new ("send-outcome", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_BOOLEAN);
  /* the session shows the recording (TRUE) or it recorded nothing (FALSE) */
  signals[PROFILE_SHOWN] = g_signal_new ("profile-shown", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
fc_live_recording_init (FcLiveRecording *self)
{
  self->root_spans = fc_spans_new ();
  self->unheard = g_ptr_array_new_with_free_func (g_free);
}
