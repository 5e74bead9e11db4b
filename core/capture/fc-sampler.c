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
 * Safety. Tracees are seized with PTRACE_SEIZE, so when the thread that
 * traces them ends the kernel detaches them (exit_ptrace), clearing any
 * pending PTRACE_INTERRUPT trap, and wakes those held in a ptrace-stop; a
 * thread the user stopped (group-stop) stays stopped, as it would without us.
 * That is how a crashed profiler lets go, and how a detach does: the sampler
 * thread ends, and the next command starts a new one. Spawned
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
#include <sys/epoll.h>
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
#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-attach-check.h"
#include "fc-capture-error.h"
#include "fc-perf.h"
#include "fc-procfs.h"
#include "fc-record-options.h"
#include "fc-sampler.h"
#include "fc-sampler-private.h"

G_DEFINE_ENUM_TYPE (FcSamplerMode, fc_sampler_mode,
                    G_DEFINE_ENUM_VALUE (FC_SAMPLER_MODE_WALL, "wall"),
                    G_DEFINE_ENUM_VALUE (FC_SAMPLER_MODE_CPU, "cpu"))

/* FC_DEBUG_SAMPLER=1 traces every ptrace event on stderr */
gboolean fc_sampler_debug;

static int
open_pidfd (GPid pid)
{
  /* sandboxed, the host's process is not in our PID namespace: the helper opens it */
  return fc_access_open_pidfd (pid);
}

void
fc_sampler_reset_target (FcSampler *self)
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
  self->helper_wall = FALSE;
}

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

static gboolean
target_is_stopped (GPid pid)
{
  g_autofree char *text = fc_access_read_proc (pid, 0, "stat", NULL);
  FcProcStat stat;

  return fc_procfs_parse_stat (text, &stat) && (stat.state == 'T' || stat.state == 't');
}

static gboolean
do_attach (FcSampler *self,
           Command   *cmd)
{
  fc_sampler_reset_target (self);
  take_options (self, cmd->mode);
  self->pid = cmd->pid;
  if (!fc_access_process_exists (cmd->pid))
    {
      fc_attach_error_set (&cmd->error, cmd->pid, ESRCH, "attach");
      fc_access_append_sandbox_hint (&cmd->error);
      return FALSE;
    }
  g_mutex_lock (&self->lock);
  self->target_stopped = target_is_stopped (cmd->pid);
  g_mutex_unlock (&self->lock);
  if (self->traced)
    {
      if (cmd->mode == FC_SAMPLER_MODE_WALL)
        fc_sampler_choose_wall_method (self, cmd->pid);
      /* sandboxed, the host's process is not ours to seize: flamecast-helper stops its threads */
      if (fc_access_through_helper (cmd->pid) && !self->follow)
        g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                     _("Process %d is outside Flamecast's sandbox"), cmd->pid);
      /* refused: flamecast-helper may stop the threads for us */
      if ((cmd->error != NULL || !fc_sampler_seize_all (self, &cmd->error)) &&
          !fc_sampler_helper_attach (self, &cmd->error))
        {
          self->attached = TRUE;
          fc_sampler_do_detach_all (self);
          return FALSE;
        }
      if (self->follow)
        fc_sampler_seize_descendants (self);
      fc_sampler_first_stacks (self);
    }
  else
    {
      if (!fc_sampler_perf_open_all (self, FALSE, &cmd->error))
        {
          fc_sampler_reset_target (self);
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
  /* what failed in the child: 0 changing directory, 1 exec; then errno */
  int child_errno[2] = { 0, 0 };
  g_auto(GStrv) envp = NULL;
  ssize_t n;

  fc_sampler_reset_target (self);
  take_options (self, cmd->mode);
  if (pipe2 (go, O_CLOEXEC) != 0 || pipe2 (err_pipe, O_CLOEXEC) != 0)
    {
      g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED, _("pipe: %s"), g_strerror (errno));
      return FALSE;
    }
  g_mutex_lock (&self->lock);
  envp = g_strdupv (self->launch_environ);
  g_mutex_unlock (&self->lock);
  child = fork ();
  if (child < 0)
    {
      g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED, _("fork: %s"), g_strerror (errno));
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
      /* the command's own directory, never the whole app's (its other threads would move too) */
      if (cmd->cwd != NULL && chdir (cmd->cwd) != 0)
        {
          child_errno[1] = errno;
          (void) !write (err_pipe[1], child_errno, sizeof child_errno);
          _exit (127);
        }
      if (envp != NULL)
        execvpe (cmd->argv[0], (char * const *) cmd->argv, envp);
      else
        execvp (cmd->argv[0], (char * const *) cmd->argv);
      child_errno[0] = 1;
      child_errno[1] = errno;
      (void) !write (err_pipe[1], child_errno, sizeof child_errno);
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
        fc_sampler_choose_wall_method (self, child);
      if (ptrace (PTRACE_SEIZE, child, NULL, (void *) fc_sampler_trace_options (self)) != 0)
        {
          fc_attach_error_set (&cmd->error, child, errno, "PTRACE_SEIZE");
          close (go[1]);
          close (err_pipe[0]);
          waitpid (child, NULL, 0);
          fc_sampler_reset_target (self);
          return FALSE;
        }
      fc_sampler_task_add (self, child, child);
    }
  else
    {
      if (!fc_sampler_perf_open_all (self, TRUE, &cmd->error))
        {
          kill (child, SIGKILL);
          close (go[1]);
          close (err_pipe[0]);
          waitpid (child, NULL, 0);
          fc_sampler_reset_target (self);
          return FALSE;
        }
    }

  (void) !write (go[1], "x", 1);
  close (go[1]);
  do
    n = read (err_pipe[0], child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);
  close (err_pipe[0]);

  if (n == sizeof child_errno)
    {
      int status;
      if (child_errno[0] == 0)
        g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                     _("Cannot use %s as the working directory of %s: %s"), cmd->cwd, cmd->argv[0],
                     g_strerror (child_errno[1]));
      else
        g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                     _("Cannot run %s: %s"), cmd->argv[0], g_strerror (child_errno[1]));
      /* the child exits 127; collect it (and its ptrace stops) */
      while (waitpid (child, &status, __WALL) == child)
        {
          if (WIFEXITED (status) || WIFSIGNALED (status))
            break;
          ptrace (PTRACE_CONT, child, NULL, NULL);
        }
      fc_sampler_reset_target (self);
      return FALSE;
    }

  self->attached = TRUE;
  self->pidfd = open_pidfd (child);
  /* in wall mode the exec event stop is handled by the event loop */
  return TRUE;
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
  self->unticked = 0;
}

static void
finish_command (FcSampler *self,
                Command   *cmd,
                gboolean   ok)
{
  /* whatever the command made is with the sink before its caller goes on */
  fc_sampler_batch_end (self);
  g_mutex_lock (&self->lock);
  cmd->ok = ok;
  cmd->done = TRUE;
  /* ending to let tracees go: the caller joins this thread, then frees the command slot */
  self->thread_ends = self->release_by_exit;
  if (!self->thread_ends)
    self->command = NULL;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* Whether to look for ptrace events now. Each wait4() walks every tracee: ~0.4 us each here, a
 * fifth of the sampler's time at 1,000 threads (perf record of bench-threads), once a tick. Where
 * perf events describe every thread and no stop is awaited, the target's own events (a new
 * thread, a signal) are all there is: a quiet target with many threads is looked at every
 * 25 us a thread (25 ms at 1,000), at least every 10 ms as before. */
static gboolean
events_due (FcSampler *self)
{
  gint64 now = g_get_monotonic_time ();

  if (self->pending > 0 || self->follow || !self->wall_perf || !self->sampling ||
      now - self->last_event_us < G_USEC_PER_SEC / 10 ||
      now - self->last_collect_us >= MAX (10000, (gint64) g_hash_table_size (self->tasks) * 25))
    {
      self->last_collect_us = now;
      return TRUE;
    }
  return FALSE;
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

  self->thread_tid = syscall (SYS_gettid);
  self->release_by_exit = FALSE;
  /* a slightly higher priority keeps hold times short when cores are busy (SAMPLING.md, point 8) */
  setpriority (PRIO_PROCESS, self->thread_tid, -5);

  while (!quit)
    {
      struct pollfd fds[4];
      int nfds = 0, perf_index = -1;
      gint64 timeout_us;
      Command *cmd;

      fds[nfds].fd = self->wake_fd; fds[nfds++].events = POLLIN;
      fds[nfds].fd = self->timer_fd; fds[nfds++].events = POLLIN;
      /* readable for good once the target has exited: children followed may remain */
      if (self->pidfd >= 0 && self->attached && !self->exited)
        {
          fds[nfds].fd = self->pidfd;
          fds[nfds++].events = POLLIN;
        }
      if (self->attached && self->sampling && self->mode == FC_SAMPLER_MODE_CPU)
        {
          perf_index = nfds;
          fds[nfds].fd = self->perf_epoll_fd;
          fds[nfds++].events = POLLIN;
        }
      /* ptrace stops are not pollable: look every 2 ms while the target is eventful (signals,
       * threads coming and going), every 10 ms when it has been quiet for a while; each wakeup
       * costs tens of microseconds on a virtual CPU. Following children, a short process is a
       * chain of stops (its parent's fork, its first stop, its exec, its exit in cpu mode), each
       * held until we look: for 5 ms after an event, every 0.25 ms. 300 runs of /bin/true
       * waited 1 ms per stop on average, 3-4 ms per process. A thread waiting in its stop for
       * us: every 1 ms (a tick no longer waits for it). */
      if (self->attached && self->traced)
        {
          gint64 quiet_us = g_get_monotonic_time () - self->last_event_us;

          if (self->follow && quiet_us < 5000)
            timeout_us = 250;
          else if (self->pending > 0)
            timeout_us = 1000;
          else
            timeout_us = quiet_us < G_USEC_PER_SEC / 10 ? 2000 : 10000;
        }
      else
        timeout_us = -1;
      /* expirations a thread's coming or going took from the timer still make their tick */
      if (self->unticked > 0)
        timeout_us = 0;
      fc_sampler_batch_end (self);
      {
        struct timespec ts = { timeout_us / G_USEC_PER_SEC, (timeout_us % G_USEC_PER_SEC) * 1000 };

        if (ppoll (fds, nfds, timeout_us >= 0 ? &ts : NULL, NULL) < 0 && errno != EINTR)
          break;
      }

      /* The tick before the ptrace events: ticks that fired while this thread waited for a CPU
       * are requested of the threads that lived then, including one whose exit is among the
       * events (it ended: too short), rather than of none. */
      if (fds[1].revents & POLLIN)
        fc_sampler_take_expirations (self);
      if (self->unticked > 0)
        {
          guint64 expirations = self->unticked;

          self->unticked = 0;
          if (self->attached)
            {
              g_mutex_lock (&self->lock);
              self->stats.n_ticks++;
              if (expirations > 1)
                self->stats.dropped_ticks += expirations - 1;   /* late: skip, never burst */
              g_mutex_unlock (&self->lock);
              if (self->sampling && self->mode == FC_SAMPLER_MODE_WALL)
                fc_sampler_interrupt_tick (self, MAX (expirations, 1));
              else if (self->mode == FC_SAMPLER_MODE_CPU)
                {
                  fc_sampler_perf_drain_all (self);
                  /* following children, ptrace reports every new thread */
                  if (!self->follow && (fc_sampler_threads_changed (self) ||
                                        g_get_monotonic_time () - self->last_rescan_us > G_USEC_PER_SEC / 10))
                    {
                      self->last_rescan_us = g_get_monotonic_time ();
                      fc_sampler_perf_rescan (self);
                    }
                }
            }
        }

      if (perf_index >= 0 && (fds[perf_index].revents & POLLIN) && self->attached)
        fc_sampler_perf_drain_ready (self);

      if (self->attached && self->traced && events_due (self))
        fc_sampler_collect_events (self, FALSE);

      if (nfds > 2 && perf_index != 2 && (fds[2].revents & POLLIN) && self->attached)
        {
          if (!self->traced)
            {
              int status = -1;
              struct rusage usage;
              fc_sampler_perf_drain_all (self);
              if (self->spawned && wait4 (self->pid, &status, 0, &usage) == self->pid)
                fc_sampler_note_target_cpu (self, &usage);
              g_hash_table_remove_all (self->tasks);
              self->attached = FALSE;
              fc_sampler_target_exited (self, status);
            }
          else
            fc_sampler_collect_events (self, FALSE);
        }

      g_mutex_lock (&self->lock);
      cmd = self->command;
      self->stats.n_threads = g_hash_table_size (self->tasks);
      g_mutex_unlock (&self->lock);
      if (cmd == NULL || cmd->done)
        continue;

      {
        guint64 v;
        (void) !read (self->wake_fd, &v, sizeof v);
      }

      if (fc_sampler_debug)
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
          /* a launched command that ended before Start (`sh -c pwd`, `true`) was recorded in full:
           * nothing to sample, which the recording's summary says, not an error */
          if (!self->attached && self->spawned && self->exited)
            {
              finish_command (self, cmd, TRUE);
              break;
            }
          if (!self->attached)
            {
              g_set_error (&cmd->error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                           _("No target to sample: attach to a process or launch one first%s"),
                           self->exited ? " (the target has exited)" : "");
              finish_command (self, cmd, FALSE);
              break;
            }
          self->frequency = fc_record_option_clamp (FC_RECORD_OPTION_FREQUENCY, cmd->frequency);
          self->stack_size = fc_record_option_clamp (FC_RECORD_OPTION_STACK_BYTES, cmd->stack_size);
          self->sampling = TRUE;
          self->start_ns = fc_sampler_now_ns ();
          {
            GHashTableIter iter;
            Task *task;
            g_hash_table_iter_init (&iter, self->tasks);
            while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
              {
                if (task->perf)
                  {
                    fc_perf_stream_set_frequency (task->perf, self->frequency);
                    fc_perf_stream_enable (task->perf, TRUE);
                  }
                if (task->off_cpu_perf)
                  fc_perf_stream_enable (task->off_cpu_perf, TRUE);
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
                  fc_sampler_perf_drain_all (self);
                  arm_timer (self, FALSE);
                }
              else
                {
                  GHashTableIter iter;
                  Task *task;
                  g_hash_table_iter_init (&iter, self->tasks);
                  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
                    {
                      if (task->perf)
                        fc_perf_stream_enable (task->perf, FALSE);
                      if (task->off_cpu_perf)
                        fc_perf_stream_enable (task->off_cpu_perf, FALSE);
                    }
                  /* keep polling for ptrace events, but take no more samples */
                  fc_sampler_collect_events (self, TRUE);
                  arm_timer (self, FALSE);
                }
              snap = fc_snapshot_new (FC_SNAPSHOT_FLUSH, 0, 0);
              snap->time_ns = fc_sampler_now_ns ();
              fc_sampler_emit (self, snap);
            }
          finish_command (self, cmd, TRUE);
          break;
        case CMD_DETACH:
          self->sampling = FALSE;
          arm_timer (self, FALSE);
          fc_sampler_do_detach_all (self);
          finish_command (self, cmd, TRUE);
          break;
        case CMD_QUIT:
          self->sampling = FALSE;
          fc_sampler_do_detach_all (self);
          quit = TRUE;
          finish_command (self, cmd, TRUE);
          break;
        default:
          g_assert_not_reached ();
        }
      g_mutex_lock (&self->lock);
      self->stats.n_threads = g_hash_table_size (self->tasks);
      g_mutex_unlock (&self->lock);
      if (self->release_by_exit)
        quit = TRUE;
    }
  fc_sampler_batch_end (self);
  return NULL;
}

/* The kernel lets the tracees go in the thread's exit_notify(), after pthread_join() may have
 * returned (the thread's tid is cleared earlier, in exit_mm()); its id leaves the kernel after
 * that. So a detach returns once the target is free: another tracer may seize it at once. */
static void
join_ended_thread (FcSampler *self)
{
  gint64 deadline;

  g_thread_join (g_steal_pointer (&self->thread));
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (syscall (SYS_tgkill, getpid (), self->thread_tid, 0) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (50);
}

static gboolean
run_command (FcSampler *self,
             Command   *cmd,
             GError   **error)
{
  guint64 one = 1;
  gboolean ended;

  g_mutex_lock (&self->lock);
  while (self->command != NULL)
    g_cond_wait (&self->cond, &self->lock);
  self->command = cmd;
  g_mutex_unlock (&self->lock);

  /* the command slot is ours: no other caller touches the thread meanwhile */
  if (self->thread == NULL)
    self->thread = g_thread_new ("fc-sampler", sampler_thread, self);
  (void) !write (self->wake_fd, &one, sizeof one);

  g_mutex_lock (&self->lock);
  while (!cmd->done)
    g_cond_wait (&self->cond, &self->lock);
  ended = self->thread_ends;
  g_mutex_unlock (&self->lock);

  if (ended)
    {
      join_ended_thread (self);
      g_mutex_lock (&self->lock);
      self->thread_ends = FALSE;
      self->command = NULL;
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
    }

  if (cmd->error != NULL)
    g_propagate_error (error, g_steal_pointer (&cmd->error));
  return cmd->ok;
}

FcSampler *
fc_sampler_new (FcSnapshotSink sink,
                gpointer       sink_data)
{
  return fc_sampler_new_full (sink, NULL, sink_data);
}

/**
 * fc_sampler_new_full:
 * @batch_end: (nullable): called on the sampler thread after each batch of snapshots
 */
FcSampler *
fc_sampler_new_full (FcSnapshotSink     sink,
                     FcSnapshotBatchEnd batch_end,
                     gpointer           sink_data)
{
  FcSampler *self = g_new0 (FcSampler, 1);

  self->sink = sink;
  self->batch_end = batch_end;
  self->sink_data = sink_data;
  fc_sampler_debug = g_getenv ("FC_DEBUG_SAMPLER") != NULL;
  self->wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  errno = 0;
  self->nice = getpriority (PRIO_PROCESS, 0);
  self->timer_fd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  self->perf_epoll_fd = epoll_create1 (EPOLL_CLOEXEC);
  self->pidfd = -1;
  self->frequency = fc_record_option_get (FC_RECORD_OPTION_FREQUENCY)->default_value;
  self->stack_size = fc_record_option_get (FC_RECORD_OPTION_STACK_BYTES)->default_value;
  self->tasks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) fc_sampler_task_free);
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
  if (self->thread != NULL)
    g_thread_join (self->thread);
  g_hash_table_unref (self->tasks);
  g_array_unref (self->stop_times);
  g_hash_table_unref (self->tick_counts);
  g_hash_table_unref (self->unsampled);
  g_free (self->unsampled_reason);
  g_free (self->method_reason);
  g_strfreev (self->launch_environ);
  close (self->wake_fd);
  close (self->timer_fd);
  if (self->perf_epoll_fd >= 0)
    close (self->perf_epoll_fd);
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
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS, _("Invalid process id %d"), pid);
      return FALSE;
    }
  return run_command (self, &cmd, error);
}

gboolean
fc_sampler_spawn (FcSampler          *self,
                  const char * const *argv,
                  const char         *cwd,
                  FcSamplerMode       mode,
                  GError            **error)
{
  Command cmd = { .kind = CMD_SPAWN, .argv = argv, .cwd = cwd != NULL && *cwd != '\0' ? cwd : NULL, .mode = mode };

  if (argv == NULL || argv[0] == NULL)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED, _("No command to launch"));
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
  self->next_frequency = fc_record_option_clamp (FC_RECORD_OPTION_FREQUENCY, frequency);
  self->next_stack_size = fc_record_option_clamp (FC_RECORD_OPTION_STACK_BYTES, stack_size) & ~7u;
  g_mutex_unlock (&self->lock);
}

void
fc_sampler_detach (FcSampler *self)
{
  Command cmd = { .kind = CMD_DETACH };

  /* called on the sampler thread itself when attaching fails half way */
  if (g_thread_self () == self->thread)
    {
      fc_sampler_do_detach_all (self);
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
  stats->max_stop_us = self->max_stop_us;
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
    method = g_strdup (_("perf events, on-CPU only"));
  else if (self->wall_perf && self->off_cpu_stacks)
    method = g_strdup (_("perf events for running threads, switch-out stacks for sleeping ones"));
  else if (self->wall_perf)
    method = g_strdup (_("perf events for running threads, one ptrace stop per sleep"));
  else
    method = g_strdup (_("ptrace stops of every thread"));
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
 * fc_sampler_set_launch_environ:
 * @envp: (nullable): the environment, or %NULL for the profiler's own
 *
 * The environment of the next command launched: the app sets some of its own
 * (no GL without a GPU) that the user's program must not inherit.
 */
void
fc_sampler_set_launch_environ (FcSampler          *self,
                               const char * const *envp)
{
  g_mutex_lock (&self->lock);
  g_strfreev (self->launch_environ);
  self->launch_environ = g_strdupv ((char **) envp);
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
