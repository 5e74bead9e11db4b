/* fc-sampler-ticks.c - wall mode's ticks, and what each thread got of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * At every tick each thread known gets one sample: a perf sample, its last
 * stack again, or a ptrace stop.
 */

#include <unistd.h>

#include "fc-attach-check.h"
#include "fc-error.h"
#include "fc-sampler-private.h"

void
fc_sampler_count_sample (FcSampler *self,
                         gboolean   reused)
{
  g_mutex_lock (&self->lock);
  self->stats.n_samples++;
  if (reused)
    self->stats.n_reused++;
  g_mutex_unlock (&self->lock);
}

void
fc_sampler_emit_reuse (FcSampler *self,
                       Task      *task,
                       gint64     t)
{
  FcSnapshot *snap = fc_snapshot_new (FC_SNAPSHOT_REUSE, task->tid, 0);

  snap->pid = task->pid;
  snap->time_ns = t;
  fc_sampler_emit (self, snap);
  fc_sampler_count_sample (self, TRUE);
}

void
fc_sampler_interrupt_tick (FcSampler *self)
{
  GHashTableIter iter;
  Task *task;
  gint64 t = fc_sampler_now_ns ();

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
          fc_sampler_interrupt_task (self, task);
          continue;
        }
      if (task->group_stopped)
        {
          /* a stopped thread's stack does not change */
          fc_sampler_emit_reuse (self, task, t);
          continue;
        }

      fc_sampler_task_sched (task, &runtime, &pcount);
      if (task->perf != NULL && fc_sampler_perf_tick_task (self, task, runtime, pcount))
        continue;
      if (task->have_sample && !fc_sampler_task_ran (task, runtime, pcount))
        {
          task->last_runtime = runtime;
          task->last_pcount = pcount;
          task->stopped_by_us = FALSE;
          fc_sampler_emit_reuse (self, task, t);
          continue;
        }
      task->last_runtime = runtime;
      task->last_pcount = pcount;
      fc_sampler_interrupt_task (self, task);
    }

  /* capture each thread as its stop arrives */
  fc_sampler_collect_events (self, TRUE, FALSE);
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
