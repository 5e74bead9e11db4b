/* fc-sampler-helper.c - wall mode through flamecast-helper, where this user may not ptrace the target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PTRACE_SEIZE refused (another user's process, Yama's ptrace_scope 1) and the
 * helper allowed: the target is not traced by us. Each tick's stops go to the
 * helper in one call, which stops those threads, copies registers and stack
 * and lets them go (fc_access_sample_threads()); everything else about the
 * tick (perf samples, a sleeping thread's stack reused) is wall mode's own.
 * New threads are found by listing the process's threads (the helper's list,
 * sandboxed), since no clone event comes.
 */

#include <errno.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-capture-error.h"
#include "fc-sampler-private.h"

gboolean
fc_sampler_helper_attach (FcSampler *self,
                          GError   **error)
{
  g_autoptr(GPtrArray) first = NULL;
  g_autoptr(GArray) tids = NULL;
  g_autoptr(GError) helper_error = NULL;
  g_autofree char *reason = NULL;

  if (self->mode != FC_SAMPLER_MODE_WALL || self->follow || !fc_access_get_use_helper () ||
      !g_error_matches (*error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION))
    return FALSE;
  /* the first call is where polkit is asked; its no is added to the kernel's */
  first = fc_access_sample_threads (self->pid, &self->pid, 1, 0, EPERM, &helper_error);
  if (first == NULL)
    {
      fc_access_append_refusal (error);
      return FALSE;
    }
  g_clear_error (error);
  self->traced = FALSE;
  self->helper_wall = TRUE;
  g_mutex_lock (&self->lock);
  reason = self->method_reason;
  self->method_reason = reason != NULL ? g_strdup_printf (_("%s; threads stopped by flamecast-helper"), reason)
                                       : g_strdup (_("threads stopped by flamecast-helper"));
  g_mutex_unlock (&self->lock);
  self->task_links = 0;
  fc_sampler_helper_rescan (self);
  return TRUE;
}

/* threads that ended are dropped, new ones added: no ptrace event tells */
void
fc_sampler_helper_rescan (FcSampler *self)
{
  g_autoptr(GHashTable) live = NULL;
  GHashTableIter iter;
  gpointer tid;
  Task *task;

  if (!fc_sampler_threads_changed (self))
    return;
  live = fc_sampler_live_tasks (self->pid);
  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_size (live) > 0 && g_hash_table_iter_next (&iter, NULL, (gpointer *) &task))
    if (!g_hash_table_contains (live, GINT_TO_POINTER (task->tid)))
      g_hash_table_iter_remove (&iter);
  g_hash_table_iter_init (&iter, live);
  while (g_hash_table_iter_next (&iter, &tid, NULL))
    fc_sampler_task_add (self, self->pid, GPOINTER_TO_INT (tid));
}

/* The first @n of @to_stop (Task*), stopped by the helper in one call: each tick ends captured,
 * too short (the thread ended) or refused. */
void
fc_sampler_helper_stop (FcSampler *self,
                        GPtrArray *to_stop,
                        guint      n)
{
  g_autoptr(GArray) tids = g_array_sized_new (FALSE, FALSE, sizeof (int), n);
  g_autoptr(GPtrArray) snaps = NULL;
  g_autoptr(GHashTable) live = NULL;
  g_autoptr(GError) error = NULL;

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      Task *task = g_ptr_array_index (to_stop, i);

      task->tick_pending = TRUE;
      g_array_append_val (tids, task->tid);
    }
  g_mutex_lock (&self->lock);
  self->stats.n_stops += n;
  g_mutex_unlock (&self->lock);
  snaps = fc_access_sample_threads (self->pid, (const int *) tids->data, tids->len, self->stack_size, EPERM,
                                    &error);
  if (error != NULL && fc_sampler_debug)
    g_printerr ("flamecast-helper: %s\n", error->message);
  for (guint i = 0; snaps != NULL && i < snaps->len; i++)
    {
      FcSnapshot *snap = g_ptr_array_index (snaps, i);
      Task *task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (snap->tid));
      gint64 rax = (gint64) snap->regs[0];

      if (task == NULL || !task->tick_pending)
        continue;
      g_ptr_array_index (snaps, i) = NULL;
      task->have_sample = TRUE;
      /* stopped in a blocking system call, which returns a restart code: the run that follows
       * is the stop's, not the thread's (as fc_sampler_capture() judges it) */
      task->stopped_by_us = rax == -EINTR || (rax <= -512 && rax >= -516);
      fc_sampler_emit (self, snap);
      fc_sampler_count_sample (self, FALSE);
      fc_sampler_tick_outcome (self, task, FC_TICK_CAPTURED);
    }
  for (guint i = 0; i < n; i++)
    {
      Task *task = g_ptr_array_index (to_stop, i);

      if (!task->tick_pending)
        continue;
      if (live == NULL)
        live = fc_sampler_live_tasks (self->pid);
      fc_sampler_tick_outcome (self, task, g_hash_table_contains (live, GINT_TO_POINTER (task->tid))
                                           ? FC_TICK_REFUSED : FC_TICK_TOO_SHORT);
    }
}
