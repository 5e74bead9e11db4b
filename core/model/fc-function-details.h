/* fc-function-details.h - what one function costs: self, total, callers, callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-call-tree.h"
#include "fc-profile.h"

G_BEGIN_DECLS

/*
 * The figures of a frame details panel, for the samples of one thread (or
 * all, -1) in a time range (begin_ns >= end_ns: all), seen through a frame
 * filter as the call tree sees them (hidden frames are left out of every
 * stack). A function is a frame id: views pass fc_profile_dup_by_function()'s
 * profile, where a function is one frame whatever its lines.
 *
 * Recursion is counted once, as Sentry and speedscope do. For each sample
 * whose stack holds the function at least once:
 *  - total gets the sample once, however often the function recurs;
 *  - self gets it when the function is the leaf;
 *  - the caller is the function that called its outermost occurrence (none
 *    when that is the root), so callers add up to at most the total;
 *  - the callee is the function its innermost occurrence called (none when
 *    that is the leaf), so callees add up to exactly total - self.
 * A sample weighs as in the call tree (fc-sample-weights.h).
 */

typedef struct {
  guint32 frame;
  guint64 samples;
  gint64  total_ns;
} FcFunctionLink;

typedef struct {
  guint32  frame;
  guint64  self_samples;
  guint64  total_samples;
  gint64   self_ns;
  gint64   total_ns;
  guint64  all_samples;     /* every sample considered */
  gint64   all_ns;
  GArray  *callers;         /* FcFunctionLink, heaviest first (then by frame id) */
  GArray  *callees;
} FcFunctionDetails;

FcFunctionDetails *fc_function_details_new        (FcProfile           *profile,
                                                   gint                 thread,
                                                   gint64               begin_ns,
                                                   gint64               end_ns,
                                                   FcFrameFilter     which,
                                                   guint32              frame);
void               fc_function_details_new_async  (FcProfile           *profile,
                                                   gint                 thread,
                                                   gint64               begin_ns,
                                                   gint64               end_ns,
                                                   FcFrameFilter     which,
                                                   guint32              frame,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
FcFunctionDetails *fc_function_details_new_finish (GAsyncResult        *result,
                                                   GError             **error);
void               fc_function_details_free       (FcFunctionDetails   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcFunctionDetails, fc_function_details_free)

G_END_DECLS
