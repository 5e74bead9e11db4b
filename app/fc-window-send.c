/* fc-window-send.c - the window's actions for sending, the outbox, saving and exporting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kept apart from fc-window-actions.c: the dialogs they open live in their
 * own files, and the window only hands them its document and toast overlay.
 */

#include <glib/gi18n.h>

#include "fc-outbox-window.h"
#include "fc-send-dialog.h"
#include "fc-window-private.h"

static void
send_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  FcWindow *self = user_data;
  FcDocument *document = fc_session_get_document (self->session);
  FcSendDialog *dialog;

  if (document == NULL)
    return;

  dialog = fc_send_dialog_new (GTK_WINDOW (self), self->toast_overlay, document, self->file);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_outbox_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  FcWindow *self = user_data;

  gtk_window_present (GTK_WINDOW (fc_outbox_window_new (GTK_WINDOW (self), NULL)));
}

static const GActionEntry send_entries[] = {
  { .name = "send", .activate = send_action },
  { .name = "show-outbox", .activate = show_outbox_action },
};

static void
session_document_cb (FcWindow   *self,
                     GParamSpec *pspec,
                     FcSession  *session)
{
  gboolean has_document = fc_session_get_document (session) != NULL;

  fc_window_set_action_enabled (self, "send", has_document);
}

void
fc_window_init_send_actions (FcWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), send_entries, G_N_ELEMENTS (send_entries), self);
  g_signal_connect_object (self->session, "notify::document",
                           G_CALLBACK (session_document_cb), self, G_CONNECT_SWAPPED);
  session_document_cb (self, NULL, self->session);
}
