/* fc-envelope.h - Sentry envelopes: framing, checking and writing, for every reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "fc-document.h"
#include "fc-read-limits.h"

G_BEGIN_DECLS

/*
 * Envelope = Headers "\n" { ItemHeaders "\n" Payload "\n" }   (final newline optional)
 *
 * Every header is one line of compact JSON. With "length" the payload is
 * exactly that many bytes followed by "\n" or the end (anything else is an
 * error, as in Relay); without it the payload runs to the next "\n". White
 * space between items is skipped.
 */

/* The largest input read, decompressed. */
#define FC_ENVELOPE_MAX_SIZE     FC_READ_MAX_SIZE
/* The longest header line. */
#define FC_ENVELOPE_MAX_HEADER   (1024 * 1024)
/* FcEnvelopeItemHeader.length of an item header without "length" */
#define FC_ENVELOPE_NO_LENGTH    G_MAXUINT64

typedef gboolean (*FcEnvelopeSink) (gpointer       user_data,
                                    const guint8  *data,
                                    gsize          len,
                                    GError       **error);

typedef struct {
  guint       index;    /* 1-based */
  JsonObject *header;   /* owned */
  const char *type;     /* in header */
  guint64     length;   /* or FC_ENVELOPE_NO_LENGTH */
  char       *what;     /* "envelope item 2" */
  char       *where;    /* "envelope item 2 (profile): ", the prefix of payload errors */
} FcEnvelopeItemHeader;

void fc_envelope_item_header_clear (FcEnvelopeItemHeader *item);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FcEnvelopeItemHeader, fc_envelope_item_header_clear)

/* A byte source read in 64 KiB blocks, never held whole. */
typedef struct _FcEnvelopeInput FcEnvelopeInput;

/* @compressed: @stream decompresses gzip, so that its errors are reported as broken data */
FcEnvelopeInput *fc_envelope_input_new           (GInputStream          *stream,
                                                  gboolean               compressed,
                                                  GCancellable          *cancellable);
FcEnvelopeInput *fc_envelope_input_new_for_bytes (GBytes                *bytes);
void             fc_envelope_input_free          (FcEnvelopeInput       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcEnvelopeInput, fc_envelope_input_free)
/* What the document read from this input has used of the readers' limits:
 * the headers count against it, and so should the items' readers. */
FcReadBudget    *fc_envelope_input_get_budget    (FcEnvelopeInput       *self);
/* Moves the problems found in headers (a key given twice) to @problems (FcProblem). */
void             fc_envelope_input_take_problems (FcEnvelopeInput       *self,
                                                  GPtrArray             *problems);

/* Reads the first block (up to 64 KiB) and shows it, nothing consumed: for
 * telling formats apart by their first bytes. */
gboolean    fc_envelope_input_peek         (FcEnvelopeInput       *self,
                                            const guint8         **data,
                                            gsize                 *len,
                                            GError               **error);
/* Reads the first block, skips a UTF-8 byte order mark and white space;
 * an error when nothing else is there. */
gboolean    fc_envelope_input_start        (FcEnvelopeInput       *self,
                                            GError               **error);
/* The envelope header: the first line, a JSON object. */
JsonObject *fc_envelope_input_read_header  (FcEnvelopeInput       *self,
                                            GError               **error);
/* For input of unknown kind: when the first line is a whole JSON object and
 * more follows it, consumes that line and returns it; else NULL, nothing
 * consumed (a pretty-printed payload's first line is just "{"). */
JsonObject *fc_envelope_input_sniff_header (FcEnvelopeInput       *self);
/* The next item header into @item; *@at_end when no item is left. */
gboolean    fc_envelope_input_next_item    (FcEnvelopeInput       *self,
                                            FcEnvelopeItemHeader  *item,
                                            gboolean              *at_end,
                                            GError               **error);
/* Hands @item's payload to @sink (NULL skips it) and consumes the newline after it. */
gboolean    fc_envelope_input_read_payload (FcEnvelopeInput       *self,
                                            FcEnvelopeItemHeader  *item,
                                            FcEnvelopeSink         sink,
                                            gpointer               user_data,
                                            GError               **error);
/* The next item and its whole payload (at most the item's length, which the
 * input bounds); FALSE at the end (error unset) or when the framing is broken. */
gboolean    fc_envelope_input_next_payload (FcEnvelopeInput       *self,
                                            FcEnvelopeItemHeader  *item,
                                            GByteArray           **payload,
                                            GError               **error);
/* TRUE for the item types whose payload is a JSON object: profile,
 * profile_chunk, transaction, event. */
gboolean    fc_envelope_item_is_json       (const char            *type);
/* Hands everything left to @sink (a bare payload). */
gboolean    fc_envelope_input_read_to_end  (FcEnvelopeInput       *self,
                                            FcEnvelopeSink         sink,
                                            gpointer               user_data,
                                            GError               **error);

/* An envelope header: @existing's members, then what is missing of event_id
 * (@event_id, or a new UUID v4: SDKs give every envelope one), sent_at
 * (@sent_at_ns, or now when 0) and sdk. */
JsonObject *fc_envelope_header_new         (JsonObject            *existing,
                                            const char            *event_id,
                                            gint64                 sent_at_ns);
/* Appends the envelope header line. */
void        fc_envelope_append_header      (GByteArray            *buf,
                                            JsonObject            *header);
/* Appends an item: a copy of @item_header with "length" set, then the payload and "\n". */
void        fc_envelope_append_item        (GByteArray            *buf,
                                            JsonObject            *item_header,
                                            const guint8          *payload,
                                            gsize                  len);

/* Envelope rules Relay applies to a read envelope, as FcProblems: its
 * header (event_id, sent_at, sdk), at most one profile item, exactly one
 * transaction with a V1 profile; @strict makes the recommended ones errors. */
void        fc_envelope_check              (FcDocument            *document,
                                            gboolean               strict,
                                            GPtrArray             *problems);

G_END_DECLS
