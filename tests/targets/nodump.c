/* nodump.c - a program that turns off its own dumpability, as ssh-agent and sandboxes do
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * prctl (PR_SET_DUMPABLE, 0), then prints "ready" and sleeps until killed:
 * only a tracer with CAP_SYS_PTRACE may attach to it now.
 */

#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int
main (void)
{
  if (prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    return 1;
  printf ("ready\n");
  fflush (stdout);
  for (;;)
    pause ();
}
