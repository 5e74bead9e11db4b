/* fc-flame-chart-private.h - what the flamechart's gestures do, for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-flame-chart.h"

G_BEGIN_DECLS

/* A drag from @x, @y pans time and depth, or with @select_range (shift
 * held) selects the time range it covers. */
void   fc_flame_chart_drag_begin   (FcFlameChart *self,
                                    double        x,
                                    double        y,
                                    gboolean      select_range);
void   fc_flame_chart_drag_update  (FcFlameChart *self,
                                    double        offset_x,
                                    double        offset_y);
double fc_flame_chart_get_scroll_y (FcFlameChart *self);
guint  fc_flame_chart_get_n_legend_entries (FcFlameChart *self);
GtkAdjustment *fc_flame_chart_get_vadjustment  (FcFlameChart *self);
GtkListBox    *fc_flame_chart_get_lane_list    (FcFlameChart *self);

/* all threads (0 lanes otherwise): one lane per thread under a header row */
guint          fc_flame_chart_get_n_lanes       (FcFlameChart *self);
double         fc_flame_chart_get_lane_y        (FcFlameChart *self,
                                                 guint         lane);
double         fc_flame_chart_get_lane_height   (FcFlameChart *self,
                                                 guint         lane);
char          *fc_flame_chart_dup_lane_title    (FcFlameChart *self,
                                                 guint         lane);
gboolean       fc_flame_chart_get_lane_expanded (FcFlameChart *self,
                                                 guint         lane);
void           fc_flame_chart_set_lane_expanded (FcFlameChart *self,
                                                 guint         lane,
                                                 gboolean      expanded);
void           fc_flame_chart_show_lane         (FcFlameChart *self,
                                                 guint         lane);

G_END_DECLS
