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

G_END_DECLS
