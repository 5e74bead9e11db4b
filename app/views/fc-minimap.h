/* fc-minimap.h - overview of a thread's whole time range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-flame-view.h"

G_BEGIN_DECLS

#define FC_TYPE_MINIMAP (fc_minimap_get_type ())
G_DECLARE_FINAL_TYPE (FcMinimap, fc_minimap, FC, MINIMAP, FcFlameView)

GtkWidget     *fc_minimap_new               (void);
/* the whole range the minimap spans */
void           fc_minimap_get_range         (FcMinimap *self,
                                             gint64    *begin_ns,
                                             gint64    *end_ns);
/* rectangles the last scene drew: at most one per pixel column and row */
guint          fc_minimap_get_n_drawn_rects (FcMinimap *self);

G_END_DECLS
