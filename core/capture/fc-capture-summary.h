/* fc-capture-summary.h - what a recording captured, told honestly: reach, names, ticks, method
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "fc-sampler.h"

G_BEGIN_DECLS

typedef struct {
  int      tid;
  char    *name;           /* comm, or NULL */
  guint64  n_samples;      /* samples of this thread in the recording */
  guint64  n_ticks;        /* wall mode: ticks requested while the thread lived in the recording;
                            * 0 in cpu mode */
  guint64  n_late;         /* ... of which lost: the sampler was late or over its stop budget */
  guint64  n_refused;      /* ... the kernel would not stop or read the thread */
  guint64  n_too_short;    /* ... the thread had not started or had ended */
  guint64  n_not_python;   /* ... left out: python stacks, and the thread ran no Python then */
} FcThreadSummary;

/* following children: one per process recorded, each its own profile session */
typedef struct {
  int      pid;
  char    *name;           /* its main thread's name as sampled ("comm (pid)"), or NULL */
  char    *profiler_id;
  guint64  n_samples;
  guint    n_chunks;       /* chunks finished so far */
  guint64  n_short;        /* samples of chunks left out: no thread had two samples (Relay's rule) */
} FcProcessSummary;

void fc_process_summary_clear (FcProcessSummary *self);
/* wall mode: requested - captured - lost, 0 when the thread's account holds */
gint64 fc_thread_summary_unaccounted (const FcThreadSummary *t);

typedef struct {
  FcSamplerMode  mode;
  char          *method;          /* how stacks were taken, e.g. "perf events, ptrace for sleeping threads" */
  char          *method_reason;   /* why that method (the fallback's cause), or NULL */
  guint          frequency;
  gboolean       spawned;         /* launch mode */
  gboolean       target_stopped;  /* the target was stopped (debugger, SIGSTOP) when sampling began */
  gboolean       follow_children; /* child processes were recorded too */
  guint64        target_cpu_ns;   /* CPU time of the target and the children it waited for, from its
                                   * exit (launch mode); 0 if unknown */
  guint64        n_samples;
  guint64        n_root;          /* samples whose outermost frame is a root (_start, main, clone...) */
  guint64        n_unnamed_leaf;  /* samples whose leaf function has no name (module+0x...) */
  guint64        n_wait_leaf;     /* samples waiting for a child (wait4, waitpid, vfork) */
  guint64        n_ticks;
  guint64        dropped_ticks;
  guint64        lost_samples;    /* perf samples the kernel dropped */
  guint64        n_ptrace_stops;  /* threads stopped to take a stack */
  double         median_stop_us;
  guint          n_unsampled_threads; /* cpu mode: threads whose perf events could not be opened */
  char          *unsampled_reason;    /* the first such failure, e.g. the locked-memory limit */
  char          *debuginfod;      /* what debuginfod gave ("debuginfod: debug info for 2 of 3 modules ..."),
                                   * or NULL when DEBUGINFOD_URLS is unset or nothing was asked for */
  char          *access_note;     /* how the target was opened when direct access was refused
                                   * (through flamecast-helper), or NULL */
  GArray        *threads;         /* FcThreadSummary, by tid */
  GArray        *processes;       /* FcProcessSummary, in the order they were first sampled */
  GPtrArray     *runtimes;        /* char *: per process, the language runtime found and how its
                                   * frames were named, with what would help ("start node with
                                   * --perf-basic-prof") */
} FcCaptureSummary;

FcCaptureSummary *fc_capture_summary_new              (void);
void              fc_capture_summary_free             (FcCaptureSummary       *self);
/* Several lines for people, ending with a newline; hints (no samples, work in child processes)
 * included. */
char             *fc_capture_summary_format           (const FcCaptureSummary *self);
/* The one hint that matters most when the recording is of little use, or NULL. */
char             *fc_capture_summary_dup_hint         (const FcCaptureSummary *self);
/* TRUE when the work ran in child processes that were not followed */
gboolean          fc_capture_summary_work_in_children (const FcCaptureSummary *self);

/* _start, __libc_start_main, __libc_start_call_main, clone, clone3, start_thread, main; Go's
 * runtime.goexit, runtime.mstart, runtime.main; a Python stack's outermost <module> or
 * Thread._bootstrap */
gboolean          fc_capture_is_root_function         (const char             *function);
/* wait4, waitpid, waitid, wait and their glibc-internal names */
gboolean          fc_capture_is_wait_function         (const char             *function);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcCaptureSummary, fc_capture_summary_free)

G_END_DECLS
