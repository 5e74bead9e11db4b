/* fc-live-edge.h - a session following the live edge of a growing profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-session.h"

G_BEGIN_DECLS

#define FC_TYPE_LIVE_EDGE (fc_live_edge_get_type ())
G_DECLARE_FINAL_TYPE (FcLiveEdge, fc_live_edge, FC, LIVE_EDGE, GObject)

FcLiveEdge *fc_live_edge_new              (FcSession     *session);
FcSession  *fc_live_edge_get_session      (FcLiveEdge    *self);
/* the profile that grows (NULL once it grows no more) */
void        fc_live_edge_set_live         (FcLiveEdge    *self,
                                           FcProfile     *live);
gboolean    fc_live_edge_is_showing_live  (FcLiveEdge    *self);
gboolean    fc_live_edge_get_following    (FcLiveEdge    *self);
/* the user picked a thread (or all) while it grew */
gboolean    fc_live_edge_get_thread_chosen (FcLiveEdge   *self);
void        fc_live_edge_follow           (FcLiveEdge    *self);
void        fc_live_edge_grew             (FcLiveEdge    *self);
void        fc_live_edge_layout_ready     (FcLiveEdge    *self,
                                           FcFlameLayout *layout);
/* puts @profile in the session without taking it for the user's move */
void        fc_live_edge_show             (FcLiveEdge    *self,
                                           FcDocument    *document,
                                           FcProfile     *profile,
                                           gboolean       keep_thread);

G_END_DECLS
