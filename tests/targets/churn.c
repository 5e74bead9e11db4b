/* churn.c - keeps creating and joining short-lived threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: churn SECONDS. Prints the number of threads it ran.
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void *
churn_work (void *data)
{
  unsigned long acc = sink;
  for (int i = 0; i < 200000; i++)
    {
      acc = acc * 6364136223846793005ul + 1;
      __asm__ volatile ("" : "+r" (acc));
    }
  sink = acc;
  return NULL;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  double end = now () + (argc > 1 ? atof (argv[1]) : 2.0);
  long n = 0;

  printf ("ready\n");
  fflush (stdout);
  while (now () < end)
    {
      pthread_t t[4];
      for (int i = 0; i < 4; i++)
        pthread_create (&t[i], NULL, churn_work, NULL);
      for (int i = 0; i < 4; i++)
        pthread_join (t[i], NULL);
      n += 4;
    }
  printf ("churn ran %ld threads\n", n);
  return 0;
}
