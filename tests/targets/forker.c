/* forker.c - work done only by a grandchild, through fork, fork and exec
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: forker [SECONDS]
 * The process forks a child, which forks a grandchild, which executes this
 * program again as "forker --grandchild SECONDS": that one burns SECONDS of
 * its own CPU time (default 0.8) in grandchild_burn(), however long a loaded
 * machine makes that. The parent and the child only wait. Exits 0 when the
 * grandchild did.
 *
 * forker --many N SECONDS [GATE]: N short-lived children one after the other,
 * each executing "forker --grandchild SECONDS [GATE]": with GATE (a FIFO), a
 * child that has burnt its time reads one byte from it before it exits, so a
 * test decides when each child ends.
 *
 * forker --early SECONDS: forks the child and grandchild at once and writes
 * "ready\n" on stdout once both exist, for a profiler that attaches after
 * them; the grandchild burns for SECONDS (it does not exec).
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) unsigned long
grandchild_burn (double seconds)
{
  double end = cpu_now () + seconds;
  unsigned long acc = sink;

  while (cpu_now () < end)
    for (int i = 0; i < 100000; i++)
      {
        acc = acc * 2862933555777941757ul + 3037000493ul;
        __asm__ volatile ("" : "+r" (acc));
      }
  sink = acc;
  return acc;
}

static int
wait_for (pid_t pid)
{
  int status;

  while (waitpid (pid, &status, 0) < 0)
    ;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}

int
main (int    argc,
      char **argv)
{
  const char *seconds = "0.8";
  pid_t child;

  if (argc >= 3 && strcmp (argv[1], "--grandchild") == 0)
    {
      grandchild_burn (atof (argv[2]));
      if (argc >= 4)
        {
          char c;
          int gate = open (argv[3], O_RDONLY | O_CLOEXEC);

          if (gate < 0 || read (gate, &c, 1) != 1)
            return 1;
          close (gate);
        }
      return 0;
    }
  if (argc >= 4 && strcmp (argv[1], "--many") == 0)
    {
      int n = atoi (argv[2]);

      for (int i = 0; i < n; i++)
        {
          child = fork ();
          if (child < 0)
            return 1;
          if (child == 0)
            {
              execl ("/proc/self/exe", argv[0], "--grandchild", argv[3], argc >= 5 ? argv[4] : (char *) NULL,
                     (char *) NULL);
              _exit (127);
            }
          if (wait_for (child) != 0)
            return 1;
        }
      return 0;
    }
  if (argc >= 3 && strcmp (argv[1], "--early") == 0)
    {
      int ready[2];
      char c;

      if (pipe (ready) != 0)
        return 1;
      child = fork ();
      if (child < 0)
        return 1;
      if (child == 0)
        {
          pid_t grandchild;

          close (ready[0]);
          grandchild = fork ();
          if (grandchild < 0)
            _exit (1);
          if (grandchild == 0)
            {
              /* tells it exists, then works: the profiler attaches to the parent meanwhile */
              (void) !write (ready[1], "x", 1);
              close (ready[1]);
              grandchild_burn (atof (argv[2]));
              _exit (0);
            }
          close (ready[1]);
          _exit (wait_for (grandchild));
        }
      close (ready[1]);
      if (read (ready[0], &c, 1) != 1)
        return 1;
      close (ready[0]);
      printf ("ready\n");
      fflush (stdout);
      return wait_for (child);
    }
  if (argc >= 2)
    seconds = argv[1];

  child = fork ();
  if (child < 0)
    return 1;
  if (child == 0)
    {
      pid_t grandchild = fork ();
      if (grandchild < 0)
        _exit (1);
      if (grandchild == 0)
        {
          execl ("/proc/self/exe", argv[0], "--grandchild", seconds, (char *) NULL);
          _exit (127);
        }
      _exit (wait_for (grandchild));
    }
  return wait_for (child);
}
