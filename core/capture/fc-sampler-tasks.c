/* fc-sampler-tasks.c - the sampler's thread table: threads come, run, go
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One Task per thread of the target (and of each process followed): its
 * process, its scheduler statistics, its perf events, and what its last sample
 * was. Threads enter from /proc, from ptrace clone events and from rescans;
 * they leave when ptrace or /proc says they are gone.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fc-access.h"
#include "fc-attach-check.h"
#include "fc-capture-error.h"
#include "fc-procfs.h"
#include "fc-sampler-private.h"

void
fc_sampler_task_free (Task *task)
{
  fc_sampler_tick_departure (task->sampler, task);
  /* its tick's stop never came: it ended (or was let go) first */
  if (task->tick_pending)
    fc_sampler_tick_outcome (task->sampler, task, FC_TICK_TOO_SHORT);
  if (task->schedstat_fd >= 0)
    close (task->schedstat_fd);
  fc_perf_stream_free (task->perf);
  fc_perf_stream_free (task->off_cpu_perf);
  fc_snapshot_free (task->first_stack);
  g_free (task);
}

/* The process a thread belongs to (its thread group), or 0 once it is gone. */
static int
tid_process (int tid)
{
  char dir[64];
  g_auto(FcProcStatus) status = { 0 };

  g_snprintf (dir, sizeof dir, "/proc/%d", tid);
  fc_procfs_read_status (dir, &status);
  return MAX (status.tgid, 0);
}

/* Cpu mode: a thread left unsampled (its ring buffer could not be mapped, most often) is
 * told in the summary, never dropped in silence. */
void
fc_sampler_note_unsampled (FcSampler    *self,
                           int           tid,
                           const GError *error)
{
  if (fc_sampler_debug)
    g_printerr ("thread %d: %s\n", tid, error->message);
  if (g_error_matches (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS))
    return;   /* gone before we came: nothing was missed */
  g_mutex_lock (&self->lock);
  g_hash_table_add (self->unsampled, GINT_TO_POINTER (tid));
  if (self->unsampled_reason == NULL)
    self->unsampled_reason = g_strdup (error->message);
  g_mutex_unlock (&self->lock);
}

/* @pid: the thread's process, or 0 to look it up */
Task *
fc_sampler_task_add (FcSampler *self,
                     int        pid,
                     int        tid)
{
  Task *task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (tid));

  if (task != NULL)
    return task;
  if (pid <= 0)
    pid = self->follow ? tid_process (tid) : self->pid;
  task = g_new0 (Task, 1);
  task->tid = tid;
  task->pid = pid > 0 ? pid : self->pid;
  task->sampler = self;
  task->schedstat_fd = -2;
  task->added_ns = fc_sampler_now_ns ();
  fc_sampler_tick_arrival (self, task);
  g_hash_table_insert (self->tasks, GINT_TO_POINTER (tid), task);
  if (self->mode == FC_SAMPLER_MODE_WALL && self->wall_perf)
    fc_sampler_task_open_wall_perf (self, task);
  else if (self->mode == FC_SAMPLER_MODE_CPU && self->follow)
    fc_sampler_task_open_cpu_perf (self, task);
  return task;
}

/* schedstat: ns on a CPU, ns waiting for one, times put on one */
gboolean
fc_sampler_task_sched (Task    *task,
                       guint64 *runtime,
                       guint64 *pcount)
{
  char buf[128];
  char *end;
  ssize_t n;

  *runtime = *pcount = G_MAXUINT64;
  /* opened when first needed: with switch-out stacks no thread needs it, and a thousand
   * threads would hold a thousand descriptors */
  if (task->schedstat_fd == -2)
    task->schedstat_fd = fc_access_open_proc (task->pid, task->tid, "schedstat");
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
gboolean
fc_sampler_task_ran (Task    *task,
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

void
fc_sampler_task_gone (FcSampler *self,
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
      snap->time_ns = fc_sampler_now_ns ();
      fc_sampler_emit (self, snap);
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
      fc_sampler_target_exited (self, status);
    }
}

GArray *
fc_sampler_list_tasks (GPid pid)
{
  return fc_access_list_threads (pid);
}

/* @pid's threads now, as a set of tids: one listing for all of them (sandboxed, one call to the
 * helper rather than one per thread). Empty when none could be listed: a process has a thread
 * while it lives, so callers keep what they have then (its exit comes by the pidfd). */
GHashTable *
fc_sampler_live_tasks (GPid pid)
{
  g_autoptr(GArray) tids = fc_sampler_list_tasks (pid);
  GHashTable *live = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < tids->len; i++)
    g_hash_table_add (live, GINT_TO_POINTER (g_array_index (tids, int, i)));
  return live;
}

/* The process's parent, from /proc/PID/stat (field 4, after the command name), or 0 */
static int
process_parent (int pid)
{
  char dir[64];
  FcProcStat stat;

  g_snprintf (dir, sizeof dir, "/proc/%d", pid);
  return fc_procfs_read_stat (dir, &stat) ? MAX (stat.ppid, 0) : 0;
}

/* Every process that descends from @pid now, parents before their children. */
GArray *
fc_sampler_list_descendants (int pid)
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

void
fc_sampler_target_exited (FcSampler *self,
                          int        status)
{
  FcSnapshot *snap;

  if (self->exited)
    return;
  self->exited = TRUE;
  snap = fc_snapshot_new (FC_SNAPSHOT_TARGET_EXIT, self->pid, 0);
  snap->pid = self->pid;
  snap->status = status;
  snap->time_ns = fc_sampler_now_ns ();
  fc_sampler_emit (self, snap);
}
