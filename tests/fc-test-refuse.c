/* fc-test-refuse.c - runs a command on a machine that refuses a kernel facility
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   fc-test-refuse perf-events -- COMMAND [ARGS...]
 *
 * perf-events: every perf_event_open() of COMMAND and its descendants fails with EACCES, as
 * with kernel.perf_event_paranoid=3 or a container's seccomp profile (a seccomp filter: a
 * real refusal by the kernel, not a flag the code under test could read). The tests then take
 * the paths they take on such a machine: the sampler falls back to ptrace, cpu mode says why it
 * cannot run, and tests that need perf events skip, saying so. FC_TEST_REFUSE=NAME tells
 * .ci/check-skips that those skips were asked for.
 */

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

int
main (int   argc,
      char *argv[])
{
  scmp_filter_ctx filter;

  if (argc < 4 || strcmp (argv[1], "perf-events") != 0 || strcmp (argv[2], "--") != 0)
    {
      fprintf (stderr, "usage: fc-test-refuse perf-events -- COMMAND [ARGS...]\n");
      return 2;
    }

  filter = seccomp_init (SCMP_ACT_ALLOW);
  if (filter == NULL ||
      seccomp_rule_add (filter, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (perf_event_open), 0) != 0 ||
      seccomp_load (filter) != 0)
    {
      fprintf (stderr, "fc-test-refuse: cannot install the seccomp filter\n");
      return 2;
    }
  seccomp_release (filter);

  g_setenv ("FC_TEST_REFUSE", argv[1], TRUE);
  execvp (argv[3], argv + 3);
  fprintf (stderr, "fc-test-refuse: %s: %s\n", argv[3], strerror (errno));
  return 127;
}
