/* fc-test-capture.h - what the sampler tests check alike: each thread's ticks add up, the samples
 * of each thread in a recording, a process's threads in a system call
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "fc-capture-summary.h"

G_BEGIN_DECLS

/* tid -> its samples in @chunks (FcProfile), and of those (@function not NULL) in @with the ones
 * whose stack holds @function; both tables GINT_TO_POINTER (tid) -> GUINT_TO_POINTER (count). */
GHashTable *fc_test_count_thread_samples (GPtrArray   *chunks,
                                          const char  *function,
                                          GHashTable **with);

void        fc_test_assert_ticks_add_up  (const FcCaptureSummary *summary,
                                          GPtrArray              *chunks);

/* Whether a thread of @pid (its main thread left out with @skip_main) is blocked in system call
 * @nr, or (@every) every one is, as /proc/PID/task/TID/syscall says */
gboolean    fc_test_tasks_in_syscall     (GPid                    pid,
                                          int                     nr,
                                          gboolean                skip_main,
                                          gboolean                every);

G_END_DECLS
