/* fc-capture-summary.c - what a recording captured, told honestly: reach, names, ticks, method
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Complete" used to mean "libunwind stopped without an error", which a
 * looping unwind or a stack cut at a bare libc address also did. What a user
 * can check is whether a stack reaches the frame every stack of the program
 * starts from: the program's entry or its thread's start.
 */

#include <string.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include "fc-capture-summary.h"

static const char * const root_functions[] = {
  "_start", "__libc_start_main", "__libc_start_main_impl", "__libc_start_call_main", "main",
  "clone", "clone3", "__clone", "__clone3", "__clone_internal", "start_thread",
  /* Go: goroutines start in goexit, threads in mstart, the program in runtime.main */
  "runtime.goexit", "runtime.mstart", "runtime.main", "runtime.rt0_go",
  "runtime.goexit.abi0", "runtime.mstart.abi0", "runtime.rt0_go.abi0",
  /* Python stacks (--stacks python): the script's or a thread's outermost frame */
  "<module>", "Thread._bootstrap",
};

/* a parent in vfork() waits for its child too, until the child calls exec or exits: dash starts
 * each command so, and on a loaded machine the child may take many ticks to get there */
static const char * const wait_functions[] = {
  "wait4", "__wait4", "__GI___wait4", "waitpid", "__waitpid", "__libc_waitpid", "waitid", "__waitid",
  "wait", "__libc_wait", "__wait", "vfork", "__vfork", "__libc_vfork",
};

gboolean
fc_capture_is_root_function (const char *function)
{
  if (function == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (root_functions); i++)
    if (strcmp (function, root_functions[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
fc_capture_is_wait_function (const char *function)
{
  if (function == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (wait_functions); i++)
    if (strcmp (function, wait_functions[i]) == 0)
      return TRUE;
  return FALSE;
}

/* requested - captured - lost: 0 when the thread's account holds */
gint64
fc_thread_summary_unaccounted (const FcThreadSummary *t)
{
  g_return_val_if_fail (t != NULL, 0);
  return (gint64) t->n_ticks - (gint64) (t->n_samples + t->n_late + t->n_refused + t->n_too_short +
                                         t->n_not_python);
}

static void
thread_summary_clear (FcThreadSummary *t)
{
  g_free (t->name);
}

void
fc_process_summary_clear (FcProcessSummary *self)
{
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->profiler_id, g_free);
}

FcCaptureSummary *
fc_capture_summary_new (void)
{
  FcCaptureSummary *self = g_new0 (FcCaptureSummary, 1);

  self->threads = g_array_new (FALSE, TRUE, sizeof (FcThreadSummary));
  g_array_set_clear_func (self->threads, (GDestroyNotify) thread_summary_clear);
  self->processes = g_array_new (FALSE, TRUE, sizeof (FcProcessSummary));
  self->runtimes = g_ptr_array_new_with_free_func (g_free);
  g_array_set_clear_func (self->processes, (GDestroyNotify) fc_process_summary_clear);
  return self;
}

void
fc_capture_summary_free (FcCaptureSummary *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->threads);
  g_array_unref (self->processes);
  g_ptr_array_unref (self->runtimes);
  g_free (self->unsampled_reason);
  g_free (self->access_note);
  g_free (self->debuginfod);
  g_free (self->method);
  g_free (self->method_reason);
  g_free (self);
}

static double
percent (guint64 part,
         guint64 whole)
{
  return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* Launch mode knows the CPU time the command and the children it waited for used: far more than
 * the samples account for means the work ran in processes that were not recorded. */
static gboolean
work_in_children (const FcCaptureSummary *self)
{
  double cpu_s = self->target_cpu_ns / 1e9;

  if (self->follow_children || self->mode != FC_SAMPLER_MODE_CPU || cpu_s < 0.05 || self->frequency == 0)
    return FALSE;
  /* samples the kernel dropped (a ring the sampler drained late, under load) were the target's
   * work all the same, not its children's */
  return self->n_samples + self->lost_samples < cpu_s * self->frequency / 2;
}

/* A shell or make waiting for the programs it started: their work is elsewhere. */
static gboolean
waits_for_children (const FcCaptureSummary *self)
{
  return !self->follow_children && self->n_samples > 0 && self->n_wait_leaf * 10 >= self->n_samples * 9;
}

/**
 * fc_capture_summary_work_in_children:
 * @self: a summary
 *
 * Returns: %TRUE when the recording's work ran in child processes that
 *   were not followed (what the hint then says "use --follow-children" of)
 */
gboolean
fc_capture_summary_work_in_children (const FcCaptureSummary *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return work_in_children (self) || waits_for_children (self);
}

char *
fc_capture_summary_dup_hint (const FcCaptureSummary *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  /* the threads that ran may be those that could not be sampled: that comes first */
  if (self->n_unsampled_threads > 0 && self->n_samples == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "no samples: %u thread could not be sampled (the reason is above); "
                                         "fix that first",
                                         "no samples: %u threads could not be sampled (the reason is above); "
                                         "fix that first",
                                         self->n_unsampled_threads),
                            self->n_unsampled_threads);
  if (work_in_children (self))
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%" PRIu64 " sample for %.2f s of CPU used by the command and the "
                                         "processes it started: the work is in child processes: use --follow-children",
                                         "%" PRIu64 " samples for %.2f s of CPU used by the command and the "
                                         "processes it started: the work is in child processes: use --follow-children",
                                         self->n_samples),
                            self->n_samples, self->target_cpu_ns / 1e9);
  if (self->n_samples == 0)
    {
      if (self->target_stopped)
        return g_strdup (_("no samples: the target was stopped (by a debugger or SIGSTOP) and never ran; "
                         "continue it, or record in wall mode to see where it stands"));
      if (self->mode == FC_SAMPLER_MODE_CPU)
        return g_strdup_printf (_("no samples: cpu mode samples only threads running on a CPU, and the target never "
                                "ran: it was asleep, stopped by a debugger, or its work ran in child processes%s "
                                "(record --mode wall to see where it waits)"),
                                self->follow_children ? "" : _(" (use --follow-children)"));
      return g_strdup (_("no samples: the target ended or was released before the first tick"));
    }
  if (waits_for_children (self))
    return g_strdup (_("the work is in child processes: use --follow-children"));
  return NULL;
}

char *
fc_capture_summary_format (const FcCaptureSummary *self)
{
  GString *s = g_string_new (NULL);
  g_autofree char *hint = NULL;
  guint64 requested = 0, captured = 0;
  guint shown = 0;

  g_return_val_if_fail (self != NULL, NULL);

  /* "samples of N threads" is one sentence: the plural follows the thread count */
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                          "flamecast: %" PRIu64 " samples of %u thread, %s mode at %u Hz, %s",
                                          "flamecast: %" PRIu64 " samples of %u threads, %s mode at %u Hz, %s",
                                          self->threads->len),
                          self->n_samples, self->threads->len,
                          self->mode == FC_SAMPLER_MODE_CPU ? "cpu" : "wall", self->frequency,
                          self->method ? self->method : "?");
  if (self->method_reason != NULL)
    g_string_append_printf (s, " (%s)", self->method_reason);
  g_string_append_c (s, '\n');
  if (self->access_note != NULL)
    g_string_append_printf (s, "  %s\n", self->access_note);
  if (self->n_samples > 0)
    g_string_append_printf (s, _("  stacks reaching a root (_start, main, thread start): %.1f%%; leaf without a name: %.1f%%\n"),
                            percent (self->n_root, self->n_samples), percent (self->n_unnamed_leaf, self->n_samples));

  if (self->mode == FC_SAMPLER_MODE_WALL)
    {
      guint64 late = 0, refused = 0, too_short = 0, not_python = 0;
      gint64 unaccounted = 0;

      for (guint i = 0; i < self->threads->len; i++)
        {
          const FcThreadSummary *t = &g_array_index (self->threads, FcThreadSummary, i);
          requested += t->n_ticks;
          captured += t->n_samples;
          late += t->n_late;
          refused += t->n_refused;
          too_short += t->n_too_short;
          not_python += t->n_not_python;
          unaccounted += fc_thread_summary_unaccounted (t);
        }
      g_string_append_printf (s, _("  ticks: %" PRIu64 " requested (each thread's time in the recording x "
                                   "rate), %" PRIu64 " captured (%.1f%%); lost: %" PRIu64 " late, %"
                                   PRIu64 " refused, %" PRIu64 " thread too short"),
                              requested, captured, requested ? percent (captured, requested) : 100.0,
                              late, refused, too_short);
      if (not_python > 0)
        g_string_append_printf (s, _(", %" PRIu64 " left out for having no Python frame (python stacks)"), not_python);
      if (unaccounted != 0)
        g_string_append_printf (s, unaccounted > 0 ? _("; %" PRId64 " unaccounted for")
                                                   : _("; %" PRId64 " samples more than requested"),
                                ABS (unaccounted));
      if (self->dropped_ticks > 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "; the sampler was late for %" PRIu64 " tick",
                                                "; the sampler was late for %" PRIu64 " ticks", self->dropped_ticks),
                                self->dropped_ticks);
      if (self->n_ptrace_stops > 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "; %" PRIu64 " ptrace stop, median %.0f us",
                                                "; %" PRIu64 " ptrace stops, median %.0f us", self->n_ptrace_stops),
                                self->n_ptrace_stops, self->median_stop_us);
      g_string_append_c (s, '\n');
      /* threads that missed ticks first: they are what needs explaining */
      for (guint i = 0; i < self->threads->len && shown < 8; i++)
        {
          const FcThreadSummary *t = &g_array_index (self->threads, FcThreadSummary, i);
          if (t->n_ticks == 0 || t->n_samples >= t->n_ticks)
            continue;
          g_string_append_printf (s, _("  thread %d%s%s%s: %" PRIu64 " of %" PRIu64 " ticks; lost %"
                                       PRIu64 " late, %" PRIu64 " refused, %" PRIu64 " too short\n"),
                                  t->tid, t->name ? " (" : "", t->name ? t->name : "", t->name ? ")" : "",
                                  t->n_samples, t->n_ticks, t->n_late, t->n_refused, t->n_too_short);
          shown++;
        }
    }
  if (self->debuginfod != NULL)
    g_string_append_printf (s, "  %s\n", self->debuginfod);
  if (self->lost_samples > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "  %" PRIu64 " perf sample lost by the kernel\n",
                                            "  %" PRIu64 " perf samples lost by the kernel\n", self->lost_samples),
                            self->lost_samples);
  if (self->n_unsampled_threads > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "  %u thread not sampled: %s\n",
                                            "  %u threads not sampled: %s\n", self->n_unsampled_threads),
                            self->n_unsampled_threads,
                            self->unsampled_reason ? self->unsampled_reason : _("perf events could not be opened"));
  /* following children, each process is a profile session of its own: where to find it */
  if (self->follow_children && self->processes->len > 0)
    {
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "  %u process, each with its own profiler_id and chunks:\n",
                                              "  %u processes, each with its own profiler_id and chunks:\n",
                                              self->processes->len),
                              self->processes->len);
      for (guint i = 0; i < self->processes->len && i < 20; i++)
        {
          const FcProcessSummary *p = &g_array_index (self->processes, FcProcessSummary, i);
          g_autofree char *name = p->name ? g_strdup (p->name) : g_strdup_printf (_("pid %d"), p->pid);

          g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "    %s: %" PRIu64 " samples, %u chunk, profiler_id %s",
                                                  "    %s: %" PRIu64 " samples, %u chunks, profiler_id %s", p->n_chunks),
                                  name, p->n_samples, p->n_chunks, p->profiler_id);
          if (p->n_short > 0)
            g_string_append_printf (s, _(" (%" PRIu64 " samples in no chunk: too short-lived for Sentry, "
                                         "which needs a thread with two samples)"), p->n_short);
          g_string_append_c (s, '\n');
        }
      if (self->processes->len > 20)
        g_string_append_printf (s, _("    and %u more\n"), self->processes->len - 20);
    }

  for (guint i = 0; i < self->runtimes->len; i++)
    g_string_append_printf (s, "  %s\n", (const char *) g_ptr_array_index (self->runtimes, i));

  hint = fc_capture_summary_dup_hint (self);
  if (hint != NULL)
    g_string_append_printf (s, _("  hint: %s\n"), hint);
  return g_string_free (s, FALSE);
}
