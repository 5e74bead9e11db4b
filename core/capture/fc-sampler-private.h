/* fc-sampler-private.h - what the sampler's files share: the thread table, the sampler's state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything here belongs to the sampler thread unless a field says "protected by lock".
 */

#pragma once

#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "fc-perf.h"
#include "fc-sampler.h"

G_BEGIN_DECLS

#ifndef PTRACE_EVENT_STOP
# define PTRACE_EVENT_STOP 128
#endif

typedef struct {
  FcSampler    *sampler;
  int           tid;
  int           pid;                /* its process: the target, or a child followed */
  int           schedstat_fd;       /* opened when first needed; -2 before */
  guint64       last_runtime;       /* schedstat at the last capture: ns on a CPU */
  guint64       last_pcount;        /* ... and times it was put on a CPU */
  gint64        interrupt_ns;
  FcPerfStream *perf;
  FcPerfStream *off_cpu_perf;       /* wall mode: its stack each time it leaves a CPU */
  FcTickCount  *ticks;              /* its line in tick_counts, written under lock */
  FcSnapshot   *first_stack;        /* wall mode, perf: its stack at birth, taken at the stop the
                                     * kernel gives a new thread; handed on at its first tick */
  gint64        data_ns;            /* wall mode: when the stack handed on last was taken */
  gint64        read_ns;            /* wall mode, perf: when its ring was read last */
  guint64       last_stop_tick;     /* wall mode: the tick of its last ptrace stop */
  gint64        added_ns;           /* when the sampler learnt of it */
  gint64        state_checked_ns;   /* wall mode, perf, no stack yet: when its state was read */
  guint64       unticked_before;    /* wall mode: of the sampler's unticked expirations, those
                                     * that fired before it was known: not its own */
  guint         tick_pending : 1;     /* a tick waits for its ptrace stop */
  guint         switch_seen : 1;      /* wall mode, perf: a context switch told its state */
  guint         off_cpu_unread : 1;   /* wall mode, perf: its first ring moved since its switch-out
                                       * ring was last read */
  guint         off_cpu : 1;
  guint         preempted : 1;        /* off CPU but runnable */
  guint         fresh : 1;            /* a new thread before its first stop: not yet run */
  guint         interrupt_pending : 1;
  guint         group_stopped : 1;
  guint         have_sample : 1;      /* a previous sample exists to reuse */
  guint         stopped_by_us : 1;    /* our previous stop made it run a little */
  guint         born_after_tick : 1;  /* the tick under way fired before it was known */
  guint         runnable : 1;         /* ... and it was waiting for a CPU then */
  guint         first_wanted : 1;     /* its pending interrupt is the attach's, for its first stack
                                       * (fc-sampler-first.c), not a tick's */
} Task;

typedef enum {
  CMD_ATTACH,
  CMD_SPAWN,
  CMD_START,
  CMD_STOP,
  CMD_DETACH,
  CMD_QUIT,
} CommandKind;

typedef struct {
  CommandKind         kind;
  GPid                pid;
  FcSamplerMode       mode;
  const char * const *argv;
  const char         *cwd;        /* of a launched command; NULL: ours */
  guint               frequency;
  guint               stack_size;
  GError             *error;
  gboolean            ok;
  gboolean            done;
} Command;

struct _FcSampler {
  FcSnapshotSink  sink;
  FcSnapshotBatchEnd batch_end;   /* or NULL */
  gpointer        sink_data;
  GThread        *thread;         /* NULL once it ended to release a target, until the next command */
  int             thread_tid;     /* its kernel id: gone from the kernel once the release is done */
  int             wake_fd;
  int             nice;           /* of the process, restored in spawned commands */

  GMutex          lock;
  GCond           cond;
  Command        *command;        /* protected by lock; an ended thread leaves its last one set
                                   * until its caller has joined it, so no other command reaches
                                   * a thread that is going */
  gboolean        thread_ends;    /* protected by lock: the thread ends after its command */
  FcSamplerStats  stats;          /* protected by lock */
  GArray         *stop_times;     /* protected by lock: recent hold times in us, a ring */
  double          max_stop_us;    /* protected by lock: the longest hold */
  guint           stop_times_pos;
  GHashTable     *tick_counts;    /* protected by lock: tid -> FcTickCount*, this target's */
  gboolean        off_cpu_stacks; /* protected by lock (written on the sampler thread): wall mode
                                   * takes sleeping threads' stacks from switch-out samples */
  guint64         tick_serial;    /* ticks so far */
  guint64         unticked;       /* timer expirations taken but not yet ticked (sampler thread) */
  char           *method_reason;  /* protected by lock: why wall mode stops threads, or NULL */
  gboolean        wall_perf;      /* protected by lock (written on the sampler thread): wall mode
                                   * takes running threads' stacks from perf events */
  gboolean        target_stopped; /* protected by lock: group-stopped when attached */
  gboolean        follow_children; /* protected by lock: for the next attach or spawn */
  char          **launch_environ; /* protected by lock: the next spawn's environment, NULL: ours */
  guint64         target_cpu_ns;  /* protected by lock: the target's CPU time and its reaped
                                   * descendants', from its exit status; 0 if unknown */
  GHashTable     *unsampled;      /* protected by lock: tids of the target's threads whose perf
                                   * events could not be opened (cpu mode) */
  char           *unsampled_reason; /* protected by lock: the first such failure */

  /* sampler thread only */
  GHashTable     *tasks;          /* tid -> Task* */
  GPid            pid;
  FcSamplerMode   mode;
  gboolean        attached;
  gboolean        spawned;
  gboolean        sampling;
  gboolean        exited;
  gboolean        follow;         /* child processes are traced and sampled too */
  gboolean        traced;         /* ptrace events are ours: wall mode, or following children */
  gboolean        helper_wall;    /* wall mode's stops made by flamecast-helper (fc-sampler-helper.c) */
  gboolean        release_by_exit; /* tracees remain that this thread's end lets go (exit_ptrace) */
  int             timer_fd;
  int             perf_epoll_fd;  /* cpu mode: the threads' perf fds, readable when half full */
  int             pidfd;
  guint           frequency;
  guint           stack_size;
  guint           pending;        /* interrupts sent, stops not yet seen */
  gint64          start_ns;       /* when sampling started */
  gboolean        force_ptrace;    /* protected by lock */
  guint           next_frequency;  /* protected by lock: from fc_sampler_set_options() */
  guint           next_stack_size; /* protected by lock */
  gint64          last_rescan_us;
  nlink_t         task_links;     /* cpu mode: links of /proc/PID/task at the last look */
  gint64          threads_listed_us; /* sandboxed: when the helper last listed the threads */
  gint64          last_event_us;  /* last ptrace event other than our own interrupt stops */
  gint64          last_collect_us; /* when the loop last looked for ptrace events */
  GPtrArray      *tick_captured;  /* in a tick's pass over the threads: Task* captured, counted
                                   * at its end (fc-sampler-ticks.c), else NULL */
  guint           tick_reused;    /* ... of them with their last stack again */
};

/* FC_DEBUG_SAMPLER=1 traces every ptrace event on stderr */
extern gboolean fc_sampler_debug;

static inline gint64
fc_sampler_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * FC_NSEC_PER_SEC + ts.tv_nsec;
}

static inline void
fc_sampler_emit (FcSampler  *self,
                 FcSnapshot *snap)
{
  self->sink (snap, self->sink_data);
}

static inline void
fc_sampler_batch_end (FcSampler *self)
{
  if (self->batch_end != NULL)
    self->batch_end (self->sink_data);
}

/* the sampler thread (fc-sampler.c) */
void fc_sampler_reset_target (FcSampler *self);

/* the thread table (fc-sampler-tasks.c) */
GArray * fc_sampler_list_descendants (int pid);
GArray * fc_sampler_list_tasks (GPid pid);
GHashTable * fc_sampler_live_tasks (GPid pid);
void fc_sampler_note_unsampled (FcSampler *self, int tid, const GError *error);
void fc_sampler_target_exited (FcSampler *self, int status);
Task * fc_sampler_task_add (FcSampler *self, int pid, int tid);
void fc_sampler_task_free (Task *task);
void fc_sampler_task_gone (FcSampler *self, int tid, int status);
gboolean fc_sampler_task_ran (Task *task, guint64 runtime, guint64 pcount);
gboolean fc_sampler_task_sched (Task *task, guint64 *runtime, guint64 *pcount);

/* the ptrace path (fc-sampler-ptrace.c) */
void fc_sampler_capture (FcSampler *self, Task *task, int resume_signal, gboolean listen);
void fc_sampler_collect_events (FcSampler *self, gboolean block_for_pending);
void fc_sampler_do_detach_all (FcSampler *self);
gboolean fc_sampler_interrupt_task (FcSampler *self, Task *task);
void fc_sampler_note_target_cpu (FcSampler *self, const struct rusage *usage);
gboolean fc_sampler_seize_all (FcSampler *self, GError **error);
void fc_sampler_seize_descendants (FcSampler *self);
long fc_sampler_trace_options (FcSampler *self);

/* wall mode's attach: first stacks of the threads asleep (fc-sampler-first.c) */
void fc_sampler_first_stacks (FcSampler *self);

/* wall mode through flamecast-helper (fc-sampler-helper.c) */
gboolean fc_sampler_helper_attach (FcSampler *self, GError **error);
void fc_sampler_helper_rescan (FcSampler *self);
void fc_sampler_helper_stop (FcSampler *self, GPtrArray *to_stop, guint n);

/* perf events (fc-sampler-perf.c) */
void fc_sampler_choose_wall_method (FcSampler *self, GPid pid);
void fc_sampler_collect_perf_sample_cb (FcSnapshot *snapshot, gpointer user_data);
void fc_sampler_collect_switch_cb (FcPerfSwitch kind, gint64 time_ns, gpointer user_data);
void fc_sampler_perf_drain_all (FcSampler *self);
void fc_sampler_perf_drain_ready (FcSampler *self);
void fc_sampler_perf_watch (FcSampler *self, Task *task);
gboolean fc_sampler_perf_open_all (FcSampler *self, gboolean enable_on_exec, GError **error);
void fc_sampler_perf_rescan (FcSampler *self);
gboolean fc_sampler_threads_changed (FcSampler *self);
gboolean fc_sampler_perf_tick_task (FcSampler *self, Task *task, gint64 tick_ns);
void fc_sampler_task_open_cpu_perf (FcSampler *self, Task *task);
void fc_sampler_task_open_wall_perf (FcSampler *self, Task *task);

/* ticks and their accounting (fc-sampler-ticks.c) */
typedef enum {
  FC_TICK_CAPTURED,
  FC_TICK_LATE,
  FC_TICK_REFUSED,
  FC_TICK_TOO_SHORT,
} FcTickOutcome;

void fc_sampler_tick_outcome (FcSampler *self, Task *task, FcTickOutcome outcome);
void fc_sampler_tick_captured (FcSampler *self, Task *task, gboolean reused);
FcTickCount *fc_sampler_tick_count (FcSampler *self, int tid);
void fc_sampler_count_sample (FcSampler *self, gboolean reused);
void fc_sampler_emit_reuse (FcSampler *self, Task *task, gint64 t);
void fc_sampler_interrupt_tick (FcSampler *self, guint64 expirations);
void fc_sampler_take_expirations (FcSampler *self);
void fc_sampler_tick_arrival (FcSampler *self, Task *task);
void fc_sampler_tick_departure (FcSampler *self, Task *task);

G_END_DECLS
