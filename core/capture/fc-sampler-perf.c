/* fc-sampler-perf.c - perf events: on-CPU samples and context switches, for both modes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cpu mode reads every thread's ring buffer on a timer; wall mode reads them
 * at each tick and takes a running thread's stack from its newest sample.
 */

#include <errno.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-attach-check.h"
#include "fc-capture-error.h"
#include "fc-procfs.h"
#include "fc-sampler-private.h"

/* How long a thread perf events describe may go without a stack before it is stopped for one:
 * threads that wake every few tens of milliseconds (pools, event loops) never are */
#define FIRST_STACK_WAIT_NS (FC_NSEC_PER_SEC / 4)

/* Wall mode's running threads are sampled by perf events: the kernel copies
 * registers and stack, the thread is never stopped. Where the kernel allows
 * switch-out samples, a thread's stack as it leaves its CPU stands for its
 * sleep, and sleeping threads are not stopped either. Both rings are
 * overwritten from the newest, read in the same time whatever the thread did. */
void
fc_sampler_task_open_wall_perf (FcSampler *self,
                                Task      *task)
{
  g_autoptr(GError) error = NULL;
  guint frequency = self->frequency ? self->frequency : 101;

  /* with switch-out samples too, its switches say whether it ran since the last tick: one ring
   * to look at for a thread that did not, not two (the first look at each ring's head misses
   * the cache: with 1,000 threads, a fifth of the sampler's time) */
  task->perf = fc_perf_stream_open_full (task->tid, frequency, self->stack_size,
                                         FC_PERF_NEWEST | FC_PERF_SWITCHES, &error);
  if (task->perf == NULL)
    {
      /* this thread is sampled with ptrace stops, like every thread of the fallback */
      if (fc_sampler_debug)
        g_printerr ("thread %d: %s\n", task->tid, error->message);
      return;
    }
  fc_perf_stream_enable (task->perf, self->sampling);
  if (self->off_cpu_stacks)
    {
      task->off_cpu_perf = fc_perf_stream_open_full (task->tid, frequency, self->stack_size,
                                                     FC_PERF_NEWEST | FC_PERF_OFF_CPU, &error);
      if (task->off_cpu_perf != NULL)
        {
          fc_perf_stream_enable (task->off_cpu_perf, self->sampling);
          return;
        }
      /* its sleeps are taken with a ptrace stop each, which its switches tell */
      if (fc_sampler_debug)
        g_printerr ("thread %d: %s\n", task->tid, error->message);
    }
  /* a thread whose run time does not move from here is asleep: one ptrace capture */
  fc_sampler_task_sched (task, &task->last_runtime, &task->last_pcount);
}

/* Cpu mode while following children: a perf event on each thread as ptrace reports it. */
void
fc_sampler_task_open_cpu_perf (FcSampler *self,
                               Task      *task)
{
  g_autoptr(GError) error = NULL;

  task->perf = fc_perf_stream_open (task->tid, self->frequency ? self->frequency : 101, self->stack_size,
                                    FALSE, &error);
  if (task->perf == NULL)
    {
      fc_sampler_note_unsampled (self, task->tid, error);
      return;
    }
  fc_sampler_perf_watch (self, task);
  fc_perf_stream_enable (task->perf, self->sampling);
}

/* cpu mode: the sampler wakes when the thread's ring is half full, not only at its timer. A
 * closed fd leaves the epoll set by itself. */
void
fc_sampler_perf_watch (FcSampler *self,
                       Task      *task)
{
  struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (guint64) task->tid };

  if (self->perf_epoll_fd >= 0 && task->perf != NULL)
    epoll_ctl (self->perf_epoll_fd, EPOLL_CTL_ADD, fc_perf_stream_get_fd (task->perf), &ev);
}

gboolean
fc_sampler_perf_open_all (FcSampler *self,
                          gboolean   enable_on_exec,
                          GError   **error)
{
  g_autoptr(GArray) tids = fc_sampler_list_tasks (self->pid);

  if (tids->len == 0)
    {
      /* sandboxed, no list is the helper's refusal as often as the process's exit */
      if (fc_access_through_helper (self->pid) && fc_access_process_exists (self->pid))
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                     _("Process %d is outside Flamecast's sandbox"), self->pid);
      else
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
      task = fc_sampler_task_add (self, self->pid, tid);
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
          fc_sampler_note_unsampled (self, tid, local_error);
          continue;
        }
      fc_sampler_perf_watch (self, task);
      if (!enable_on_exec)
        fc_perf_stream_enable (task->perf, self->sampling);
    }
  return TRUE;
}

/* Wall mode stops no thread where the kernel gives switch-out samples, only
 * sleeping threads where it gives perf events alone (a stop costs a running
 * thread 0.4-1 ms on a virtual CPU, SAMPLING.md, and a sleeping one nothing);
 * elsewhere every thread is stopped at every tick. */
void
fc_sampler_choose_wall_method (FcSampler *self,
                               GPid       pid)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) off_error = NULL;
  FcPerfStream *probe = NULL;
  char *reason = NULL;
  gboolean force;

  g_mutex_lock (&self->lock);
  force = self->force_ptrace;
  g_mutex_unlock (&self->lock);
  if (force || g_strcmp0 (g_getenv ("FC_SAMPLER_FORCE_PTRACE"), "1") == 0)
    reason = g_strdup (force ? _("ptrace forced by the caller") : _("ptrace forced by FC_SAMPLER_FORCE_PTRACE=1"));
  else if ((probe = fc_perf_stream_open_full (pid, 101, 1024, FC_PERF_SWITCHES | FC_PERF_SMALL_RING, &error)) == NULL)
    reason = g_strdup_printf (_("ptrace only: %s"), error->message);
  g_clear_pointer (&probe, fc_perf_stream_free);

  g_mutex_lock (&self->lock);
  self->wall_perf = reason == NULL;
  self->off_cpu_stacks = FALSE;
  g_free (self->method_reason);
  self->method_reason = reason;
  g_mutex_unlock (&self->lock);
  if (reason != NULL)
    return;

  /* switch-out samples are kernel events: refused where perf_event_paranoid > 1 without
   * CAP_PERFMON; sleeping threads are then stopped once per sleep */
  if (g_strcmp0 (g_getenv ("FC_SAMPLER_NO_SWITCH_STACKS"), "1") == 0)
    reason = g_strdup (_("one ptrace stop per sleep: switch-out stacks turned off by FC_SAMPLER_NO_SWITCH_STACKS=1"));
  else if ((probe = fc_perf_stream_open_full (pid, 101, 1024, FC_PERF_NEWEST | FC_PERF_OFF_CPU, &off_error)) == NULL)
    reason = g_strdup_printf (_("one ptrace stop per sleep: the kernel refused switch-out samples (%s)"),
                              off_error->message);
  fc_perf_stream_free (probe);
  g_mutex_lock (&self->lock);
  self->off_cpu_stacks = reason == NULL;
  self->method_reason = reason;
  g_mutex_unlock (&self->lock);
}

/* Whether a thread without a stack yet is runnable: it has not run since the attach, its CPUs
 * are busy (a thousand threads on two), and it gives its stack as it next leaves one. A stop
 * would only hold it longer. Asked at most every FIRST_STACK_WAIT_NS / 5 of a thread. */
static gboolean
task_waits_for_cpu (Task   *task,
                    gint64  tick_ns)
{
  g_autofree char *text = NULL;
  FcProcStat stat;

  if (tick_ns < task->state_checked_ns + FIRST_STACK_WAIT_NS / 5)
    return task->runnable;
  task->state_checked_ns = tick_ns;
  text = fc_access_read_proc (task->pid, task->tid, "stat", NULL);
  task->runnable = fc_procfs_parse_stat (text, &stat) && stat.state == 'R';
  return task->runnable;
}

/* Wall mode with perf events, one thread's tick: TRUE when it is done (its
 * on-CPU sample since the last tick, else its newest switch-out stack if that
 * is newer than the stack it has, else that stack again), FALSE when a ptrace
 * stop must decide: it has no stack yet, or it sleeps and the kernel gives no
 * switch-out stacks. One sample per tick: a thread busy a fifth of the time
 * has a CPU-time sample at a fifth of the ticks and its sleep at the rest. */
gboolean
fc_sampler_perf_tick_task (FcSampler *self,
                           Task      *task,
                           gint64     tick_ns)
{
  FcSnapshot *sample = NULL;
  FcPerfSwitch kind = FC_PERF_SWITCH_IN;
  gint64 switch_ns = 0;

  if (fc_perf_stream_read_newest (task->perf, task->read_ns, &sample,
                                  task->off_cpu_perf != NULL ? NULL : &kind, &switch_ns))
    {
      task->off_cpu_unread = TRUE;
      if (switch_ns > 0)
        {
          task->switch_seen = TRUE;
          task->off_cpu = kind != FC_PERF_SWITCH_IN;
          task->preempted = kind == FC_PERF_SWITCH_OUT_PREEMPTED;
        }
    }
  task->read_ns = tick_ns;
  /* a switch-out sample comes with a switch record in the first ring: none there since the
   * switch-out ring was last read, nothing new in it */
  if (sample == NULL && task->off_cpu_perf != NULL && task->off_cpu_unread)
    {
      fc_perf_stream_read_newest (task->off_cpu_perf, task->data_ns, &sample, NULL, NULL);
      task->off_cpu_unread = FALSE;
    }
  if (fc_sampler_debug)
    g_printerr ("tick tid %d: sample %d, switch seen %d off %d preempted %d have %d\n", task->tid,
                sample != NULL, task->switch_seen, task->off_cpu, task->preempted, task->have_sample);
  if (sample == NULL && task->first_stack != NULL && !task->have_sample)
    sample = g_steal_pointer (&task->first_stack);
  g_clear_pointer (&task->first_stack, fc_snapshot_free);
  if (sample != NULL)
    {
      /* it stands for this tick, like every other thread's sample: stamped so, samples arrive
       * in time order (chunks are cut by time as they arrive) */
      task->data_ns = sample->time_ns;
      sample->time_ns = tick_ns;
      fc_sampler_emit (self, sample);
      fc_sampler_tick_captured (self, task, FALSE);
      task->have_sample = TRUE;
      return TRUE;
    }
  /* asleep, and only a stop can tell where */
  if (task->off_cpu_perf == NULL && task->switch_seen && task->off_cpu && !task->preempted)
    return FALSE;
  /* on a CPU or waiting for one, without a sample since the last tick, or asleep where it
   * went to sleep: its last stack is right and costs it nothing. */
  if (!task->have_sample)
    {
      /* No stack yet: the kernel gives one at its next switch or on-CPU sample. A stop now
       * would hold a thread that may be about to wake (the first tick's stops of a hundred
       * threads held them 5-10 ms), so its ticks until then are lost late; one still asleep
       * after FIRST_STACK_WAIT_NS is stopped once. */
      if (task->off_cpu_perf != NULL && (tick_ns - MAX (task->added_ns, self->start_ns) < FIRST_STACK_WAIT_NS ||
                                         task_waits_for_cpu (task, tick_ns)))
        {
          fc_sampler_tick_outcome (self, task, FC_TICK_LATE);
          return TRUE;
        }
      return FALSE;
    }
  fc_sampler_emit_reuse (self, task, tick_ns);
  return TRUE;
}

/* cpu mode without ptrace learns of new threads by looking: /proc/PID/task has two links more
 * than the process has threads, so one stat() per tick tells when to read the directory. */
gboolean
fc_sampler_threads_changed (FcSampler *self)
{
  char path[64];
  struct stat st;

  if (fc_access_through_helper (self->pid))
    {
      /* the host's /proc/PID/task is not ours to stat: the helper lists the threads, at most
       * ten times a second */
      gint64 now = g_get_monotonic_time ();

      if (now - self->threads_listed_us < G_USEC_PER_SEC / 10)
        return FALSE;
      self->threads_listed_us = now;
      return TRUE;
    }
  g_snprintf (path, sizeof path, "/proc/%d/task", self->pid);
  if (stat (path, &st) != 0 || st.st_nlink == self->task_links)
    return FALSE;
  self->task_links = st.st_nlink;
  return TRUE;
}

void
fc_sampler_perf_rescan (FcSampler *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) live = fc_sampler_live_tasks (self->pid);
  GHashTableIter iter;
  Task *task;

  /* drop threads that exited, open events on new ones */
  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_size (live) > 0 && g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    {
      if (!g_hash_table_contains (live, GINT_TO_POINTER (task->tid)))
        {
          guint64 lost = 0;
          fc_perf_stream_drain (task->perf, self->sink, self->sink_data, &lost);
          g_hash_table_iter_remove (&iter);
        }
    }
  fc_sampler_perf_open_all (self, FALSE, &error);
}

void
fc_sampler_perf_drain_all (FcSampler *self)
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

/* A ring half full woke the sampler: a thread at 1000 Hz or in its first period's burst fills its
 * ring in a few tens of ms of CPU time, and the timer's drain comes late on a busy machine. A perf
 * fd reports its wake-up once, to the first poll, and that was the sampler's poll of the epoll fd:
 * which ring it was is lost, so all are drained. That is no more often than every 15 samples of
 * all threads together (two CPUs at 101 Hz: ~13 times a second). An exited thread's fd reports a
 * hang-up at every poll until it is closed: it leaves the set. */
void
fc_sampler_perf_drain_ready (FcSampler *self)
{
  struct epoll_event events[64];
  int n_ready;

  n_ready = epoll_wait (self->perf_epoll_fd, events, G_N_ELEMENTS (events), 0);
  for (int i = 0; i < n_ready; i++)
    {
      Task *task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER ((int) events[i].data.u64));

      if (task != NULL && task->perf != NULL && (events[i].events & (EPOLLHUP | EPOLLERR)))
        epoll_ctl (self->perf_epoll_fd, EPOLL_CTL_DEL, fc_perf_stream_get_fd (task->perf), NULL);
    }
  fc_sampler_perf_drain_all (self);
}
