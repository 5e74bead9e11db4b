/* fc-writer.h - Sentry JSON out of the model: V2 chunks, V1 profiles, envelopes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "fc-document.h"
#include "fc-profile.h"

G_BEGIN_DECLS

/*
 * Output is stable: the same model always gives the same bytes. Object keys
 * are sorted, threads come in thread-table order, samples in time order
 * (stable), stacks in order of first use by the samples and frames in order
 * of first use by those stacks. Only stacks and frames that samples use are
 * written, and thread_metadata only for threads that have samples.
 *
 * Metadata the model does not interpret (top-level keys, unknown keys of
 * profile{}, frames, samples and threads) is written back as read.
 * V1 thread ids are written in decimal ("0x1f" as "31"), as Relay wants.
 * "version" always matches the format, and "client_sdk" names Flamecast:
 * whoever writes the payload is its client. FC_WRITE_KEEP_CLIENT_SDK keeps
 * the profile's own client_sdk instead (lossless round trips).
 */

typedef enum {
  FC_WRITE_FLAGS_NONE      = 0,
  FC_WRITE_KEEP_CLIENT_SDK = 1 << 0,
} FcWriteFlags;

/* in the profile's own format (V1 or V2) */
GBytes *fc_writer_write_profile        (FcProfile     *profile,
                                        GError       **error);
GBytes *fc_writer_write_profile_full   (FcProfile     *profile,
                                        FcWriteFlags   flags,
                                        GError       **error);
GBytes *fc_writer_write_v2             (FcProfile     *profile,
                                        GError       **error);
GBytes *fc_writer_write_v1             (FcProfile     *profile,
                                        GError       **error);

/* A whole document as one envelope: the envelope header (kept from the
 * document, completed with event_id, sent_at and sdk), its transactions,
 * its profile and its other items. An envelope carries at most one profile
 * or chunk (Relay answers 413 to two), so a document with more is refused.
 * A bare V1 profile gets its transaction event (the linked one, or a new
 * one); a bare V2 chunk becomes a profile_chunk envelope. */
GBytes *fc_writer_write_envelope       (FcDocument    *document,
                                        GError       **error);
/* as above; @sent_at_ns (0 = now) lets tests get stable bytes */
GBytes *fc_writer_write_envelope_full  (FcDocument    *document,
                                        FcWriteFlags   flags,
                                        gint64         sent_at_ns,
                                        GError       **error);
/* one profile_chunk item, its header carrying the chunk's platform; these
 * two keep a client_sdk that names an SDK (name and version): an SDK's
 * payload is sent as that SDK's */
GBytes *fc_writer_write_chunk_envelope (FcProfile     *chunk,
                                        GError       **error);
/* the transaction item, then the profile item; @transaction_event NULL
 * builds one with fc_transaction_event_new_for_profile() */
GBytes *fc_writer_write_v1_envelope    (FcProfile     *profile,
                                        JsonObject    *transaction_event,
                                        GError       **error);

/* compact JSON of any node with sorted keys, as the writers print it */
char   *fc_writer_json_to_string       (JsonNode      *node);

G_END_DECLS
