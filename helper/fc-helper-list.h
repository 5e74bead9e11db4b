/* fc-helper-list.h - the host's processes for a sandboxed caller, as ps would show them to it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* the most text one answer carries (command lines, paths, names): a D-Bus message stays small */
#define FC_HELPER_LIST_MAX_BYTES (8 * 1024 * 1024)

/* The processes under @proc_root as an "(a(iiussssuttb)u)": the list (fc-process-list.h's form)
 * and how many were left out past FC_HELPER_LIST_MAX_BYTES. Unless @see_all, the caller (@uid)
 * sees what ps would show it: every process's name, command line, threads and times, but the
 * program path (/proc/PID/exe) only of its own, and none of other users' processes when /proc
 * hides them (hidepid). */
GVariant *fc_helper_list_processes (const char *proc_root,
                                    guint32     uid,
                                    gboolean    see_all);

G_END_DECLS
