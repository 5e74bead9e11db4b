/* test-attach-check.c - what stands in the way of attaching, named before trying
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <grp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-attach-check.h"
#include "fc-capture-error.h"
#include "fc-recorder.h"
#include "fc-test-util.h"

/* A /proc-like tree: we are uid 1000 (pid 500) without capabilities. */
typedef struct {
  char *root;
} FakeProc;

static void
fake_write (FakeProc   *proc,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (proc->root, name, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
fake_process (FakeProc *proc,
              int       pid,
              int       ppid,
              int       uid,
              int       tracer,
              const char *comm)
{
  g_autofree char *status = g_strdup_printf ("Name:\t%s\nPid:\t%d\nPPid:\t%d\nTracerPid:\t%d\n"
                                             "Uid:\t%d\t%d\t%d\t%d\n",
                                             comm, pid, ppid, tracer, uid, uid, uid, uid);
  g_autofree char *status_name = g_strdup_printf ("%d/status", pid);
  g_autofree char *comm_name = g_strdup_printf ("%d/comm", pid);
  g_autofree char *comm_line = g_strdup_printf ("%s\n", comm);

  fake_write (proc, status_name, status);
  fake_write (proc, comm_name, comm_line);
  /* the kernel shows a dumpable process's /proc files as its own: made by
   * root, they would read as a process that is not dumpable */
  if (geteuid () == 0)
    {
      g_autofree char *path = g_build_filename (proc->root, status_name, NULL);

      g_assert_cmpint (chown (path, uid, uid), ==, 0);
    }
}

/* a process's status with its State and Threads lines */
static void
fake_state (FakeProc   *proc,
            int         pid,
            int         ppid,
            const char *state,
            int         threads,
            const char *comm)
{
  g_autofree char *status = g_strdup_printf ("Name:\t%s\nState:\t%s\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
                                             "Uid:\t1000\t1000\t1000\t1000\nThreads:\t%d\n",
                                             comm, state, pid, ppid, threads);
  g_autofree char *status_name = g_strdup_printf ("%d/status", pid);
  g_autofree char *comm_name = g_strdup_printf ("%d/comm", pid);
  g_autofree char *comm_line = g_strdup_printf ("%s\n", comm);

  fake_write (proc, status_name, status);
  fake_write (proc, comm_name, comm_line);
  if (geteuid () == 0)
    {
      g_autofree char *path = g_build_filename (proc->root, status_name, NULL);

      g_assert_cmpint (chown (path, 1000, 1000), ==, 0);
    }
}

static void
fake_init (FakeProc *proc,
           int       scope,
           int       paranoid,
           const char *cap_eff)
{
  g_autofree char *self = g_strdup_printf ("Name:\tflamecast\nPid:\t500\nPPid:\t1\nTracerPid:\t0\n"
                                           "Uid:\t1000\t1000\t1000\t1000\nCapEff:\t%s\n", cap_eff);
  g_autofree char *scope_text = g_strdup_printf ("%d\n", scope);
  g_autofree char *paranoid_text = g_strdup_printf ("%d\n", paranoid);

  proc->root = g_dir_make_tmp ("fc-proc-XXXXXX", NULL);
  g_assert_nonnull (proc->root);
  fake_write (proc, "self/status", self);
  if (scope >= 0)
    fake_write (proc, "sys/kernel/yama/ptrace_scope", scope_text);
  fake_write (proc, "sys/kernel/perf_event_paranoid", paranoid_text);
  fake_write (proc, "1/cgroup", "0::/init.scope\n");
  fake_process (proc, 42, 1, 1000, 0, "server");       /* ours, not our child */
  fake_process (proc, 43, 1, 0, 0, "sshd");            /* root's */
  fake_process (proc, 44, 1, 1000, 77, "app");         /* under gdb */
  fake_process (proc, 77, 1, 1000, 0, "gdb");
  fake_process (proc, 45, 500, 1000, 0, "child");      /* launched by us */
  fake_process (proc, 46, 45, 1000, 0, "grandchild");
}

static void
fake_clear (FakeProc *proc)
{
  fc_test_remove_tree (proc->root);
  g_free (proc->root);
}

/* The check's message for @pid, or NULL when nothing stands in the way. */
static char *
check (FakeProc      *proc,
       GPid           pid,
       FcSamplerMode  mode,
       int            expected_code)
{
  g_autoptr(GError) error = NULL;

  if (fc_attach_check_at (proc->root, pid, mode, &error))
    {
      g_assert_no_error (error);
      return NULL;
    }
  g_assert_nonnull (error);
  g_assert_true (error->domain == FC_SAMPLER_ERROR);
  g_assert_cmpint (error->code, ==, expected_code);
  return g_strdup (error->message);
}

static void
test_yama (void)
{
  FakeProc proc;
  g_autofree char *other = NULL;
  g_autofree char *any = NULL;

  /* 1: children only */
  fake_init (&proc, 1, 2, "0000000000000000");
  other = check (&proc, 42, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_PERMISSION);
  g_assert_nonnull (strstr (other, "ptrace_scope is 1"));
  g_assert_nonnull (strstr (other, "flamecast-cli record -- COMMAND"));
  g_assert_nonnull (strstr (other, "sudo sysctl kernel.yama.ptrace_scope=0"));
  g_assert_null (check (&proc, 45, FC_SAMPLER_MODE_WALL, 0));
  g_assert_null (check (&proc, 46, FC_SAMPLER_MODE_WALL, 0));
  any = check (&proc, 0, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_PERMISSION);
  g_assert_nonnull (strstr (any, "ptrace_scope is 1"));
  fake_clear (&proc);

  /* CAP_SYS_PTRACE (bit 19) lifts 1 and 2, not 3 */
  fake_init (&proc, 2, 2, "0000000000080000");
  g_assert_null (check (&proc, 42, FC_SAMPLER_MODE_WALL, 0));
  fake_clear (&proc);
  fake_init (&proc, 2, 2, "0000000000000000");
  g_clear_pointer (&other, g_free);
  other = check (&proc, 45, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_PERMISSION);
  g_assert_nonnull (strstr (other, "ptrace_scope is 2 (only with CAP_SYS_PTRACE)"));
  fake_clear (&proc);
  fake_init (&proc, 3, 2, "000001ffffffffff");
  g_clear_pointer (&other, g_free);
  other = check (&proc, 45, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_PERMISSION);
  g_assert_nonnull (strstr (other, "ptrace_scope is 3"));
  fake_clear (&proc);

  /* 0, or no Yama: our own processes */
  fake_init (&proc, 0, 2, "0000000000000000");
  g_assert_null (check (&proc, 42, FC_SAMPLER_MODE_WALL, 0));
  g_assert_null (check (&proc, 0, FC_SAMPLER_MODE_WALL, 0));
  fake_clear (&proc);
  fake_init (&proc, -1, 2, "0000000000000000");
  g_assert_null (check (&proc, 42, FC_SAMPLER_MODE_WALL, 0));
  fake_clear (&proc);
}

static void
test_process (void)
{
  FakeProc proc;
  g_autofree char *root = NULL;
  g_autofree char *traced = NULL;
  g_autofree char *gone = NULL;

  fake_init (&proc, 0, 2, "0000000000000000");
  root = check (&proc, 43, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_PERMISSION);
  g_assert_cmpstr (root, ==, "Process 43 belongs to another user (uid 0); run the profiler as that user or as root");
  traced = check (&proc, 44, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_PERMISSION);
  g_assert_nonnull (strstr (traced, "already traced by process 77 (gdb)"));
  gone = check (&proc, 4242, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_NO_PROCESS);
  g_assert_cmpstr (gone, ==, "No process 4242: it has exited (or never existed)");
  fake_clear (&proc);

  /* root may trace anyone's */
  fake_init (&proc, 0, 2, "0000000000080000");
  g_assert_null (check (&proc, 43, FC_SAMPLER_MODE_WALL, 0));
  fake_clear (&proc);
}

/* A zombie, an exiting process and one that is not dumpable are named as
 * such (record and doctor said "ready" or "needs CAP_SYS_PTRACE"); a
 * leader whose threads still run is alive, though its State is Z. */
static void
test_what_became_of_it (void)
{
  FakeProc proc;
  g_autofree char *zombie = NULL;
  g_autofree char *dead = NULL;
  g_autofree char *not_dumpable = NULL;

  fake_init (&proc, 0, 2, "0000000000000000");
  fake_process (&proc, 300, 1, 1000, 0, "shell");
  fake_state (&proc, 301, 300, "Z (zombie)", 1, "make");
  fake_state (&proc, 302, 300, "Z (zombie)", 4, "server");
  fake_state (&proc, 303, 300, "X (dead)", 1, "gone");

  zombie = check (&proc, 301, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_NO_PROCESS);
  g_assert_nonnull (strstr (zombie, "Process 301 (make) is a zombie"));
  g_assert_nonnull (strstr (zombie, "its parent, process 300 (shell)"));
  g_assert_null (check (&proc, 302, FC_SAMPLER_MODE_WALL, 0));
  dead = check (&proc, 303, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_NO_PROCESS);
  g_assert_cmpstr (dead, ==, "Process 303 (gone) has exited: there is nothing left to record");

  if (geteuid () == 0)
    {
      /* files of uid 1000's process shown as root's: not dumpable */
      g_autofree char *path = g_build_filename (proc.root, "42", "status", NULL);

      g_assert_cmpint (chown (path, 0, 0), ==, 0);
      not_dumpable = check (&proc, 42, FC_SAMPLER_MODE_WALL, FC_SAMPLER_ERROR_PERMISSION);
      g_assert_nonnull (strstr (not_dumpable, "Process 42 (server) is not dumpable"));
      g_assert_nonnull (strstr (not_dumpable, "PR_SET_DUMPABLE 0"));
      g_assert_nonnull (strstr (not_dumpable, "CAP_SYS_PTRACE"));
      fake_clear (&proc);
      /* which CAP_SYS_PTRACE lifts */
      fake_init (&proc, 0, 2, "0000000000080000");
      g_free (path);
      path = g_build_filename (proc.root, "42", "status", NULL);
      g_assert_cmpint (chown (path, 0, 0), ==, 0);
      g_assert_null (check (&proc, 42, FC_SAMPLER_MODE_WALL, 0));
    }
  fake_clear (&proc);
}

/* dropped to nobody, with nothing that lifts ptrace's checks */
static void
become_nobody_cb (gpointer data)
{
  if (setgroups (0, NULL) != 0 || setgid (65534) != 0 || setuid (65534) != 0)
    _exit (120);
  prctl (PR_SET_DUMPABLE, GPOINTER_TO_INT (data), 0, 0, 0);
}

static char *
run_cli (gboolean            as_nobody,
         int                *status,
         const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();

  g_ptr_array_add (argv, (gpointer) g_getenv ("FC_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  /* nobody can write none of the test's dirs */
  env = g_environ_setenv (env, "HOME", "/tmp", TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", "/tmp", TRUE);
  env = g_environ_unsetenv (env, "G_DEBUG");
  g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, as_nobody ? become_nobody_cb : NULL,
                GINT_TO_POINTER (1), &out, &err, status, &error);
  g_assert_no_error (error);
  g_test_message ("$ flamecast-cli %s %s -> %d\n%s%s", args[0], args[1], *status, out, err);
  /* what it printed, on either stream */
  return g_strconcat (out, err, NULL);
}

static void
test_real_zombie (void)
{
  pid_t zombie = fork ();
  pid_t gone;
  g_autofree char *pid_text = NULL;
  g_autofree char *gone_text = NULL;
  g_autofree char *doctor = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-zombie");
  int status;

  if (zombie == 0)
    _exit (0);
  g_assert_cmpint (zombie, >, 0);
  /* a zombie once it has exited: waitid() with WNOWAIT waits without collecting */
  {
    siginfo_t info;

    g_assert_cmpint (waitid (P_PID, zombie, &info, WEXITED | WNOWAIT), ==, 0);
  }
  g_assert_false (fc_attach_check (zombie, FC_SAMPLER_MODE_WALL, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS);
  g_assert_nonnull (strstr (error->message, "is a zombie"));
  g_clear_error (&error);

  pid_text = g_strdup_printf ("%d", zombie);
  doctor = run_cli (FALSE, &status, (const char *[]) { "doctor", "--pid", pid_text, NULL });
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (doctor, "is a zombie"));
  {
    g_autofree char *record = run_cli (FALSE, &status, (const char *[]) { "record", "--pid", pid_text,
                                                                          "--duration", "1", "-o", tmp, NULL });

    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
    g_assert_nonnull (strstr (record, "is a zombie"));
    g_assert_null (strstr (record, "CAP_SYS_PTRACE"));
  }

  /* collected: gone */
  g_assert_cmpint (waitpid (zombie, NULL, 0), ==, zombie);
  gone = zombie;
  gone_text = g_strdup_printf ("No process %d: it has exited", gone);
  g_assert_false (fc_attach_check (gone, FC_SAMPLER_MODE_WALL, &error));
  g_assert_nonnull (strstr (error->message, gone_text));
  fc_test_remove_tree (tmp);
}

/* A process of nobody's that made itself non-dumpable, looked at by
 * nobody: doctor and record name it, and the capability that would allow it. */
static void
test_real_not_dumpable (void)
{
  g_autofree char *tmp = fc_test_make_tmp_dir ("fc-test-nodump");
  g_autofree char *target = fc_test_target_path ("nodump");
  g_autofree char *pid_text = NULL;
  g_autofree char *doctor = NULL;
  g_autofree char *record = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { target, NULL };
  char ready[16] = { 0 };
  int out_fd;
  GPid pid;
  int status;

  if (!fc_test_skip_unless (FC_TEST_FACILITY_OTHER_USER, NULL))
    {
      fc_test_remove_tree (tmp);
      return;
    }
  g_assert_cmpint (g_chmod (tmp, 0777), ==, 0);
  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, become_nobody_cb,
                            GINT_TO_POINTER (1), &pid, NULL, &out_fd, NULL, &error);
  g_assert_no_error (error);
  /* "ready" once its prctl is done */
  g_assert_cmpint (read (out_fd, ready, sizeof ready - 1), >, 0);
  g_assert_true (g_str_has_prefix (ready, "ready"));
  close (out_fd);
  pid_text = g_strdup_printf ("%d", pid);

  doctor = run_cli (TRUE, &status, (const char *[]) { "doctor", "--pid", pid_text, NULL });
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (doctor, "is not dumpable"));
  g_assert_nonnull (strstr (doctor, "PR_SET_DUMPABLE 0"));
  g_assert_nonnull (strstr (doctor, "CAP_SYS_PTRACE"));
  record = run_cli (TRUE, &status, (const char *[]) { "record", "--pid", pid_text, "--duration", "1", "-o", tmp,
                                                      NULL });
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (record, "is not dumpable"));

  /* root with CAP_SYS_PTRACE may: ready */
  g_assert_true (fc_attach_check (pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_no_error (error);
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  fc_test_remove_tree (tmp);
}

static void
test_perf (void)
{
  FakeProc proc;
  g_autofree char *cpu = NULL;

  fake_init (&proc, 0, 3, "0000000000000000");
  /* wall mode does not use perf events */
  g_assert_null (check (&proc, 45, FC_SAMPLER_MODE_WALL, 0));
  cpu = check (&proc, 45, FC_SAMPLER_MODE_CPU, FC_SAMPLER_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (cpu, "perf_event_paranoid is 3"));
  g_assert_nonnull (strstr (cpu, "sudo sysctl kernel.perf_event_paranoid=2"));
  g_assert_nonnull (strstr (cpu, "--mode wall"));
  fake_clear (&proc);

  /* CAP_PERFMON (bit 38) */
  fake_init (&proc, 0, 3, "0000004000000000");
  g_assert_null (check (&proc, 45, FC_SAMPLER_MODE_CPU, 0));
  fake_clear (&proc);
  fake_init (&proc, 0, 2, "0000000000000000");
  g_assert_null (check (&proc, 45, FC_SAMPLER_MODE_CPU, 0));
  fake_clear (&proc);
}

static char *
run_doctor (int  *status,
            GPid  pid)
{
  g_autofree char *pid_arg = g_strdup_printf ("%d", pid);
  const char *argv[] = { g_getenv ("FC_CLI"), "doctor", "--pid", pid_arg, NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;

  g_assert_nonnull (argv[0]);
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (process);
  return out;
}

/* On the real /proc: a process we trace is reported as traced, by us; the
 * doctor says the same. */
static void
test_real_traced (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "30", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *out = NULL;
  g_autofree char *gone = NULL;
  int status;
  GPid pid;

  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  pid = fc_recorder_get_pid (recorder);
  g_assert_false (fc_attach_check (pid, FC_SAMPLER_MODE_WALL, &error));
  g_assert_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION);
  /* the tracer is one of our threads (the sampler's): its id and name are named */
  {
    const char *by = strstr (error->message, "already traced by process ");
    g_autofree char *task = NULL;
    int tracer;

    g_assert_nonnull (by);
    tracer = atoi (by + strlen ("already traced by process "));
    task = g_strdup_printf ("/proc/self/task/%d", tracer);
    g_assert_true (g_file_test (task, G_FILE_TEST_IS_DIR));
    expected = g_strdup_printf ("already traced by process %d (", tracer);
  }
  g_clear_error (&error);

  out = run_doctor (&status, pid);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (out, "perf_event_paranoid: "));
  g_assert_nonnull (strstr (out, expected));

  gone = run_doctor (&status, 999999999);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (gone, "wall mode: No process 999999999: it has exited (or never existed)"));

  kill (pid, SIGKILL);
  fc_recorder_detach (recorder);
}

/* The locked-memory limits on perf buffers are read and told with their values. */
static void
test_mlock_facts (void)
{
  FakeProc proc;
  FcAttachFacts facts;
  g_autofree char *text = NULL;

  fake_init (&proc, 0, 2, "0000000000000000");
  fake_write (&proc, "sys/kernel/perf_event_mlock_kb", "516\n");
  fake_write (&proc, "self/limits", "Limit                     Soft Limit           Hard Limit           Units\n"
                                    "Max locked memory         65536                65536                bytes\n");
  fc_attach_facts_read (proc.root, &facts);
  g_assert_cmpint (facts.perf_event_mlock_kb, ==, 516);
  g_assert_cmpuint (facts.memlock_limit, ==, 65536);
  g_assert_false (facts.cap_ipc_lock);
  text = fc_attach_describe_mlock (&facts);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "kernel.perf_event_mlock_kb = 516 KiB per CPU"));
  g_assert_nonnull (strstr (text, "RLIMIT_MEMLOCK (ulimit -l) = 64 KiB"));
  fake_clear (&proc);

  /* unlimited, with CAP_IPC_LOCK (bit 14) */
  fake_init (&proc, 0, 2, "0000000000004000");
  fake_write (&proc, "self/limits", "Max locked memory         unlimited            unlimited            bytes\n");
  fc_attach_facts_read (proc.root, &facts);
  g_assert_cmpuint (facts.memlock_limit, ==, G_MAXUINT64);
  g_assert_true (facts.cap_ipc_lock);
  g_clear_pointer (&text, g_free);
  text = fc_attach_describe_mlock (&facts);
  g_assert_nonnull (strstr (text, "= unlimited; CAP_IPC_LOCK lifts both"));
  fake_clear (&proc);
}

/* The CLI's child: no CAP_IPC_LOCK after its exec (root gets the bounding set) and no locked
 * memory of its own, so perf ring buffers beyond perf_event_mlock_kb cannot be mapped. */
static void
no_locked_memory_cb (gpointer data)
{
  struct rlimit none = { 0, 0 };

  prctl (PR_CAPBSET_DROP, 14 /* CAP_IPC_LOCK */, 0, 0, 0);
  setrlimit (RLIMIT_MEMLOCK, &none);
}

/* cpu mode where the perf ring buffers cannot all be mapped: the user is told which limit,
 * its value and the fix, not left with missing threads; doctor shows the limit. */
static void
test_cli_mlock (void)
{
  g_autofree char *waiters = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("FC_CLI");
  const char *dir = g_getenv ("FC_TARGETS_DIR");
  const char *doctor[] = { cli, "doctor", NULL };
  /* 23 threads: even with no other perf buffer of this user mapped, their rings (the first as
   * large as fits, then smaller) outgrow perf_event_mlock_kb (516 KiB per CPU) on machines of
   * up to about 40 CPUs, and past it RLIMIT_MEMLOCK 0 refuses every page */
  const char *argv[] = { cli, "record", "--mode", "cpu", "-F", "99", "-o", tmp, "--", NULL, "-b", "20", "-s", "1", NULL };
  int status;

  /* the limits of perf events' memory, where perf events are allowed at all */
  if (!fc_test_skip_unless (FC_TEST_FACILITY_PERF_EVENTS, "cpu mode's refusal is checked by /core/sampler/cpu-mode"))
    return;
  tmp = fc_test_make_tmp_dir ("fc-test-mlock");
  argv[7] = tmp;

  g_assert_nonnull (dir);
  waiters = g_strdup_printf ("%s/fc-target-waiters", dir);
  argv[9] = waiters;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, no_locked_memory_cb, NULL, NULL, &err,
                &status, &error);
  g_assert_no_error (error);
  g_test_message ("%s", err);
  /* the first ring may fit in perf_event_mlock_kb (then the other threads are named as not
   * sampled), or not even that (then recording fails): either way, the limit and the fix */
  g_assert_nonnull (strstr (err, "Cannot map the perf ring buffer of thread"));
  g_assert_nonnull (strstr (err, "kernel.perf_event_mlock_kb = "));
  g_assert_nonnull (strstr (err, "RLIMIT_MEMLOCK (ulimit -l) = 0 KiB"));
  g_assert_nonnull (strstr (err, "ulimit -l unlimited"));
  g_assert_true (strstr (err, "not sampled: ") != NULL || !g_spawn_check_wait_status (status, NULL));
  fc_test_remove_tree (tmp);

  g_spawn_sync (NULL, (char **) doctor, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "locked memory for perf buffers: kernel.perf_event_mlock_kb = "));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/attach-check/yama", test_yama);
  g_test_add_func ("/core/attach-check/process", test_process);
  g_test_add_func ("/core/attach-check/what-became-of-it", test_what_became_of_it);
  g_test_add_func ("/core/attach-check/real-zombie", test_real_zombie);
  g_test_add_func ("/core/attach-check/real-not-dumpable", test_real_not_dumpable);
  g_test_add_func ("/core/attach-check/perf", test_perf);
  g_test_add_func ("/core/attach-check/mlock-facts", test_mlock_facts);
  g_test_add_func ("/cli/record/mlock", test_cli_mlock);
  g_test_add_func ("/core/attach-check/real-traced", test_real_traced);

  return g_test_run ();
}
