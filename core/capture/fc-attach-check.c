/* fc-attach-check.c - what stands between the profiler and a process, and the fix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "fc-attach-check.h"
#include "fc-capture-error.h"
#include "fc-procfs.h"

#define CAP_IPC_LOCK_BIT   14
#define CAP_SYS_PTRACE_BIT 19
#define CAP_SYS_ADMIN_BIT  21
#define CAP_PERFMON_BIT    38

static char *
read_file (const char *proc_root,
           const char *name)
{
  g_autofree char *path = g_build_filename (proc_root, name, NULL);
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  return g_strstrip (contents);
}

/* PROC/ENTRY/status; FALSE (and every field missing) when it cannot be read */
static gboolean
read_status (const char   *proc_root,
             const char   *entry,
             FcProcStatus *status)
{
  g_autofree char *dir = g_build_filename (proc_root, entry, NULL);

  return fc_procfs_read_status (dir, status);
}

static int
read_int (const char *proc_root,
          const char *name,
          int         fallback)
{
  g_autofree char *text = read_file (proc_root, name);
  return text != NULL ? atoi (text) : fallback;
}

static char *
pid_entry (GPid pid)
{
  return g_strdup_printf ("%d", pid);
}

void
fc_attach_facts_read (const char    *proc_root,
                      FcAttachFacts *facts)
{
  g_auto(FcProcStatus) status = { 0 };
  g_autofree char *cgroup = read_file (proc_root, "1/cgroup");
  g_autofree char *limits = read_file (proc_root, "self/limits");
  guint64 cap;

  read_status (proc_root, "self", &status);
  cap = status.cap_eff;
  memset (facts, 0, sizeof *facts);
  facts->ptrace_scope = read_int (proc_root, "sys/kernel/yama/ptrace_scope", -1);
  facts->perf_event_paranoid = read_int (proc_root, "sys/kernel/perf_event_paranoid", 2);
  facts->euid = status.uid[1] >= 0 ? (uid_t) status.uid[1] : geteuid ();
  facts->cap_sys_ptrace = (cap >> CAP_SYS_PTRACE_BIT) & 1;
  facts->cap_ipc_lock = (cap >> CAP_IPC_LOCK_BIT) & 1;
  facts->perf_event_mlock_kb = read_int (proc_root, "sys/kernel/perf_event_mlock_kb", 516);
  facts->n_cpus = MAX (g_get_num_processors (), 1);
  facts->memlock_limit = G_MAXUINT64;
  if (limits != NULL)
    {
      /* "Max locked memory         8388608              8388608              bytes" */
      const char *line = strstr (limits, "Max locked memory");

      if (line != NULL)
        {
          line += strlen ("Max locked memory");
          while (*line == ' ')
            line++;
          if (!g_str_has_prefix (line, "unlimited"))
            facts->memlock_limit = g_ascii_strtoull (line, NULL, 10);
        }
    }
  facts->cap_perfmon = ((cap >> CAP_PERFMON_BIT) & 1) || ((cap >> CAP_SYS_ADMIN_BIT) & 1);
  facts->in_container = (cgroup != NULL &&
                         (strstr (cgroup, "docker") || strstr (cgroup, "kubepods") ||
                          strstr (cgroup, "containerd") || strstr (cgroup, "libpod") ||
                          strstr (cgroup, "lxc"))) ||
                        (g_strcmp0 (proc_root, "/proc") == 0 &&
                         (g_file_test ("/.dockerenv", G_FILE_TEST_EXISTS) ||
                          g_file_test ("/run/.containerenv", G_FILE_TEST_EXISTS)));
}

static char *
format_kib (guint64 bytes)
{
  return bytes == G_MAXUINT64 ? g_strdup (_("unlimited")) : g_strdup_printf ("%" G_GUINT64_FORMAT " KiB", bytes / 1024);
}

char *
fc_attach_describe_mlock (const FcAttachFacts *facts)
{
  g_autofree char *memlock = format_kib (facts->memlock_limit);

  return g_strdup_printf (_("kernel.perf_event_mlock_kb = %d KiB per CPU (%u KiB for all perf buffers of this user "
                            "on %u CPUs), then RLIMIT_MEMLOCK (ulimit -l) = %s%s"),
                          facts->perf_event_mlock_kb, facts->perf_event_mlock_kb * facts->n_cpus, facts->n_cpus,
                          memlock, facts->cap_ipc_lock ? _("; CAP_IPC_LOCK lifts both") : "");
}

void
fc_attach_mlock_error_set (GError **error,
                           int      tid,
                           int      err)
{
  FcAttachFacts facts;
  g_autofree char *limits = NULL;

  fc_attach_facts_read ("/proc", &facts);
  limits = fc_attach_describe_mlock (&facts);
  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
               _("Cannot map the perf ring buffer of thread %d (%s): the locked memory perf buffers may use is "
               "used up: %s. Raise the limit: `ulimit -l unlimited` in the shell that runs the profiler "
               "(LimitMEMLOCK=infinity for a service, --ulimit memlock=-1 for a container), or "
               "`sudo sysctl -w kernel.perf_event_mlock_kb=%d`; or record fewer threads, or in wall mode"),
               tid, g_strerror (err), limits, MAX (facts.perf_event_mlock_kb * 8, 8192));
}

/* ---- the messages, shared by the check and the failure ---- */

static void
set_traced (GError    **error,
            const char *proc_root,
            GPid        pid,
            int         tracer)
{
  g_autofree char *name = g_strdup_printf ("%d/comm", tracer);
  g_autofree char *comm = read_file (proc_root, name);

  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
               _("Process %d is already traced by process %d (%s); only one tracer at a time. "
               "Stop that debugger or profiler first"),
               pid, tracer, comm ? comm : "unknown");
}

static void
set_other_user (GError **error,
                GPid     pid,
                int      uid)
{
  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
               _("Process %d belongs to another user (uid %d); run the profiler as that user or as root"),
               pid, uid);
}

static void
set_yama (GError **error,
          GPid     pid,
          int      scope)
{
  if (scope >= 3)
    g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                 _("Not allowed to trace process %d: Yama kernel.yama.ptrace_scope is %d, which forbids "
                 "attaching to any process until reboot. Launch the program through the profiler instead "
                 "(flamecast-cli record -- COMMAND)"),
                 pid, scope);
  else if (scope == 2)
    g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                 _("Not allowed to trace process %d: Yama kernel.yama.ptrace_scope is 2 (only with CAP_SYS_PTRACE). "
                 "Launch the program through the profiler instead (flamecast-cli record -- COMMAND), "
                 "run as root, or: sudo sysctl kernel.yama.ptrace_scope=1"),
                 pid);
  else
    g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                 _("Not allowed to trace process %d: Yama kernel.yama.ptrace_scope is %d (only child processes). "
                 "Launch the program through the profiler instead (flamecast-cli record -- COMMAND), "
                 "run as root, or: sudo sysctl kernel.yama.ptrace_scope=0"),
                 pid, scope);
}

static void
set_perf (GError     **error,
          GPid         pid,
          const char  *why,
          int          level)
{
  const char *fix;

  if (level > 2)
    fix = _("this kernel forbids them for unprivileged users: sudo sysctl kernel.perf_event_paranoid=2, "
            "or give the profiler CAP_PERFMON");
  else
    fix = _("a container or seccomp profile may block perf_event_open; CAP_PERFMON may be needed");
  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED,
               _("perf events are not available for process %d (%s, kernel.perf_event_paranoid is %d): %s. "
               "Use wall mode (--mode wall) instead"),
               pid, why, level, fix);
}

typedef enum {
  PROCESS_GONE,      /* no /proc entry: exited (and collected), or never was */
  PROCESS_ZOMBIE,    /* exited, waiting for its parent to collect it */
  PROCESS_DEAD,      /* exiting right now */
  PROCESS_RUNNING,
} ProcessState;

/* From "State:" and "Threads:": a leader whose threads still run shows Z
 * too, and is alive. */
static ProcessState
process_state (const char *proc_root,
               GPid        pid)
{
  g_autofree char *entry = pid_entry (pid);
  g_autofree char *path = g_build_filename (proc_root, entry, "status", NULL);
  g_auto(FcProcStatus) status = { 0 };

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return PROCESS_GONE;
  read_status (proc_root, entry, &status);
  if (status.state == 'X' || status.state == 'x')
    return PROCESS_DEAD;
  if (status.state != 'Z')
    return PROCESS_RUNNING;
  return status.n_threads <= 1 ? PROCESS_ZOMBIE : PROCESS_RUNNING;
}

static char *
process_comm (const char *proc_root,
              GPid        pid)
{
  g_autofree char *name = g_strdup_printf ("%d/comm", pid);
  char *comm = read_file (proc_root, name);

  return comm != NULL ? comm : g_strdup ("unknown");
}

/* FALSE with the message when @pid has no process left to record */
static gboolean
check_alive (GError    **error,
             const char *proc_root,
             GPid        pid)
{
  g_autofree char *entry = pid_entry (pid);
  g_autofree char *comm = NULL;

  switch (process_state (proc_root, pid))
    {
    case PROCESS_GONE:
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                   _("No process %d: it has exited (or never existed)"), pid);
      return FALSE;
    case PROCESS_DEAD:
      comm = process_comm (proc_root, pid);
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                   _("Process %d (%s) has exited: there is nothing left to record"), pid, comm);
      return FALSE;
    case PROCESS_ZOMBIE:
      {
        int ppid;
        g_autofree char *parent = NULL;
        g_auto(FcProcStatus) status = { 0 };

        comm = process_comm (proc_root, pid);
        read_status (proc_root, entry, &status);
        ppid = MAX (status.ppid, 0);
        parent = ppid > 0 ? process_comm (proc_root, ppid) : g_strdup ("unknown");
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                     _("Process %d (%s) is a zombie: it has exited and only waits for its parent, process %d (%s), "
                     "to collect its exit status; there is nothing left to record. It goes away when the parent "
                     "waits for it or exits. Record the program while it runs, or launch it through the profiler "
                     "(flamecast-cli record -- COMMAND)"), pid, comm, ppid, parent);
        return FALSE;
      }
    case PROCESS_RUNNING:
    default:
      return TRUE;
    }
}

/* A process that called prctl(PR_SET_DUMPABLE, 0) (or runs a setuid
 * program): the kernel then gives the files of its /proc entry to root,
 * whatever its own user, and lets only CAP_SYS_PTRACE trace or read it. */
static gboolean
is_not_dumpable (const char *proc_root,
                 GPid        pid)
{
  g_autofree char *entry = pid_entry (pid);
  g_autofree char *path = g_build_filename (proc_root, entry, "status", NULL);
  g_auto(FcProcStatus) status = { 0 };
  GStatBuf st;

  if (!read_status (proc_root, entry, &status) || status.uid[0] < 0 || g_stat (path, &st) != 0)
    return FALSE;
  return st.st_uid == 0 && status.uid[1] > 0;
}

static void
set_not_dumpable (GError    **error,
                  const char *proc_root,
                  GPid        pid)
{
  g_autofree char *comm = process_comm (proc_root, pid);

  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
               _("Process %d (%s) is not dumpable: it turned off core dumps and tracing for itself "
               "(prctl PR_SET_DUMPABLE 0, as ssh-agent, setuid programs and some sandboxes do), so only a profiler "
               "with CAP_SYS_PTRACE may attach to it or read its memory. Run the profiler as root "
               "(sudo flamecast-cli record --pid %d), or give it that capability "
               "(sudo setcap cap_sys_ptrace+ep \"$(command -v flamecast-cli)\")"),
               pid, comm, pid);
}

/* Yama's scope 1 lets us trace our descendants only. */
static gboolean
is_descendant (const char *proc_root,
               GPid        pid)
{
  g_auto(FcProcStatus) self = { 0 };
  int self_pid;

  read_status (proc_root, "self", &self);
  self_pid = self.pid >= 0 ? self.pid : getpid ();
  for (guint depth = 0; pid > 1 && depth < 64; depth++)
    {
      g_autofree char *entry = pid_entry (pid);
      g_auto(FcProcStatus) status = { 0 };

      if (!read_status (proc_root, entry, &status) || status.ppid < 0)
        return FALSE;
      pid = status.ppid;
      if (pid == self_pid)
        return TRUE;
    }
  return FALSE;
}

/* uid (real) of @pid, or -1 */
static int
process_uid (const char *proc_root,
             GPid        pid)
{
  g_autofree char *entry = pid_entry (pid);
  g_auto(FcProcStatus) status = { 0 };

  read_status (proc_root, entry, &status);
  return status.uid[0];
}

static int
process_tracer (const char *proc_root,
                GPid        pid)
{
  g_autofree char *entry = pid_entry (pid);
  g_auto(FcProcStatus) status = { 0 };

  read_status (proc_root, entry, &status);
  return MAX (status.tracer_pid, 0);
}

gboolean
fc_attach_check_at (const char     *proc_root,
                    GPid            pid,
                    FcSamplerMode   mode,
                    GError        **error)
{
  FcAttachFacts facts;
  gboolean privileged;

  g_return_val_if_fail (proc_root != NULL, FALSE);
  g_return_val_if_fail (pid >= 0, FALSE);

  fc_attach_facts_read (proc_root, &facts);
  privileged = facts.euid == 0 || facts.cap_sys_ptrace;

  if (pid > 0)
    {
      int uid, tracer;

      if (!check_alive (error, proc_root, pid))
        return FALSE;
      if ((tracer = process_tracer (proc_root, pid)) != 0)
        {
          set_traced (error, proc_root, pid, tracer);
          return FALSE;
        }
      uid = process_uid (proc_root, pid);
      if (uid >= 0 && (uid_t) uid != facts.euid && !privileged)
        {
          set_other_user (error, pid, uid);
          return FALSE;
        }
      /* root without CAP_SYS_PTRACE (a container's) is refused too */
      if (!facts.cap_sys_ptrace && is_not_dumpable (proc_root, pid))
        {
          set_not_dumpable (error, proc_root, pid);
          return FALSE;
        }
    }

  /* Yama: 1 children only (or CAP_SYS_PTRACE), 2 CAP_SYS_PTRACE only, 3 nobody */
  if (facts.ptrace_scope >= 3 ||
      (facts.ptrace_scope == 2 && !facts.cap_sys_ptrace) ||
      (facts.ptrace_scope == 1 && !facts.cap_sys_ptrace && (pid == 0 || !is_descendant (proc_root, pid))))
    {
      set_yama (error, pid, facts.ptrace_scope);
      return FALSE;
    }

  if (mode == FC_SAMPLER_MODE_CPU && facts.perf_event_paranoid > 2 && facts.euid != 0 && !facts.cap_perfmon)
    {
      set_perf (error, pid, _("not permitted"), facts.perf_event_paranoid);
      return FALSE;
    }

  return TRUE;
}

gboolean
fc_attach_check (GPid            pid,
                 FcSamplerMode   mode,
                 GError        **error)
{
  return fc_attach_check_at ("/proc", pid, mode, error);
}

void
fc_attach_error_set (GError    **error,
                     GPid        pid,
                     int         err,
                     const char *what)
{
  FcAttachFacts facts;
  int tracer, uid;

  /* what became of the process first: PTRACE_SEIZE of a zombie is EPERM,
   * as if a capability were missing */
  if (!check_alive (error, "/proc", pid))
    return;
  if (err == ESRCH || err == ENOENT)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                   _("No process %d: it has exited"), pid);
      return;
    }

  fc_attach_facts_read ("/proc", &facts);
  uid = process_uid ("/proc", pid);

  if (g_strcmp0 (what, "perf_event_open") == 0)
    {
      if (uid >= 0 && (uid_t) uid != facts.euid && facts.euid != 0)
        set_other_user (error, pid, uid);
      else
        set_perf (error, pid, g_strerror (err), facts.perf_event_paranoid);
      return;
    }

  if (err != EPERM && err != EACCES)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                   _("%s on process %d failed: %s"), what, pid, g_strerror (err));
      return;
    }

  if ((tracer = process_tracer ("/proc", pid)) != 0)
    {
      set_traced (error, "/proc", pid, tracer);
      return;
    }
  if (uid >= 0 && (uid_t) uid != facts.euid && facts.euid != 0)
    {
      set_other_user (error, pid, uid);
      return;
    }
  if (!facts.cap_sys_ptrace && is_not_dumpable ("/proc", pid))
    {
      set_not_dumpable (error, "/proc", pid);
      return;
    }
  if (facts.ptrace_scope > 0)
    {
      set_yama (error, pid, facts.ptrace_scope);
      return;
    }

  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
               _("Not allowed to trace process %d (%s). In a container the profiler needs CAP_SYS_PTRACE "
               "(docker run --cap-add=SYS_PTRACE) and a seccomp profile that allows ptrace"),
               pid, g_strerror (err));
}
