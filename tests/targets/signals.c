/* signals.c - counts the signals it receives while being profiled
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Counts SIGUSR1 and SIGRTMIN+1 (real-time signals queue, so none may be lost); on SIGUSR2 prints
 * "usr1 N rt M" and exits 0.
 */

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t usr1, rt, done;
static volatile unsigned long sink;

static void
handler (int sig)
{
  if (sig == SIGUSR1)
    usr1++;
  else if (sig == SIGUSR2)
    done = 1;
  else
    rt++;
}

__attribute__((noinline)) void
signals_spin (void)
{
  unsigned long acc = sink;
  for (int i = 0; i < 50000; i++)
    {
      acc = acc * 6364136223846793005ul + 1;
      __asm__ volatile ("" : "+r" (acc));
    }
  sink = acc;
}

int
main (void)
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  sigaction (SIGUSR2, &sa, NULL);
  sigaction (SIGRTMIN + 1, &sa, NULL);
  printf ("ready\n");
  fflush (stdout);
  while (!done)
    signals_spin ();
  printf ("usr1 %d rt %d\n", (int) usr1, (int) rt);
  return 0;
}
