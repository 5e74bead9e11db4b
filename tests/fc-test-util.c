/* fc-test-util.c - what the tests share: temporary trees, target programs, test data,
 * private homes, waits on a condition with a deadline, a terminal, statistical margins,
 * skips that say why
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fc-test-util.h"

/**
 * fc_test_make_tmp_dir:
 * @prefix: what the folder's name starts with, e.g. "fc-test-outbox"
 *
 * Returns: (transfer full): a new empty folder under g_get_tmp_dir(); the test removes it
 *   with fc_test_remove_tree()
 */
char *
fc_test_make_tmp_dir (const char *prefix)
{
  g_autofree char *template = g_strdup_printf ("%s-XXXXXX", prefix);
  g_autoptr(GError) error = NULL;
  char *path = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  return path;
}

/**
 * fc_test_remove_tree:
 * @path: a file or folder
 *
 * Removes @path and, for a folder, everything in it. Symbolic links are removed, never
 * followed. Nothing there is not an error.
 */
void
fc_test_remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          fc_test_remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

/**
 * fc_test_data_path:
 * @relative: a path under tests/data, e.g. "payloads/v2-cocoa.json"
 *
 * Returns: (transfer full): where that file is in the source tree (tests/data/README.md
 *   says how each was made)
 */
char *
fc_test_data_path (const char *relative)
{
  return g_test_build_filename (G_TEST_DIST, "data", relative, NULL);
}

/**
 * fc_test_target_path:
 * @name: a program of tests/targets, e.g. "burner"
 *
 * Returns: (transfer full): the path of the built fc-target-@name
 */
char *
fc_test_target_path (const char *name)
{
  const char *dir = g_getenv ("FC_TARGETS_DIR");

  g_assert_nonnull (dir);
  return g_strdup_printf ("%s/fc-target-%s", dir, name);
}

static char *private_home;

/**
 * fc_test_init_private_home:
 * @argc: main()'s
 * @argv: main()'s
 *
 * g_test_init() with HOME and the XDG_*_HOME folders in a new temporary folder, removed by
 * fc_test_run(). Unlike %G_TEST_OPTION_ISOLATE_DIRS the system's data folders stay
 * (XDG_DATA_DIRS: icons, the settings schema), and the home is one for the whole program:
 * the recent files list, the outbox, the settings file are those of a user of its own.
 */
void
fc_test_init_private_home (int    *argc,
                           char ***argv)
{
  static const char * const variables[] = {
    "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
  };
  g_autofree char *base = g_path_get_basename ((*argv)[0]);
  g_autofree char *prefix = g_strdup_printf ("flamecast-%s", base);

  g_assert_null (private_home);
  private_home = fc_test_make_tmp_dir (prefix);
  g_setenv ("HOME", private_home, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    g_setenv (variables[i], private_home, TRUE);

  g_test_init (argc, argv, NULL);
}

/**
 * fc_test_run:
 *
 * g_test_run(), then the private home of fc_test_init_private_home() removed.
 *
 * Returns: g_test_run()'s
 */
int
fc_test_run (void)
{
  int ret = g_test_run ();

  if (private_home != NULL)
    fc_test_remove_tree (private_home);
  g_clear_pointer (&private_home, g_free);
  return ret;
}

static gboolean
wake_cb (gpointer user_data)
{
  FcTestWait *wait = user_data;

  wait->wake_id = 0;
  return G_SOURCE_REMOVE;
}

void
fc_test_wait_begin (FcTestWait *wait,
                    const char *what,
                    const char *file,
                    int         line)
{
  wait->what = what;
  wait->file = file;
  wait->line = line;
  wait->deadline = g_get_monotonic_time () + FC_TEST_DEADLINE_SECONDS * G_TIME_SPAN_SECOND;
  /* wakes a blocking iteration at the deadline, when nothing else would */
  wait->wake_id = g_timeout_add_seconds (FC_TEST_DEADLINE_SECONDS + 1, wake_cb, wait);
}

static void
check_deadline (FcTestWait *wait)
{
  if (g_get_monotonic_time () >= wait->deadline)
    g_error ("%s:%d: still waiting for %s after %d s", wait->file, wait->line, wait->what,
             FC_TEST_DEADLINE_SECONDS);
}

void
fc_test_wait_iterate (FcTestWait *wait)
{
  check_deadline (wait);
  g_main_context_iteration (NULL, TRUE);
}

void
fc_test_wait_poll (FcTestWait *wait)
{
  check_deadline (wait);
  /* not "while anything is ready": a live recording always has something ready */
  for (guint i = 0; i < 100 && g_main_context_iteration (NULL, FALSE); i++)
    ;
  g_usleep (1000);
}

static gboolean
set_flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
fc_test_drain (void)
{
  gboolean reached = FALSE;

  g_idle_add_full (G_PRIORITY_DEFAULT, set_flag_cb, &reached, NULL);
  fc_test_spin_until (reached);
}

void
fc_test_wait_end (FcTestWait *wait)
{
  g_clear_handle_id (&wait->wake_id, g_source_remove);
}

/**
 * fc_test_spawn_on_terminal:
 * @argv: the program and its arguments
 * @child_setup: (nullable): run in the child before the exec, e.g. to make a process group
 * @terminal: (out): the terminal's other end, to read with fc_test_terminal_read()
 *
 * Starts @argv with its stderr on a new pseudo-terminal and stdout on /dev/null, as a user
 * in a terminal would: a program that shows progress on a terminal (the CLI's status line of
 * `record`) does so, and the test reads it to wait for what the program says it did.
 *
 * Returns: the child's pid, to be reaped by the caller (waitpid())
 */
GPid
fc_test_spawn_on_terminal (const char * const    *argv,
                           GSpawnChildSetupFunc   child_setup,
                           int                   *terminal)
{
  g_autoptr(GError) error = NULL;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  int slave;
  GPid pid;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = open (ptsname (master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (slave, >=, 0);
  g_spawn_async_with_fds (NULL, (char **) argv, NULL,
                          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                          child_setup, NULL, &pid, -1, -1, slave, &error);
  g_assert_no_error (error);
  close (slave);
  g_assert_cmpint (fcntl (master, F_SETFL, O_NONBLOCK), ==, 0);
  *terminal = master;
  return pid;
}

/**
 * fc_test_terminal_read:
 * @terminal: from fc_test_spawn_on_terminal()
 * @text: what was read so far; what the program wrote since is appended
 *
 * Never blocks. The caller closes @terminal once the program is done.
 */
void
fc_test_terminal_read (int      terminal,
                       GString *text)
{
  char buf[4096];
  ssize_t n;

  /* EAGAIN: nothing more for now; EIO: the program closed its end */
  while ((n = read (terminal, buf, sizeof buf)) > 0)
    g_string_append_len (text, buf, n);
  g_assert_true (n == 0 || errno == EAGAIN || errno == EIO || errno == EINTR);
}

/**
 * fc_test_terminal_count:
 * @terminal: from fc_test_spawn_on_terminal()
 * @text: what was read so far, as for fc_test_terminal_read()
 * @unit: what is counted, e.g. " sample" for the CLI's "1.5 s  123 samples  4 threads"
 *
 * Returns: the number written last before @unit, 0 before there is one
 */
guint
fc_test_terminal_count (int         terminal,
                        GString    *text,
                        const char *unit)
{
  const char *p;

  fc_test_terminal_read (terminal, text);
  p = g_strrstr (text->str, unit);
  if (p == NULL)
    return 0;
  while (p > text->str && g_ascii_isdigit (p[-1]))
    p--;
  return (guint) g_ascii_strtoull (p, NULL, 10);
}

/**
 * fc_test_binomial_margin:
 * @n: trials
 * @p: the chance of a success in each
 *
 * Returns: five standard deviations of the number of successes (binomial), at least 1: a
 *   count outside expected +- this margin is a bug, not bad luck (about 6e-7 of the runs)
 */
double
fc_test_binomial_margin (double n,
                         double p)
{
  return MAX (1.0, 5.0 * sqrt (n * p * (1.0 - p)));
}

static const char * const facility_names[FC_TEST_N_FACILITIES] = {
  [FC_TEST_FACILITY_PERF_EVENTS] = "perf-events",
  [FC_TEST_FACILITY_PTRACE_NON_CHILD] = "ptrace-non-child",
  [FC_TEST_FACILITY_OTHER_USER] = "other-user",
};

const char *
fc_test_facility_name (FcTestFacility facility)
{
  g_return_val_if_fail (facility < FC_TEST_N_FACILITIES, NULL);
  return facility_names[facility];
}

gboolean
fc_test_facility_lookup (const char     *name,
                         FcTestFacility *facility)
{
  for (guint i = 0; i < FC_TEST_N_FACILITIES; i++)
    if (g_strcmp0 (name, facility_names[i]) == 0)
      {
        *facility = i;
        return TRUE;
      }
  return FALSE;
}

static char *
read_sysctl (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_strdup ("not there");
  return g_strstrip (text);
}

/* A child that waits to be killed. */
static GPid
spawn_sleeper (void)
{
  GPid pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      for (;;)
        pause ();
    }
  return pid;
}

static void
kill_sleeper (GPid pid)
{
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
}

/* The sampler's kind of perf event, opened on a child by code of its own (not fc-perf.c):
 * a failure of the code under test must fail its test, never make it skip. */
static gboolean
probe_perf_events (char **why_not)
{
  struct perf_event_attr attr;
  GPid child = spawn_sleeper ();
  long page = sysconf (_SC_PAGESIZE);
  void *ring = MAP_FAILED;
  int fd, err = 0;
  const char *step = "perf_event_open";

  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = 10000000;
  attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  attr.sample_regs_user = 0xff;
  attr.sample_stack_user = 4096;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.disabled = 1;
  attr.context_switch = 1;
  attr.sample_id_all = 1;
  fd = syscall (SYS_perf_event_open, &attr, child, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    err = errno;
  else
    {
      step = "mmap of a perf ring buffer";
      ring = mmap (NULL, (1 + 8) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (ring == MAP_FAILED)
        err = errno;
      else
        munmap (ring, (1 + 8) * page);
      close (fd);
    }
  kill_sleeper (child);

  if (err != 0 && why_not != NULL)
    {
      g_autofree char *paranoid = read_sysctl ("/proc/sys/kernel/perf_event_paranoid");

      const char *fix;

      if (ring == MAP_FAILED && fd >= 0)
        fix = "the locked-memory limits refuse the ring: kernel.perf_event_mlock_kb, RLIMIT_MEMLOCK";
      else if (atoi (paranoid) > 2)
        fix = "`sudo sysctl kernel.perf_event_paranoid=2` or CAP_PERFMON enables it";
      else
        fix = "so a seccomp filter refuses it: a container needs perf_event_open in its seccomp profile";
      *why_not = g_strdup_printf ("%s of a child's cpu clock: %s (kernel.perf_event_paranoid = %s; %s)",
                                  step, g_strerror (err), paranoid, fix);
    }
  return err == 0;
}

/* A child seizes its sibling, as `flamecast-cli record --pid` (a child of the test) seizes a
 * target the test started. */
static gboolean
probe_ptrace_non_child (char **why_not)
{
  GPid target = spawn_sleeper ();
  GPid tracer = fork ();
  int status = 0;

  g_assert_cmpint (tracer, >=, 0);
  if (tracer == 0)
    _exit (ptrace (PTRACE_SEIZE, target, NULL, NULL) == 0 ? 0 : errno);
  waitpid (tracer, &status, 0);
  kill_sleeper (target);

  if (!(WIFEXITED (status) && WEXITSTATUS (status) == 0))
    {
      if (why_not != NULL)
        {
          g_autofree char *scope = read_sysctl ("/proc/sys/kernel/yama/ptrace_scope");

          *why_not = g_strdup_printf ("PTRACE_SEIZE of a sibling process: %s (kernel.yama.ptrace_scope = %s; "
                                      "`sudo sysctl kernel.yama.ptrace_scope=0` or CAP_SYS_PTRACE enables it)",
                                      WIFEXITED (status) ? g_strerror (WEXITSTATUS (status)) : "the tracer died",
                                      scope);
        }
      return FALSE;
    }
  return TRUE;
}

/* nobody (65534 on Debian) runs this very program, as the tests run the CLI, the helper and
 * the targets of this build as nobody. A clone under a folder that others may not enter (root's
 * home is 0700) keeps nobody out of the whole build tree. */
static gboolean
probe_other_user (char **why_not)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  GPid child;
  int status = 0;

  if (geteuid () != 0)
    {
      if (why_not != NULL)
        *why_not = g_strdup ("only root runs a process as another user (nobody): run the test suite as root");
      return FALSE;
    }
  g_assert_nonnull (self);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      if (setgroups (0, NULL) != 0 || setgid (65534) != 0 || setuid (65534) != 0)
        _exit (255);
      _exit (access (self, X_OK) == 0 ? 0 : errno);
    }
  waitpid (child, &status, 0);
  if (!(WIFEXITED (status) && WEXITSTATUS (status) == 0))
    {
      if (why_not != NULL)
        *why_not = g_strdup_printf ("user nobody may not run %s: %s (a folder above the build tree does not let other "
                                    "users in, as root's 0700 home does; clone the repository where others may "
                                    "enter, or `chmod o+x` the folders above it)",
                                    self, !WIFEXITED (status) ? "the probe died"
                                          : WEXITSTATUS (status) == 255 ? "setuid to nobody failed"
                                          : g_strerror (WEXITSTATUS (status)));
      return FALSE;
    }
  return TRUE;
}

/**
 * fc_test_facility_available:
 * @facility: what is needed
 * @why_not: (out) (optional): why this machine refuses it, and the setting that enables it
 *
 * Tries @facility for real, once a process (the answer is kept).
 *
 * Returns: whether this machine allows it
 */
gboolean
fc_test_facility_available (FcTestFacility   facility,
                            char           **why_not)
{
  static gsize probed[FC_TEST_N_FACILITIES];
  static gboolean available[FC_TEST_N_FACILITIES];
  static char *reason[FC_TEST_N_FACILITIES];

  g_return_val_if_fail (facility < FC_TEST_N_FACILITIES, FALSE);
  if (g_once_init_enter (&probed[facility]))
    {
      switch (facility)
        {
        case FC_TEST_FACILITY_PERF_EVENTS:
          available[facility] = probe_perf_events (&reason[facility]);
          break;
        case FC_TEST_FACILITY_PTRACE_NON_CHILD:
          available[facility] = probe_ptrace_non_child (&reason[facility]);
          break;
        case FC_TEST_FACILITY_OTHER_USER:
          available[facility] = probe_other_user (&reason[facility]);
          break;
        default:
          g_assert_not_reached ();
        }
      g_once_init_leave (&probed[facility], 1);
    }
  if (why_not != NULL)
    *why_not = g_strdup (reason[facility]);
  return available[facility];
}

/**
 * fc_test_skip_unless:
 * @facility: what the rest of the test needs
 * @instead: (nullable): what the test checked instead where it is refused, e.g. "the refusal's
 *   message was checked"
 *
 * Where @facility is refused, marks the test skipped with the reason, e.g. "needs perf-events:
 * perf_event_open ...: Permission denied (kernel.perf_event_paranoid = 3; ...)"; the test then
 * checks what the refusal leads to, or returns.
 *
 * Returns: %TRUE where @facility is available (the test goes on as written)
 */
gboolean
fc_test_skip_unless (FcTestFacility  facility,
                     const char     *instead)
{
  g_autofree char *why_not = NULL;

  if (fc_test_facility_available (facility, &why_not))
    return TRUE;
  g_test_skip_printf ("needs %s: %s%s%s", fc_test_facility_name (facility), why_not,
                      instead != NULL ? "; " : "", instead != NULL ? instead : "");
  return FALSE;
}

void
fc_test_die_with_test (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}
