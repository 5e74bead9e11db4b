/* churn.c - keeps creating and joining short-lived threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: churn SECONDS|-. Prints the number of threads it ran; with "-" it runs until its stdin
 * is closed (so a test decides when it ends, however loaded the machine is).
 */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static atomic_int stop;

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

static void *
watch_stdin (void *data)
{
  char buf[64];

  while (read (0, buf, sizeof buf) > 0)
    ;
  atomic_store (&stop, 1);
  return NULL;
}

int
main (int argc, char **argv)
{
  int until_eof = argc > 1 && strcmp (argv[1], "-") == 0;
  double end = now () + (argc > 1 && !until_eof ? atof (argv[1]) : 2.0);
  pthread_t watcher;
  long n = 0;

  if (until_eof)
    pthread_create (&watcher, NULL, watch_stdin, NULL);
  printf ("ready\n");
  fflush (stdout);
  while (until_eof ? !atomic_load (&stop) : now () < end)
    {
      pthread_t t[4];
      for (int i = 0; i < 4; i++)
        pthread_create (&t[i], NULL, churn_work, NULL);
      for (int i = 0; i < 4; i++)
        pthread_join (t[i], NULL);
      n += 4;
    }
  if (until_eof)
    pthread_join (watcher, NULL);
  printf ("churn ran %ld threads\n", n);
  return 0;
}
