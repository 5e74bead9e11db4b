/* fc-record-bar.c - the bar under the header while recording: status, sending, follow, lifecycle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>

#include "fc-record-bar.h"

struct _FcRecordBar
{
  GtkBox           parent_instance;

  /* template widgets */
  GtkRevealer     *revealer;
  GtkLabel        *record_status_label;
  GtkLabel        *record_mode_label;
  GtkButton       *send_button;
  GtkLabel        *send_label;
  GtkButton       *follow_button;
  GtkBox          *lifecycle_box;
  GtkToggleButton *profiling_button;
  GtkEntry        *transaction_entry;
  GtkToggleButton *transaction_button;

  /* owned */
  FcLiveRecording *live;
};

G_DEFINE_FINAL_TYPE (FcRecordBar, fc_record_bar, GTK_TYPE_BOX)

/* Sending while recording: what the sender did so far, updated as its
 * flushes report (chunks are queued as they complete, then delivered in
 * the background). The button opens the Outbox, where waiting ones are. */
static void
show_send (FcRecordBar *self)
{
  FcSender *sender = self->live ? fc_live_recording_get_sender (self->live) : NULL;
  FcSenderProgress progress;
  g_autofree char *text = NULL;
  g_autoptr(GString) tooltip = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->send_button), sender != NULL);
  if (sender == NULL)
    return;

  fc_sender_get_progress (sender, &progress);
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
update (FcRecordBar *self)
{
  FcLiveState state = self->live ? fc_live_recording_get_state (self->live) : FC_LIVE_STATE_STOPPED;
  gboolean active = self->live != NULL && fc_live_recording_is_active (self->live);
  FcLiveEdge *edge = self->live ? fc_live_recording_get_edge (self->live) : NULL;
  gboolean following = edge == NULL || fc_live_edge_get_following (edge);

  gtk_revealer_set_reveal_child (self->revealer, self->live != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->follow_button), active && !following);
  gtk_widget_set_visible (GTK_WIDGET (self->lifecycle_box), active);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lifecycle_box), active && state != FC_LIVE_STATE_STOPPING);
  if (self->live == NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->profiling_button), fc_live_recording_is_manual (self->live));
  gtk_toggle_button_set_active (self->profiling_button, fc_live_recording_get_profiling (self->live));
  gtk_widget_set_sensitive (GTK_WIDGET (self->transaction_entry), !fc_live_recording_has_transaction (self->live));
  {
    g_autofree char *mode = NULL;
    g_autofree char *status = fc_live_recording_describe (self->live, &mode);

    gtk_label_set_text (self->record_status_label, status);
    gtk_label_set_text (self->record_mode_label, mode);
  }
  show_send (self);
}

static void
profiling_toggled_cb (FcRecordBar *self)
{
  if (self->live != NULL)
    fc_live_recording_set_profiling (self->live, gtk_toggle_button_get_active (self->profiling_button));
}

static void
transaction_toggled_cb (FcRecordBar *self)
{
  if (self->live == NULL)
    return;
  if (gtk_toggle_button_get_active (self->transaction_button))
    fc_live_recording_set_transaction (self->live, gtk_editable_get_text (GTK_EDITABLE (self->transaction_entry)));
  else
    fc_live_recording_set_transaction (self->live, NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->transaction_entry), !fc_live_recording_has_transaction (self->live));
}

void
fc_record_bar_set_live (FcRecordBar     *self,
                        FcLiveRecording *live)
{
  g_return_if_fail (FC_IS_RECORD_BAR (self));
  g_return_if_fail (live == NULL || FC_IS_LIVE_RECORDING (live));

  if (self->live == live)
    return;
  if (self->live != NULL)
    {
      FcLiveEdge *edge = fc_live_recording_get_edge (self->live);

      g_signal_handlers_disconnect_by_data (self->live, self);
      if (edge != NULL)
        g_signal_handlers_disconnect_by_data (edge, self);
    }
  g_set_object (&self->live, live);
  if (live != NULL)
    {
      FcLiveEdge *edge = fc_live_recording_get_edge (live);

      g_signal_connect_object (live, "status-changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (live, "notify::state", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
      if (edge != NULL)
        g_signal_connect_object (edge, "notify::following", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
      /* a new recording: no transaction yet */
      g_signal_handlers_block_by_func (self->transaction_button, transaction_toggled_cb, self);
      gtk_toggle_button_set_active (self->transaction_button, FALSE);
      g_signal_handlers_unblock_by_func (self->transaction_button, transaction_toggled_cb, self);
    }
  update (self);
}

GtkWidget *
fc_record_bar_get_part (FcRecordBar *self,
                        const char  *id)
{
  g_return_val_if_fail (FC_IS_RECORD_BAR (self), NULL);

  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), FC_TYPE_RECORD_BAR, id));
}

static void
fc_record_bar_dispose (GObject *object)
{
  FcRecordBar *self = FC_RECORD_BAR (object);

  fc_record_bar_set_live (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_RECORD_BAR);

  G_OBJECT_CLASS (fc_record_bar_parent_class)->dispose (object);
}

static void
fc_record_bar_class_init (FcRecordBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_record_bar_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-record-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, revealer);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, record_status_label);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, record_mode_label);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, send_button);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, send_label);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, follow_button);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, lifecycle_box);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, profiling_button);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, transaction_entry);
  gtk_widget_class_bind_template_child (widget_class, FcRecordBar, transaction_button);
}

static void
fc_record_bar_init (FcRecordBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_object (self->profiling_button, "toggled", G_CALLBACK (profiling_toggled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transaction_button, "toggled", G_CALLBACK (transaction_toggled_cb), self, G_CONNECT_SWAPPED);
}
