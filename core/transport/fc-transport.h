/* fc-transport.h - deliver envelopes to Sentry through the outbox, honouring rate limits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-dsn.h"
#include "fc-outbox.h"
#include "fc-rate-limits.h"

G_BEGIN_DECLS

/* Bodies above this size are sent gzip-compressed (like profiling-node). */
#define FC_TRANSPORT_GZIP_THRESHOLD (32 * 1024)
/* The most of an answer that is read: Relay answers a few hundred bytes; a
 * server that sends gigabytes is not read further. */
#define FC_TRANSPORT_MAX_ANSWER 65536

/* Where one envelope this flush handled ended. */
typedef enum {
  FC_ENVELOPE_DELIVERED,  /* 2xx: removed from the outbox */
  FC_ENVELOPE_REJECTED,   /* moved to outbox/rejected/ */
  FC_ENVELOPE_WAITING,    /* still in the outbox, to be tried again */
  FC_ENVELOPE_BUSY,       /* another process was sending it */
} FcEnvelopeFate;

typedef struct
{
  char           *id;     /* its outbox ID */
  FcEnvelopeFate  fate;
  char           *why;    /* the server's reason, the note, a partial success; NULL when delivered cleanly */
} FcEnvelopeOutcome;

/* What one flush of the outbox did. */
typedef struct
{
  guint      delivered;   /* 2xx: removed from the outbox */
  guint      rejected;    /* 400/403/413 or malformed: moved to outbox/rejected/ */
  guint      waiting;     /* still in the outbox: rate limited, server or network down */
  guint      busy;        /* skipped: another process was sending them (not an error) */
  guint      attempts;    /* HTTP requests made, retries included */
  guint      partial;     /* OTLP: delivered, but the receiver rejected some profiles (partial_success) */
  GPtrArray *messages;    /* char*, one line per envelope not delivered: "ID: why" */
  guint      elsewhere;   /* for other destinations (another DSN or endpoint): not sent by this flush */
  GPtrArray *elsewhere_by_destination;  /* char*: "2 for https://o1.ingest.sentry.io/43" */
  guint      unaddressed; /* without a destination (older versions): not sent, see fc_transport_set_send_unaddressed() */
  guint      foreign;     /* belonging to another user: refused */
  GPtrArray *outcomes;    /* FcEnvelopeOutcome*, one per envelope delivered, rejected, left waiting or busy, in the order handled */
} FcFlushReport;

#define FC_TYPE_FLUSH_REPORT (fc_flush_report_get_type ())
GType          fc_flush_report_get_type        (void) G_GNUC_CONST;
FcFlushReport *fc_flush_report_ref             (FcFlushReport *report);
void           fc_flush_report_unref           (FcFlushReport *report);
gboolean       fc_flush_report_all_delivered   (const FcFlushReport *report);
/* The outcome of the envelope with outbox ID @id, or NULL when this flush
 * did not handle it (for another destination, or gone before it got to it). */
const FcEnvelopeOutcome *fc_flush_report_find_outcome (const FcFlushReport *report,
                                                       const char          *id);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcFlushReport, fc_flush_report_unref)

/* Wall-clock microseconds, replaceable by tests. */
typedef gint64 (*FcClockFunc) (gpointer user_data);


#define FC_TYPE_TRANSPORT (fc_transport_get_type ())
G_DECLARE_FINAL_TYPE (FcTransport, fc_transport, FC, TRANSPORT, GObject)

/* Called before waiting @delay_ms (backoff, or the server's Retry-After when
 * longer) to retry envelope @id; returns how long to really wait. Tests use it
 * to see the delay chosen, move their clock and not sleep. */
typedef guint (*FcRetryWaitFunc) (FcTransport *self,
                                  const char  *id,
                                  guint        delay_ms,
                                  gpointer     user_data);

/* @outbox, @rate_limits: NULL for the defaults in the user's state dir */
FcTransport   *fc_transport_new                (FcDsn          *dsn,
                                                FcOutbox       *outbox,
                                                FcRateLimits   *rate_limits);
/*
 * An OpenTelemetry target: entries of @outbox (NULL: $XDG_STATE_HOME/
 * flamecast/otlp-outbox) are ExportProfilesServiceRequest bodies, posted to
 * @url as application/x-protobuf with @headers ("name", "value", ...,
 * NULL). The same promises as for Sentry: retries with backoff on 5xx, 429
 * and network errors (at least the Retry-After), 400/403/413 kept aside with
 * the receiver's google.rpc.Status message, a partial_success reported in
 * report->partial and its messages. No DSN, no Sentry rate limits.
 */
FcTransport   *fc_transport_new_otlp           (const char     *url,
                                                const char * const *headers,
                                                FcOutbox       *outbox);
/* the OTLP URL, or NULL for a Sentry transport */
const char    *fc_transport_get_otlp_url       (FcTransport    *self);
/* NULL for an OTLP transport */
FcDsn         *fc_transport_get_dsn            (FcTransport    *self);
/* Where this transport sends, as the outbox records it (no credentials):
 * its flushes send only the entries recorded for it. */
const char    *fc_transport_get_destination    (FcTransport    *self);
/* The DSN or endpoint with its credentials masked, for messages. */
const char    *fc_transport_get_masked_target  (FcTransport    *self);
/* Entries of versions that did not record destinations are not sent to a
 * guessed project: with @send, the user says they go to this transport's
 * destination, which is recorded for them as they are sent. */
void           fc_transport_set_send_unaddressed (FcTransport  *self,
                                                  gboolean      send);
FcOutbox      *fc_transport_get_outbox         (FcTransport    *self);

/* Up to @max_attempts requests per envelope for 5xx and network errors,
 * waiting @first_delay_ms, then twice as long each time (default 3, 1000 ms),
 * or as long as a 503's Retry-After says when that is longer. A Retry-After
 * beyond a minute leaves the envelope waiting for a later flush. */
void           fc_transport_set_retry_policy   (FcTransport    *self,
                                                guint           max_attempts,
                                                guint           first_delay_ms);
/* Seconds a request may take in all, connecting, sending and reading the
 * answer, before it counts as a network error (default 30). */
void           fc_transport_set_timeout        (FcTransport    *self,
                                                guint           seconds);
void           fc_transport_set_clock          (FcTransport    *self,
                                                FcClockFunc     clock,
                                                gpointer        user_data);
/* NULL: wait as long as chosen. */
void           fc_transport_set_retry_wait_func (FcTransport   *self,
                                                 FcRetryWaitFunc func,
                                                 gpointer        user_data);

/* Writes @envelope to the outbox; it is sent by the next flush. Returns its outbox ID. */
char          *fc_transport_enqueue            (FcTransport    *self,
                                                GBytes         *envelope,
                                                GError        **error);

/* Delivers what waits in the outbox for this transport's destination,
 * oldest first; entries for other destinations are counted, not sent.
 * Envelopes added while a flush runs are included; a second call while one
 * runs joins it. Each envelope is claimed (fc_outbox_claim()) while it is
 * sent: one that another process is sending is skipped and counted in
 * report->busy. Fails only when cancelled or when the outbox cannot be used
 * (fc_outbox_check_folder()): delivery problems are in the report. */
void           fc_transport_flush_async        (FcTransport    *self,
                                                GCancellable   *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer        user_data);
FcFlushReport *fc_transport_flush_finish       (FcTransport    *self,
                                                GAsyncResult   *result,
                                                GError        **error);
/* Blocking: the same asynchronous path, run on a private main context. */
FcFlushReport *fc_transport_flush              (FcTransport    *self,
                                                GCancellable   *cancellable,
                                                GError        **error);

/* One call for the app's "send": stores @envelope in the outbox from a
 * worker thread, then flushes (so older envelopes go first). */
void           fc_transport_send_async         (FcTransport    *self,
                                                GBytes         *envelope,
                                                GCancellable   *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer        user_data);
FcFlushReport *fc_transport_send_finish        (FcTransport    *self,
                                                GAsyncResult   *result,
                                                GError        **error);

/* What a flush did, for people: delivered, rejected (and where they are
 * kept), waiting (and why), one line each, ending with a newline. */
char          *fc_transport_describe_report    (FcTransport         *self,
                                                const FcFlushReport *report);

/* Rate-limit categories of an envelope's items (deduplicated, char*), or
 * NULL with FC_FORMAT_ERROR_ENVELOPE when its framing is broken. */
GPtrArray     *fc_envelope_dup_categories      (GBytes         *envelope,
                                                GError        **error);

G_END_DECLS
