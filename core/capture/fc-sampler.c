/* fc-sampler.c - captures registers and stack bytes of a target's threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One thread, the sampler thread, owns the target: it alone issues ptrace
 * requests (the kernel binds tracees to the thread that seized them) and
 * reads the perf ring buffers. It does the least possible while a thread is
 * held: PTRACE_GETREGSET, one process_vm_readv of the top of the stack, and
 * PTRACE_CONT. Unwinding happens later, on the recorder's worker.
 *
 * Safety. Tracees are seized with PTRACE_SEIZE, so when the profiler dies
 * the kernel detaches them (exit_ptrace), clearing any pending
 * PTRACE_INTERRUPT trap, and wakes those held in a ptrace-stop; a thread the
 * user stopped (group-stop) stays stopped, as it would without us. Spawned
 * commands get no PR_SET_PDEATHSIG: they must outlive a crashed profiler.
 * Signals that arrive while seized are re-injected at once, and group-stops
 * are honoured with PTRACE_LISTEN.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <elf.h>
#include <time.h>
#include <unistd.h>

#include <libunwind.h>

#include "fc-attach-check.h"
#include "fc-error.h"
#include "fc-perf.h"
#include "fc-sampler.h"

#ifndef PTRACE_EVENT_STOP
# define PTRACE_EVENT_STOP 128
#endif

G_DEFINE_ENUM_TYPE (FcSamplerMode, fc_sampler_mode,
                    G_DEFINE_ENUM_VALUE (FC_SAMPLER_MODE_WALL, "wall"),
                    G_DEFINE_ENUM_VALUE (FC_SAMPLER_MODE_CPU, "cpu"))

typedef struct {
  int           tid;
  int           pid;                /* its process: the target, or a child followed */
  int           schedstat_fd;
  guint64       last_runtime;       /* schedstat at the last capture: ns on a CPU */
  guint64       last_pcount;        /* ... and times it was put on a CPU */
  gint64        interrupt_ns;
  FcPerfStream *perf;
  FcSnapshot   *latest;               /* wall mode, perf: newest on-CPU sample since the last tick */
  guint         switch_seen : 1;      /* wall mode, perf: a context switch told its state */
  guint         off_cpu : 1;
  guint         preempted : 1;        /* off CPU but runnable */
  guint         fresh : 1;            /* a new thread before its first stop: not yet run */
  guint         interrupt_pending : 1;
  guint         group_stopped : 1;
  guint         have_sample : 1;      /* a previous sample exists to reuse */
  guint         stopped_by_us : 1;    /* our previous stop made it run a little */
  guint         detaching : 1;
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
  guint               frequency;
  guint               stack_size;
  GError             *error;
  gboolean            ok;
  gboolean            done;
} Command;

struct _FcSampler {
  FcSnapshotSink  sink;
  gpointer        sink_data;
  GThread        *thread;
  int             wake_fd;
  int             nice;           /* of the process, restored in spawned commands */

  GMutex          lock;
  GCond           cond;
  Command        *command;        /* protected by lock */
  FcSamplerStats  stats;          /* protected by lock */
  GArray         *stop_times;     /* protected by lock: recent hold times in us, a ring */
  guint           stop_times_pos;
  GHashTable     *tick_counts;    /* protected by lock: tid -> ticks while we knew it (guint64*) */
  char           *method_reason;  /* protected by lock: why wall mode stops threads, or NULL */
  gboolean        wall_perf;      /* protected by lock (written on the sampler thread): wall mode
                                   * takes running threads' stacks from perf events */
  gboolean        target_stopped; /* protected by lock: group-stopped when attached */
  gboolean        follow_children; /* protected by lock: for the next attach or spawn */
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
  int             timer_fd;
  int             pidfd;
  guint           frequency;
  guint           stack_size;
  guint           pending;        /* interrupts sent, stops not yet seen */
  gboolean        force_ptrace;    /* protected by lock */
  guint           next_frequency;  /* protected by lock: from fc_sampler_set_options() */
  guint           next_stack_size; /* protected by lock */
  gint64          last_rescan_us;
  gint64          last_event_us;  /* last ptrace event other than our own interrupt stops */
};

/* FC_DEBUG_SAMPLER=1 traces every ptrace event on stderr */
static gboolean debug_sampler;

static gint64
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * FC_NSEC_PER_SEC + ts.tv_nsec;
}

static void
task_free (Task *task)
{
  if (task->schedstat_fd >= 0)
    close (task->schedstat_fd);
  fc_perf_stream_free (task->perf);
  g_free (task->latest);
  g_free (task);
}

static gboolean task_sched (Task *task, guint64 *runtime, guint64 *pcount);

/* Wall mode's running threads are sampled by perf events: the kernel copies
 * registers and stack, the thread is never stopped. */
static void
task_open_wall_perf (FcSampler *self,
                     Task      *task)
{
  g_autoptr(GError) error = NULL;

  task->perf = fc_perf_stream_open_full (task->tid, self->frequency ? self->frequency : 101, self->stack_size,
                                         FC_PERF_SWITCHES | FC_PERF_SMALL_RING, &error);
  if (task->perf == NULL)
    {
      /* this thread is sampled with ptrace stops, like every thread of the fallback */
      if (debug_sampler)
        g_printerr ("thread %d: %s\n", task->tid, error->message);
      return;
    }
  fc_perf_stream_enable (task->perf, self->sampling);
  /* a thread whose run time does not move from here is asleep: one ptrace capture */
  task_sched (task, &task->last_runtime, &task->last_pcount);
}

/* The process a thread belongs to (its thread group), or 0 once it is gone. */
static int
tid_process (int tid)
{
  char path[64];
  g_autofree char *status = NULL;
  const char *p;

  g_snprintf (path, sizeof path, "/proc/%d/status", tid);
  if (!g_file_get_contents (path, &status, NULL, NULL) || (p = strstr (status, "\nTgid:")) == NULL)
    return 0;
  return atoi (p + 6);
}

/* Cpu mode: a thread left unsampled (its ring buffer could not be mapped, most often) is
 * told in the summary, never dropped in silence. */
static void
note_unsampled (FcSampler    *self,
                int           tid,
                const GError *error)
{
  if (debug_sampler)
    g_printerr ("thread %d: %s\n", tid, error->message);
  if (g_error_matches (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS))
    return;   /* gone before we came: nothing was missed */
  g_mutex_lock (&self->lock);
  g_hash_table_add (self->unsampled, GINT_TO_POINTER (tid));
  if (self->unsampled_reason == NULL)
    self->unsampled_reason = g_strdup (error->message);
  g_mutex_unlock (&self->lock);
}

/* Cpu mode while following children: a perf event on each thread as ptrace reports it. */
static void
task_open_cpu_perf (FcSampler *self,
                    Task      *task)
{
  g_autoptr(GError) error = NULL;

  task->perf = fc_perf_stream_open (task->tid, self->frequency ? self->frequency : 101, self->stack_size,
                                    FALSE, &error);
  if (task->perf == NULL)
    {
      note_unsampled (self, task->tid, error);
      return;
    }
  fc_perf_stream_enable (task->perf, self->sampling);
}

/* @pid: the thread's process, or 0 to look it up */
static Task *
task_add (FcSampler *self,
          int        pid,
          int        tid)
{
  Task *task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (tid));
  g_autofree char *path = NULL;

  if (task != NULL)
    return task;
  if (pid <= 0)
    pid = self->follow ? tid_process (tid) : self->pid;
  task = g_new0 (Task, 1);
  task->tid = tid;
  task->pid = pid > 0 ? pid : self->pid;
  path = g_strdup_printf ("/proc/%d/task/%d/schedstat", task->pid, tid);
  task->schedstat_fd = open (path, O_RDONLY | O_CLOEXEC);
  g_hash_table_insert (self->tasks, GINT_TO_POINTER (tid), task);
  if (self->mode == FC_SAMPLER_MODE_WALL && self->wall_perf)
    task_open_wall_perf (self, task);
  else if (self->mode == FC_SAMPLER_MODE_CPU && self->follow)
    task_open_cpu_perf (self, task);
  return task;
}

/* ptrace options: threads and exec always; new processes too when following children */
static long
trace_options (FcSampler *self)
{
  long options = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC;

  if (self->follow)
    options |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
  return options;
}

/* schedstat: ns on a CPU, ns waiting for one, times put on one */
static gboolean
task_sched (Task    *task,
            guint64 *runtime,
            guint64 *pcount)
{
  char buf[128];
  char *end;
  ssize_t n;

  *runtime = *pcount = G_MAXUINT64;
  if (task->schedstat_fd < 0)
    return FALSE;
  n = pread (task->schedstat_fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return FALSE;
  buf[n] = 0;
  *runtime = g_ascii_strtoull (buf, &end, 10);
  g_ascii_strtoull (end, &end, 10);
  *pcount = g_ascii_strtoull (end, NULL, 10);
  return TRUE;
}

/* Whether the thread ran since its last capture. Our own stop made a
 * sleeping thread run twice, briefly (to its trap, then back to its wait):
 * that is allowed for once. Run time alone cannot tell a thread that woke
 * for a few microseconds and went to sleep elsewhere; the count of times it
 * was put on a CPU can. */
static gboolean
task_ran (Task    *task,
          guint64  runtime,
          guint64  pcount)
{
  guint64 time_slack = task->stopped_by_us ? 200 * 1000 : 0;
  guint64 count_slack = task->stopped_by_us ? 2 : 0;

  if (runtime == G_MAXUINT64)
    return TRUE;
  return runtime < task->last_runtime || runtime - task->last_runtime > time_slack ||
         pcount < task->last_pcount || pcount - task->last_pcount > count_slack;
}

static void
emit (FcSampler  *self,
      FcSnapshot *snap)
{
  self->sink (snap, self->sink_data);
}

static void
record_stop_time (FcSampler *self,
                  double     us)
{
  g_mutex_lock (&self->lock);
  if (self->stop_times->len < 4096)
    g_array_append_val (self->stop_times, us);
  else
    {
      g_array_index (self->stop_times, double, self->stop_times_pos) = us;
      self->stop_times_pos = (self->stop_times_pos + 1) % 4096;
    }
  g_mutex_unlock (&self->lock);
}

/* Copies registers and the stack from SP up, page by page, so an unmapped
 * page ends the copy instead of failing it. */
static void
capture (FcSampler *self,
         Task      *task,
         int        resume_signal,
         gboolean   listen)
{
  struct user_regs_struct r;
  struct iovec io = { &r, sizeof r };
  struct iovec local[10], remote[10];
  FcSnapshot *snap;
  guint64 sp, addr;
  gsize want, got_total = 0;
  guint n = 0;
  ssize_t got;

  if (debug_sampler)
    g_printerr ("capture tid %d\n", task->tid);
  if (ptrace (PTRACE_GETREGSET, task->tid, (void *) NT_PRSTATUS, &io) != 0)
    {
      if (listen)
        ptrace (PTRACE_LISTEN, task->tid, NULL, NULL);
      else
        ptrace (PTRACE_CONT, task->tid, NULL, GINT_TO_POINTER (resume_signal));
      return;
    }
  sp = r.rsp;
  want = self->stack_size;
  snap = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, task->tid, want);
  snap->pid = task->pid;
  addr = sp;
  while (got_total < want && n < G_N_ELEMENTS (remote))
    {
      gsize chunk = MIN (want - got_total, 4096 - (addr & 4095));
      local[n].iov_base = snap->stack + got_total;
      local[n].iov_len = chunk;
      remote[n].iov_base = GSIZE_TO_POINTER (addr);
      remote[n].iov_len = chunk;
      addr += chunk;
      got_total += chunk;
      n++;
    }
  got = process_vm_readv (task->tid, local, n, remote, n, 0);
  snap->stack_len = got > 0 ? got : 0;
  snap->stack_addr = sp;
  snap->time_ns = now_ns ();

  snap->regs[UNW_X86_64_RAX] = r.rax;
  snap->regs[UNW_X86_64_RDX] = r.rdx;
  snap->regs[UNW_X86_64_RCX] = r.rcx;
  snap->regs[UNW_X86_64_RBX] = r.rbx;
  snap->regs[UNW_X86_64_RSI] = r.rsi;
  snap->regs[UNW_X86_64_RDI] = r.rdi;
  snap->regs[UNW_X86_64_RBP] = r.rbp;
  snap->regs[UNW_X86_64_RSP] = r.rsp;
  snap->regs[UNW_X86_64_R8] = r.r8;
  snap->regs[UNW_X86_64_R9] = r.r9;
  snap->regs[UNW_X86_64_R10] = r.r10;
  snap->regs[UNW_X86_64_R11] = r.r11;
  snap->regs[UNW_X86_64_R12] = r.r12;
  snap->regs[UNW_X86_64_R13] = r.r13;
  snap->regs[UNW_X86_64_R14] = r.r14;
  snap->regs[UNW_X86_64_R15] = r.r15;
  snap->regs[UNW_X86_64_RIP] = r.rip;

  /* the snapshot is complete: release the thread before anything else (a thread in a
   * group-stop goes back to it) */
  if (listen)
    ptrace (PTRACE_LISTEN, task->tid, NULL, NULL);
  else
    ptrace (PTRACE_CONT, task->tid, NULL, GINT_TO_POINTER (resume_signal));
  record_stop_time (self, (now_ns () - task->interrupt_ns) / 1000.0);

  task->have_sample = TRUE;
  /* Stopped inside a blocking system call (the call returns a restart code to
   * be made again): the thread only ran to its trap and back into the call,
   * which the next tick excuses. A thread stopped in its own code (running,
   * or just born) gets no such excuse: whatever it runs next is its own. */
  task->stopped_by_us = (gint64) r.orig_rax >= 0 &&
                        ((gint64) r.rax == -EINTR || ((gint64) r.rax <= -512 && (gint64) r.rax >= -516));
  emit (self, snap);
}

static void
target_exited (FcSampler *self,
               int        status)
{
  FcSnapshot *snap;

  if (self->exited)
    return;
  self->exited = TRUE;
  snap = fc_snapshot_new (FC_SNAPSHOT_TARGET_EXIT, self->pid, 0);
  snap->pid = self->pid;
  snap->status = status;
  snap->time_ns = now_ns ();
  emit (self, snap);
}

static void
task_gone (FcSampler *self,
           int        tid,
           int        status)
{
  Task *task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (tid));
  int pid = task != NULL ? task->pid : 0;

  if (task != NULL)
    {
      if (task->interrupt_pending && self->pending > 0)
        self->pending--;
      /* cpu mode: its last samples are still in the ring */
      if (task->perf != NULL && self->mode == FC_SAMPLER_MODE_CPU)
        fc_perf_stream_drain (task->perf, self->sink, self->sink_data, NULL);
      g_hash_table_remove (self->tasks, GINT_TO_POINTER (tid));
    }
  if (tid != self->pid && tid == pid && self->follow)
    {
      GHashTableIter iter;
      FcSnapshot *snap;

      /* A child followed is gone (its leader's exit comes last, as for the target): the
       * recorder finishes its chunk and lets go of what it kept to read its stacks. */
      g_hash_table_iter_init (&iter, self->tasks);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
        if (task->pid == pid)
          {
            if (task->interrupt_pending && self->pending > 0)
              self->pending--;
            if (task->perf != NULL && self->mode == FC_SAMPLER_MODE_CPU)
              fc_perf_stream_drain (task->perf, self->sink, self->sink_data, NULL);
            g_hash_table_iter_remove (&iter);
          }
      snap = fc_snapshot_new (FC_SNAPSHOT_PROCESS_EXIT, pid, 0);
      snap->pid = pid;
      snap->status = status;
      snap->time_ns = now_ns ();
      emit (self, snap);
    }
  if (tid == self->pid)
    {
      GHashTableIter iter;

      /* The leader's exit is reported last, once the whole group is gone. Children that
       * outlive it stay traced until the detach, which releases them. */
      g_hash_table_iter_init (&iter, self->tasks);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
        if (task->pid == self->pid)
          g_hash_table_iter_remove (&iter);
      if (g_hash_table_size (self->tasks) == 0)
        {
          self->pending = 0;
          self->attached = FALSE;
        }
      target_exited (self, status);
    }
}

/* A detached thread: no longer ours, but not gone. */
static void
task_forget (FcSampler *self,
             int        tid)
{
  Task *task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (tid));

  if (task != NULL && task->interrupt_pending && self->pending > 0)
    self->pending--;
  g_hash_table_remove (self->tasks, GINT_TO_POINTER (tid));
}

/* Handles one wait status of a tracee. While detaching, every stop ends in PTRACE_DETACH. */
static void
handle_wait_status (FcSampler *self,
                    int        tid,
                    int        status,
                    gboolean   detaching)
{
  Task *task;
  int sig, event;
  gboolean took_interrupt = FALSE;

  if (WIFEXITED (status) || WIFSIGNALED (status))
    {
      self->last_event_us = g_get_monotonic_time ();
      task_gone (self, tid, status);
      return;
    }
  if (!WIFSTOPPED (status))
    return;

  sig = WSTOPSIG (status);
  event = status >> 16;
  task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (tid));
  if (task == NULL)
    task = task_add (self, 0, tid);   /* a new thread's first stop can come before its parent's clone event */
  else if (task->fresh)
    {
      /* its first stop, before it ran: its run time so far is not ours to excuse */
      task_sched (task, &task->last_runtime, &task->last_pcount);
    }
  task->fresh = FALSE;

  /* any ptrace-stop consumes a pending PTRACE_INTERRUPT (the kernel clears the trap on every
   * trap), so whatever stop comes first is the sample */
  if (task->interrupt_pending)
    {
      task->interrupt_pending = FALSE;
      if (self->pending > 0)
        self->pending--;
      took_interrupt = TRUE;
    }

  if (!(event == PTRACE_EVENT_STOP && took_interrupt))
    self->last_event_us = g_get_monotonic_time ();

  if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK)
    {
      unsigned long new_tid = 0;
      /* a thread of the same process, or (following children) a new process, whose
       * first stop is near */
      if (ptrace (PTRACE_GETEVENTMSG, tid, NULL, &new_tid) == 0 && new_tid > 0 &&
          !g_hash_table_contains (self->tasks, GINT_TO_POINTER ((int) new_tid)))
        task_add (self, event == PTRACE_EVENT_CLONE ? 0 : (int) new_tid, new_tid)->fresh = TRUE;
      if (detaching && task->detaching)
        {
          ptrace (PTRACE_DETACH, tid, NULL, NULL);
          task->detaching = FALSE;
          task_forget (self, tid);
        }
      else if (took_interrupt && self->sampling && !detaching)
        capture (self, task, 0, FALSE);
      else
        ptrace (PTRACE_CONT, tid, NULL, NULL);
      return;
    }

  if (event == PTRACE_EVENT_EXEC)
    {
      unsigned long old_tid = 0;
      GHashTableIter iter;
      gpointer key, value;

      /* every other thread of its process is gone and the execing one now has the leader's tid */
      ptrace (PTRACE_GETEVENTMSG, tid, NULL, &old_tid);
      g_hash_table_iter_init (&iter, self->tasks);
      while (g_hash_table_iter_next (&iter, &key, (gpointer *) &value))
        {
          Task *other = value;
          if (GPOINTER_TO_INT (key) == tid || other->pid != task->pid)
            continue;
          if (other->interrupt_pending && self->pending > 0)
            self->pending--;
          g_hash_table_iter_remove (&iter);
        }
      task->interrupt_pending = FALSE;
      task->have_sample = FALSE;
      /* cpu mode: samples of the old program are symbolized with its modules, before the exec */
      if (task->perf != NULL && self->mode == FC_SAMPLER_MODE_CPU)
        fc_perf_stream_drain (task->perf, self->sink, self->sink_data, NULL);
      if (!detaching)
        {
          FcSnapshot *snap = fc_snapshot_new (FC_SNAPSHOT_EXEC, tid, 0);
          snap->pid = task->pid;
          snap->time_ns = now_ns ();
          emit (self, snap);
        }
      if (detaching && task->detaching)
        {
          ptrace (PTRACE_DETACH, tid, NULL, NULL);
          task_forget (self, tid);
        }
      else
        ptrace (PTRACE_CONT, tid, NULL, NULL);
      return;
    }

  if (event == PTRACE_EVENT_STOP)
    {
      gboolean was_pending = took_interrupt;

      if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
        {
          /* group-stop: the user stopped the program; keep it stopped without holding it in ptrace */
          task->group_stopped = TRUE;
          if (detaching)
            {
              ptrace (PTRACE_DETACH, tid, NULL, NULL);
              task_forget (self, tid);
            }
          else if (was_pending && self->sampling)
            capture (self, task, 0, TRUE);   /* where the stopped thread stands, once */
          else
            ptrace (PTRACE_LISTEN, tid, NULL, NULL);
          return;
        }

      task->group_stopped = FALSE;
      if (detaching)
        {
          ptrace (PTRACE_DETACH, tid, NULL, NULL);
          task_forget (self, tid);
        }
      else if (was_pending && self->sampling)
        capture (self, task, 0, FALSE);
      else
        ptrace (PTRACE_CONT, tid, NULL, NULL);
      return;
    }

  /* signal-delivery-stop: hand the signal on, unchanged */
  if (detaching)
    {
      ptrace (PTRACE_DETACH, tid, NULL, GINT_TO_POINTER (sig));
      task->interrupt_pending = FALSE;
      task_forget (self, tid);
    }
  else
    {
      if (sig == SIGCONT)
        task->group_stopped = FALSE;
      if (took_interrupt && self->sampling)
        capture (self, task, sig, FALSE);
      else
        ptrace (PTRACE_CONT, tid, NULL, GINT_TO_POINTER (sig));
    }
}

/* what the target and the descendants it reaped ran, from its exit: a recording that got far
 * fewer samples than that ran its work in child processes */
static void
note_target_cpu (FcSampler           *self,
                 const struct rusage *usage)
{
  guint64 ns = (usage->ru_utime.tv_sec + usage->ru_stime.tv_sec) * (guint64) FC_NSEC_PER_SEC +
               (usage->ru_utime.tv_usec + usage->ru_stime.tv_usec) * (guint64) 1000;

  g_mutex_lock (&self->lock);
  self->target_cpu_ns = ns;
  g_mutex_unlock (&self->lock);
}

static void
collect_events (FcSampler *self,
                gboolean   block_for_pending,
                gboolean   detaching)
{
  /* a program that keeps creating threads never runs out of events: take a bounded
   * number, so ticks and commands still get their turn */
  for (guint handled = 0;; handled++)
    {
      int status;
      int flags = __WALL | __WNOTHREAD;
      struct rusage usage;
      pid_t tid;

      if (!(block_for_pending && self->pending > 0))
        {
          if (handled >= 64)
            return;
          flags |= WNOHANG;
        }
      if (debug_sampler && !(flags & WNOHANG))
        g_printerr ("waiting for %u stops\n", self->pending);
      tid = wait4 (-1, &status, flags, &usage);
      if (debug_sampler && tid > 0)
        g_printerr ("tid %d status 0x%x\n", tid, status);
      if (tid < 0)
        {
          if (errno == EINTR)
            continue;
          /* nothing left to wait for: every tracee is gone */
          if (errno == ECHILD && self->attached)
            {
              self->pending = 0;
              if (self->traced)
                {
                  g_hash_table_remove_all (self->tasks);
                  self->attached = FALSE;
                  target_exited (self, -1);
                }
            }
          return;
        }
      if (tid == 0)
        return;
      if (tid == self->pid && (WIFEXITED (status) || WIFSIGNALED (status)))
        note_target_cpu (self, &usage);
      if (self->mode == FC_SAMPLER_MODE_CPU && !self->traced)
        {
          /* our spawned child in cpu mode is not traced: only its exit can arrive here */
          if (tid == self->pid && (WIFEXITED (status) || WIFSIGNALED (status)))
            {
              g_hash_table_remove_all (self->tasks);
              self->attached = FALSE;
              target_exited (self, status);
            }
          continue;
        }
      handle_wait_status (self, tid, status, detaching);
    }
}

static GArray *
list_tasks (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task", pid);
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (int));
  DIR *dir = opendir (path);
  struct dirent *de;

  if (dir == NULL)
    return tids;
  while ((de = readdir (dir)) != NULL)
    {
      int tid = atoi (de->d_name);
      if (tid > 0)
        g_array_append_val (tids, tid);
    }
  closedir (dir);
  return tids;
}

/* The process's parent, from /proc/PID/stat (field 4, after the command name), or 0 */
static int
process_parent (int pid)
{
  char path[64];
  g_autofree char *stat = NULL;
  const char *p;
  int ppid = 0;

  g_snprintf (path, sizeof path, "/proc/%d/stat", pid);
  if (!g_file_get_contents (path, &stat, NULL, NULL) || (p = strrchr (stat, ')')) == NULL)
    return 0;
  if (sscanf (p + 1, " %*c %d", &ppid) != 1)
    return 0;
  return ppid;
}

/* Every process that descends from @pid now, parents before their children. */
static GArray *
list_descendants (int pid)
{
  g_autoptr(GHashTable) children = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  GArray *found = g_array_new (FALSE, FALSE, sizeof (int));
  DIR *dir = opendir ("/proc");
  struct dirent *de;

  if (dir == NULL)
    return found;
  while ((de = readdir (dir)) != NULL)
    {
      int child = atoi (de->d_name);
      int parent;
      GArray *list;

      if (child <= 0 || (parent = process_parent (child)) <= 0)
        continue;
      if ((list = g_hash_table_lookup (children, GINT_TO_POINTER (parent))) == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (int));
          g_hash_table_insert (children, GINT_TO_POINTER (parent), list);
        }
      g_array_append_val (list, child);
    }
  closedir (dir);

  /* breadth first from @pid: a process reparented away from it is no longer its descendant */
  g_array_append_val (found, pid);
  for (guint i = 0; i < found->len; i++)
    {
      GArray *list = g_hash_table_lookup (children, GINT_TO_POINTER (g_array_index (found, int, i)));
      if (list != NULL)
        g_array_append_vals (found, list->data, list->len);
    }
  g_array_remove_index (found, 0);
  return found;
}

/* Seizes every thread of @pid, a process followed. FALSE when none could be: it is gone, or
 * (@error says why) not ours to trace. */
static gboolean
seize_process (FcSampler *self,
               int        pid,
               GError   **error)
{
  gboolean changed = TRUE;
  gboolean any = FALSE;

  /* threads created while we seize are caught by TRACECLONE once their creator is ours */
  for (guint round = 0; changed && round < 100; round++)
    {
      g_autoptr(GArray) tids = list_tasks (pid);

      changed = FALSE;
      for (guint i = 0; i < tids->len; i++)
        {
          int tid = g_array_index (tids, int, i);

          if (g_hash_table_contains (self->tasks, GINT_TO_POINTER (tid)))
            continue;
          if (ptrace (PTRACE_SEIZE, tid, NULL, (void *) trace_options (self)) != 0)
            {
              if (errno != ESRCH && !any && error != NULL && *error == NULL)
                fc_attach_error_set (error, pid, errno, "PTRACE_SEIZE");
              continue;
            }
          task_add (self, pid, tid);
          any = changed = TRUE;
        }
    }
  return any;
}

/* --pid with --follow-children: the target's descendants that exist already are followed too,
 * not only those it starts from now on. Until each is seized it may fork again, so the walk
 * repeats until it finds none new. */
static void
seize_descendants (FcSampler *self)
{
  gboolean changed = TRUE;

  for (guint round = 0; changed && round < 10; round++)
    {
      g_autoptr(GArray) pids = list_descendants (self->pid);

      changed = FALSE;
      for (guint i = 0; i < pids->len; i++)
        {
          int pid = g_array_index (pids, int, i);
          g_autoptr(GError) error = NULL;

          if (g_hash_table_contains (self->tasks, GINT_TO_POINTER (pid)))
            continue;
          if (seize_process (self, pid, &error))
            changed = TRUE;
          else if (error != NULL && debug_sampler)
            g_printerr ("descendant %d: %s\n", pid, error->message);
        }
    }
}

static gboolean
seize_all (FcSampler *self,
           GError   **error)
{
  gboolean changed = TRUE;

  /* threads created while we seize are caught by the rescan or by TRACECLONE */
  for (guint round = 0; changed && round < 100; round++)
    {
      g_autoptr(GArray) tids = list_tasks (self->pid);
      changed = FALSE;
      if (tids->len == 0 && round == 0)
        {
          fc_attach_error_set (error, self->pid, ESRCH, "PTRACE_SEIZE");
          return FALSE;
        }
      for (guint i = 0; i < tids->len; i++)
        {
          int tid = g_array_index (tids, int, i);
          if (g_hash_table_contains (self->tasks, GINT_TO_POINTER (tid)))
            continue;
          if (ptrace (PTRACE_SEIZE, tid, NULL, (void *) trace_options (self)) != 0)
            {
              int err = errno;
              if (err == ESRCH && tid != self->pid)
                continue;   /* the thread exited meanwhile */
              if (g_hash_table_size (self->tasks) == 0)
                {
                  fc_attach_error_set (error, self->pid, err, "PTRACE_SEIZE");
                  return FALSE;
                }
              continue;
            }
          task_add (self, self->pid, tid);
          changed = TRUE;
        }
    }
  return TRUE;
}

static gboolean
perf_open_all (FcSampler *self,
               gboolean   enable_on_exec,
               GError   **error)
{
  g_autoptr(GArray) tids = list_tasks (self->pid);

  if (tids->len == 0)
    {
      fc_attach_error_set (error, self->pid, ESRCH, "perf_event_open");
      return FALSE;
    }
  for (guint i = 0; i < tids->len; i++)
    {
      int tid = g_array_index (tids, int, i);
      g_autoptr(GError) local_error = NULL;
      Task *task;

      if (g_hash_table_contains (self->tasks, GINT_TO_POINTER (tid)))
        continue;
      task = task_add (self, self->pid, tid);
      task->perf = fc_perf_stream_open (tid, self->frequency ? self->frequency : 101, self->stack_size,
                                        enable_on_exec, &local_error);
      if (task->perf == NULL)
        {
          g_hash_table_remove (self->tasks, GINT_TO_POINTER (tid));
          if (g_error_matches (local_error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS) && tid != self->pid)
            continue;
          /* nothing to sample at all: the attach fails with the reason */
          if (g_hash_table_size (self->tasks) == 0)
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          /* the others are sampled; this one is counted and named in the summary */
          note_unsampled (self, tid, local_error);
          continue;
        }
      if (!enable_on_exec)
        fc_perf_stream_enable (task->perf, self->sampling);
    }
  return TRUE;
}

static int
open_pidfd (GPid pid)
{
#ifdef SYS_pidfd_open
  return syscall (SYS_pidfd_open, pid, 0);
#else
  return -1;
#endif
}

static void
reset_target (FcSampler *self)
{
  g_hash_table_remove_all (self->tasks);
  if (self->pidfd >= 0)
    close (self->pidfd);
  self->pidfd = -1;
  self->attached = FALSE;
  self->spawned = FALSE;
  self->exited = FALSE;
  self->pending = 0;
  self->pid = 0;
  self->follow = FALSE;
  self->traced = FALSE;
}

static void do_detach_all (FcSampler *self);

static void
take_options (FcSampler     *self,
              FcSamplerMode  mode)
{
  g_mutex_lock (&self->lock);
  if (self->next_frequency)
    self->frequency = self->next_frequency;
  if (self->next_stack_size)
    self->stack_size = self->next_stack_size;
  self->follow = self->follow_children;
  self->target_cpu_ns = 0;
  g_hash_table_remove_all (self->unsampled);
  g_clear_pointer (&self->unsampled_reason, g_free);
  /* the counts of the last target are kept until the next one, for its summary */
  g_hash_table_remove_all (self->tick_counts);
  g_mutex_unlock (&self->lock);
  self->mode = mode;
  self->traced = mode == FC_SAMPLER_MODE_WALL || self->follow;
}

/* Wall mode stops only sleeping threads where perf events are allowed (a stop
 * costs a running thread 0.4-1 ms on a virtual CPU, SAMPLING.md); elsewhere
 * every thread is stopped at every tick, as before. */
static void
choose_wall_method (FcSampler *self,
                    GPid       pid)
{
  g_autoptr(GError) error = NULL;
  FcPerfStream *probe = NULL;
  char *reason = NULL;
  gboolean force;

  g_mutex_lock (&self->lock);
  force = self->force_ptrace;
  g_mutex_unlock (&self->lock);
  if (force || g_strcmp0 (g_getenv ("FC_SAMPLER_FORCE_PTRACE"), "1") == 0)
    reason = g_strdup (force ? "ptrace forced by the caller" : "ptrace forced by FC_SAMPLER_FORCE_PTRACE=1");
  else if ((probe = fc_perf_stream_open_full (pid, 101, 1024, FC_PERF_SWITCHES | FC_PERF_SMALL_RING, &error)) == NULL)
    reason = g_strdup_printf ("ptrace only: %s", error->message);
  fc_perf_stream_free (probe);

  g_mutex_lock (&self->lock);
  self->wall_perf = reason == NULL;
  g_free (self->method_reason);
  self->method_reason = reason;
  g_mutex_unlock (&self->lock);
}

static gboolean
target_is_stopped (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *p;

  if (!g_file_get_contents (path, &stat, NULL, NULL) || (p = strrchr (stat, ')')) == NULL)
    return FALSE;
  return p[1] == ' ' && (p[2] == 'T' || p[2] == 't');
}

static gboolean
do_attach (FcSampler *self,
           Command   *cmd)
{
  reset_target (self);
  take_options (self, cmd->mode);
  self->pid = cmd->pid;
  if (kill (cmd->pid, 0) != 0 && errno == ESRCH)
    {
      fc_attach_error_set (&cmd->error, cmd->pid, ESRCH, "attach");
      return FALSE;
    }
  g_mutex_lock (&self->lock);
  self->target_stopped = target_is_stopped (cmd->pid);
  g_mutex_unlock (&self->lock);
  if (self->traced)
    {
      if (cmd->mode == FC_SAMPLER_MODE_WALL)
        choose_wall_method (self, cmd->pid);
      if (!seize_all (self, &cmd->error))
        {
          self->attached = TRUE;
          do_detach_all (self);
          return FALSE;
        }
      if (self->follow)
        seize_descendants (self);
    }
  else
    {
      if (!perf_open_all (self, FALSE, &cmd->error))
        {
          reset_target (self);
          return FALSE;
        }
    }
  self->pidfd = open_pidfd (cmd->pid);
  self->attached = TRUE;
  self->last_rescan_us = g_get_monotonic_time ();
  return TRUE;
}

static gboolean
do_spawn (FcSampler *self,
          Command   *cmd)
{
  int go[2], err_pipe[2];
  pid_t child;
  int child_errno = 0;
  ssize_t n;

  reset_target (self);
  take_options (self, cmd->mode);
  if (pipe2 (go, O_CLOEXEC) != 0 || pipe2 (err_pipe, O_CLOEXEC) != 0)
    {
      g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED, "pipe: %s", g_strerror (errno));
      return FALSE;
    }
  child = fork ();
  if (child < 0)
    {
      g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED, "fork: %s", g_strerror (errno));
      return FALSE;
    }
  if (child == 0)
    {
      char c;
      sigset_t all;
      /* the sampler thread blocks signals; the command must start with a clean mask */
      sigemptyset (&all);
      sigprocmask (SIG_SETMASK, &all, NULL);
      /* nor inherit the sampler thread's raised priority */
      setpriority (PRIO_PROCESS, 0, self->nice);
      close (go[1]);
      close (err_pipe[0]);
      while (read (go[0], &c, 1) < 0 && errno == EINTR)
        ;
      execvp (cmd->argv[0], (char * const *) cmd->argv);
      child_errno = errno;
      (void) !write (err_pipe[1], &child_errno, sizeof child_errno);
      _exit (127);
    }

  close (go[0]);
  close (err_pipe[1]);
  self->pid = child;
  self->spawned = TRUE;

  g_mutex_lock (&self->lock);
  self->target_stopped = FALSE;
  g_mutex_unlock (&self->lock);
  if (self->traced)
    {
      if (cmd->mode == FC_SAMPLER_MODE_WALL)
        choose_wall_method (self, child);
      if (ptrace (PTRACE_SEIZE, child, NULL, (void *) trace_options (self)) != 0)
        {
          fc_attach_error_set (&cmd->error, child, errno, "PTRACE_SEIZE");
          close (go[1]);
          close (err_pipe[0]);
          waitpid (child, NULL, 0);
          reset_target (self);
          return FALSE;
        }
      task_add (self, child, child);
    }
  else
    {
      if (!perf_open_all (self, TRUE, &cmd->error))
        {
          kill (child, SIGKILL);
          close (go[1]);
          close (err_pipe[0]);
          waitpid (child, NULL, 0);
          reset_target (self);
          return FALSE;
        }
    }

  (void) !write (go[1], "x", 1);
  close (go[1]);
  do
    n = read (err_pipe[0], &child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);
  close (err_pipe[0]);

  if (n == sizeof child_errno)
    {
      int status;
      g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                   "Cannot run %s: %s", cmd->argv[0], g_strerror (child_errno));
      /* the child exits 127; collect it (and its ptrace stops) */
      while (waitpid (child, &status, __WALL) == child)
        {
          if (WIFEXITED (status) || WIFSIGNALED (status))
            break;
          ptrace (PTRACE_CONT, child, NULL, NULL);
        }
      reset_target (self);
      return FALSE;
    }

  self->attached = TRUE;
  self->pidfd = open_pidfd (child);
  /* in wall mode the exec event stop is handled by the event loop */
  return TRUE;
}

static void
count_sample (FcSampler *self,
              gboolean   reused)
{
  g_mutex_lock (&self->lock);
  self->stats.n_samples++;
  if (reused)
    self->stats.n_reused++;
  g_mutex_unlock (&self->lock);
}

static void
emit_reuse (FcSampler *self,
            Task      *task,
            gint64     t)
{
  FcSnapshot *snap = fc_snapshot_new (FC_SNAPSHOT_REUSE, task->tid, 0);

  snap->pid = task->pid;
  snap->time_ns = t;
  emit (self, snap);
  count_sample (self, TRUE);
}

static void
interrupt_task (FcSampler *self,
                Task      *task)
{
  task->interrupt_ns = now_ns ();
  if (ptrace (PTRACE_INTERRUPT, task->tid, NULL, NULL) == 0)
    {
      task->interrupt_pending = TRUE;
      self->pending++;
      count_sample (self, FALSE);
      g_mutex_lock (&self->lock);
      self->stats.n_stops++;
      g_mutex_unlock (&self->lock);
    }
}

static void
collect_perf_sample_cb (FcSnapshot *snapshot,
                        gpointer    user_data)
{
  Task *task = user_data;

  /* one sample per thread per tick: the newest stands for the tick */
  g_free (task->latest);
  task->latest = snapshot;
}

static void
collect_switch_cb (FcPerfSwitch kind,
                   gint64       time_ns,
                   gpointer     user_data)
{
  Task *task = user_data;

  task->switch_seen = TRUE;
  task->off_cpu = kind != FC_PERF_SWITCH_IN;
  task->preempted = kind == FC_PERF_SWITCH_OUT_PREEMPTED;
}

/* Wall mode with perf events: TRUE when the tick is done for this thread (a
 * perf sample of its running stack, or its last stack again because it is
 * runnable but has had no CPU), FALSE when it sleeps and the ptrace path
 * decides (its stack again if it has not run since its capture, else one
 * capture while it sleeps). */
static gboolean
perf_tick_task (FcSampler *self,
                Task      *task,
                guint64    runtime,
                guint64    pcount)
{
  g_autofree FcSnapshot *latest = NULL;
  guint64 lost = 0;
  gboolean ran, sleeping;

  fc_perf_stream_drain_full (task->perf, collect_perf_sample_cb, collect_switch_cb, task, &lost);
  latest = g_steal_pointer (&task->latest);
  if (lost > 0)
    {
      g_mutex_lock (&self->lock);
      self->stats.lost_samples += lost;
      g_mutex_unlock (&self->lock);
    }

  /* before its first context switch, run time tells: a thread blocked since
   * before we came has not run */
  ran = task_ran (task, runtime, pcount);
  sleeping = task->switch_seen ? task->off_cpu && !task->preempted : !ran;
  if (debug_sampler)
    g_printerr ("tick tid %d: perf sample %d, switch seen %d off %d preempted %d ran %d have %d\n", task->tid,
                latest != NULL, task->switch_seen, task->off_cpu, task->preempted, ran, task->have_sample);
  if (sleeping)
    return FALSE;
  if (latest != NULL)
    {
      /* it stands for this tick, like every other thread's sample: stamped so, samples arrive
       * in time order (chunks are cut by time as they arrive) */
      latest->time_ns = now_ns ();
      emit (self, g_steal_pointer (&latest));
      count_sample (self, FALSE);
      task->have_sample = TRUE;
      return TRUE;
    }
  /* on a CPU or waiting for one, without a sample since the last tick: its
   * last stack is the best guess and costs it nothing. A thread with no
   * stack at all yet is stopped once, so that it misses no tick. */
  if (!task->have_sample)
    return FALSE;
  emit_reuse (self, task, now_ns ());
  return TRUE;
}

static void
interrupt_tick (FcSampler *self)
{
  GHashTableIter iter;
  Task *task;
  gint64 t = now_ns ();

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    {
      guint64 *n = g_hash_table_lookup (self->tick_counts, GINT_TO_POINTER (task->tid));
      if (n == NULL)
        {
          n = g_new0 (guint64, 1);
          g_hash_table_insert (self->tick_counts, GINT_TO_POINTER (task->tid), n);
        }
      (*n)++;
    }
  g_mutex_unlock (&self->lock);

  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    {
      guint64 runtime, pcount;

      /* a thread that has not started has no stack yet; its first stop is near */
      if (task->interrupt_pending || task->fresh)
        continue;
      if (task->group_stopped && !task->have_sample)
        {
          /* stopped before its first sample: one interrupt makes it report its stop again */
          interrupt_task (self, task);
          continue;
        }
      if (task->group_stopped)
        {
          /* a stopped thread's stack does not change */
          emit_reuse (self, task, t);
          continue;
        }

      task_sched (task, &runtime, &pcount);
      if (task->perf != NULL && perf_tick_task (self, task, runtime, pcount))
        continue;
      if (task->have_sample && !task_ran (task, runtime, pcount))
        {
          task->last_runtime = runtime;
          task->last_pcount = pcount;
          task->stopped_by_us = FALSE;
          emit_reuse (self, task, t);
          continue;
        }
      task->last_runtime = runtime;
      task->last_pcount = pcount;
      interrupt_task (self, task);
    }

  /* capture each thread as its stop arrives */
  collect_events (self, TRUE, FALSE);
}

static void
perf_rescan (FcSampler *self)
{
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  Task *task;

  /* drop threads that exited, open events on new ones */
  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    {
      char path[64];
      g_snprintf (path, sizeof path, "/proc/%d/task/%d", self->pid, task->tid);
      if (access (path, F_OK) != 0)
        {
          guint64 lost = 0;
          fc_perf_stream_drain (task->perf, self->sink, self->sink_data, &lost);
          g_hash_table_iter_remove (&iter);
        }
    }
  perf_open_all (self, FALSE, &error);
}

static void
perf_drain_all (FcSampler *self)
{
  GHashTableIter iter;
  Task *task;
  guint64 lost = 0;
  guint n = 0;

  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    if (task->perf != NULL)
      n += fc_perf_stream_drain (task->perf, self->sink, self->sink_data, &lost);
  g_mutex_lock (&self->lock);
  self->stats.n_samples += n;
  self->stats.lost_samples += lost;
  g_mutex_unlock (&self->lock);
}

static void
arm_timer (FcSampler *self,
           gboolean   on)
{
  struct itimerspec its = { 0 };

  if (on)
    {
      /* cpu mode polls the ring buffers every 10 ms; wall mode ticks at the sampling rate */
      gint64 period_ns = self->mode == FC_SAMPLER_MODE_CPU ? 10 * 1000 * 1000 : FC_NSEC_PER_SEC / self->frequency;
      its.it_interval.tv_sec = period_ns / FC_NSEC_PER_SEC;
      its.it_interval.tv_nsec = period_ns % FC_NSEC_PER_SEC;
      its.it_value = its.it_interval;
    }
  timerfd_settime (self->timer_fd, 0, &its, NULL);
}

static void
do_detach_all (FcSampler *self)
{
  GHashTableIter iter;
  Task *task;

  if (!self->attached)
    {
      reset_target (self);
      return;
    }
  if (self->mode == FC_SAMPLER_MODE_CPU)
    {
      perf_drain_all (self);
      if (!self->traced)
        {
          reset_target (self);
          return;
        }
      /* following children: no more samples, then release every process as in wall mode */
      g_hash_table_iter_init (&iter, self->tasks);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
        g_clear_pointer (&task->perf, fc_perf_stream_free);
    }

  /* PTRACE_DETACH needs a ptrace-stop: interrupt every thread, detach each as it stops */
  self->pending = 0;
  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    {
      task->detaching = TRUE;
      if (!task->interrupt_pending)
        {
          if (ptrace (PTRACE_INTERRUPT, task->tid, NULL, NULL) != 0)
            continue;
          task->interrupt_pending = TRUE;
        }
      self->pending++;
    }
  while (g_hash_table_size (self->tasks) > 0 && self->attached)
    {
      int status;
      pid_t tid = waitpid (-1, &status, __WALL | __WNOTHREAD);
      if (tid < 0)
        {
          if (errno == EINTR)
            continue;
          if (debug_sampler)
            g_printerr ("detach: waitpid: %s\n", g_strerror (errno));
          break;
        }
      if (debug_sampler)
        g_printerr ("detach: tid %d status 0x%x, %u tasks left\n", tid, status, g_hash_table_size (self->tasks));
      handle_wait_status (self, tid, status, TRUE);
      /* threads born during the detach are still attached: stop and detach them too */
      g_hash_table_iter_init (&iter, self->tasks);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
        if (!task->detaching)
          {
            task->detaching = TRUE;
            if (ptrace (PTRACE_INTERRUPT, task->tid, NULL, NULL) == 0)
              task->interrupt_pending = TRUE;
          }
    }
  reset_target (self);
}

static void
finish_command (FcSampler *self,
                Command   *cmd,
                gboolean   ok)
{
  g_mutex_lock (&self->lock);
  cmd->ok = ok;
  cmd->done = TRUE;
  self->command = NULL;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

static gpointer
sampler_thread (gpointer data)
{
  FcSampler *self = data;
  sigset_t all;
  gboolean quit = FALSE;

  /* profiler signals (SIGINT of the CLI, SIGCHLD) are for other threads */
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, NULL);

  /* a slightly higher priority keeps hold times short when cores are busy (SAMPLING.md, point 8) */
  setpriority (PRIO_PROCESS, syscall (SYS_gettid), -5);

  while (!quit)
    {
      struct pollfd fds[3];
      int nfds = 0, timeout;
      Command *cmd;

      fds[nfds].fd = self->wake_fd; fds[nfds++].events = POLLIN;
      fds[nfds].fd = self->timer_fd; fds[nfds++].events = POLLIN;
      /* readable for good once the target has exited: children followed may remain */
      if (self->pidfd >= 0 && self->attached && !self->exited)
        {
          fds[nfds].fd = self->pidfd;
          fds[nfds++].events = POLLIN;
        }
      /* ptrace stops are not pollable: look every 2 ms while the target is eventful (signals,
       * threads coming and going), every 10 ms when it has been quiet for a while; each wakeup
       * costs tens of microseconds on a virtual CPU */
      if (self->attached && self->traced)
        timeout = g_get_monotonic_time () - self->last_event_us < G_USEC_PER_SEC / 10 ? 2 : 10;
      else
        timeout = -1;
      if (poll (fds, nfds, timeout) < 0 && errno != EINTR)
        break;

      if (self->attached && self->traced)
        collect_events (self, FALSE, FALSE);

      if (fds[1].revents & POLLIN)
        {
          guint64 expirations = 0;
          if (read (self->timer_fd, &expirations, sizeof expirations) == sizeof expirations && self->attached)
            {
              g_mutex_lock (&self->lock);
              self->stats.n_ticks++;
              if (expirations > 1)
                self->stats.dropped_ticks += expirations - 1;   /* late: skip, never burst */
              g_mutex_unlock (&self->lock);
              if (self->sampling && self->mode == FC_SAMPLER_MODE_WALL)
                interrupt_tick (self);
              else if (self->mode == FC_SAMPLER_MODE_CPU)
                {
                  perf_drain_all (self);
                  /* following children, ptrace reports every new thread */
                  if (!self->follow && g_get_monotonic_time () - self->last_rescan_us > G_USEC_PER_SEC / 10)
                    {
                      self->last_rescan_us = g_get_monotonic_time ();
                      perf_rescan (self);
                    }
                }
            }
        }

      if (nfds > 2 && (fds[2].revents & POLLIN) && self->attached)
        {
          if (!self->traced)
            {
              int status = -1;
              struct rusage usage;
              perf_drain_all (self);
              if (self->spawned && wait4 (self->pid, &status, 0, &usage) == self->pid)
                note_target_cpu (self, &usage);
              g_hash_table_remove_all (self->tasks);
              self->attached = FALSE;
              target_exited (self, status);
            }
          else
            collect_events (self, FALSE, FALSE);
        }

      g_mutex_lock (&self->lock);
      cmd = self->command;
      g_mutex_unlock (&self->lock);
      if (cmd == NULL || cmd->done)
        continue;

      {
        guint64 v;
        (void) !read (self->wake_fd, &v, sizeof v);
      }

      if (debug_sampler)
        g_printerr ("command %d\n", cmd->kind);
      switch (cmd->kind)
        {
        case CMD_ATTACH:
          finish_command (self, cmd, do_attach (self, cmd));
          break;
        case CMD_SPAWN:
          finish_command (self, cmd, do_spawn (self, cmd));
          break;
        case CMD_START:
          if (!self->attached)
            {
              g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                           "No target to sample: attach to a process or launch one first%s",
                           self->exited ? " (the target has exited)" : "");
              finish_command (self, cmd, FALSE);
              break;
            }
          self->frequency = CLAMP (cmd->frequency, 1, 1000);
          self->stack_size = CLAMP (cmd->stack_size, 1024, 65528);
          self->sampling = TRUE;
          {
            GHashTableIter iter;
            Task *task;
            g_hash_table_iter_init (&iter, self->tasks);
            while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
              if (task->perf)
                {
                  fc_perf_stream_set_frequency (task->perf, self->frequency);
                  fc_perf_stream_enable (task->perf, TRUE);
                }
          }
          arm_timer (self, TRUE);
          finish_command (self, cmd, TRUE);
          break;
        case CMD_STOP:
          if (self->sampling)
            {
              FcSnapshot *snap;
              self->sampling = FALSE;
              if (self->mode == FC_SAMPLER_MODE_CPU)
                {
                  GHashTableIter iter;
                  Task *task;
                  g_hash_table_iter_init (&iter, self->tasks);
                  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
                    if (task->perf)
                      fc_perf_stream_enable (task->perf, FALSE);
                  perf_drain_all (self);
                  arm_timer (self, FALSE);
                }
              else
                {
                  GHashTableIter iter;
                  Task *task;
                  g_hash_table_iter_init (&iter, self->tasks);
                  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
                    if (task->perf)
                      {
                        fc_perf_stream_enable (task->perf, FALSE);
                        fc_perf_stream_drain_full (task->perf, collect_perf_sample_cb, collect_switch_cb, task, NULL);
                        g_clear_pointer (&task->latest, g_free);
                      }
                  /* keep polling for ptrace events, but take no more samples */
                  collect_events (self, TRUE, FALSE);
                  arm_timer (self, FALSE);
                }
              snap = fc_snapshot_new (FC_SNAPSHOT_FLUSH, 0, 0);
              snap->time_ns = now_ns ();
              emit (self, snap);
            }
          finish_command (self, cmd, TRUE);
          break;
        case CMD_DETACH:
          self->sampling = FALSE;
          arm_timer (self, FALSE);
          do_detach_all (self);
          finish_command (self, cmd, TRUE);
          break;
        case CMD_QUIT:
          self->sampling = FALSE;
          do_detach_all (self);
          quit = TRUE;
          finish_command (self, cmd, TRUE);
          break;
        default:
          g_assert_not_reached ();
        }
      g_mutex_lock (&self->lock);
      self->stats.n_threads = g_hash_table_size (self->tasks);
      g_mutex_unlock (&self->lock);
    }
  return NULL;
}

static gboolean
run_command (FcSampler *self,
             Command   *cmd,
             GError   **error)
{
  guint64 one = 1;

  g_mutex_lock (&self->lock);
  while (self->command != NULL)
    g_cond_wait (&self->cond, &self->lock);
  self->command = cmd;
  g_mutex_unlock (&self->lock);

  (void) !write (self->wake_fd, &one, sizeof one);

  g_mutex_lock (&self->lock);
  while (!cmd->done)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);

  if (cmd->error != NULL)
    g_propagate_error (error, g_steal_pointer (&cmd->error));
  return cmd->ok;
}

FcSampler *
fc_sampler_new (FcSnapshotSink sink,
                gpointer       sink_data)
{
  FcSampler *self = g_new0 (FcSampler, 1);

  self->sink = sink;
  self->sink_data = sink_data;
  debug_sampler = g_getenv ("FC_DEBUG_SAMPLER") != NULL;
  self->wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  errno = 0;
  self->nice = getpriority (PRIO_PROCESS, 0);
  self->timer_fd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  self->pidfd = -1;
  self->frequency = 101;
  self->stack_size = 32 * 1024;
  self->tasks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) task_free);
  self->stop_times = g_array_new (FALSE, FALSE, sizeof (double));
  self->tick_counts = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->unsampled = g_hash_table_new (NULL, NULL);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->thread = g_thread_new ("fc-sampler", sampler_thread, self);
  return self;
}

void
fc_sampler_free (FcSampler *self)
{
  Command cmd = { .kind = CMD_QUIT };

  if (self == NULL)
    return;
  run_command (self, &cmd, NULL);
  g_thread_join (self->thread);
  g_hash_table_unref (self->tasks);
  g_array_unref (self->stop_times);
  g_hash_table_unref (self->tick_counts);
  g_hash_table_unref (self->unsampled);
  g_free (self->unsampled_reason);
  g_free (self->method_reason);
  close (self->wake_fd);
  close (self->timer_fd);
  if (self->pidfd >= 0)
    close (self->pidfd);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

gboolean
fc_sampler_attach (FcSampler     *self,
                   GPid           pid,
                   FcSamplerMode  mode,
                   GError       **error)
{
  Command cmd = { .kind = CMD_ATTACH, .pid = pid, .mode = mode };

  if (pid <= 0)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS, "Invalid process id %d", pid);
      return FALSE;
    }
  return run_command (self, &cmd, error);
}

gboolean
fc_sampler_spawn (FcSampler          *self,
                  const char * const *argv,
                  FcSamplerMode       mode,
                  GError            **error)
{
  Command cmd = { .kind = CMD_SPAWN, .argv = argv, .mode = mode };

  if (argv == NULL || argv[0] == NULL)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED, "No command to launch");
      return FALSE;
    }
  return run_command (self, &cmd, error);
}

gboolean
fc_sampler_start (FcSampler *self,
                  guint      frequency,
                  guint      stack_size,
                  GError   **error)
{
  Command cmd = { .kind = CMD_START, .frequency = frequency, .stack_size = stack_size };
  return run_command (self, &cmd, error);
}

void
fc_sampler_stop (FcSampler *self)
{
  Command cmd = { .kind = CMD_STOP };
  run_command (self, &cmd, NULL);
}

/* Rate and stack size for perf events opened by the next attach or spawn (they are fixed at open). */
void
fc_sampler_set_options (FcSampler *self,
                        guint      frequency,
                        guint      stack_size)
{
  g_mutex_lock (&self->lock);
  self->next_frequency = CLAMP (frequency, 1, 1000);
  self->next_stack_size = CLAMP (stack_size, 1024, 65528) & ~7u;
  g_mutex_unlock (&self->lock);
}

void
fc_sampler_detach (FcSampler *self)
{
  Command cmd = { .kind = CMD_DETACH };

  /* called on the sampler thread itself when attaching fails half way */
  if (g_thread_self () == self->thread)
    {
      do_detach_all (self);
      return;
    }
  run_command (self, &cmd, NULL);
}

GPid
fc_sampler_get_pid (FcSampler *self)
{
  return self->pid;
}

gboolean
fc_sampler_is_spawned (FcSampler *self)
{
  return self->spawned;
}

gboolean
fc_sampler_is_attached (FcSampler *self)
{
  return self->attached;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

void
fc_sampler_get_stats (FcSampler      *self,
                      FcSamplerStats *stats)
{
  g_autoptr(GArray) sorted = NULL;

  g_mutex_lock (&self->lock);
  *stats = self->stats;
  sorted = g_array_copy (self->stop_times);
  g_mutex_unlock (&self->lock);

  g_array_sort (sorted, compare_double);
  stats->median_stop_us = sorted->len ? g_array_index (sorted, double, sorted->len / 2) : 0;
  stats->p99_stop_us = sorted->len ? g_array_index (sorted, double, MIN (sorted->len - 1, sorted->len * 99 / 100)) : 0;
}

/**
 * fc_sampler_set_force_ptrace:
 *
 * Makes the next attach or launch in wall mode stop every thread at every tick
 * (the fallback where perf events are not allowed), even where perf events
 * are allowed. The environment variable FC_SAMPLER_FORCE_PTRACE=1 does the same.
 */
void
fc_sampler_set_force_ptrace (FcSampler *self,
                             gboolean   force)
{
  g_mutex_lock (&self->lock);
  self->force_ptrace = !!force;
  g_mutex_unlock (&self->lock);
}

/**
 * fc_sampler_dup_method:
 * @reason: (out) (optional): why this method, when it is a fallback
 *
 * Returns: how the current or last target is sampled, for people.
 */
char *
fc_sampler_dup_method (FcSampler  *self,
                       char      **reason)
{
  char *method;

  g_mutex_lock (&self->lock);
  if (self->mode == FC_SAMPLER_MODE_CPU)
    method = g_strdup ("perf events, on-CPU only");
  else if (self->wall_perf)
    method = g_strdup ("perf events for running threads, one ptrace stop per sleep");
  else
    method = g_strdup ("ptrace stops of every thread");
  if (self->follow_children)
    {
      char *with = g_strconcat (method, ", child processes followed", NULL);
      g_free (method);
      method = with;
    }
  if (reason != NULL)
    *reason = self->mode == FC_SAMPLER_MODE_WALL ? g_strdup (self->method_reason) : NULL;
  g_mutex_unlock (&self->lock);
  return method;
}

/**
 * fc_sampler_dup_tick_counts:
 *
 * Returns: (transfer full): tid -> ticks (guint64 *) while the sampler knew each thread, for
 *   the threads of the current or last target in wall mode.
 */
GHashTable *
fc_sampler_dup_tick_counts (FcSampler *self)
{
  GHashTable *copy = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->tick_counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, key, g_memdup2 (value, sizeof (guint64)));
  g_mutex_unlock (&self->lock);
  return copy;
}

/**
 * fc_sampler_set_follow_children:
 *
 * Makes the next attach or launch follow the processes the target starts
 * (fork, vfork, clone without CLONE_THREAD) and their own children, through
 * exec: their threads are sampled as the target's, in both modes. In cpu mode
 * this traces the target with ptrace (its fork, clone and exec events only;
 * it is never stopped to be sampled).
 */
void
fc_sampler_set_follow_children (FcSampler *self,
                                gboolean   follow)
{
  g_mutex_lock (&self->lock);
  self->follow_children = !!follow;
  g_mutex_unlock (&self->lock);
}

/**
 * fc_sampler_dup_unsampled:
 * @reason: (out) (optional): why the first of them could not be sampled
 *
 * Returns: how many threads of the current or last target could not be sampled (cpu mode:
 *   their perf events could not be opened or mapped)
 */
guint
fc_sampler_dup_unsampled (FcSampler  *self,
                          char      **reason)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = g_hash_table_size (self->unsampled);
  if (reason != NULL)
    *reason = g_strdup (self->unsampled_reason);
  g_mutex_unlock (&self->lock);
  return n;
}

/* CPU time of the target and of the descendants it waited for, known once it has exited and
 * was reaped by the sampler (launch mode); 0 when unknown. */
guint64
fc_sampler_get_target_cpu_ns (FcSampler *self)
{
  guint64 ns;

  g_mutex_lock (&self->lock);
  ns = self->target_cpu_ns;
  g_mutex_unlock (&self->lock);
  return ns;
}

gboolean
fc_sampler_get_target_was_stopped (FcSampler *self)
{
  gboolean stopped;

  g_mutex_lock (&self->lock);
  stopped = self->target_stopped;
  g_mutex_unlock (&self->lock);
  return stopped;
}
