/* fc-diff.h - two profiles compared: shares of samples by function and by call path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "fc-profile.h"

G_BEGIN_DECLS

/*
 * Each profile counts its samples (all threads); by default every count is
 * a share of that profile's samples (0..1), so profiles of different lengths
 * compare; with FC_DIFF_ABSOLUTE the counts stay raw. A function is named by
 * its frame label (fc_profile_frame_label()); a call path by its labels root
 * first, joined by ';'.
 *
 *  - self: samples whose leaf is the function (or that end at the path);
 *  - total: samples with the function anywhere on the stack, once per sample
 *    (or that pass through the path).
 *
 * Lists are sorted by |delta_self| (paths: |delta_total|) descending, then
 * by |delta_total| and name, so the biggest change comes first.
 */

typedef enum {
  FC_DIFF_FLAGS_NONE = 0,
  FC_DIFF_ABSOLUTE   = 1 << 0,
} FcDiffFlags;

typedef struct {
  char   *name;          /* function label, or call path "a;b;c" */
  double  before_self;
  double  after_self;
  double  before_total;
  double  after_total;
  guint64 before_count;  /* raw self count (paths) or total count (functions) */
  guint64 after_count;
  /* call paths only: the path's last function (a suffix of name), and the
   * paths one function deeper (FcDiffEntry*, borrowed, biggest
   * |delta_total| first); NULL for functions */
  const char *label;
  GPtrArray  *children;
} FcDiffEntry;

static inline double fc_diff_entry_delta_self  (const FcDiffEntry *e) { return e->after_self - e->before_self; }
static inline double fc_diff_entry_delta_total (const FcDiffEntry *e) { return e->after_total - e->before_total; }

typedef struct _FcDiff FcDiff;

FcDiff            *fc_diff_new            (FcProfile    *before,
                                           FcProfile    *after,
                                           FcDiffFlags   flags);
/* a diff is immutable once made: views on other threads share it */
FcDiff            *fc_diff_ref            (FcDiff       *self);
void               fc_diff_unref          (FcDiff       *self);
guint64            fc_diff_get_n_before   (FcDiff       *self);
guint64            fc_diff_get_n_after    (FcDiff       *self);
/* FcDiffEntry*, biggest |delta_self| first */
GPtrArray         *fc_diff_get_functions  (FcDiff       *self);
/* FcDiffEntry*, biggest |delta_total| first; a path with before_total 0 is
 * new, one with after_total 0 vanished */
GPtrArray         *fc_diff_get_paths      (FcDiff       *self);
/* the paths of one function (FcDiffEntry*, biggest |delta_total| first):
 * a call tree of both profiles, each path's children in its children */
GPtrArray         *fc_diff_get_roots      (FcDiff       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcDiff, fc_diff_unref)

G_END_DECLS
