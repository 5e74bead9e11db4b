/* fc-flame-chart.h - time on x, stack depth on y
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-flame-view.h"

G_BEGIN_DECLS

#define FC_FLAME_CHART_ROW_HEIGHT   20
#define FC_FLAME_CHART_RULER_HEIGHT 22

#define FC_TYPE_FLAME_CHART (fc_flame_chart_get_type ())
G_DECLARE_FINAL_TYPE (FcFlameChart, fc_flame_chart, FC, FLAME_CHART, FcFlameView)

GtkWidget        *fc_flame_chart_new               (void);
/* NULL until laid out (big profiles are laid out on a worker thread) */
guint             fc_flame_chart_get_n_matches     (FcFlameChart          *self);
/* 1-based index of the match search-next/previous went to; 0 for none */
guint             fc_flame_chart_get_current_match (FcFlameChart          *self);
/* the box under widget coordinates @x, @y */
gboolean          fc_flame_chart_box_at            (FcFlameChart          *self,
                                                    double                 x,
                                                    double                 y,
                                                    FcFlameBox            *box);
/* where @box is drawn at the current zoom and scroll */
void              fc_flame_chart_get_box_bounds    (FcFlameChart          *self,
                                                    const FcFlameBox      *box,
                                                    graphene_rect_t       *bounds);
/* the scene (boxes, labels, ruler) at a size, as the widget would cache it;
 * for benchmarks and tests */
/* how many boxes the last scene drew (after culling and merging) */
guint             fc_flame_chart_get_n_drawn_boxes (FcFlameChart          *self);
const char       *fc_flame_chart_get_message       (FcFlameChart          *self);

G_END_DECLS
