/* fc-export-plan.h - where a document goes when written out: other tools' formats, numbered files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-document.h"

G_BEGIN_DECLS

/* Other tools' formats: the whole document in one file. */
typedef enum {
  FC_EXPORT_FORMAT_OTLP,        /* OpenTelemetry ProfilesData, protobuf */
  FC_EXPORT_FORMAT_OTLP_JSON,
  FC_EXPORT_FORMAT_PPROF,
  FC_EXPORT_FORMAT_SPEEDSCOPE,
  FC_EXPORT_FORMAT_COLLAPSED,   /* folded stacks */
} FcExportFormat;

GBytes *fc_export_write_document (FcDocument      *document,
                                  FcExportFormat   format,
                                  gboolean         per_thread,
                                  GError         **error);
char   *fc_export_numbered_path  (const char      *path,
                                  guint            n,
                                  guint            total);

G_END_DECLS
