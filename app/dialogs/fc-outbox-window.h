/* fc-outbox-window.h - what waits in the outbox and what Sentry rejected: retry, discard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "fc-outbox.h"

G_BEGIN_DECLS

#define FC_TYPE_OUTBOX_WINDOW (fc_outbox_window_get_type ())
G_DECLARE_FINAL_TYPE (FcOutboxWindow, fc_outbox_window, FC, OUTBOX_WINDOW, AdwWindow)

/* @outbox: NULL for the user's default outbox */
FcOutboxWindow *fc_outbox_window_new      (GtkWindow      *parent,
                                           FcOutbox       *outbox);
/* Lists the outbox again (on a worker); also done every few seconds. */
void            fc_outbox_window_refresh  (FcOutboxWindow *self);
/* TRUE while listing, retrying or discarding. */
gboolean        fc_outbox_window_is_busy  (FcOutboxWindow *self);
/* The row of an outbox ID (waiting or rejected), NULL when not listed. */
AdwActionRow   *fc_outbox_window_get_row  (FcOutboxWindow *self,
                                           const char     *id);

G_END_DECLS
