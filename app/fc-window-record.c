/* fc-window-record.c - the window records: live view, status, lifecycle, stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>

#include "fc-app-settings.h"
#include "fc-window-private.h"

/* Live views update this often: at least 5 times a second. */
#define LIVE_INTERVAL_MS 200

static void
fc_window_record_show_status (FcWindow *self)
{
  FcRecorder *recorder = fc_recording_get_recorder (self->recording);
  FcSamplerStats stats;
  double elapsed;
  g_autofree char *text = NULL;
  g_autofree char *samples = NULL;
  g_autofree char *threads = NULL;
  g_autofree char *dropped = NULL;
  guint n_samples, n_threads;
  const char *state;

  fc_recording_get_sampler_stats (self->recording, &stats);
  elapsed = ((self->record_stopped_us ? self->record_stopped_us : g_get_monotonic_time ()) -
             self->record_started_us) / (double) G_USEC_PER_SEC;
  if (fc_recording_get_stopped (self->recording))
    state = _("Recorded");
  else if (self->record_stopping)
    state = _("Stopping…");
  else if (fc_recording_get_profiling (self->recording))
    state = _("Recording");
  else
    state = _("Waiting");
  n_samples = fc_recorder_get_n_samples (recorder);
  n_threads = fc_recorder_get_n_threads (recorder);
  samples = g_strdup_printf (ngettext ("%u sample", "%u samples", n_samples), n_samples);
  threads = g_strdup_printf (ngettext ("%u thread", "%u threads", n_threads), n_threads);
  dropped = g_strdup_printf (ngettext ("%" G_GUINT64_FORMAT " dropped tick", "%" G_GUINT64_FORMAT " dropped ticks",
                                       (gulong) MIN (stats.dropped_ticks, G_MAXULONG)),
                             stats.dropped_ticks);
  /* Translators: status while recording: state, seconds, samples, threads, dropped ticks */
  text = g_strdup_printf (_("%s · %.1f s · %s · %s · %s"), state, elapsed, samples, threads, dropped);
  gtk_label_set_text (self->record_status_label, text);
  g_free (text);
  /* Translators: after the status while recording: mode and rate */
  text = g_strdup_printf (_(" · %s · %u Hz"),
                          fc_recorder_get_mode (recorder) == FC_SAMPLER_MODE_CPU ? "cpu" : "wall",
                          fc_recorder_get_frequency (recorder));
  gtk_label_set_text (self->record_mode_label, text);
}

/* Sending while recording: what the sender did so far, updated as its
 * flushes report (chunks are queued as they complete, then delivered in
 * the background). The button opens the Outbox, where waiting ones are. */
static void
fc_window_record_show_send (FcWindow *self)
{
  FcSenderProgress progress;
  g_autofree char *text = NULL;
  g_autoptr(GString) tooltip = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->send_button), self->sender != NULL);
  if (self->sender == NULL)
    return;

  fc_sender_get_progress (self->sender, &progress);
  /* Translators: sending while recording: envelopes sent, queued (on their way or waiting), failed */
  text = g_strdup_printf (_("Sending: %u sent · %u queued · %u failed"),
                          progress.delivered, progress.pending, progress.rejected);
  gtk_label_set_text (self->send_label, text);

  tooltip = g_string_new (_("Chunks go to Sentry as they complete."));
  if (progress.waiting > 0)
    {
      g_string_append_c (tooltip, ' ');
      g_string_append_printf (tooltip, ngettext ("%u waits in the Outbox (rate limited, or Sentry is unreachable) and is retried.",
                                                 "%u wait in the Outbox (rate limited, or Sentry is unreachable) and are retried.",
                                                 progress.waiting),
                              progress.waiting);
    }
  if (progress.rejected > 0)
    {
      g_string_append_c (tooltip, ' ');
      g_string_append (tooltip, _("Sentry refused some: the Outbox shows why."));
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->send_button), tooltip->str);
  if (progress.rejected > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->send_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->send_label), "error");
  if (progress.waiting > 0 && progress.rejected == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->send_label), "warning");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->send_label), "warning");
}

static void
send_progress_cb (FcWindow   *self,
                  GParamSpec *pspec,
                  FcSender   *sender)
{
  /* an earlier recording's sender, still flushing */
  if (sender != self->sender)
    return;
  fc_window_record_show_send (self);
}

static FcSpan *
span_for_root (const FcRootSpan *root)
{
  return fc_span_new (root->span_id, NULL, root->trace_id, _("transaction"), root->name,
                      root->start_ns, root->end_ns);
}

/* The transactions of this recording, on the span track: those that ended,
 * and the one under way, drawn up to now. */
static void
update_live_spans (FcWindow *self)
{
  FcLifecycle *lifecycle = self->recording ? fc_recording_get_lifecycle (self->recording) : NULL;
  const FcRootSpan *active = lifecycle && self->transaction_span
                             ? fc_lifecycle_get_root_span (lifecycle, self->transaction_span) : NULL;
  g_autoptr(GPtrArray) spans = NULL;

  if (self->root_spans->len == 0 && active == NULL && fc_session_get_spans (self->session)->len == 0)
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
root_span_ended_cb (FcWindow   *self,
                    FcRootSpan *root)
{
  /* a recording stopping after the window was disposed */
  if (self->root_spans == NULL)
    return;
  g_ptr_array_add (self->root_spans, span_for_root (root));
  if (self->transaction_span == root->id)
    self->transaction_span = 0;
  update_live_spans (self);
}

static void
fc_window_record_update_controls (FcWindow *self)
{
  gboolean active = self->recording != NULL && !fc_recording_get_stopped (self->recording);
  FcLifecycle *lifecycle = self->recording ? fc_recording_get_lifecycle (self->recording) : NULL;
  gboolean manual = lifecycle != NULL && fc_lifecycle_get_mode (lifecycle) == FC_PROFILE_LIFECYCLE_MANUAL;

  gtk_revealer_set_reveal_child (self->record_bar, self->recording != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), active);
  gtk_widget_set_sensitive (GTK_WIDGET (self->stop_button), active && !self->record_stopping);
  gtk_widget_set_visible (GTK_WIDGET (self->record_button), !active);
  gtk_widget_set_visible (GTK_WIDGET (self->follow_button), active && !self->following);
  gtk_widget_set_visible (GTK_WIDGET (self->lifecycle_box), active);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lifecycle_box), active && !self->record_stopping);
  gtk_widget_set_visible (GTK_WIDGET (self->profiling_button), manual);
  fc_window_set_action_enabled (self, "stop-recording", active && !self->record_stopping);
  fc_window_set_action_enabled (self, "stop-and-end", active && !self->record_stopping &&
                                self->record_spawned);
  fc_window_set_action_enabled (self, "record", !active);
}

/* What the live views show: the recording by function, as after Stop, kept
 * up to date by a worker (a recorder interns a frame per address). */
static FcProfile *
live_view (FcWindow *self)
{
  return self->recording ? fc_recording_get_profile (self->recording) : NULL;
}

static gboolean
showing_live (FcWindow *self)
{
  return self->recording != NULL && live_view (self) != NULL &&
         fc_session_get_profile (self->session) == live_view (self);
}

static void
show_profile (FcWindow *self)
{
  FcProfile *profile = live_view (self);
  /* documents hold finished profiles: the live one is only the session's
   * (merged) profile until the recording stops */
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);

  self->setting_range = TRUE;
  fc_session_set_document_full (self->session, document, profile);
  self->setting_range = FALSE;
  update_live_spans (self);
  gtk_stack_set_visible_child_name (self->main_stack, "profile");
}

static void
show_live_edge (FcWindow *self)
{
  gint64 begin, end;

  self->live_edge_pending = FALSE;
  fc_session_get_thread_range (self->session, &begin, &end);
  self->setting_range = TRUE;
  fc_session_set_visible_range (self->session, MAX (begin, end - FC_SESSION_LIVE_WINDOW_NS), end);
  self->setting_range = FALSE;
}

/* The flamechart has the grown profile's layout: now is the time to follow. */
static void
live_layout_cb (FcWindow *self)
{
  FcFlameLayout *layout = fc_flame_view_get_layout (FC_FLAME_VIEW (self->flame_chart));

  if (self->live_edge_pending && self->following && layout != NULL &&
      fc_flame_layout_get_profile (layout) == fc_session_get_profile (self->session))
    show_live_edge (self);
}

/**
 * fc_window_record_show_grown:
 * @self: a window
 *
 * The session's live profile grew: views reload and, when following, the
 * flamechart moves to the live edge once it has the grown layout (moving
 * first would draw the old layout at the new place, then draw again).
 */
void
fc_window_record_show_grown (FcWindow *self)
{
  g_return_if_fail (FC_IS_WINDOW (self));

  /* a layout that never came (a thread without samples): follow now */
  if (self->live_edge_pending && self->following)
    show_live_edge (self);
  self->live_edge_pending = self->following;
  self->setting_range = TRUE;
  fc_session_profile_grew (self->session, FALSE);
  self->setting_range = FALSE;
}

static void
live_update_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  fc_profile_follower_update (task_data);
  g_task_return_boolean (task, TRUE);
}

static void
live_updated_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(FcWindow) self = g_weak_ref_get (weak);
  FcProfile *view;

  g_weak_ref_clear (weak);
  g_free (weak);
  /* the window went meanwhile: a worker's update never keeps it */
  if (self == NULL)
    return;
  self->live_updating = FALSE;
  /* stopped, or another recording, meanwhile */
  if (self->recording == NULL || g_task_get_task_data (G_TASK (result)) != fc_recording_get_follower (self->recording) ||
      self->record_stopping || fc_recording_get_stopped (self->recording))
    return;

  view = live_view (self);
  if (fc_session_get_profile (self->session) != view)
    {
      if (fc_profile_get_n_samples (view) > 0)
        show_profile (self);
      return;
    }
  fc_window_record_show_grown (self);
}

static gboolean
live_tick_cb (gpointer user_data)
{
  FcWindow *self = user_data;
  FcRecorder *recorder = fc_recording_get_recorder (self->recording);
  guint n_samples = fc_recorder_get_n_samples (recorder);

  /* one update at a time; a tick that finds one under way leaves it to the next */
  if (!self->live_updating && n_samples != self->live_n_samples)
    {
      g_autoptr(GTask) task = NULL;
      GWeakRef *weak = g_new0 (GWeakRef, 1);

      g_weak_ref_init (weak, self);
      self->live_n_samples = n_samples;
      self->live_updating = TRUE;
      task = g_task_new (NULL, NULL, live_updated_cb, weak);
      g_task_set_task_data (task, fc_profile_follower_ref (fc_recording_get_follower (self->recording)),
                            (GDestroyNotify) fc_profile_follower_unref);
      g_task_run_in_thread (task, live_update_thread);
    }
  if (self->transaction_span != 0 && showing_live (self))
    update_live_spans (self);
  fc_window_record_show_status (self);
  return G_SOURCE_CONTINUE;
}

static gboolean
at_live_edge (FcWindow *self)
{
  gint64 begin, end;

  fc_session_get_thread_range (self->session, &begin, &end);
  return fc_session_get_visible_end_ns (self->session) == end &&
         fc_session_get_visible_begin_ns (self->session) == MAX (begin, end - FC_SESSION_LIVE_WINDOW_NS);
}

/* The user zoomed or panned: stop following the live edge until Follow. */
static void
visible_range_cb (FcWindow *self)
{
  if (self->setting_range || self->recording == NULL || fc_recording_get_stopped (self->recording) ||
      !self->following || at_live_edge (self))
    return;
  self->following = FALSE;
  fc_window_record_update_controls (self);
}

/* Another thread while recording: its live edge, whatever the switch did to
 * the visible range (it shows the new thread's whole range). */
static void
thread_cb (FcWindow *self)
{
  if (self->recording == NULL || fc_recording_get_stopped (self->recording) || self->record_stopping ||
      !showing_live (self))
    return;
  /* not the default the live view opened on: Stop keeps it */
  if (!self->setting_range)
    self->thread_chosen = TRUE;
  fc_window_record_follow (self);
}

void
fc_window_record_follow (FcWindow *self)
{
  g_return_if_fail (FC_IS_WINDOW (self));

  self->following = TRUE;
  if (showing_live (self))
    {
      self->setting_range = TRUE;
      fc_session_profile_grew (self->session, TRUE);
      self->setting_range = FALSE;
    }
  fc_window_record_update_controls (self);
}

static void
profiling_cb (FcWindow    *self,
              GParamSpec  *pspec,
              FcRecording *recording)
{
  /* also while begin() starts it, before it is the window's */
  if (recording != self->recording)
    return;
  fc_window_record_update_controls (self);
  fc_window_record_show_status (self);
  if (self->recording != NULL)
    gtk_toggle_button_set_active (self->profiling_button, fc_recording_get_profiling (self->recording));
}

static void
warning_cb (FcWindow   *self,
            const char *message)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_timeout (toast, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* what sending while recording came to; what waits is in the outbox */
static void
show_send_outcome (FcWindow   *self,
                   const char *text,
                   gboolean    waiting)
{
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_timeout (toast, waiting ? 0 : 8);
  if (waiting)
    {
      adw_toast_set_button_label (toast, _("_Outbox"));
      adw_toast_set_action_name (toast, "win.show-outbox");
    }
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
target_exited_cb (FcWindow *self,
                  int       status)
{
  /* a launched command that ends ends its recording; the window stays on it */
  if (!fc_recording_get_stopped (self->recording) && !self->record_stopping)
    fc_window_stop_recording (self, FALSE);
}

/* The last samples go into the view on a worker (it may be far behind on a
 * loaded machine); the recording's live copy is then finished. */
static void
final_update_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  fc_profile_follower_update (fc_recording_get_follower (task_data));
  g_task_return_boolean (task, TRUE);
}

static void
final_update_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  FcWindow *self = FC_WINDOW (object);
  FcRecording *recording = g_task_get_task_data (G_TASK (result));
  FcProfile *profile;

  /* a new recording started in this window meanwhile: it is what is shown */
  if (recording != self->recording)
    return;
  profile = fc_profile_follower_finish (fc_recording_get_follower (recording));
  if (fc_profile_get_n_samples (profile) == 0)
    {
      if (fc_session_get_document (self->session) == NULL ||
          fc_document_get_n_profiles (fc_session_get_document (self->session)) == 0)
        gtk_stack_set_visible_child_name (self->main_stack, "empty");
      return;
    }
  /* the chunks as written and sent: Send, Save and Export start from them;
   * on the thread the user chose, else on the busiest of the whole recording */
  if (self->thread_chosen)
    fc_session_set_document_keep_thread (self->session, fc_recording_get_document (recording), profile);
  else
    fc_session_set_document_full (self->session, fc_recording_get_document (recording), profile);
  if (self->following)
    fc_session_reset_view (self->session);
  update_live_spans (self);
  gtk_stack_set_visible_child_name (self->main_stack, "profile");
}

static void
stopped_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(FcWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcFlushReport) report = NULL;
  GApplication *app = g_application_get_default ();
  FcSender *sender = NULL;
  GTask *task;

  if (!fc_recording_stop_finish (FC_RECORDING (object), result, &report, &error))
    warning_cb (self, error->message);
  else if (report != NULL)
    {
      g_autofree char *text = NULL;

      g_object_get (object, "sender", &sender, NULL);
      text = g_strstrip (fc_transport_describe_report (fc_sender_get_transport (sender), report));
      g_clear_object (&sender);
      show_send_outcome (self, text, !fc_flush_report_all_delivered (report));
    }
  self->record_stopping = FALSE;
  self->record_stopped_us = g_get_monotonic_time ();
  g_clear_handle_id (&self->live_source, g_source_remove);
  fc_window_record_show_status (self);
  fc_window_record_update_controls (self);

  if (self->close_after_stop)
    {
      gtk_window_destroy (GTK_WINDOW (self));
      if (app != NULL)
        g_application_release (app);
      return;
    }

  /* the full recording, merged by function, stays open in this window */
  task = g_task_new (self, NULL, final_update_cb, NULL);
  g_task_set_task_data (task, g_object_ref (self->recording), g_object_unref);
  g_task_run_in_thread (task, final_update_thread);
  g_object_unref (task);
}

/**
 * fc_window_stop_recording:
 * @self: a window
 * @end_program: also end a launched command (SIGTERM)
 *
 * Stops and releases the target, without blocking the main loop; the
 * recording stays open in the window. An attached process keeps running, as
 * does a launched command unless @end_program.
 */
void
fc_window_stop_recording (FcWindow *self,
                          gboolean  end_program)
{
  g_return_if_fail (FC_IS_WINDOW (self));

  if (self->recording == NULL || self->record_stopping || fc_recording_get_stopped (self->recording))
    return;
  if (end_program)
    fc_recording_terminate_target (self->recording);
  self->record_stopping = TRUE;
  fc_window_record_update_controls (self);
  fc_window_record_show_status (self);
  fc_recording_stop_async (self->recording, NULL, stopped_cb, g_object_ref (self));
}

gboolean
fc_window_is_recording (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), FALSE);

  return self->recording != NULL && !fc_recording_get_stopped (self->recording);
}

FcRecording *
fc_window_get_recording (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), NULL);

  return self->recording;
}

/* Closing while recording: the target is released first (never left
 * stopped), then the window goes. TRUE when the close must wait. */
gboolean
fc_window_record_close_request (FcWindow *self)
{
  GApplication *app = g_application_get_default ();

  if (!fc_window_is_recording (self))
    return FALSE;
  if (!self->close_after_stop)
    {
      self->close_after_stop = TRUE;
      if (app != NULL)
        g_application_hold (app);
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      fc_window_stop_recording (self, FALSE);
    }
  return TRUE;
}

static FcRecording *
new_recording (FcWindow *self)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *mode = g_settings_get_string (settings, "mode");
  g_autofree char *lifecycle = g_settings_get_string (settings, "profile-lifecycle");
  g_autofree char *release = g_settings_get_string (settings, "release");
  g_autofree char *environment = g_settings_get_string (settings, "environment");
  g_autofree char *platform = g_settings_get_string (settings, "platform");
  FcRecording *recording = fc_recording_new ();

  /* the preferences, as the CLI reads them */
  g_object_set (recording,
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
        warning_cb (self, _("Recording without sending: no DSN is set in Preferences"));
      else if ((dsn = fc_dsn_parse (dsn_text, &error)) == NULL)
        {
          g_autofree char *text = g_strdup_printf (_("Recording without sending: %s"), error->message);

          warning_cb (self, text);
        }
      else
        {
          g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
          g_autoptr(FcSender) sender = fc_sender_new (transport);

          g_object_set (recording, "sender", sender, NULL);
        }
    }
  g_signal_connect_object (recording, "warning", G_CALLBACK (warning_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (recording, "target-exited", G_CALLBACK (target_exited_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (recording, "notify::profiling", G_CALLBACK (profiling_cb), self, G_CONNECT_SWAPPED);
  return recording;
}

static gboolean
begin (FcWindow     *self,
       FcRecording  *recording,
       const char   *title,
       GError      **error)
{
  if (!fc_recording_start (recording, error))
    {
      /* released again; nothing was recorded */
      fc_recording_stop_async (recording, NULL, NULL, NULL);
      return FALSE;
    }

  g_clear_object (&self->recording);
  self->recording = g_object_ref (recording);
  g_clear_object (&self->sender);
  g_object_get (recording, "sender", &self->sender, NULL);
  if (self->sender != NULL)
    g_signal_connect_object (self->sender, "notify", G_CALLBACK (send_progress_cb), self, G_CONNECT_SWAPPED);
  fc_window_record_show_send (self);
  self->record_started_us = g_get_monotonic_time ();
  self->record_stopped_us = 0;
  self->record_stopping = FALSE;
  self->following = TRUE;
  self->thread_chosen = FALSE;
  self->live_n_samples = 0;
  self->transaction_span = 0;
  g_ptr_array_set_size (self->root_spans, 0);
  g_signal_connect_object (fc_recording_get_lifecycle (recording), "root-span-ended",
                           G_CALLBACK (root_span_ended_cb), self, G_CONNECT_SWAPPED);
  g_clear_handle_id (&self->live_source, g_source_remove);
  self->live_source = g_timeout_add (LIVE_INTERVAL_MS, live_tick_cb, self);

  g_clear_object (&self->file);
  {
    g_autofree char *subtitle = g_strdup_printf (_("pid %d"), fc_recording_get_pid (recording));

    fc_window_show_title (self, title, subtitle);
  }
  gtk_stack_set_visible_child_name (self->main_stack, "recording");
  fc_window_record_update_controls (self);
  fc_window_record_show_status (self);
  gtk_toggle_button_set_active (self->profiling_button, fc_recording_get_profiling (recording));
  return TRUE;
}

static void
show_error (FcWindow   *self,
            const char *message)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_timeout (toast, 10);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/**
 * fc_window_record_attach:
 * @self: a window
 * @pid: a running process
 * @error: where the reason goes
 *
 * Attaches to @pid with the preferences' settings and shows the recording
 * live. FALSE when attaching failed; @error names what stood in the way.
 */
gboolean
fc_window_record_attach (FcWindow  *self,
                         GPid       pid,
                         GError   **error)
{
  g_autoptr(FcRecording) recording = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *title = NULL;
  g_autofree char *comm_path = g_strdup_printf ("/proc/%d/comm", pid);
  g_autofree char *comm = NULL;

  g_return_val_if_fail (FC_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (!fc_window_is_recording (self), FALSE);

  recording = new_recording (self);
  if (!fc_recording_attach (recording, pid, &local_error))
    {
      show_error (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  self->record_spawned = FALSE;
  if (g_file_get_contents (comm_path, &comm, NULL, NULL))
    g_strstrip (comm);
  title = g_strdup (comm ? comm : _("process"));
  if (!begin (self, recording, title, &local_error))
    {
      show_error (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

/**
 * fc_window_record_spawn:
 * @self: a window
 * @argv: the command
 * @cwd: (nullable): its working directory
 * @error: where the reason goes
 *
 * Launches @argv traced and shows the recording live, until the command
 * exits or Stop; the window stays open on the recording.
 */
gboolean
fc_window_record_spawn (FcWindow           *self,
                        const char * const *argv,
                        const char         *cwd,
                        GError            **error)
{
  g_autoptr(FcRecording) recording = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *base = NULL;
  gboolean ok;

  g_return_val_if_fail (FC_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);
  g_return_val_if_fail (!fc_window_is_recording (self), FALSE);

  recording = new_recording (self);
  /* the command's directory, entered by the child after fork: never the whole app's */
  ok = fc_recording_spawn (recording, argv, cwd, &local_error);
  if (!ok)
    {
      show_error (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  self->record_spawned = TRUE;
  base = g_path_get_basename (argv[0]);
  if (!begin (self, recording, base, &local_error))
    {
      show_error (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

/* ---- the lifecycle in the window: manual start/stop, a transaction ---- */

static void
profiling_toggled_cb (FcWindow *self)
{
  FcLifecycle *lifecycle;
  gboolean want = gtk_toggle_button_get_active (self->profiling_button);

  if (self->recording == NULL || (lifecycle = fc_recording_get_lifecycle (self->recording)) == NULL ||
      fc_lifecycle_get_mode (lifecycle) != FC_PROFILE_LIFECYCLE_MANUAL ||
      want == fc_lifecycle_get_running (lifecycle))
    return;
  if (want)
    fc_lifecycle_start_profiler (lifecycle);
  else
    fc_lifecycle_stop_profiler (lifecycle);
}

static void
transaction_toggled_cb (FcWindow *self)
{
  FcLifecycle *lifecycle;

  if (self->recording == NULL || (lifecycle = fc_recording_get_lifecycle (self->recording)) == NULL)
    return;
  if (gtk_toggle_button_get_active (self->transaction_button))
    {
      const char *name = gtk_editable_get_text (GTK_EDITABLE (self->transaction_entry));

      if (self->transaction_span == 0)
        self->transaction_span = fc_lifecycle_begin_root_span (lifecycle, *name ? name : _("transaction"));
    }
  else if (self->transaction_span != 0)
    {
      /* "root-span-ended" files it */
      fc_lifecycle_end_root_span (lifecycle, self->transaction_span);
      self->transaction_span = 0;
    }
  if (showing_live (self))
    update_live_spans (self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->transaction_entry), self->transaction_span == 0);
}

void
fc_window_record_init (FcWindow *self)
{
  self->root_spans = fc_spans_new ();
  g_signal_connect_object (self->session, "notify::visible-begin-ns",
                           G_CALLBACK (visible_range_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::visible-end-ns",
                           G_CALLBACK (visible_range_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::thread",
                           G_CALLBACK (thread_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flame_chart, "notify::layout",
                           G_CALLBACK (live_layout_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profiling_button, "toggled",
                           G_CALLBACK (profiling_toggled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transaction_button, "toggled",
                           G_CALLBACK (transaction_toggled_cb), self, G_CONNECT_SWAPPED);
  fc_window_record_update_controls (self);
}

void
fc_window_record_dispose (FcWindow *self)
{
  g_clear_handle_id (&self->live_source, g_source_remove);
  /* A recording still running when the window goes without a close request
   * (tests, the app quitting): releasing the target must not wait. */
  if (self->recording != NULL && !fc_recording_get_stopped (self->recording) && !self->record_stopping)
    fc_recording_stop_async (self->recording, NULL, NULL, NULL);
  g_clear_object (&self->recording);
  g_clear_object (&self->sender);
  g_clear_pointer (&self->root_spans, g_ptr_array_unref);
}
