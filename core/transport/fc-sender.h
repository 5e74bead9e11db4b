/* fc-sender.h - from files, chunks and root spans to validated envelopes in the outbox
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "fc-document.h"
#include "fc-root-span.h"
#include "fc-profile.h"
#include "fc-transport.h"

G_BEGIN_DECLS

/*
 * What is sent:
 *  - a V2 chunk: one envelope with one profile_chunk item (platform in the item header);
 *  - a V1 profile: one envelope with its transaction event and the profile item;
 *  - a V2 chunk sent as V1: one transaction + profile envelope per window of at
 *    most 30 s (split), or a clear error when it is longer and split is off;
 *  - a root span of a V2 recording: a transaction carrying
 *    contexts.profile.profiler_id and contexts.trace.data thread.id/thread.name
 *    so Sentry links it to the chunks;
 *  - an envelope file: as it is.
 * Everything is validated first; an invalid payload is not sent and the
 * error (FC_TRANSPORT_ERROR_INVALID) lists the validator's problems.
 */

/* Envelopes (GBytes*) for what a file holds. @original: the file's bytes,
 * sent unchanged when the document is an (uncompressed) envelope; may be NULL. */
GPtrArray  *fc_sender_envelopes_for_document (FcDocument       *document,
                                              GBytes           *original,
                                              GError          **error);
GBytes     *fc_sender_envelope_for_chunk     (FcProfile        *chunk,
                                              GError          **error);
GPtrArray  *fc_sender_v1_envelopes_for_chunk (FcProfile        *chunk,
                                              const char       *transaction_name,
                                              gboolean          split,
                                              GError          **error);
/* The transaction event for a root span of a recording whose chunks have
 * @chunk's profiler_id, platform, release and environment. */
JsonObject *fc_sender_transaction_for_span   (const FcRootSpan *span,
                                              FcProfile        *chunk,
                                              const char       *thread_id,
                                              const char       *thread_name);
GBytes     *fc_sender_transaction_envelope   (JsonObject       *event,
                                              GError          **error);

/* Problems with errors as one message: "3 problems: LOCATION: MESSAGE; ..." */
char       *fc_sender_describe_problems      (GPtrArray        *problems);

/*
 * FcSender: the live side, for `record --send` and the app. Chunks and
 * spans are turned into envelopes, put into the outbox and flushed in the
 * background on the caller's main context; fc_sender_flush_async() delivers
 * what is left and reports.
 */
#define FC_TYPE_SENDER (fc_sender_get_type ())
G_DECLARE_FINAL_TYPE (FcSender, fc_sender, FC, SENDER, GObject)

FcSender      *fc_sender_new               (FcTransport      *transport);
FcTransport   *fc_sender_get_transport     (FcSender         *self);
/* FC_FORMAT_V2 (default) or FC_FORMAT_V1 (transaction + profile per <= 30 s) */
void           fc_sender_set_format        (FcSender         *self,
                                            FcFormat          format,
                                            gboolean          split,
                                            const char       *transaction_name);
gboolean       fc_sender_add_chunk         (FcSender         *self,
                                            FcProfile        *chunk,
                                            GError          **error);
/* Queues the transaction of a sampled root span that a profile covered
 * (V2 only); other spans are dropped. Spans that end before the first chunk wait for it: the
 * transaction needs the chunk's profiler_id, platform, release, environment. */
gboolean       fc_sender_add_root_span     (FcSender         *self,
                                            const FcRootSpan *span,
                                            GError          **error);
guint          fc_sender_get_n_queued      (FcSender         *self);

/* How sending goes, as the flushes report it (see the "n-queued",
 * "n-delivered", "n-rejected" and "n-waiting" properties, notified as
 * they change). */
typedef struct {
  guint queued;     /* envelopes this sender put into the outbox */
  guint delivered;  /* accepted by Sentry (2xx) */
  guint rejected;   /* refused for good (400/403/413), kept in outbox/rejected/ */
  guint waiting;    /* after the last flush: still in the outbox (rate limited, server or network down) */
  guint pending;    /* queued and not yet delivered or rejected: on the way or waiting */
} FcSenderProgress;

void           fc_sender_get_progress      (FcSender         *self,
                                            FcSenderProgress *progress);
/* Waits for the background flushes, then flushes once more; never iterates
 * the caller's context (the background flushes complete on it). What cannot
 * go now waits in the outbox. */
void           fc_sender_flush_async       (FcSender            *self,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
FcFlushReport *fc_sender_flush_finish      (FcSender            *self,
                                            GAsyncResult        *result,
                                            GError             **error);

G_END_DECLS
