/* fc-attach-check.h - what stands between the profiler and a process, and the fix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <sys/types.h>

#include "fc-sampler.h"

G_BEGIN_DECLS

/* What the kernel will weigh when we attach, read from /proc. */
typedef struct {
  int      ptrace_scope;         /* Yama kernel.yama.ptrace_scope; -1 without Yama */
  int      perf_event_paranoid;  /* kernel.perf_event_paranoid; 2 when unreadable */
  uid_t    euid;                 /* ours */
  gboolean cap_sys_ptrace;       /* in our effective set */
  gboolean cap_perfmon;          /* CAP_PERFMON or CAP_SYS_ADMIN */
  gboolean in_container;         /* docker, podman, kubernetes, lxc */
  /* cpu mode's perf ring buffers are locked memory: first kernel.perf_event_mlock_kb per CPU
   * for each user, then the process's RLIMIT_MEMLOCK; CAP_IPC_LOCK lifts both */
  int      perf_event_mlock_kb;  /* 516 when unreadable */
  guint    n_cpus;
  guint64  memlock_limit;        /* RLIMIT_MEMLOCK (soft), bytes; G_MAXUINT64 when unlimited */
  gboolean cap_ipc_lock;
} FcAttachFacts;

void     fc_attach_facts_read (const char     *proc_root,
                               FcAttachFacts  *facts);

/*
 * Before attaching: FALSE with an FC_SAMPLER_ERROR whose message names what
 * stands in the way and the exact fix: no such process, already traced by
 * PID (comm), another user's process, Yama ptrace_scope, and for
 * FC_SAMPLER_MODE_CPU perf_event_paranoid. @pid 0 checks what holds for any
 * process of ours (not a child). It cannot see everything (a container's
 * seccomp profile shows only when attaching fails; that message says so).
 */
gboolean fc_attach_check      (GPid            pid,
                               FcSamplerMode   mode,
                               GError        **error);
/* The same, reading a /proc-like tree at @proc_root (for tests): @proc_root/self/status,
 * @proc_root/PID/status and comm, @proc_root/sys/kernel/{yama/ptrace_scope,perf_event_paranoid},
 * @proc_root/1/cgroup. */
gboolean fc_attach_check_at   (const char     *proc_root,
                               GPid            pid,
                               FcSamplerMode   mode,
                               GError        **error);

/* After a failed PTRACE_SEIZE/perf_event_open (@what) with errno @err on @pid:
 * the same messages, with what the failure adds (a container's limits). */
void     fc_attach_error_set  (GError        **error,
                               GPid            pid,
                               int             err,
                               const char     *what);

/* The locked-memory limits on perf ring buffers, for people (doctor): one line, no newline. */
char    *fc_attach_describe_mlock (const FcAttachFacts *facts);
/* After mmap of thread @tid's perf ring buffer failed with @err (EPERM or ENOMEM): the limit
 * that was reached, its value, and the fix. */
void     fc_attach_mlock_error_set (GError       **error,
                                    int            tid,
                                    int            err);

G_END_DECLS
