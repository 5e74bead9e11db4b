/* burner.c - CPU burner with a known 70/30 split between two functions, nested a few frames deep
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: burner [-s SECONDS | -n ROUNDS | -u FILE] [-t THREADS] [-x EXIT_CODE]
 * Each round calls hot_a() for 7 units of work and hot_b() for 3 identical units. -n is a fixed
 * amount of work, whatever the load; -u works until FILE exists (a test decides when it ends).
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define UNIT 20000

static volatile unsigned long sink;
static double seconds = 1.0;
static long rounds = 0;
static const char *until_file;

#define SPIN(units)                                  \
  do {                                               \
    unsigned long acc = sink;                        \
    for (long i = 0; i < (long) (units) * UNIT; i++) \
      {                                              \
        acc = acc * 2862933555777941757ul + 3037000493ul; \
        __asm__ volatile ("" : "+r" (acc));          \
      }                                              \
    sink = acc;                                      \
  } while (0)

__attribute__((noinline)) unsigned long
hot_a (int units)
{
  SPIN (units);
  return sink;
}

__attribute__((noinline)) unsigned long
hot_b (int units)
{
  SPIN (units);
  return sink;
}

__attribute__((noinline)) unsigned long
level_two (int n)
{
  unsigned long r = hot_a (7 * n);
  r ^= hot_b (3 * n);
  return r + 1;
}

__attribute__((noinline)) unsigned long
level_one (int n)
{
  return level_two (n) * 3 + 1;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) unsigned long
run_workload (void)
{
  unsigned long r = 0;
  double end = now () + seconds;

  if (rounds > 0)
    for (long i = 0; i < rounds; i++)
      r += level_one (1);
  else if (until_file != NULL)
    while (access (until_file, F_OK) != 0)
      r += level_one (1);
  else
    while (now () < end)
      r += level_one (1);
  return r + 1;
}

static void *
thread_main (void *data)
{
  run_workload ();
  return NULL;
}

int
main (int argc, char **argv)
{
  int threads = 1, exit_code = 0, opt;
  pthread_t tids[64];
  double t0;

  while ((opt = getopt (argc, argv, "s:n:t:u:x:")) != -1)
    {
      switch (opt)
        {
        case 's': seconds = atof (optarg); break;
        case 'n': rounds = atol (optarg); break;
        case 't': threads = atoi (optarg); break;
        case 'u': until_file = optarg; break;
        case 'x': exit_code = atoi (optarg); break;
        default: return 2;
        }
    }
  if (threads < 1 || threads > 64)
    threads = 1;

  t0 = now ();
  for (int i = 1; i < threads; i++)
    pthread_create (&tids[i], NULL, thread_main, NULL);
  run_workload ();
  for (int i = 1; i < threads; i++)
    pthread_join (tids[i], NULL);
  {
    struct timespec cpu;
    clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu);
    /* wall time, then CPU time of the whole process (user + system, all
     * threads); "# " makes it a TAP comment in the tests that pass the
     * target's stdout through */
    printf ("# burner done in %.6f s, cpu %.6f s\n", now () - t0, cpu.tv_sec + cpu.tv_nsec / 1e9);
  }
  fflush (stdout);
  return exit_code;
}
