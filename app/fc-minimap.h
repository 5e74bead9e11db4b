/* fc-minimap.h - overview of a thread's whole time range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-flame-layout.h"
#include "fc-session.h"

G_BEGIN_DECLS

#define FC_TYPE_MINIMAP (fc_minimap_get_type ())
G_DECLARE_FINAL_TYPE (FcMinimap, fc_minimap, FC, MINIMAP, GtkWidget)

GtkWidget     *fc_minimap_new               (void);
FcSession     *fc_minimap_get_session       (FcMinimap *self);
void           fc_minimap_set_session       (FcMinimap *self,
                                             FcSession *session);
FcFlameLayout *fc_minimap_get_layout        (FcMinimap *self);
/* the whole range the minimap spans */
void           fc_minimap_get_range         (FcMinimap *self,
                                             gint64    *begin_ns,
                                             gint64    *end_ns);
GskRenderNode *fc_minimap_render_scene      (FcMinimap *self,
                                             int        width,
                                             int        height);
/* rectangles the last scene drew: at most one per pixel column and row */
guint          fc_minimap_get_n_drawn_rects (FcMinimap *self);

G_END_DECLS
