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
 * thread that ended or that another tracer holds is left out). Blocks until every thread stopped:
 * call it on a thread of its own, which is the tracer throughout. NULL with @error when an
 * argument is wrong or no thread could be attached. */
GVariant *fc_helper_sample_threads (int           pid,
                                    GVariant     *tids,
                                    guint32       stack_bytes,
                                    GError      **error);

G_END_DECLS
