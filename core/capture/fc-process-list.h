/* fc-process-list.h - the processes one could record, read from /proc
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Also compiled into flamecast-helper, which reads the host's /proc for a
 * sandboxed Flamecast and sends the list over D-Bus in the form below: one
 * spelling of it for both ends.
 */

#pragma once

#include <gio/gio.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* the longest command line kept (bytes): the picker shows one line */
#define FC_PROCESS_CMDLINE_MAX 1024
/* the list over D-Bus, one "(iiussssuttb)" a process: pid, ppid, uid, user, name, cmdline, exe,
 * threads, cpu ticks, start time, kernel */
#define FC_PROCESS_LIST_TYPE "a(iiussssuttb)"

/* where a list came from */
typedef enum {
  FC_PROCESS_SOURCE_PROC,     /* this process's /proc */
  FC_PROCESS_SOURCE_HELPER,   /* the host's, from flamecast-helper (a sandboxed Flamecast) */
} FcProcessSource;

typedef struct {
  GPid     pid;
  GPid     ppid;
  uid_t    uid;
  char    *user;        /* the user's name, or the uid as text */
  char    *name;        /* comm */
  char    *cmdline;     /* arguments joined by spaces, at most FC_PROCESS_CMDLINE_MAX bytes;
                         * "[name]" without any (kernel threads) */
  char    *exe;         /* the program's path, "" where this user may not read /proc/PID/exe */
  guint    n_threads;
  guint64  cpu_ticks;   /* utime + stime, in clock ticks (sysconf (_SC_CLK_TCK)) */
  guint64  start_time;  /* clock ticks after boot */
  gboolean kernel;      /* a kernel thread (kthreadd's): nothing to record there */
} FcProcessInfo;

void       fc_process_info_free  (FcProcessInfo *info);
/* FcProcessInfo* of every process under @proc_root ("/proc"), by pid;
 * processes that exit while being read are left out. Blocking: call it
 * from a worker. */
GPtrArray *fc_process_list_read  (const char    *proc_root);

/* @list as a floating FC_PROCESS_LIST_TYPE; processes past @max_bytes of text are left out
 * (*@n_left_out says how many) so that a D-Bus message stays small. Strings are made valid
 * UTF-8 (a command line is bytes). */
GVariant  *fc_process_list_to_variant   (GPtrArray     *list,
                                          gsize          max_bytes,
                                          guint         *n_left_out);
/* The list back from @variant, every field checked (a positive pid, bounded strings, no
 * duplicate); NULL with G_IO_ERROR_INVALID_DATA naming the field otherwise. */
GPtrArray *fc_process_list_from_variant (GVariant      *variant,
                                          GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcProcessInfo, fc_process_info_free)

G_END_DECLS
