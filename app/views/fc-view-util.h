/* fc-view-util.h - text and search helpers shared by the flame views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "flamecast.h"

G_BEGIN_DECLS

/* Pango markup: function, module/package, file:line, duration and its
 * share of @reference_ns (0: no share) */
char    *fc_view_frame_tooltip    (FcProfile  *profile,
                                   guint32     frame,
                                   gint64      duration_ns,
                                   gint64      reference_ns,
                                   const char *reference_label);
/* the same for a box of call path @stack (FC_STACK_EMPTY: any path of @frame):
 * its line, column and address when the frames merged there agree */
char    *fc_view_frame_tooltip_at (FcProfile  *profile,
                                   guint32     frame,
                                   guint32     stack,
                                   gint64      duration_ns,
                                   gint64      reference_ns,
                                   const char *reference_label);
/* "app.py:12:5 · 0x4a2f10", "app.py (several lines)": where @frame (on call
 * path @stack, or FC_STACK_EMPTY for any) was; NULL when nothing is known */
char    *fc_view_frame_location   (FcProfile  *profile,
                                   guint32     frame,
                                   guint32     stack);
/* @label shows its text whole when it has at most @max_chars, else keeps
 * @max_chars of room and ellipsizes by @mode; with -1 it gives way entirely
 * (ellipsized by @mode) */
void        fc_label_keep_room           (GtkLabel          *label,
                                          int                max_chars,
                                          PangoEllipsizeMode mode);
/* what a view says when the frame filter leaves nothing of a range that
 * has samples: "No application frames in this range" (NULL for FC_FRAME_FILTER_ALL) */
const char *fc_view_filter_empty_message (FcFrameFilter filter);
/* TRUE when @filter shows @frame (unknown in_app counts as system, as in Sentry) */
gboolean    fc_view_filter_shows         (FcProfile    *profile,
                                          guint32       frame,
                                          FcFrameFilter filter);
/* one byte per frame id, 1 where the frame's function, module, package or
 * file contains @text (case-insensitive); NULL when @text is empty */
guint8  *fc_view_search_frames    (FcProfile  *profile,
                                   const char *text,
                                   guint      *n_matching);
/* Boxes are painted into a pixel buffer turned into one texture rather than
 * as one render node each: tens of thousands of colour nodes cost more to
 * record, and far more to render (software GL or cairo), than filling the
 * pixels. Coordinates are logical pixels; @scale maps them to the buffer. */
typedef struct {
  guint32 *pixels;            /* premultiplied B8G8R8A8 in memory order (GDK_MEMORY_DEFAULT) */
  int      width;
  int      height;
  double   scale;
} FcRaster;

void        fc_raster_init       (FcRaster      *raster,
                                  double         width,
                                  double         height,
                                  double         scale);
guint32     fc_raster_pack       (const GdkRGBA *color);
/* fills [x0, x1) x [y0, y1); anything narrower still gets one device pixel */
void        fc_raster_fill       (FcRaster      *raster,
                                  guint32        pixel,
                                  double         x0,
                                  double         y0,
                                  double         x1,
                                  double         y1);
/* Filling one device row and copying it down is how a row of thousands of
 * one-pixel boxes is painted cheaply. fc_raster_rows() gives the device rows
 * that fc_raster_fill() covers for [y0, y1), clipped (both -1 when
 * nothing is left); fc_raster_fill_line() fills [x0, x1) of device row @py
 * exactly as fc_raster_fill() would; fc_raster_repeat_line() copies row @py
 * over rows (py, py1). */
void        fc_raster_rows       (FcRaster      *raster,
                                  double         y0,
                                  double         y1,
                                  int           *py0,
                                  int           *py1);
void        fc_raster_fill_line  (FcRaster      *raster,
                                  guint32        pixel,
                                  int            py,
                                  double         x0,
                                  double         x1);
void        fc_raster_repeat_line (FcRaster     *raster,
                                   int           py,
                                   int           py1);
/* the buffer drawn over @bounds (logical pixels) as the node @widget's
 * renderer draws fastest; the raster is emptied */
void        fc_raster_append     (FcRaster              *raster,
                                  GtkSnapshot           *snapshot,
                                  const graphene_rect_t *bounds,
                                  GtkWidget             *widget);

G_END_DECLS
