/* fc-outbox.h - envelopes waiting to be delivered, on disk so nothing is lost
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define FC_TYPE_OUTBOX (fc_outbox_get_type ())
G_DECLARE_FINAL_TYPE (FcOutbox, fc_outbox, FC, OUTBOX, GObject)

/*
 * Layout of the outbox directory:
 *   ID.envelope           an envelope waiting for delivery (IDs sort oldest first)
 *   ID.note               why it is still waiting (last failure), optional
 *   rejected/ID.envelope  refused by the server (400/403/413) or invalid: kept, never retried
 *   rejected/ID.reason    the server's reason
 */

/* @dir: NULL for g_get_user_state_dir()/flamecast/outbox */
FcOutbox   *fc_outbox_new             (const char  *dir);
const char *fc_outbox_get_dir         (FcOutbox    *self);
char       *fc_outbox_dup_rejected_dir (FcOutbox   *self);

/* Stores @envelope durably and returns its ID. */
char       *fc_outbox_add             (FcOutbox    *self,
                                       GBytes      *envelope,
                                       GError     **error);
/* IDs of waiting envelopes, oldest first (char*). */
GPtrArray  *fc_outbox_list            (FcOutbox    *self);
/* IDs of rejected envelopes, oldest first (char*). */
GPtrArray  *fc_outbox_list_rejected   (FcOutbox    *self);
GBytes     *fc_outbox_load            (FcOutbox    *self,
                                       const char  *id,
                                       GError     **error);
/* After a 2xx: deletes the envelope and its note. */
gboolean    fc_outbox_remove          (FcOutbox    *self,
                                       const char  *id,
                                       GError     **error);
/* Moves the envelope to rejected/ with @reason beside it. */
gboolean    fc_outbox_reject          (FcOutbox    *self,
                                       const char  *id,
                                       const char  *reason,
                                       GError     **error);
/* Why a waiting envelope has not gone yet; NULL note removes it. */
void        fc_outbox_set_note        (FcOutbox    *self,
                                       const char  *id,
                                       const char  *note);
char       *fc_outbox_dup_note        (FcOutbox    *self,
                                       const char  *id);
char       *fc_outbox_dup_rejected_reason (FcOutbox *self,
                                           const char *id);

G_END_DECLS
