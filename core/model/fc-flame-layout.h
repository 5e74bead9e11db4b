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
 * capped at twice the median interval, see fc-sample-weights.h).
 *
 * A pause in sampling (an idle Node or Python process takes no samples)
 * does not end a run: the frames on the stack before and after it make one
 * box across it, as Sentry's and speedscope's flamecharts draw them; frames
 * only on one side end (or begin) at the pause.
 *
 * Boxes are grouped by row and sorted by time inside a row, so hit-testing
 * and culling are binary searches. With one thread there is one lane: row =
 * depth (0 is the outermost frame). With all threads (thread -1), each
 * thread that has samples is a lane of rows below an empty header row (for
 * the thread's name), in thread table order.
 */

typedef struct _FcFlameLayout FcFlameLayout;

/* 12 bytes: a 500k-sample chunk makes about 12 million boxes over all
 * threads. A box names its first and last sample by "position" (the
 * layout's samples of all its lanes, lane after lane, each in time order);
 * its times are fc_flame_layout_get_sample_times()[first] and
 * [last], or fc_flame_layout_box_begin_ns()/_end_ns(). Its row follows from
 * where it is in the layout (fc_flame_layout_box_row()); its depth in its
 * lane is row - lane->first_row (0 = outermost frame). */
typedef struct {
  guint32 first;              /* position of its first sample */
  guint32 last;               /* position of its last sample */
  guint32 frame;
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
/* per position (see FcFlameBox), when each sample begins and ends; for
 * loops over many boxes: begins_ns[box->first], ends_ns[box->last] */
void               fc_flame_layout_get_sample_times (FcFlameLayout      *self,
                                                     const gint64      **begins_ns,
                                                     const gint64      **ends_ns);
gint64             fc_flame_layout_box_begin_ns    (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
gint64             fc_flame_layout_box_end_ns      (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
guint              fc_flame_layout_box_n_samples   (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
/* the time its samples stand for: its width less the idle gaps it spans */
gint64             fc_flame_layout_box_sampled_ns  (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
/* the row of @box, one of this layout's boxes */
guint              fc_flame_layout_box_row         (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
/* the stack id of the call path ending in @box (its depth is the box's + 1) */
guint32            fc_flame_layout_box_stack       (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
/* the lane @row belongs to (header rows: the lane below), or -1 */
gint               fc_flame_layout_get_lane_of_row (FcFlameLayout       *self,
                                                    guint                row);
/* index in the row of the first box ending after @t (n_boxes if none) */
guint              fc_flame_layout_row_lower_bound (FcFlameLayout       *self,
                                                    guint                row,
                                                    gint64               t);
/* the same, for a @t at or after that of an earlier answer @from */
guint              fc_flame_layout_row_lower_bound_from (FcFlameLayout  *self,
                                                         guint           row,
                                                         guint           from,
                                                         gint64          t);
/* the box of @row covering @t, or NULL */
const FcFlameBox  *fc_flame_layout_hit_test        (FcFlameLayout       *self,
                                                    guint                row,
                                                    gint64               t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcFlameLayout, fc_flame_layout_unref)

G_END_DECLS
