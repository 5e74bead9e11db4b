/* fc-flame-layout.h - flamechart boxes: runs of one frame at one depth over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-profile.h"

G_BEGIN_DECLS

/*
 * The boxes of a flamechart, independent of any widget size: consecutive
 * samples of a thread whose stacks share the same call path down to a depth
 * make one box at that depth (a "run"), spanning from the first sample's
 * timestamp to the end of the last one (each sample lasts until the next,
 * capped at twice the median interval, see fc-sample-weights.h). A pause in
 * sampling longer than that ends every run.
 *
 * Boxes are grouped by row and sorted by time inside a row, so hit-testing
 * and culling are binary searches. With one thread there is one lane: row =
 * depth (0 is the outermost frame). With all threads (thread -1), each
 * thread that has samples is a lane of rows below an empty header row (for
 * the thread's name), in thread table order.
 */

typedef struct _FcFlameLayout FcFlameLayout;

/* 32 bytes: a 500k-sample chunk makes millions of boxes. The box's depth
 * in its lane is its stack's depth - 1 (0 = outermost frame); its lane is
 * fc_flame_layout_get_lane_of_row(). */
typedef struct {
  gint64  begin_ns;
  gint64  end_ns;
  guint32 frame;
  guint32 stack;              /* stack id of the call path ending in this box */
  guint32 row;
  guint32 n_samples;
} FcFlameBox;

typedef struct {
  guint32 thread;             /* index into the profile's thread table */
  guint   first_row;
  guint   n_rows;
} FcFlameLane;

#define FC_TYPE_FLAME_LAYOUT (fc_flame_layout_get_type ())
GType              fc_flame_layout_get_type        (void) G_GNUC_CONST;

FcFlameLayout     *fc_flame_layout_new             (FcProfile           *profile,
                                                    gint                 thread);
void               fc_flame_layout_new_async       (FcProfile           *profile,
                                                    gint                 thread,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
FcFlameLayout     *fc_flame_layout_new_finish      (GAsyncResult        *result,
                                                    GError             **error);
FcFlameLayout     *fc_flame_layout_ref             (FcFlameLayout       *self);
void               fc_flame_layout_unref           (FcFlameLayout       *self);

FcProfile         *fc_flame_layout_get_profile     (FcFlameLayout       *self);
gint               fc_flame_layout_get_thread      (FcFlameLayout       *self);
/* the time covered: first sample to the end of the last one; 0, 0 if empty */
void               fc_flame_layout_get_extent      (FcFlameLayout       *self,
                                                    gint64              *begin_ns,
                                                    gint64              *end_ns);
/* all boxes, row by row, by time inside a row */
const FcFlameBox  *fc_flame_layout_get_boxes       (FcFlameLayout       *self,
                                                    guint               *n_boxes);
guint              fc_flame_layout_get_n_rows      (FcFlameLayout       *self);
const FcFlameBox  *fc_flame_layout_get_row         (FcFlameLayout       *self,
                                                    guint                row,
                                                    guint               *n_boxes);
guint              fc_flame_layout_get_n_lanes     (FcFlameLayout       *self);
const FcFlameLane *fc_flame_layout_get_lane        (FcFlameLayout       *self,
                                                    guint                lane);
/* the lane @row belongs to (header rows: the lane below), or -1 */
gint               fc_flame_layout_get_lane_of_row (FcFlameLayout       *self,
                                                    guint                row);
/* index in the row of the first box ending after @t (n_boxes if none) */
guint              fc_flame_layout_row_lower_bound (FcFlameLayout       *self,
                                                    guint                row,
                                                    gint64               t);
/* the box of @row covering @t, or NULL */
const FcFlameBox  *fc_flame_layout_hit_test        (FcFlameLayout       *self,
                                                    guint                row,
                                                    gint64               t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcFlameLayout, fc_flame_layout_unref)

G_END_DECLS
