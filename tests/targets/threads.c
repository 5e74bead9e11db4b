/* threads.c - named threads: two busy workers and a sleeper
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: threads SECONDS|-. Prints "ready" once every thread has its name; with "-" it runs until
 * its stdin is closed (so a test decides when it ends, however loaded the machine is).
 */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int named;
static atomic_int stop;
static volatile unsigned long sink;

__attribute__((noinline)) void
worker_spin (void)
{
  unsigned long acc = sink;
  for (int i = 0; i < 100000; i++)
    {
      acc = acc * 6364136223846793005ul + 1;
      __asm__ volatile ("" : "+r" (acc));
    }
  sink = acc;
}

__attribute__((noinline)) void *
worker_main (void *data)
{
  pthread_setname_np (pthread_self (), data);
  atomic_fetch_add (&named, 1);
  while (!atomic_load (&stop))
    worker_spin ();
  return NULL;
}

__attribute__((noinline)) void
sleeper_wait (void)
{
  struct timespec ts = { 0, 5 * 1000 * 1000 };
  nanosleep (&ts, NULL);
}

__attribute__((noinline)) void *
sleeper_main (void *data)
{
  pthread_setname_np (pthread_self (), data);
  atomic_fetch_add (&named, 1);
  while (!atomic_load (&stop))
    sleeper_wait ();
  return NULL;
}

int
main (int argc, char **argv)
{
  int until_eof = argc > 1 && strcmp (argv[1], "-") == 0;
  double seconds = argc > 1 && !until_eof ? atof (argv[1]) : 2.0;
  pthread_t t[3];

  pthread_setname_np (pthread_self (), "fc-main");
  pthread_create (&t[0], NULL, worker_main, "fc-worker-1");
  pthread_create (&t[1], NULL, worker_main, "fc-worker-2");
  pthread_create (&t[2], NULL, sleeper_main, "fc-sleeper");
  while (atomic_load (&named) < 3)
    usleep (1000);
  printf ("ready\n");
  fflush (stdout);
  if (until_eof)
    {
      char buf[64];
      while (read (0, buf, sizeof buf) > 0)
        ;
    }
  else
    usleep ((useconds_t) (seconds * 1e6));
  atomic_store (&stop, 1);
  for (int i = 0; i < 3; i++)
    pthread_join (t[i], NULL);
  printf ("threads done\n");
  return 0;
}
