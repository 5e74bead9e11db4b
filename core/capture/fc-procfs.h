/* fc-procfs.h - /proc/PID/stat and /proc/PID/status, parsed once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The fields of stat we use, numbered as in proc(5). */
typedef struct {
  char    state;      /* 3: R, S, D, T (stopped), t (traced), Z, X... */
  int     ppid;       /* 4 */
  guint64 flags;      /* 9: PF_* */
  guint64 utime;      /* 14, clock ticks */
  guint64 stime;      /* 15, clock ticks */
  gint64  priority;   /* 18 */
  guint64 start_time; /* 22: clock ticks after boot */
} FcProcStat;

/* The "Key:" lines of status we use; -1 (or 0, '\0', NULL) where the line is missing. */
typedef struct {
  char    *name;        /* Name: */
  char     state;       /* State: */
  int      tgid;        /* Tgid: the thread's process */
  int      pid;         /* Pid: */
  int      ppid;        /* PPid: */
  int      tracer_pid;  /* TracerPid: 0 when nobody traces it */
  int      uid[4];      /* Uid: real, effective, saved, file system */
  guint    n_threads;   /* Threads: */
  guint64  cap_eff;     /* CapEff: */
  int      ns_pid;      /* the last NSpid: the pid the process sees itself as */
} FcProcStatus;

/* @text: the contents of a stat file, whose command name (field 2) may hold
 * spaces and parentheses. FALSE when it is not one. */
gboolean fc_procfs_parse_stat    (const char   *text,
                                  FcProcStat   *stat);
void     fc_procfs_parse_status  (const char   *text,
                                  FcProcStatus *status);
/* @dir: "/proc/PID", "/proc/PID/task/TID", or the same under a test's root.
 * FALSE when the file cannot be read (the process has gone). */
gboolean fc_procfs_read_stat     (const char   *dir,
                                  FcProcStat   *stat);
gboolean fc_procfs_read_status   (const char   *dir,
                                  FcProcStatus *status);
void     fc_procfs_status_clear  (FcProcStatus *status);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FcProcStatus, fc_procfs_status_clear)

G_END_DECLS
