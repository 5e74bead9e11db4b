/* fc-import.h - profiles from other tools, told apart by content: pprof, OTLP, speedscope, folded, perf script
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"

G_BEGIN_DECLS

typedef enum {
  FC_IMPORT_NONE = 0,     /* Sentry JSON or an envelope: the reader's own path */
  FC_IMPORT_OTLP,         /* ProfilesData, protobuf */
  FC_IMPORT_OTLP_JSON,
  FC_IMPORT_PPROF,        /* perftools.profiles.Profile (gzip is undone before) */
  FC_IMPORT_SPEEDSCOPE,
  FC_IMPORT_FOLDED,
  FC_IMPORT_PERF_SCRIPT,
} FcImportKind;

/* What the first bytes of the (decompressed) input look like. Protobuf is
 * claimed for any input that is not text; fc_import_load() tells OTLP from
 * pprof by decoding. */
FcImportKind  fc_import_sniff      (const guint8  *head,
                                    gsize          len);

/* "pprof or OTLP", "speedscope"...: for messages */
const char   *fc_import_kind_name  (FcImportKind   kind);

/* At most FC_READ_MAX_WHOLE_SIZE bytes (fc-read-limits.h). */
FcDocument   *fc_import_load       (FcImportKind   kind,
                                    GBytes        *bytes,
                                    GError       **error);

G_END_DECLS
