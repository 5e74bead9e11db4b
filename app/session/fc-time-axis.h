/* fc-time-axis.h - where a time is drawn and what time is under a pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/*
 * A session's two time ranges, as the views that draw time across their
 * width see them: the visible range (the flamechart, its time ruler, the
 * span track) and the total range, the thread's extent (the minimap). The
 * session owns one axis and moves it; views map between pixels and
 * nanoseconds here, so the mapping is written once. An empty range maps as
 * one nanosecond wide. "changed" follows any change of either range, with
 * the detail "visible" or "total" ("changed::visible" for the views drawn
 * over the visible range alone).
 */

#define FC_TYPE_TIME_AXIS (fc_time_axis_get_type ())
G_DECLARE_FINAL_TYPE (FcTimeAxis, fc_time_axis, FC, TIME_AXIS, GObject)

FcTimeAxis *fc_time_axis_new               (void);
void        fc_time_axis_set_visible       (FcTimeAxis *self,
                                            gint64      begin_ns,
                                            gint64      end_ns);
void        fc_time_axis_set_total         (FcTimeAxis *self,
                                            gint64      begin_ns,
                                            gint64      end_ns);
void        fc_time_axis_get_visible       (FcTimeAxis *self,
                                            gint64     *begin_ns,
                                            gint64     *end_ns);
void        fc_time_axis_get_total         (FcTimeAxis *self,
                                            gint64     *begin_ns,
                                            gint64     *end_ns);
/* the visible range across @width pixels */
gint64      fc_time_axis_time_at           (FcTimeAxis *self,
                                            double      x,
                                            int         width);
double      fc_time_axis_x_at              (FcTimeAxis *self,
                                            gint64      time_ns,
                                            int         width);
/* the total range across @width pixels */
gint64      fc_time_axis_overview_time_at  (FcTimeAxis *self,
                                            double      x,
                                            int         width);
double      fc_time_axis_overview_x_at     (FcTimeAxis *self,
                                            gint64      time_ns,
                                            int         width);

G_END_DECLS
