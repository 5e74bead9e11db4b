/* vforker.c - a thread that cannot stop: the parent of a vfork child that has not exec'd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: vforker
 * vfork()s; the child prints "ready" and reads one byte of stdin, then
 * _exit()s. Until then the parent waits in the kernel for its child (killable
 * only), where neither a signal nor a ptrace interrupt stops it. Once the child
 * is gone the parent prints "done" and exits 0: a parent left stopped by a
 * tracer never does.
 */

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (void)
{
  pid_t child;
  char c;

  setvbuf (stdout, NULL, _IONBF, 0);
  child = vfork ();
  if (child == 0)
    {
      /* only write, read and _exit: the parent's memory is shared until then */
      if (write (STDOUT_FILENO, "ready\n", 6) != 6 || read (STDIN_FILENO, &c, 1) < 0)
        _exit (1);
      _exit (0);
    }
  if (child < 0 || waitpid (child, NULL, 0) != child)
    return 1;
  printf ("done\n");
  return 0;
}
