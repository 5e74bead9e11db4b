/* fc-sampler-ptrace.c - the ptrace path: seize, stop, copy, resume, detach
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the sampler thread issues ptrace requests. A stop copies registers and
 * the top of the stack and resumes the thread at once; signals that arrive
 * meanwhile are re-injected and group-stops honoured with PTRACE_LISTEN.
 */

#include <errno.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <elf.h>
#include <unistd.h>

#include <libunwind.h>

#include "fc-attach-check.h"
#include "fc-sampler-private.h"

/* ptrace options: threads and exec always; new processes too when following children, and
 * in cpu mode their exits: a stop before the exit, while /proc still has the process's name
 * and maps, where its perf ring is drained (drained once it was reaped, a child's samples
 * reached the recorder with neither) */
long
fc_sampler_trace_options (FcSampler *self)
{
  long options = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC;

  if (self->follow)
    options |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
  if (self->follow && self->mode == FC_SAMPLER_MODE_CPU)
    options |= PTRACE_O_TRACEEXIT;
  return options;
}

static void
record_stop_time (FcSampler *self,
                  double     us)
{
  g_mutex_lock (&self->lock);
  self->max_stop_us = MAX (self->max_stop_us, us);
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
 * page ends the copy instead of failing it; NULL when the registers cannot be read. The
 * thread stays stopped. */
static FcSnapshot *
snapshot_stopped (FcSampler *self,
                  Task      *task)
{
  struct user_regs_struct r;
  struct iovec io = { &r, sizeof r };
  struct iovec local[10], remote[10];
  FcSnapshot *snap;
  guint64 sp, addr;
  gsize want, got_total = 0;
  guint n = 0;
  ssize_t got;

  if (fc_sampler_debug)
    g_printerr ("fc_sampler_capture tid %d\n", task->tid);
  if (ptrace (PTRACE_GETREGSET, task->tid, (void *) NT_PRSTATUS, &io) != 0)
    return NULL;
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
  snap->time_ns = fc_sampler_now_ns ();

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

  /* Stopped inside a blocking system call (the call returns a restart code to
   * be made again): the thread only ran to its trap and back into the call,
   * which the next tick excuses. A thread stopped in its own code (running,
   * or just born) gets no such excuse: whatever it runs next is its own. */
  task->stopped_by_us = (gint64) r.orig_rax >= 0 &&
                        ((gint64) r.rax == -EINTR || ((gint64) r.rax <= -512 && (gint64) r.rax >= -516));
  return snap;
}

void
fc_sampler_capture (FcSampler *self,
                    Task      *task,
                    int        resume_signal,
                    gboolean   listen)
{
  FcSnapshot *snap = snapshot_stopped (self, task);

  /* the snapshot is complete: release the thread before anything else (a thread in a
   * group-stop goes back to it) */
  if (listen)
    ptrace (PTRACE_LISTEN, task->tid, NULL, NULL);
  else
    ptrace (PTRACE_CONT, task->tid, NULL, GINT_TO_POINTER (resume_signal));
  if (snap == NULL)
    {
      if (task->tick_pending)
        fc_sampler_tick_outcome (self, task, FC_TICK_REFUSED);
      return;
    }
  record_stop_time (self, (fc_sampler_now_ns () - task->interrupt_ns) / 1000.0);

  task->have_sample = TRUE;
  fc_sampler_emit (self, snap);
  fc_sampler_count_sample (self, FALSE);
  if (task->tick_pending)
    fc_sampler_tick_outcome (self, task, FC_TICK_CAPTURED);
}

/* Handles one wait status of a tracee. */
static void
handle_wait_status_inner (FcSampler *self,
                          int        tid,
                          int        status)
{
  Task *task;
  int sig, event;
  gboolean took_interrupt = FALSE;
  gboolean first_stop = FALSE;
  gboolean for_first = FALSE;

  if (WIFEXITED (status) || WIFSIGNALED (status))
    {
      self->last_event_us = g_get_monotonic_time ();
      fc_sampler_task_gone (self, tid, status);
      return;
    }
  if (!WIFSTOPPED (status))
    return;

  sig = WSTOPSIG (status);
  event = status >> 16;
  task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (tid));
  if (task == NULL)
    {
      task = fc_sampler_task_add (self, 0, tid);   /* a new thread's first stop can come before its parent's clone event */
      first_stop = TRUE;
    }
  else if (task->fresh)
    {
      /* its first stop, before it ran: its run time so far is not ours to excuse */
      fc_sampler_task_sched (task, &task->last_runtime, &task->last_pcount);
      first_stop = TRUE;
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
  /* the attach's stop for its first stack (fc-sampler-first.c): no tick's, so no sample now */
  if (took_interrupt && task->first_wanted)
    {
      for_first = TRUE;
      took_interrupt = FALSE;
    }
  task->first_wanted = FALSE;

  if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK)
    {
      unsigned long new_tid = 0;
      /* a thread of the same process, or (following children) a new process, whose
       * first stop is near */
      if (ptrace (PTRACE_GETEVENTMSG, tid, NULL, &new_tid) == 0 && new_tid > 0 &&
          !g_hash_table_contains (self->tasks, GINT_TO_POINTER ((int) new_tid)))
        fc_sampler_task_add (self, event == PTRACE_EVENT_CLONE ? 0 : (int) new_tid, new_tid)->fresh = TRUE;
      if (took_interrupt && self->sampling)
        fc_sampler_capture (self, task, 0, FALSE);
      else
        ptrace (PTRACE_CONT, tid, NULL, NULL);
      return;
    }

  if (event == PTRACE_EVENT_EXIT)
    {
      /* about to exit, /proc/PID still whole: its last samples go out now */
      if (task->perf != NULL && self->mode == FC_SAMPLER_MODE_CPU)
        fc_perf_stream_drain (task->perf, self->sink, self->sink_data, NULL);
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
      g_clear_pointer (&task->first_stack, fc_snapshot_free);
      /* its perf rings outlive the exec: what they hold of the old program is not this one's */
      task->data_ns = task->read_ns = fc_sampler_now_ns ();
      /* cpu mode: samples of the old program are symbolized with its modules, before the exec */
      if (task->perf != NULL && self->mode == FC_SAMPLER_MODE_CPU)
        fc_perf_stream_drain (task->perf, self->sink, self->sink_data, NULL);
      {
        FcSnapshot *snap = fc_snapshot_new (FC_SNAPSHOT_EXEC, tid, 0);
        snap->pid = task->pid;
        snap->time_ns = fc_sampler_now_ns ();
        fc_sampler_emit (self, snap);
      }
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
          if (was_pending && self->sampling)
            fc_sampler_capture (self, task, 0, TRUE);   /* where the stopped thread stands, once */
          else
            ptrace (PTRACE_LISTEN, tid, NULL, NULL);
          g_mutex_lock (&self->lock);
          self->stats.n_group_stops++;
          g_mutex_unlock (&self->lock);
          return;
        }

      task->group_stopped = FALSE;
      if (was_pending && self->sampling)
        fc_sampler_capture (self, task, 0, FALSE);
      else if (for_first && !task->have_sample)
        {
          /* where it sleeps, for its first tick: copied, then let go at once */
          fc_snapshot_free (task->first_stack);
          task->first_stack = snapshot_stopped (self, task);
          ptrace (PTRACE_CONT, tid, NULL, NULL);
          record_stop_time (self, (fc_sampler_now_ns () - task->interrupt_ns) / 1000.0);
        }
      else if (first_stop && self->sampling && task->off_cpu_perf != NULL && !task->have_sample &&
               task->tid != task->pid)
        {
          /* The kernel stopped the new thread anyway: its stack at birth costs a copy, and it
           * stands for the thread at its first tick unless perf events give a newer one (a
           * thread that runs a little and exits never switches out with a stack). Not a new
           * process's: a child followed most often calls exec at once, and its stack at birth
           * would cost the recorder the set-up of a program it leaves. */
          fc_snapshot_free (task->first_stack);
          task->first_stack = snapshot_stopped (self, task);
          ptrace (PTRACE_CONT, tid, NULL, NULL);
        }
      else
        ptrace (PTRACE_CONT, tid, NULL, NULL);
      return;
    }

  /* signal-delivery-stop: hand the signal on, unchanged */
  if (sig == SIGCONT)
    task->group_stopped = FALSE;
  if (took_interrupt && self->sampling)
    fc_sampler_capture (self, task, sig, FALSE);
  else
    ptrace (PTRACE_CONT, tid, NULL, GINT_TO_POINTER (sig));
}

/* A tick's stop that the thread took without being captured (the sampler stopped, the
 * program called exec) is a tick lost late; one whose thread ended, too short. */
static void
handle_wait_status (FcSampler *self,
                    int        tid,
                    int        status)
{
  Task *task;

  handle_wait_status_inner (self, tid, status);
  task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (tid));
  if (task != NULL && task->tick_pending && !task->interrupt_pending)
    fc_sampler_tick_outcome (self, task, FC_TICK_LATE);
}

/* what the target and the descendants it reaped ran, from its exit: a recording that got far
 * fewer samples than that ran its work in child processes */
void
fc_sampler_note_target_cpu (FcSampler           *self,
                            const struct rusage *usage)
{
  guint64 ns = (usage->ru_utime.tv_sec + usage->ru_stime.tv_sec) * (guint64) FC_NSEC_PER_SEC +
               (usage->ru_utime.tv_usec + usage->ru_stime.tv_usec) * (guint64) 1000;

  g_mutex_lock (&self->lock);
  self->target_cpu_ns = ns;
  g_mutex_unlock (&self->lock);
}

void
fc_sampler_collect_events (FcSampler *self,
                           gboolean   block_for_pending)
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
      if (fc_sampler_debug && !(flags & WNOHANG))
        g_printerr ("waiting for %u stops\n", self->pending);
      tid = wait4 (-1, &status, flags, &usage);
      if (fc_sampler_debug && tid > 0)
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
                  fc_sampler_target_exited (self, -1);
                }
            }
          return;
        }
      if (tid == 0)
        return;
      if (tid == self->pid && (WIFEXITED (status) || WIFSIGNALED (status)))
        fc_sampler_note_target_cpu (self, &usage);
      if (self->mode == FC_SAMPLER_MODE_CPU && !self->traced)
        {
          /* our spawned child in cpu mode is not traced: only its exit can arrive here */
          if (tid == self->pid && (WIFEXITED (status) || WIFSIGNALED (status)))
            {
              g_hash_table_remove_all (self->tasks);
              self->attached = FALSE;
              fc_sampler_target_exited (self, status);
            }
          continue;
        }
      handle_wait_status (self, tid, status);
    }
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
      g_autoptr(GArray) tids = fc_sampler_list_tasks (pid);

      changed = FALSE;
      for (guint i = 0; i < tids->len; i++)
        {
          int tid = g_array_index (tids, int, i);

          if (g_hash_table_contains (self->tasks, GINT_TO_POINTER (tid)))
            continue;
          if (ptrace (PTRACE_SEIZE, tid, NULL, (void *) fc_sampler_trace_options (self)) != 0)
            {
              if (errno != ESRCH && !any && error != NULL && *error == NULL)
                fc_attach_error_set (error, pid, errno, "PTRACE_SEIZE");
              continue;
            }
          fc_sampler_task_add (self, pid, tid);
          any = changed = TRUE;
        }
    }
  return any;
}

/* --pid with --follow-children: the target's descendants that exist already are followed too,
 * not only those it starts from now on. Until each is seized it may fork again, so the walk
 * repeats until it finds none new. */
void
fc_sampler_seize_descendants (FcSampler *self)
{
  gboolean changed = TRUE;

  for (guint round = 0; changed && round < 10; round++)
    {
      g_autoptr(GArray) pids = fc_sampler_list_descendants (self->pid);

      changed = FALSE;
      for (guint i = 0; i < pids->len; i++)
        {
          int pid = g_array_index (pids, int, i);
          g_autoptr(GError) error = NULL;

          if (g_hash_table_contains (self->tasks, GINT_TO_POINTER (pid)))
            continue;
          if (seize_process (self, pid, &error))
            changed = TRUE;
          else if (error != NULL && fc_sampler_debug)
            g_printerr ("descendant %d: %s\n", pid, error->message);
        }
    }
}

gboolean
fc_sampler_seize_all (FcSampler *self,
                      GError   **error)
{
  gboolean changed = TRUE;

  /* threads created while we seize are caught by the rescan or by TRACECLONE */
  for (guint round = 0; changed && round < 100; round++)
    {
      g_autoptr(GArray) tids = fc_sampler_list_tasks (self->pid);
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
          if (ptrace (PTRACE_SEIZE, tid, NULL, (void *) fc_sampler_trace_options (self)) != 0)
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
          fc_sampler_task_add (self, self->pid, tid);
          changed = TRUE;
        }
    }
  return TRUE;
}

/* A stop for a tick: TRUE when sent. A thread the kernel will not interrupt has ended
 * (ESRCH: its exit is near) or is not ours to stop. */
gboolean
fc_sampler_interrupt_task (FcSampler *self,
                           Task      *task)
{
  task->interrupt_ns = fc_sampler_now_ns ();
  if (ptrace (PTRACE_INTERRUPT, task->tid, NULL, NULL) != 0)
    {
      fc_sampler_tick_outcome (self, task, errno == ESRCH ? FC_TICK_TOO_SHORT : FC_TICK_REFUSED);
      return FALSE;
    }
  /* counted as a sample once it is taken (fc_sampler_capture()): the thread may exit, exec or
   * be released before it stops */
  task->interrupt_pending = TRUE;
  task->tick_pending = TRUE;
  self->pending++;
  g_mutex_lock (&self->lock);
  self->stats.n_stops++;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

void
fc_sampler_do_detach_all (FcSampler *self)
{
  GHashTableIter iter;
  Task *task;

  if (!self->attached || self->helper_wall)
    {
      fc_sampler_reset_target (self);
      return;
    }
  if (self->mode == FC_SAMPLER_MODE_CPU)
    {
      fc_sampler_perf_drain_all (self);
      if (!self->traced)
        {
          fc_sampler_reset_target (self);
          return;
        }
      /* following children: no more samples, then release every process as in wall mode */
      g_hash_table_iter_init (&iter, self->tasks);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
        g_clear_pointer (&task->perf, fc_perf_stream_free);
    }

  /* The kernel lets every tracee go when the thread that traces them ends (exit_ptrace), all at
   * once and none stopped: a pending interrupt is dropped, a thread held in a ptrace-stop wakes
   * (one in a group-stop goes back to it), a signal whose delivery stop was not yet collected is
   * delivered. PTRACE_DETACH needs each thread in a ptrace-stop: interrupting a pool of sleeping
   * threads to let them go held them 117 ms (100 threads) to 272 ms (300), the worst wake-ups of
   * the whole recording (bench-threads). So the sampler thread ends after this command and the
   * next command starts another (fc-sampler.c). */
  self->release_by_exit = TRUE;
  fc_sampler_reset_target (self);
}
