/* fc-helper-ptrace.h - one stop of some threads of a process: attach, copy registers and stack, detach
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* the most threads one call stops, and the most stack bytes it copies of each */
#define FC_HELPER_MAX_THREADS     1024
#define FC_HELPER_MAX_STACK_BYTES 65536

/* Stops each of @tids (threads of @pid) once, with ptrace, copies its registers and @stack_bytes
 * of its stack from the stack pointer up, and lets it go: an "a(ixatay)" of tid, CLOCK_MONOTONIC
 * time, the 17 registers in libunwind's x86-64 order and the stack, for each thread stopped (a
 * thread that ended, that another tracer holds, or that did not stop within the call's deadline,
 * a few ms a thread and 250 ms at most, is left out). The threads still seized that did not stop
 * in time are put in *@late: call fc_helper_release_threads() on them after answering, on the
 * same thread, which is the tracer throughout. NULL with @error when an argument is wrong or no
 * thread could be attached. */
GVariant *fc_helper_sample_threads  (int           pid,
                                     GVariant     *tids,
                                     guint32       stack_bytes,
                                     GArray      **late,
                                     GError      **error);
/* Waits for each of @late to stop (as it leaves the kernel) and lets it go: none stays stopped.
 * Blocks as long as a thread stays in the kernel. */
void      fc_helper_release_threads (GArray       *late);

G_END_DECLS
