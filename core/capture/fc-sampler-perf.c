/* fc-sampler-perf.c - perf events: on-CPU samples and context switches, for both modes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cpu mode reads every thread's ring buffer on a timer; wall mode reads them
 * at each tick and takes a running thread's stack from its newest sample.
 */

#include <errno.h>
#include <unistd.h>

#include "fc-attach-check.h"
#include "fc-error.h"
#include "fc-sampler-private.h"

/* Wall mode's running threads are sampled by perf events: the kernel copies
 * registers and stack, the thread is never stopped. */
void
fc_sampler_task_open_wall_perf (FcSampler *self,
                                Task      *task)
{
  g_autoptr(GError) error = NULL;

  task->perf = fc_perf_stream_open_full (task->tid, self->frequency ? self->frequency : 101, self->stack_size,
                                         FC_PERF_SWITCHES | FC_PERF_SMALL_RING, &error);
  if (task->perf == NULL)
    {
      /* this thread is sampled with ptrace stops, like every thread of the fallback */
      if (fc_sampler_debug)
        g_printerr ("thread %d: %s\n", task->tid, error->message);
      return;
    }
  fc_perf_stream_enable (task->perf, self->sampling);
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
  fc_perf_stream_enable (task->perf, self->sampling);
}

gboolean
fc_sampler_perf_open_all (FcSampler *self,
                          gboolean   enable_on_exec,
                          GError   **error)
{
  g_autoptr(GArray) tids = fc_sampler_list_tasks (self->pid);

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
      if (!enable_on_exec)
        fc_perf_stream_enable (task->perf, self->sampling);
    }
  return TRUE;
}

/* Wall mode stops only sleeping threads where perf events are allowed (a stop
 * costs a running thread 0.4-1 ms on a virtual CPU, SAMPLING.md); elsewhere
 * every thread is stopped at every tick, as before. */
void
fc_sampler_choose_wall_method (FcSampler *self,
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

void
fc_sampler_collect_perf_sample_cb (FcSnapshot *snapshot,
                                   gpointer    user_data)
{
  Task *task = user_data;

  /* one sample per thread per tick: the newest stands for the tick */
  g_free (task->latest);
  task->latest = snapshot;
}

void
fc_sampler_collect_switch_cb (FcPerfSwitch kind,
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
gboolean
fc_sampler_perf_tick_task (FcSampler *self,
                           Task      *task,
                           guint64    runtime,
                           guint64    pcount)
{
  g_autofree FcSnapshot *latest = NULL;
  guint64 lost = 0;
  gboolean ran, sleeping;

  fc_perf_stream_drain_full (task->perf, fc_sampler_collect_perf_sample_cb, fc_sampler_collect_switch_cb, task, &lost);
  latest = g_steal_pointer (&task->latest);
  if (lost > 0)
    {
      g_mutex_lock (&self->lock);
      self->stats.lost_samples += lost;
      g_mutex_unlock (&self->lock);
    }

  /* before its first context switch, run time tells: a thread blocked since
   * before we came has not run */
  ran = fc_sampler_task_ran (task, runtime, pcount);
  sleeping = task->switch_seen ? task->off_cpu && !task->preempted : !ran;
  if (fc_sampler_debug)
    g_printerr ("tick tid %d: perf sample %d, switch seen %d off %d preempted %d ran %d have %d\n", task->tid,
                latest != NULL, task->switch_seen, task->off_cpu, task->preempted, ran, task->have_sample);
  if (sleeping)
    return FALSE;
  if (latest != NULL)
    {
      /* it stands for this tick, like every other thread's sample: stamped so, samples arrive
       * in time order (chunks are cut by time as they arrive) */
      latest->time_ns = fc_sampler_now_ns ();
      fc_sampler_emit (self, g_steal_pointer (&latest));
      fc_sampler_count_sample (self, FALSE);
      task->have_sample = TRUE;
      return TRUE;
    }
  /* on a CPU or waiting for one, without a sample since the last tick: its
   * last stack is the best guess and costs it nothing. A thread with no
   * stack at all yet is stopped once, so that it misses no tick. */
  if (!task->have_sample)
    return FALSE;
  fc_sampler_emit_reuse (self, task, fc_sampler_now_ns ());
  return TRUE;
}

void
fc_sampler_perf_rescan (FcSampler *self)
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
