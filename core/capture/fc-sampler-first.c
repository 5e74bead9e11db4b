/* fc-sampler-first.c - wall mode's attach: a first stack for every thread found asleep
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With switch-out samples a thread's stack comes as it leaves its CPU. One asleep since before
 * the attach has left none yet, and its ticks were lost until its next sleep, or until a stop
 * 250 ms into sampling (at 1,000 light threads 19,091 ticks lost so, 13% of them). So the attach
 * stops each thread it finds asleep once, a few at a time, and lets each go as soon as its
 * registers and stack are copied: it was asleep, so the stop costs it nothing unless it wanted
 * to wake meanwhile, and never more than a handful of threads are held at once. The stack is the
 * thread's first_stack, handed on at its first tick unless perf events give a newer one
 * (fc_sampler_perf_tick_task()). A thread not reached in time keeps its interrupt: its stack is
 * taken when its stop comes, and its ticks until then are lost late, as before.
 */

#include <errno.h>
#include <sys/ptrace.h>

#include "fc-access.h"
#include "fc-procfs.h"
#include "fc-sampler-private.h"

/* Threads held at once: enough that stops overlap the wait for the CPU, few enough that a
 * pool never has more than these of its threads late for a wake-up because of us. */
#define FIRST_IN_FLIGHT 16

static gboolean
task_asleep (Task *task)
{
  g_autofree char *text = fc_access_read_proc (task->pid, task->tid, "stat", NULL);
  FcProcStat stat;

  /* 'S' only: a thread in 'D' would not stop until the kernel lets it go, one running or
   * runnable gives its stack at its next switch, a stopped one is taken by the tick's path */
  return fc_procfs_parse_stat (text, &stat) && stat.state == 'S';
}

static gboolean
interrupt_for_first (FcSampler *self,
                     int        tid)
{
  Task *task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (tid));

  /* gone meanwhile, or a stack came another way (its stop at birth) */
  if (task == NULL || task->have_sample || task->first_stack != NULL || task->interrupt_pending ||
      !task_asleep (task))
    return FALSE;
  task->interrupt_ns = fc_sampler_now_ns ();
  if (ptrace (PTRACE_INTERRUPT, tid, NULL, NULL) != 0)
    return FALSE;
  task->interrupt_pending = TRUE;
  task->first_wanted = TRUE;
  self->pending++;
  g_mutex_lock (&self->lock);
  self->stats.n_stops++;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

/* After the seize of an attach in wall mode with switch-out samples. Returns when every thread
 * found asleep has given its stack, or after 0.5 s and 1 ms a thread (2 s at most). */
void
fc_sampler_first_stacks (FcSampler *self)
{
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (int));
  GHashTableIter iter;
  Task *task;
  gint64 start = g_get_monotonic_time (), deadline, nap_us = 50;
  guint next = 0, sent = 0;

  if (!self->wall_perf || !self->off_cpu_stacks || self->helper_wall)
    return;
  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    if (task->off_cpu_perf != NULL && !task->group_stopped)
      g_array_append_val (tids, task->tid);
  deadline = start + MIN (G_USEC_PER_SEC / 2 + (gint64) tids->len * 1000, 2 * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < deadline)
    {
      guint pending_before;

      while (next < tids->len && self->pending < FIRST_IN_FLIGHT)
        sent += interrupt_for_first (self, g_array_index (tids, int, next++)) ? 1 : 0;
      if (self->pending == 0)
        break;
      /* wait4() cannot wait with a deadline here (the sampler thread blocks every signal):
       * look, and nap longer while nothing comes, up to 2 ms; each look walks every tracee */
      pending_before = self->pending;
      fc_sampler_collect_events (self, FALSE);
      if (self->pending < pending_before)
        nap_us = 50;
      else
        {
          g_usleep (nap_us);
          nap_us = MIN (nap_us * 2, 2000);
        }
    }
  if (fc_sampler_debug)
    g_printerr ("first stacks: %u threads, %u asleep stopped, %u stops still pending after %.1f ms\n", tids->len,
                sent, self->pending, (g_get_monotonic_time () - start) / 1e3);
}
