/* fc-frame-details.h - everything about the session's selected frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-session.h"

G_BEGIN_DECLS

/* What the selected frame costs in the session's thread and time selection. */
typedef struct {
  guint32 frame;
  gint64  self_ns;          /* time in samples whose leaf is the frame */
  gint64  total_ns;         /* time in samples with the frame anywhere on the stack */
  guint64 self_samples;
  guint64 total_samples;
  gint64  all_ns;           /* time of every sample considered */
} FcFrameStats;

/* A caller or callee of the selected frame and the time spent through it. */
typedef struct {
  guint32 frame;
  gint64  total_ns;
} FcFrameLink;

#define FC_TYPE_FRAME_DETAILS (fc_frame_details_get_type ())
G_DECLARE_FINAL_TYPE (FcFrameDetails, fc_frame_details, FC, FRAME_DETAILS, GtkWidget)

GtkWidget          *fc_frame_details_new          (void);
FcSession          *fc_frame_details_get_session  (FcFrameDetails *self);
void                fc_frame_details_set_session  (FcFrameDetails *self,
                                                   FcSession      *session);
gboolean            fc_frame_details_get_busy     (FcFrameDetails *self);
const FcFrameStats *fc_frame_details_get_stats    (FcFrameDetails *self);
/* FcFrameLink arrays, heaviest first */
GArray             *fc_frame_details_get_callers  (FcFrameDetails *self);
GArray             *fc_frame_details_get_callees  (FcFrameDetails *self);
gboolean            fc_frame_details_can_go_back  (FcFrameDetails *self);
gboolean            fc_frame_details_go_back      (FcFrameDetails *self);

G_END_DECLS
