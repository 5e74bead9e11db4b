/* fc-reader.h - read V2 chunks, V1 profiles and envelopes (plain or gzip) into the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"
#include "fc-envelope.h"
#include "fc-profile.h"
#include "fc-read-flags.h"

G_BEGIN_DECLS

/* The largest input the reader accepts, compressed or not. */
#define FC_READER_MAX_SIZE FC_ENVELOPE_MAX_SIZE

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

G_END_DECLS
