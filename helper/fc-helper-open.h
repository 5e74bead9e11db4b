/* fc-helper-open.h - what the helper opens for a caller, every argument checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE if @pid is a process or thread that exists and is not the helper itself */
gboolean fc_helper_check_process    (int           pid,
                                      GError      **error);
/* start time of @pid in clock ticks since boot (/proc/PID/stat field 22), 0 if it has none */
guint64 fc_helper_process_start_time (int           pid);
/* a perf event on thread @tid with the caller's attributes, if they ask only for what Flamecast
 * uses (software clocks and context switches, user registers and stack); -1 with @error */
int     fc_helper_open_perf          (GBytes       *attr,
                                      int           tid,
                                      GError      **error);
/* /proc/@pid/@name, read-only, for @name one of maps, mem, stat, status, comm, schedstat,
 * cmdline, exe (@pid may be a thread's); no other name, no path */
int     fc_helper_open_proc          (int           pid,
                                      const char   *name,
                                      GError      **error);
/* the file @pid maps at @path (exactly as its maps show it), read-only, through map_files */
int     fc_helper_open_mapped        (int           pid,
                                      const char   *path,
                                      GError      **error);
/* @pid's threads, "ai" (floating) */
GVariant *fc_helper_list_threads     (int           pid,
                                      GError      **error);
/* a pidfd for @pid: readable when it exits */
int     fc_helper_open_pidfd         (int           pid,
                                      GError      **error);

G_END_DECLS
