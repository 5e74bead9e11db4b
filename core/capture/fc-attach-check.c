/* fc-attach-error.c - why PTRACE_SEIZE or perf_event_open failed, and the fix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fc-attach-error.h"
#include "fc-error.h"

static char *
read_proc_line (GPid        pid,
                const char *file,
                const char *key)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/%s", pid, file);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  if (key == NULL)
    return g_strdup (g_strstrip (contents));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], key))
      return g_strdup (g_strstrip (lines[i] + strlen (key)));
  return NULL;
}

void
fc_attach_error_set (GError    **error,
                             GPid        pid,
                             int         err,
                             const char *what)
{
  g_autofree char *tracer = NULL;
  g_autofree char *scope = NULL;
  g_autofree char *uid_line = NULL;
  g_autofree char *paranoid = NULL;

  if (err == ESRCH || err == ENOENT)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                   "No process %d (it may have exited)", pid);
      return;
    }

  if (g_strcmp0 (what, "perf_event_open") == 0)
    {
      g_autofree char *owner = read_proc_line (pid, "status", "Uid:");
      const char *fix;
      int level;

      g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL);
      level = paranoid ? atoi (paranoid) : 2;
      if (owner != NULL && (uid_t) atoi (owner) != geteuid () && geteuid () != 0)
        {
          g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                       "Process %d belongs to another user (uid %d); run the profiler as that user or as root",
                       pid, atoi (owner));
          return;
        }
      if (level > 2)
        fix = "this kernel forbids them for unprivileged users: sudo sysctl kernel.perf_event_paranoid=2, "
              "or give the profiler CAP_PERFMON";
      else
        fix = "a container or seccomp profile may block perf_event_open; CAP_PERFMON may be needed";
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED,
                   "perf events are not available for process %d (%s, kernel.perf_event_paranoid is %d): %s. "
                   "Use wall mode (--mode wall) instead",
                   pid, g_strerror (err), level, fix);
      return;
    }

  if (err != EPERM && err != EACCES)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                   "%s on process %d failed: %s", what, pid, g_strerror (err));
      return;
    }

  tracer = read_proc_line (pid, "status", "TracerPid:");
  if (tracer != NULL && atoi (tracer) != 0)
    {
      g_autofree char *comm = read_proc_line (atoi (tracer), "comm", NULL);
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                   "Process %d is already traced by process %s (%s); only one tracer at a time. "
                   "Stop that debugger or profiler first",
                   pid, tracer, comm ? comm : "unknown");
      return;
    }

  uid_line = read_proc_line (pid, "status", "Uid:");
  if (uid_line != NULL && (uid_t) atoi (uid_line) != geteuid () && geteuid () != 0)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                   "Process %d belongs to another user (uid %d); run the profiler as that user or as root",
                   pid, atoi (uid_line));
      return;
    }

  if (g_file_get_contents ("/proc/sys/kernel/yama/ptrace_scope", &scope, NULL, NULL) && atoi (scope) > 0)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                   "Not allowed to trace process %d: Yama kernel.yama.ptrace_scope is %d. "
                   "Launch the program through the profiler instead (flamecast-cli record -- COMMAND), "
                   "run as root, or: sudo sysctl kernel.yama.ptrace_scope=0",
                   pid, atoi (scope));
      return;
    }

  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
               "Not allowed to trace process %d (%s). In a container the profiler needs CAP_SYS_PTRACE "
               "(docker run --cap-add=SYS_PTRACE) and a seccomp profile that allows ptrace",
               pid, g_strerror (err));
}
