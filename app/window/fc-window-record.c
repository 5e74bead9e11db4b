/* fc-window-record.c - the window shows a live recording: controls, toasts, close while recording
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recording itself (sampler, sender, live view, spans, follow state) is
 * an FcLiveRecording; the window holds the one it shows and draws its state.
 */

#include <glib/gi18n.h>

#include "fc-window-private.h"

static void
toast (FcWindow   *self,
       const char *message,
       guint       timeout)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_timeout (toast, timeout);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
warning_cb (FcWindow   *self,
            const char *message)
{
  toast (self, message, 8);
}

/* what sending while recording came to; what waits is in the outbox */
static void
send_outcome_cb (FcWindow   *self,
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
profile_shown_cb (FcWindow *self,
                  gboolean  shown)
{
  if (shown)
    gtk_stack_set_visible_child_name (self->main_stack, "profile");
  else if (fc_session_get_document (self->session) == NULL ||
           fc_document_get_n_profiles (fc_session_get_document (self->session)) == 0)
    gtk_stack_set_visible_child_name (self->main_stack, "empty");
}

static void
update_controls (FcWindow *self)
{
  FcLiveState state = self->live ? fc_live_recording_get_state (self->live) : FC_LIVE_STATE_STOPPED;
  gboolean active = self->live != NULL && fc_live_recording_is_active (self->live);
  gboolean stoppable = active && state != FC_LIVE_STATE_STOPPING;

  gtk_stack_set_visible_child_name (self->record_stack, active ? "stop" : "record");
  fc_window_set_action_enabled (self, "stop-recording", stoppable);
  fc_window_set_action_enabled (self, "stop-and-end", stoppable && fc_live_recording_get_spawned (self->live));
  fc_window_set_action_enabled (self, "record", !active);
}

static void
state_cb (FcWindow *self)
{
  update_controls (self);
}

/* what the window heard from the recording it showed (a close listens to its recording too) */
static void
disconnect_live (FcWindow *self)
{
  if (self->live == NULL)
    return;
  g_signal_handlers_disconnect_by_data (fc_live_recording_get_recording (self->live), self);
  g_signal_handlers_disconnect_by_data (self->live, self);
}

/* A window closed while recording goes once the target is released and what was queued sent,
 * or this long after the release: a send to a server that does not answer (each attempt waits
 * 30 s) does not keep a quit waiting. What is not delivered stays in the outbox, for the next
 * flush. */
#define CLOSE_SEND_GRACE_SECONDS 5

/* The close under way ends: the window goes (its dispose releases the application). */
static void
close_now (FcWindow *self)
{
  g_clear_handle_id (&self->close_grace_id, g_source_remove);
  gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
close_grace_cb (gpointer user_data)
{
  FcWindow *self = user_data;

  self->close_grace_id = 0;
  close_now (self);
  return G_SOURCE_REMOVE;
}

/* Closed while recording: the target is released first (never left stopped); then the send
 * has its grace, and the window goes. */
static void
close_when_stopped_cb (FcWindow *self)
{
  if (fc_live_recording_get_state (self->live) == FC_LIVE_STATE_STOPPED)
    close_now (self);
  else if (!fc_live_recording_is_active (self->live) && self->close_grace_id == 0)
    self->close_grace_id = g_timeout_add_seconds (CLOSE_SEND_GRACE_SECONDS, close_grace_cb, self);
}

/* The flamechart has the grown profile's layout: the live edge may follow. */
static void
layout_cb (FcWindow *self)
{
  FcLiveEdge *edge = self->live ? fc_live_recording_get_edge (self->live) : NULL;

  if (edge != NULL)
    fc_live_edge_layout_ready (edge, fc_flame_view_get_layout (FC_FLAME_VIEW (self->flame_chart)));
}

/**
 * fc_window_show_recording:
 * @self: a window
 * @live: a recording under way (the record dialog's)
 *
 * Shows @live, live, until it stops and after; the recording shown before
 * (stopped) is dropped.
 */
void
fc_window_show_recording (FcWindow        *self,
                          FcLiveRecording *live)
{
  g_autofree char *subtitle = NULL;
  g_autofree char *note = NULL;

  g_return_if_fail (FC_IS_WINDOW (self));
  g_return_if_fail (FC_IS_LIVE_RECORDING (live));
  g_return_if_fail (!fc_window_is_recording (self));

  disconnect_live (self);
  g_set_object (&self->live, live);
  g_signal_connect_object (live, "warning", G_CALLBACK (warning_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (live, "send-outcome", G_CALLBACK (send_outcome_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (live, "profile-shown", G_CALLBACK (profile_shown_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (live, "notify::state", G_CALLBACK (state_cb), self, G_CONNECT_SWAPPED);
  fc_live_recording_show_in (live, self->session);

  g_clear_object (&self->file);
  fc_window_show_title (self, fc_live_recording_get_title (live), fc_live_recording_get_subtitle (live));
  gtk_stack_set_visible_child_name (self->main_stack, "recording");
  fc_record_bar_set_live (self->record_bar, live);
  update_controls (self);
  /* recorded through flamecast-helper, or in another mode than asked: say so */
  note = fc_recorder_dup_access_note (fc_recording_get_recorder (fc_live_recording_get_recording (live)));
  if (note != NULL)
    toast (self, note, 10);
}

static gboolean
show_started (FcWindow         *self,
              FcLiveRecording  *live,
              GError           *local_error,
              GError          **error)
{
  if (live == NULL)
    {
      toast (self, local_error->message, 10);
      g_propagate_error (error, local_error);
      return FALSE;
    }
  fc_window_show_recording (self, live);
  g_object_unref (live);
  return TRUE;
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
  GError *local_error = NULL;
  FcLiveRecording *live;

  g_return_val_if_fail (FC_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (!fc_window_is_recording (self), FALSE);

  live = fc_live_recording_attach (pid, &local_error);
  return show_started (self, live, local_error, error);
}

static void
live_attached_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FcWindow *self = g_task_get_source_object (task);
  GError *error = NULL;
  FcLiveRecording *live = fc_live_recording_attach_finish (result, &error);

  if (live != NULL && fc_window_is_recording (self))
    {
      /* another recording started here meanwhile: this one is not shown, and ends */
      fc_live_recording_stop (live, FALSE);
      g_clear_object (&live);
      g_set_error (&error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED, _("This window started another recording"));
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      return;
    }
  {
    GError *shown = NULL;

    if (show_started (self, live, error, &shown))
      g_task_return_boolean (task, TRUE);
    else
      g_task_return_error (task, shown);
  }
}

/**
 * fc_window_record_attach_async:
 * @self: a window
 * @pid: a running process
 * @cancellable: (nullable): ends the wait for polkit's answer
 * @callback: called once the recording is shown, or its refusal toasted
 * @user_data: for @callback
 *
 * fc_window_record_attach() that never blocks the window: a process this
 * user may not record is opened through flamecast-helper, and polkit's
 * question (a password dialog) is asked off the main loop.
 */
void
fc_window_record_attach_async (FcWindow           *self,
                               GPid                pid,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  GTask *task;

  g_return_if_fail (FC_IS_WINDOW (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_window_record_attach_async);
  fc_live_recording_attach_async (pid, cancellable, live_attached_cb, task);
}

gboolean
fc_window_record_attach_finish (FcWindow     *self,
                                GAsyncResult *result,
                                GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
  GError *local_error = NULL;
  FcLiveRecording *live;

  g_return_val_if_fail (FC_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);
  g_return_val_if_fail (!fc_window_is_recording (self), FALSE);

  live = fc_live_recording_spawn (argv, cwd, &local_error);
  return show_started (self, live, local_error, error);
}

void
fc_window_stop_recording (FcWindow *self,
                          gboolean  end_program)
{
  g_return_if_fail (FC_IS_WINDOW (self));

  if (self->live != NULL)
    fc_live_recording_stop (self->live, end_program);
}

gboolean
fc_window_is_recording (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), FALSE);

  return self->live != NULL && fc_live_recording_is_active (self->live);
}

FcLiveRecording *
fc_window_get_live_recording (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), NULL);

  return self->live;
}

FcRecording *
fc_window_get_recording (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), NULL);

  return self->live ? fc_live_recording_get_recording (self->live) : NULL;
}

void
fc_window_record_follow (FcWindow *self)
{
  g_return_if_fail (FC_IS_WINDOW (self));

  if (self->live != NULL && fc_live_recording_get_edge (self->live) != NULL)
    fc_live_edge_follow (fc_live_recording_get_edge (self->live));
}

/* TRUE when the close must wait for the target to be released. */
gboolean
fc_window_record_close_request (FcWindow *self)
{
  GApplication *app = g_application_get_default ();

  /* A close under way stays under way: a second Quit or SIGTERM while the recording stops or
   * sends must not destroy the window past its close, which left the application held with
   * no window, forever. */
  if (self->closing)
    return TRUE;
  if (!fc_window_is_recording (self))
    return FALSE;
  self->closing = TRUE;
  if (app != NULL)
    {
      self->close_hold = g_object_ref (app);
      g_application_hold (app);
    }
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  /* the state says when all is done; the recording when its target is released */
  g_signal_connect_object (self->live, "notify::state", G_CALLBACK (close_when_stopped_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (fc_live_recording_get_recording (self->live), "notify::stopped",
                           G_CALLBACK (close_when_stopped_cb), self, G_CONNECT_SWAPPED);
  fc_live_recording_stop (self->live, FALSE);
  return TRUE;
}

void
fc_window_record_init (FcWindow *self)
{
  g_signal_connect_object (self->flame_chart, "notify::layout", G_CALLBACK (layout_cb), self, G_CONNECT_SWAPPED);
  update_controls (self);
}

void
fc_window_record_dispose (FcWindow *self)
{
  g_clear_handle_id (&self->close_grace_id, g_source_remove);
  disconnect_live (self);
  /* a recording still running goes with the window: its target is released */
  g_clear_object (&self->live);
  /* however the window goes (its close, or destroyed by someone else during it), the
   * application held for the close is let go */
  if (self->close_hold != NULL)
    {
      g_application_release (self->close_hold);
      g_clear_object (&self->close_hold);
    }
}
