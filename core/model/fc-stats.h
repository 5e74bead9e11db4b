/* fc-stats.h - summaries of a profile: top functions, busiest thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/* One function: @frame is a representative frame (the first) of all the
 * frames that share its label (fc_profile_frame_label(): the function name,
 * or for nameless frames their address);
 * @self counts samples whose leaf it is, @total samples it appears in
 * (once per sample, however deep the recursion). */
typedef struct {
  guint32 frame;
  guint   self;
  guint   total;
} FcFunctionStat;

/* The top @limit functions (0: all) of @thread (-1: all threads) by self or
 * by total samples, most first; ties by the other count, then by label.
 * Functions with no sample of the kind asked for are left out. */
GArray     *fc_stats_top_functions  (FcProfile *profile,
                                     gint       thread,
                                     gboolean   by_self,
                                     guint      limit);

/* The thread index with the most on-CPU samples (ties: most samples, then
 * the first), or -1 when there are none; the one rule for a default thread */
gint        fc_stats_busiest_thread (FcProfile *profile);

/* Samples per thread whose stack is not empty and whose leaf function is not
 * a wait (futex, epoll/poll/select, nanosleep, read, condition variables...) */
guint      *fc_stats_thread_busy_samples (FcProfile *profile,
                                          guint     *n_threads);
gboolean    fc_stats_function_is_idle    (const char *name);

/* Samples per thread (index into the thread table), counted from the
 * sample array: the model's cached counts may lag a live profile. */
guint      *fc_stats_thread_samples (FcProfile *profile,
                                     guint     *n_threads);

G_END_DECLS
