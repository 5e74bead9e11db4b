/* fc-time-ruler.h - time labels over the flamechart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-session.h"

G_BEGIN_DECLS

#define FC_TYPE_TIME_RULER (fc_time_ruler_get_type ())
G_DECLARE_FINAL_TYPE (FcTimeRuler, fc_time_ruler, FC, TIME_RULER, GtkWidget)

/* about this many pixels between ticks */
#define FC_TIME_RULER_TICK_SPACING 110.0

GtkWidget *fc_time_ruler_new         (void);
void       fc_time_ruler_set_session (FcTimeRuler *self,
                                      FcSession   *session);

/* Ticks fall on multiples of a 1-2-5 step counted from an origin: the
 * profile's start (a wall-clock time), or its first sample when the
 * payload gave no start. The flamechart draws its grid lines at the same
 * places. */
gint64     fc_time_ruler_get_origin  (FcSession   *session);
gint64     fc_time_ruler_step        (double       ns_per_px);
gint64     fc_time_ruler_first_tick  (gint64       origin_ns,
                                      gint64       begin_ns,
                                      gint64       step_ns);
/* "0.250 s" for 250 ms at a 10 ms step, "1 h 02 min", "16 min 40 s" */
char      *fc_time_ruler_format_tick (gint64       offset_ns,
                                      gint64       step_ns);
/* labels leave @inset px at the right end free (what covers the ruler there) */
void       fc_time_ruler_set_end_inset (FcTimeRuler *self,
                                        int          inset);
/* the labels the last frame drew, for tests; (transfer none) */
GPtrArray *fc_time_ruler_get_labels  (FcTimeRuler *self);

G_END_DECLS
