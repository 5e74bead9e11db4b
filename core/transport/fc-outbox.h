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
 * Layout of the outbox directory (private to its user: mode 0700):
 *   ID.envelope           an envelope waiting for delivery (IDs sort oldest first)
 *   ID.destination        where it goes, without credentials: the DSN without
 *                         its keys ("https://o1.ingest.sentry.io/42"), or the
 *                         OTLP endpoint without its user info. Written before
 *                         the envelope; entries of older versions have none.
 *   ID.note               why it is still waiting (last failure), optional
 *   rejected/ID.envelope  refused by the server (400/403/413) or invalid: kept, never retried
 *   rejected/ID.destination, rejected/ID.reason  its destination and the server's reason
 *
 * A folder that other users may write to (or that belongs to another
 * user), and entries that belong to another user, are refused: whoever can
 * put an envelope there could have it sent with your credentials.
 */

/* @dir: NULL for g_get_user_state_dir()/flamecast/outbox */
FcOutbox   *fc_outbox_new             (const char  *dir);
const char *fc_outbox_get_dir         (FcOutbox    *self);
char       *fc_outbox_dup_rejected_dir (FcOutbox   *self);

/* FALSE with G_IO_ERROR_PERMISSION_DENIED, naming the folder and the fix,
 * when the outbox folder (or rejected/) is writable by other users or
 * belongs to another user. A folder that does not exist yet is fine. */
gboolean    fc_outbox_check_folder    (FcOutbox    *self,
                                       GError     **error);
/* Stores @envelope durably for @destination (see the layout above) and returns its ID. */
char       *fc_outbox_add             (FcOutbox    *self,
                                       GBytes      *envelope,
                                       const char  *destination,
                                       GError     **error);
/* Where a waiting (or, @rejected, a rejected) envelope goes; NULL when its
 * entry records none (written by an older version). */
char       *fc_outbox_dup_destination (FcOutbox    *self,
                                       const char  *id,
                                       gboolean     rejected);
/* Gives an entry without a destination one: the user said where it goes.
 * Call it holding the claim. */
gboolean    fc_outbox_set_destination (FcOutbox    *self,
                                       const char  *id,
                                       const char  *destination,
                                       GError     **error);
/* IDs of waiting envelopes, oldest first (char*). */
GPtrArray  *fc_outbox_list            (FcOutbox    *self);
/* IDs of rejected envelopes, oldest first (char*). */
GPtrArray  *fc_outbox_list_rejected   (FcOutbox    *self);
GBytes     *fc_outbox_load            (FcOutbox    *self,
                                       const char  *id,
                                       GError     **error);
/* After a 2xx: deletes the envelope and its note. Call it holding the claim. */
gboolean    fc_outbox_remove          (FcOutbox    *self,
                                       const char  *id,
                                       GError     **error);
/* Moves the envelope to rejected/ with @reason beside it. Call it holding the claim. */
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

/*
 * Claims: a process (the app, `flamecast-cli send --flush`, another CLI run)
 * claims an entry before it sends it, and keeps the claim until the entry is
 * removed, moved aside or left waiting. The claim is an flock(2) on the
 * envelope file, so a crashed process loses its claims with it. Claims are
 * per open file description: two claims in one process also exclude each other.
 */
typedef struct _FcOutboxClaim FcOutboxClaim;

/* Fails with G_IO_ERROR_BUSY when someone else holds the claim, with
 * G_IO_ERROR_NOT_FOUND when the entry is gone (delivered or moved aside),
 * and with G_IO_ERROR_PERMISSION_DENIED when it belongs to another user. */
FcOutboxClaim *fc_outbox_claim         (FcOutbox       *self,
                                        const char     *id,
                                        GError        **error);
const char    *fc_outbox_claim_get_id  (FcOutboxClaim  *claim);
/* The claimed envelope's bytes. */
GBytes        *fc_outbox_claim_load    (FcOutboxClaim  *claim,
                                        GError        **error);
/* Gives the claim up (after fc_outbox_remove(), fc_outbox_reject() or leaving it waiting). */
void           fc_outbox_claim_release (FcOutboxClaim  *claim);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcOutboxClaim, fc_outbox_claim_release)

/*
 * What the user decides (the app's Outbox page): discarding a waiting or a
 * rejected envelope, and giving a rejected one another chance.
 */

/* Deletes a waiting envelope and its note. Fails with G_IO_ERROR_BUSY while
 * someone is sending it, G_IO_ERROR_NOT_FOUND when it is gone. */
gboolean    fc_outbox_discard          (FcOutbox    *self,
                                        const char  *id,
                                        GError     **error);
/* Deletes a rejected envelope and its reason. */
gboolean    fc_outbox_discard_rejected (FcOutbox    *self,
                                        const char  *id,
                                        GError     **error);
/* Moves a rejected envelope back into the outbox (same ID, so it keeps its
 * place in the order) for the next flush; its reason is deleted. */
gboolean    fc_outbox_requeue_rejected (FcOutbox    *self,
                                        const char  *id,
                                        GError     **error);

G_END_DECLS
