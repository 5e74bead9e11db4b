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
 * With one thread there is one lane: row = depth (0 is the outermost
 * frame). With all threads (thread -1), each thread that has samples is a
 * lane of rows below an empty header row (for the thread's name), in thread
 * table order.
 *
 * Boxes are not stored: a chunk of 500k samples with deep, distinct stacks
 * makes 16 million of them. The layout keeps, per sample of each lane in
 * time order (its "positions", lane after lane), the sample's times, its
 * stack, its depth and how many frames it shares with the sample before;
 * a box of row r is then a stretch of positions deeper than r between two
 * that share at most r frames with their predecessor. Indexes over those
 * two columns (fc-range-index.h) find a box's ends in a few dozen reads, so
 * a view finds the boxes it shows (fc_flame_layout_row_iter_*()) at a cost
 * set by its size, not by the box count, and the layout takes 28 bytes per
 * sample whatever the stacks.
 */

typedef struct _FcFlameLayout FcFlameLayout;

/* A box, found by position: its times are
 * fc_flame_layout_get_sample_times()[first] and [last], or
 * fc_flame_layout_box_begin_ns()/_end_ns(); its depth in its lane is
 * row - lane->first_row (0 = outermost frame). Two boxes are the same when
 * their row and first position are. */
typedef struct {
  guint32 first;              /* position of its first sample */
  guint32 last;               /* position of its last sample */
  guint32 frame;
  guint32 row;
} FcFlameBox;

typedef struct {
  guint32 thread;             /* index into the profile's thread table */
  guint   first_row;
  guint   n_rows;
  guint   first_position;     /* its samples, in time order */
  guint   n_positions;
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
guint              fc_flame_layout_get_n_rows      (FcFlameLayout       *self);
guint              fc_flame_layout_get_n_lanes     (FcFlameLayout       *self);
const FcFlameLane *fc_flame_layout_get_lane        (FcFlameLayout       *self,
                                                    guint                lane);
/* the lane @row belongs to (header rows: the lane below), or -1 */
gint               fc_flame_layout_get_lane_of_row (FcFlameLayout       *self,
                                                    guint                row);
guint              fc_flame_layout_get_n_positions (FcFlameLayout       *self);
/* per position, when each sample begins and ends */
void               fc_flame_layout_get_sample_times (FcFlameLayout      *self,
                                                     const gint64      **begins_ns,
                                                     const gint64      **ends_ns);
/* every box, counted (one pass over the positions), and the bytes held */
guint64            fc_flame_layout_count_boxes     (FcFlameLayout       *self);
gsize              fc_flame_layout_get_size        (FcFlameLayout       *self);

/* the box of @row holding the sample at @position; FALSE if its stack is
 * not that deep (or @row is a header row) */
gboolean           fc_flame_layout_box_at_position (FcFlameLayout       *self,
                                                    guint                row,
                                                    guint                position,
                                                    FcFlameBox          *box);
/* the box of @row covering @t */
gboolean           fc_flame_layout_hit_test        (FcFlameLayout       *self,
                                                    guint                row,
                                                    gint64               t,
                                                    FcFlameBox          *box);
/* the first box of @row ending after @t, and the one after @box in its
 * row: every box of a row, in time order */
gboolean           fc_flame_layout_row_first_box   (FcFlameLayout       *self,
                                                    guint                row,
                                                    gint64               t,
                                                    FcFlameBox          *box);
gboolean           fc_flame_layout_row_next_box    (FcFlameLayout       *self,
                                                    const FcFlameBox    *box,
                                                    FcFlameBox          *next);
/* every box of @row (for tests and small exports: a row of a big profile
 * is millions) */
FcFlameBox        *fc_flame_layout_dup_row         (FcFlameLayout       *self,
                                                    guint                row,
                                                    guint               *n_boxes);

gint64             fc_flame_layout_box_begin_ns    (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
gint64             fc_flame_layout_box_end_ns      (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
guint              fc_flame_layout_box_n_samples   (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
/* the time its samples stand for: its width less the idle gaps it spans */
gint64             fc_flame_layout_box_sampled_ns  (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);
/* the stack id of the call path ending in @box (its depth is the box's + 1) */
guint32            fc_flame_layout_box_stack       (FcFlameLayout       *self,
                                                    const FcFlameBox    *box);

/*
 * Search: the boxes of the frames with @frame_match[frame] set, one per
 * unbroken run of matching frames down a stack (a matching box right under
 * a matching box is the same match, one recursion level deeper), by begin
 * time, outer rows first at equal times. A box is its row and first
 * position (fc_flame_layout_box_at_position() finds it again): 8 bytes a
 * match. NULL when cancelled.
 */
typedef struct {
  guint32 row;
  guint32 first;
} FcFlameBoxStart;

GArray            *fc_flame_layout_find_runs       (FcFlameLayout       *self,
                                                    const guint8        *frame_match,
                                                    guint                n_frames,
                                                    GCancellable        *cancellable);

/*
 * What a row shows at a zoom. A view draws @row between @begin_ns and
 * @end_ns at @px_per_ns pixels per nanosecond (pixel edges at @begin_ns +
 * k / @px_per_ns); the iterator gives, in time order:
 *  - each box at least a pixel wide, exactly (merged = FALSE), and
 *  - for boxes narrower than a pixel, one span per pixel column they begin
 *    in (merged = TRUE): from the first one's begin to where the last one
 *    beginning in that column ends (cut at the column's end), in the first
 *    one's frame; a box a pixel wide or more that begins in the column
 *    comes next, on its own.
 * No box a pixel wide is ever merged or skipped; the cost follows the
 * width in pixels and the rows shown, not the boxes behind them.
 *
 * A box's frame is its first sample's stack's frame at the row's depth:
 * walking a stack up for every span costs the most when zoomed out, so the
 * caller may pass an FcFlameFrameCache kept across rows and frames (one per
 * thread: it is not locked).
 */
typedef struct _FcFlameFrameCache FcFlameFrameCache;

FcFlameFrameCache *fc_flame_frame_cache_new        (void);
void               fc_flame_frame_cache_free       (FcFlameFrameCache   *cache);
/* forgets the profile it holds (a view that moves to another one) */
void               fc_flame_frame_cache_clear      (FcFlameFrameCache   *cache);

typedef struct {
  FcFlameBox box;             /* the box; of a merged span, its first box */
  gint64     begin_ns;
  gint64     end_ns;
  gboolean   merged;
} FcFlameSpan;

typedef struct {
  /*< private >*/
  FcFlameLayout     *layout;
  FcFlameFrameCache *cache;
  guint              depth;
  guint              first_row;
  guint              lane_first;
  guint              lane_end;
  gint64             begin_ns;
  gint64             end_ns;
  double             px_per_ns;
  FcFlameBox         next;
  gboolean           has_next;
} FcFlameRowIter;

void               fc_flame_row_iter_init          (FcFlameRowIter      *iter,
                                                    FcFlameLayout       *layout,
                                                    FcFlameFrameCache   *cache,
                                                    guint                row,
                                                    gint64               begin_ns,
                                                    gint64               end_ns,
                                                    double               px_per_ns);
gboolean           fc_flame_row_iter_next          (FcFlameRowIter      *iter,
                                                    FcFlameSpan         *span);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcFlameLayout, fc_flame_layout_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcFlameFrameCache, fc_flame_frame_cache_free)

G_END_DECLS
