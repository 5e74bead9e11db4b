/* fc-process-list.h - the processes one could record, read from /proc
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct {
  GPid     pid;
  uid_t    uid;
  char    *user;        /* the user's name, or the uid as text */
  char    *name;        /* comm */
  char    *cmdline;     /* arguments joined by spaces; "[name]" without any (kernel threads) */
  guint    n_threads;
  guint64  cpu_ticks;   /* utime + stime, in clock ticks (sysconf (_SC_CLK_TCK)) */
  gboolean kernel;      /* a kernel thread (kthreadd's): nothing to record there */
} FcProcessInfo;

void       fc_process_info_free  (FcProcessInfo *info);
/* FcProcessInfo* of every process under @proc_root ("/proc"), by pid;
 * processes that exit while being read are left out. Blocking: call it
 * from a worker. */
GPtrArray *fc_process_list_read  (const char    *proc_root);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcProcessInfo, fc_process_info_free)

G_END_DECLS
