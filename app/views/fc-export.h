/* fc-export.h - save a profile as V2 chunks or V1 envelopes; export a view as PNG or SVG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-document.h"
#include "fc-session.h"

G_BEGIN_DECLS

typedef enum {
  FC_SAVE_V2_CHUNKS,     /* one V2 chunk per file (V1 profiles are converted) */
  FC_SAVE_V1_ENVELOPES,  /* one transaction + profile envelope per <= 30 s */
  /* other tools' formats, the whole document in one file */
  FC_SAVE_OTLP,          /* OpenTelemetry ProfilesData, protobuf */
  FC_SAVE_OTLP_JSON,
  FC_SAVE_PPROF,
  FC_SAVE_SPEEDSCOPE,
  FC_SAVE_COLLAPSED,
} FcSaveFormat;

typedef enum {
  FC_EXPORT_FLAMECHART,  /* the session's thread over its visible time range */
  FC_EXPORT_FLAMEGRAPH,  /* the session's thread over its selection (or all of it) */
} FcExportView;

/* Writes @document to @file, validated by the same rules as sending: when
 * it takes several files, they are numbered as `flamecast-cli convert`
 * numbers them ("out.1.json", "out.2.json", ...). Runs on a worker. */
void       fc_export_save_async  (FcDocument          *document,
                                  GFile               *file,
                                  FcSaveFormat         format,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data);
/* Returns: the files written (GFile*) */
GPtrArray *fc_export_save_finish (GAsyncResult        *result,
                                  GError             **error);

/* The widget as it is on screen, rendered with its window's renderer (on
 * the main thread), encoded and written on a worker. */
void       fc_export_png_async   (GtkWidget           *widget,
                                  GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data);
gboolean   fc_export_png_finish  (GAsyncResult        *result,
                                  GError             **error);

/* The view's boxes as vectors (cairo's SVG surface), @width px wide, from
 * the session's profile, thread, range, colour mode and frame filter,
 * computed and drawn on a worker. */
void       fc_export_svg_async   (FcSession           *session,
                                  FcExportView         view,
                                  int                  width,
                                  GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data);
gboolean   fc_export_svg_finish  (GAsyncResult        *result,
                                  GError             **error);

G_END_DECLS
