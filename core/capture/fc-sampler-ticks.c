/* fc-sampler-ticks.c - wall mode's ticks, and what each thread got of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * At every tick each thread known gets one sample: a perf sample, its last
 * stack again, or a ptrace stop.
 */

#include <unistd.h>

#include "fc-attach-check.h"
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

/* A sample taken for the thread's tick: fc_sampler_count_sample() and its tick captured. In a
 * tick's pass over the threads, counted for all of them under one lock at its end (a lock a
 * thread was a tenth of the sampler's time at 1,000 threads, perf record). */
void
fc_sampler_tick_captured (FcSampler *self,
                          Task      *task,
                          gboolean   reused)
{
  task->tick_pending = FALSE;
  if (self->tick_captured != NULL)
    {
      g_ptr_array_add (self->tick_captured, task);
      self->tick_reused += reused ? 1 : 0;
      return;
    }
  g_mutex_lock (&self->lock);
  self->stats.n_samples++;
  if (reused)
    self->stats.n_reused++;
  if (task->ticks == NULL)
    task->ticks = fc_sampler_tick_count (self, task->tid);
  task->ticks->captured++;
  g_mutex_unlock (&self->lock);
}

/* The end of a tick's pass: what fc_sampler_tick_captured() kept for it is counted. */
static void
flush_tick_captured (FcSampler *self)
{
  g_mutex_lock (&self->lock);
  self->stats.n_samples += self->tick_captured->len;
  self->stats.n_reused += self->tick_reused;
  for (guint i = 0; i < self->tick_captured->len; i++)
    {
      Task *task = g_ptr_array_index (self->tick_captured, i);

      if (task->ticks == NULL)
        task->ticks = fc_sampler_tick_count (self, task->tid);
      task->ticks->captured++;
    }
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&self->tick_captured, g_ptr_array_unref);
  self->tick_reused = 0;
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
  fc_sampler_tick_captured (self, task, TRUE);
}

/* The thread's line in tick_counts; call with the lock held. */
FcTickCount *
fc_sampler_tick_count (FcSampler *self,
                       int        tid)
{
  FcTickCount *count = g_hash_table_lookup (self->tick_counts, GINT_TO_POINTER (tid));

  if (count == NULL)
    {
      count = g_new0 (FcTickCount, 1);
      g_hash_table_insert (self->tick_counts, GINT_TO_POINTER (tid), count);
    }
  return count;
}

/* How the tick the thread was asked for ended; each requested tick ends once. */
void
fc_sampler_tick_outcome (FcSampler     *self,
                         Task          *task,
                         FcTickOutcome  outcome)
{
  g_mutex_lock (&self->lock);
  if (task->ticks == NULL)
    task->ticks = fc_sampler_tick_count (self, task->tid);
  switch (outcome)
    {
    case FC_TICK_CAPTURED:
      task->ticks->captured++;
      break;
    case FC_TICK_LATE:
      task->ticks->late++;
      break;
    case FC_TICK_REFUSED:
      task->ticks->refused++;
      break;
    case FC_TICK_TOO_SHORT:
      task->ticks->too_short++;
      break;
    default:
      g_assert_not_reached ();
    }
  g_mutex_unlock (&self->lock);
  task->tick_pending = FALSE;
}

static int
compare_last_stop (gconstpointer a,
                   gconstpointer b)
{
  const Task *x = *(Task * const *) a, *y = *(Task * const *) b;
  return x->last_stop_tick < y->last_stop_tick ? -1 : x->last_stop_tick > y->last_stop_tick;
}

/* Stops one tick may make: each costs the sampler tens of microseconds and the stopped
 * threads wait for it, so a tick never stops more than about half its interval's worth
 * (with 80 us a stop); the others are counted late and go first at the next tick. */
static guint
stop_budget (FcSampler *self)
{
  return MAX (16, FC_NSEC_PER_SEC / MAX (self->frequency, 1) / 2 / 80000);
}

/* One tick of wall mode (@expirations timer periods since the last: the ones the sampler
 * missed are requested and lost late). Every thread known gets its sample, or a lost tick
 * with its reason. */
void
fc_sampler_interrupt_tick (FcSampler *self,
                           guint64    expirations)
{
  g_autoptr(GPtrArray) to_stop = g_ptr_array_new ();
  GHashTableIter iter;
  Task *task;
  gint64 t = fc_sampler_now_ns ();
  guint budget = stop_budget (self);

  self->tick_serial++;
  if (self->helper_wall)
    fc_sampler_helper_rescan (self);
  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    {
      /* a thread that came while the sampler was busy lived through only the later ones */
      guint64 own = expirations - MIN (task->unticked_before, expirations);

      task->unticked_before = 0;
      task->born_after_tick = own == 0;
      if (own == 0)
        continue;
      /* every ring's head on its way before the first is read (fc_perf_stream_prefetch()) */
      if (task->perf != NULL)
        fc_perf_stream_prefetch (task->perf);
      if (task->ticks == NULL)
        task->ticks = fc_sampler_tick_count (self, task->tid);
      task->ticks->requested += own;
      task->ticks->late += own - 1;
    }
  g_mutex_unlock (&self->lock);

  self->tick_captured = g_ptr_array_sized_new (g_hash_table_size (self->tasks));
  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    {
      guint64 runtime, pcount;

      if (task->born_after_tick)
        {
          task->born_after_tick = FALSE;
          continue;
        }
      /* its stop from an earlier tick has not come yet: this tick is late. That one stays open
       * until the stop comes (captured), the thread ends (too short) or something else takes
       * the stop (late): ending it here left it without an outcome when the stop never came */
      if (task->interrupt_pending)
        {
          g_mutex_lock (&self->lock);
          task->ticks->late++;
          g_mutex_unlock (&self->lock);
          continue;
        }
      /* a thread that has not started has no stack yet; its first stop is near */
      if (task->fresh)
        {
          fc_sampler_tick_outcome (self, task, FC_TICK_TOO_SHORT);
          continue;
        }
      if (task->group_stopped && !task->have_sample)
        {
          /* stopped before its first sample: one interrupt makes it report its stop again */
          g_ptr_array_add (to_stop, task);
          continue;
        }
      if (task->group_stopped)
        {
          /* a stopped thread's stack does not change */
          fc_sampler_emit_reuse (self, task, t);
          continue;
        }

      if (task->perf != NULL && fc_sampler_perf_tick_task (self, task, t))
        continue;
      fc_sampler_task_sched (task, &runtime, &pcount);
      if (task->have_sample && !fc_sampler_task_ran (task, runtime, pcount))
        {
          task->last_runtime = runtime;
          task->last_pcount = pcount;
          task->stopped_by_us = FALSE;
          fc_sampler_emit_reuse (self, task, t);
          continue;
        }
      g_ptr_array_add (to_stop, task);
    }
  /* before any stop: a thread whose stop fails leaves the table */
  flush_tick_captured (self);

  /* the threads stopped least recently first; every stop of the tick is sent before the first
   * is collected, so they are held in parallel, each released as soon as it is copied */
  if (to_stop->len > budget)
    g_ptr_array_sort (to_stop, compare_last_stop);
  for (guint i = 0; i < to_stop->len; i++)
    {
      task = g_ptr_array_index (to_stop, i);
      if (i >= budget)
        {
          fc_sampler_tick_outcome (self, task, FC_TICK_LATE);
          continue;
        }
      fc_sampler_task_sched (task, &task->last_runtime, &task->last_pcount);
      task->last_stop_tick = self->tick_serial;
      if (!self->helper_wall)
        fc_sampler_interrupt_task (self, task);
    }

  /* Where perf events describe the threads, those stopped (asleep, or without a stack yet) are
   * captured as their stops arrive, between ticks: waiting for them here held the tick, and every
   * thread's sample with it, as long as the slowest took to reach its stop (86 ms medians with
   * 1,000 threads on two busy CPUs). Until it comes, its later ticks are lost late. */
  if (self->helper_wall)
    fc_sampler_helper_stop (self, to_stop, MIN (to_stop->len, budget));
  else if (!self->wall_perf)
    fc_sampler_collect_events (self, TRUE);
  /* else the sampler's loop looks right after the tick: each wait4() walks every tracee (a
   * sixth of the sampler's time at 100 threads, perf record), and twice a tick was once too many */
}

/* The timer's expirations so far, kept for the next tick (the timer is non-blocking): a thread
 * that comes or goes before that tick knows which of them fired in its lifetime. */
void
fc_sampler_take_expirations (FcSampler *self)
{
  guint64 n = 0;

  if (read (self->timer_fd, &n, sizeof n) == sizeof n)
    self->unticked += n;
}

/* A thread enters the table: the expirations not yet ticked are not its own. */
void
fc_sampler_tick_arrival (FcSampler *self,
                         Task      *task)
{
  if (!self->sampling || self->mode != FC_SAMPLER_MODE_WALL)
    return;
  fc_sampler_take_expirations (self);
  task->unticked_before = self->unticked;
}

/* A thread leaves the table (it ended, or exec ended it): the ticks that fired while it lived
 * and the sampler was busy elsewhere (most often waiting for a tick's ptrace stops, where its
 * exit is reaped) are its own, and lost late. The sampler learns of an exit after it happened:
 * a tick between the two is counted too, never one after the sampler knew. */
void
fc_sampler_tick_departure (FcSampler *self,
                           Task      *task)
{
  guint64 own;

  if (!self->sampling || self->mode != FC_SAMPLER_MODE_WALL)
    return;
  fc_sampler_take_expirations (self);
  own = self->unticked - MIN (task->unticked_before, self->unticked);
  if (own == 0)
    return;
  g_mutex_lock (&self->lock);
  if (task->ticks == NULL)
    task->ticks = fc_sampler_tick_count (self, task->tid);
  task->ticks->requested += own;
  task->ticks->late += own;
  g_mutex_unlock (&self->lock);
}

/**
 * fc_sampler_dup_tick_counts:
 *
 * Returns: (transfer full): tid -> #FcTickCount for the threads of the current or last target
 *   in wall mode: every tick each lived through, and how it ended.
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
    g_hash_table_insert (copy, key, g_memdup2 (value, sizeof (FcTickCount)));
  g_mutex_unlock (&self->lock);
  return copy;
}
