/* fc-send-dialog.h - "Send to Sentry": a preview of exactly what leaves the machine, then send
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "fc-document.h"

G_BEGIN_DECLS

#define FC_TYPE_SEND_DIALOG (fc_send_dialog_get_type ())
G_DECLARE_FINAL_TYPE (FcSendDialog, fc_send_dialog, FC, SEND_DIALOG, AdwWindow)

/* @file: where @document was read from (an envelope file is sent as it is), or NULL.
 * @toasts: where the outcome is told once the dialog has closed. */
FcSendDialog *fc_send_dialog_new            (GtkWindow       *parent,
                                             AdwToastOverlay *toasts,
                                             FcDocument      *document,
                                             GFile           *file);
/* TRUE while envelopes are built or sent (on workers and asynchronously). */
gboolean      fc_send_dialog_is_busy        (FcSendDialog    *self);
/* The page shown: "building", "no-dsn", "preview" or "sending". */
const char   *fc_send_dialog_get_page       (FcSendDialog    *self);
/* The envelopes the preview shows (GBytes*): exactly what Send sends. */
GPtrArray    *fc_send_dialog_get_envelopes  (FcSendDialog    *self);
/* What the toast said, once sending is over; NULL before. */
const char   *fc_send_dialog_get_outcome    (FcSendDialog    *self);

G_END_DECLS
