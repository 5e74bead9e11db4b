/* fc-span-track.h - transactions and spans over the flamechart, on its time axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "fc-session.h"

G_BEGIN_DECLS

#define FC_SPAN_TRACK_ROW_HEIGHT 18
/* deeper spans share the last row rather than push the flamechart away */
#define FC_SPAN_TRACK_MAX_ROWS   8

#define FC_TYPE_SPAN_TRACK (fc_span_track_get_type ())
G_DECLARE_FINAL_TYPE (FcSpanTrack, fc_span_track, FC, SPAN_TRACK, GtkWidget)

GtkWidget    *fc_span_track_new         (void);
FcSession    *fc_span_track_get_session (FcSpanTrack     *self);
void          fc_span_track_set_session (FcSpanTrack     *self,
                                         FcSession       *session);

/* what the last snapshot drew, in draw order: one bar per visible span */
guint         fc_span_track_get_n_bars  (FcSpanTrack     *self);
const FcSpan *fc_span_track_get_bar     (FcSpanTrack     *self,
                                         guint            index,
                                         graphene_rect_t *rect);
/* the span drawn at (@x, @y), the innermost where bars touch; or NULL */
const FcSpan *fc_span_track_span_at     (FcSpanTrack     *self,
                                         double           x,
                                         double           y);
/* the tooltip at (@x, @y): name, operation, duration, trace id; or NULL */
char         *fc_span_track_dup_tooltip_markup (FcSpanTrack *self,
                                                double       x,
                                                double       y);
/* what a click does: one selects the span's time range, two zoom to it.
 * FALSE when there is no span there. */
gboolean      fc_span_track_click       (FcSpanTrack     *self,
                                         double           x,
                                         double           y,
                                         int              n_press);

/* the wheel over the track: @zoom (Ctrl) zooms by 1.25^@dy around @x,
 * otherwise @dx + @dy pixels pan through time, as over the flamechart */
void          fc_span_track_scroll      (FcSpanTrack     *self,
                                         double           x,
                                         double           dx,
                                         double           dy,
                                         gboolean         zoom);

G_END_DECLS
