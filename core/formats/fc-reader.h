/* fc-reader.h - read V2 chunks, V1 profiles and envelopes (plain or gzip) into the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"
#include "fc-profile.h"

G_BEGIN_DECLS

typedef enum {
  FC_READ_FLAGS_NONE = 0,
  FC_READ_LENIENT    = 1 << 0,  /* recover from reference problems, record them as FcProblems in the document */
} FcReadFlags;

/* The largest input the reader accepts, compressed or not. */
#define FC_READER_MAX_SIZE (G_GUINT64_CONSTANT (1) << 30)
/* Objects and arrays nested deeper than this are rejected. */
#define FC_READER_MAX_DEPTH 64

FcDocument *fc_reader_load_file        (GFile               *file,
                                        FcReadFlags          flags,
                                        GCancellable        *cancellable,
                                        GError             **error);
FcDocument *fc_reader_load_bytes       (GBytes              *bytes,
                                        FcReadFlags          flags,
                                        GError             **error);
FcDocument *fc_reader_load_stream      (GInputStream        *stream,
                                        FcReadFlags          flags,
                                        GCancellable        *cancellable,
                                        GError             **error);
void        fc_reader_load_file_async  (GFile               *file,
                                        FcReadFlags          flags,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
FcDocument *fc_reader_load_file_finish (GAsyncResult        *result,
                                        GError             **error);

/* One V1/V2 JSON payload (e.g. an envelope item); @problems (FcProblem) may be NULL. */
FcProfile  *fc_reader_parse_payload    (const char          *data,
                                        gsize                len,
                                        FcReadFlags          flags,
                                        GPtrArray           *problems,
                                        GError             **error);

/* RFC 3339 date-time with up to 9 fractional digits -> ns since the epoch. */
gboolean    fc_reader_parse_rfc3339    (const char          *text,
                                        gint64              *out_ns);

G_END_DECLS
