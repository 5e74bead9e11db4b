/* test-procfs.c - /proc/PID/stat and status, parsed once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <unistd.h>

#include "fc-procfs.h"

/* A command name may hold spaces and parentheses: only the last ")" ends it. */
static void
test_procfs_stat (void)
{
  FcProcStat stat;

  g_assert_true (fc_procfs_parse_stat ("4242 (a) (b c) t 17 4242 4242 0 -1 4194560 100 0 0 0 "
                                       "31 7 0 0 -21 0 3 0 12345\n", &stat));
  g_assert_cmpint (stat.state, ==, 't');
  g_assert_cmpint (stat.ppid, ==, 17);
  g_assert_cmpuint (stat.flags, ==, 4194560);
  g_assert_cmpuint (stat.utime, ==, 31);
  g_assert_cmpuint (stat.stime, ==, 7);
  g_assert_cmpint (stat.priority, ==, -21);

  /* truncated after the state: what is there, the rest zero */
  g_assert_true (fc_procfs_parse_stat ("1 (init) S", &stat));
  g_assert_cmpint (stat.state, ==, 'S');
  g_assert_cmpint (stat.ppid, ==, 0);
  g_assert_false (fc_procfs_parse_stat ("1 (init", &stat));
  g_assert_false (fc_procfs_parse_stat ("", &stat));
  g_assert_false (fc_procfs_parse_stat (NULL, &stat));
}

static void
test_procfs_status (void)
{
  g_auto(FcProcStatus) status = { 0 };
  g_auto(FcProcStatus) empty = { 0 };

  fc_procfs_parse_status ("Name:\tweb: worker\nUmask:\t0022\nState:\tZ (zombie)\nTgid:\t40\nNgid:\t0\n"
                          "Pid:\t41\nPPid:\t1\nTracerPid:\t77\nUid:\t1000\t1001\t1002\t1003\n"
                          "NSpid:\t41\t7\nThreads:\t3\nCapEff:\t000001ffffffffff", &status);
  g_assert_cmpstr (status.name, ==, "web: worker");
  g_assert_cmpint (status.state, ==, 'Z');
  g_assert_cmpint (status.tgid, ==, 40);
  g_assert_cmpint (status.pid, ==, 41);
  g_assert_cmpint (status.ppid, ==, 1);
  g_assert_cmpint (status.tracer_pid, ==, 77);
  g_assert_cmpint (status.uid[0], ==, 1000);
  g_assert_cmpint (status.uid[1], ==, 1001);
  g_assert_cmpint (status.uid[3], ==, 1003);
  g_assert_cmpint (status.ns_pid, ==, 7);
  g_assert_cmpuint (status.n_threads, ==, 3);
  g_assert_cmphex (status.cap_eff, ==, G_GUINT64_CONSTANT (0x1ffffffffff));

  /* missing lines read as missing, not as process 0 or root */
  fc_procfs_parse_status ("Name:\tx\nPPid:\tjunk\n", &empty);
  g_assert_cmpint (empty.ppid, ==, -1);
  g_assert_cmpint (empty.uid[0], ==, -1);
  g_assert_cmpint (empty.tgid, ==, -1);
  g_assert_cmpuint (empty.n_threads, ==, 0);
}

/* Our own entry, and one that is gone. */
static void
test_procfs_read (void)
{
  g_auto(FcProcStatus) status = { 0 };
  FcProcStat stat;

  g_assert_true (fc_procfs_read_stat ("/proc/self", &stat));
  g_assert_cmpint (stat.ppid, ==, getppid ());
  g_assert_true (fc_procfs_read_status ("/proc/self", &status));
  g_assert_cmpint (status.pid, ==, getpid ());
  g_assert_cmpint (status.uid[1], ==, (int) geteuid ());
  g_assert_false (fc_procfs_read_stat ("/proc/nonexistent", &stat));
  fc_procfs_status_clear (&status);
  g_assert_false (fc_procfs_read_status ("/proc/nonexistent", &status));
  g_assert_cmpint (status.pid, ==, -1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/procfs/stat", test_procfs_stat);
  g_test_add_func ("/core/procfs/status", test_procfs_status);
  g_test_add_func ("/core/procfs/read", test_procfs_read);

  return g_test_run ();
}
