/* fc-view-util.h - text and search helpers shared by the flame views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "flamecast.h"

G_BEGIN_DECLS

/* "12.3 ms", "1.50 s", "850 µs" */
char    *fc_view_format_duration  (gint64      ns);
/* Pango markup: function, module/package, file:line, duration and its
 * share of @reference_ns (0: no share) */
char    *fc_view_frame_tooltip    (FcProfile  *profile,
                                   guint32     frame,
                                   gint64      duration_ns,
                                   gint64      reference_ns,
                                   const char *reference_label);
/* one byte per frame id, 1 where the frame's function, module, package or
 * file contains @text (case-insensitive); NULL when @text is empty */
guint8  *fc_view_search_frames    (FcProfile  *profile,
                                   const char *text,
                                   guint      *n_matching);
/* TRUE when the widget is drawn with a dark style */
gboolean fc_view_is_dark          (GtkWidget  *widget);

G_END_DECLS
