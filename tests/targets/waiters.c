/* waiters.c - busy threads beside threads that wait: in read(), in nanosleep(), in a loop whose
 * unwind info is broken
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: waiters [-b BUSY] [-s SECONDS] [-l] [-i] [-q]
 *   -b  busy threads (default 2) spinning in waiters_busy()
 *   -s  run time (default 2); the reader and the sleeper wait all along
 *   -l  one more thread spins in waiters_badcfi(), whose CFI says the caller is itself
 *   -i  ignore SIGTERM (and SIGINT), to be killed
 *   -q  print nothing (a test that does not read its stdout: TAP)
 * One thread blocks in read() on a pipe nobody writes, from before "ready" is printed until exit;
 * another sleeps in nanosleep(). Prints "ready" once every thread runs.
 */

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int started;
static atomic_int stop;
static volatile unsigned long sink;
static int pipe_fds[2];

/* A function whose unwind rule gives itself as its caller at the same CFA: an unwinder that
 * trusts it repeats this frame until its frame limit. */
__asm__ (
  ".text\n"
  ".globl waiters_badcfi\n"
  ".type waiters_badcfi, @function\n"
  "waiters_badcfi:\n"
  "  .cfi_startproc\n"
  "  .cfi_def_cfa rsp, 0\n"
  "  .cfi_same_value rip\n"
  "  mov $2000000, %ecx\n"
  "1:\n"
  "  dec %ecx\n"
  "  jnz 1b\n"
  "  ret\n"
  "  .cfi_endproc\n"
  ".size waiters_badcfi, .-waiters_badcfi\n"
);
void waiters_badcfi (void);

__attribute__((noinline)) void
waiters_busy (void)
{
  unsigned long acc = sink;
  for (int i = 0; i < 200000; i++)
    {
      acc = acc * 6364136223846793005ul + 1;
      __asm__ volatile ("" : "+r" (acc));
    }
  sink = acc;
}

static void *
busy_main (void *data)
{
  atomic_fetch_add (&started, 1);
  while (!atomic_load (&stop))
    waiters_busy ();
  return NULL;
}

__attribute__((noinline)) void
waiters_read (void)
{
  char c;
  /* never returns: nobody writes, and the write end stays open */
  while (read (pipe_fds[0], &c, 1) != 0)
    ;
}

static void *
reader_main (void *data)
{
  atomic_fetch_add (&started, 1);
  waiters_read ();
  return NULL;
}

__attribute__((noinline)) void
waiters_sleep (void)
{
  struct timespec ts = { 10, 0 };
  nanosleep (&ts, NULL);
}

static void *
sleeper_main (void *data)
{
  atomic_fetch_add (&started, 1);
  for (;;)
    waiters_sleep ();
  return NULL;
}

static void *
looper_main (void *data)
{
  atomic_fetch_add (&started, 1);
  while (!atomic_load (&stop))
    waiters_badcfi ();
  return NULL;
}

int
main (int argc, char **argv)
{
  int busy = 2, loop = 0, quiet = 0, opt, n = 0;
  double seconds = 2.0;
  pthread_t t;
  struct timespec ts;

  while ((opt = getopt (argc, argv, "b:s:liq")) != -1)
    switch (opt)
      {
      case 'b': busy = atoi (optarg); break;
      case 's': seconds = atof (optarg); break;
      case 'l': loop = 1; break;
      case 'i': signal (SIGTERM, SIG_IGN); signal (SIGINT, SIG_IGN); break;
      case 'q': quiet = 1; break;
      default: return 2;
      }
  if (pipe (pipe_fds) != 0)
    return 1;
  pthread_create (&t, NULL, reader_main, NULL); n++;
  pthread_create (&t, NULL, sleeper_main, NULL); n++;
  for (int i = 0; i < busy; i++, n++)
    pthread_create (&t, NULL, busy_main, NULL);
  if (loop)
    {
      pthread_create (&t, NULL, looper_main, NULL);
      n++;
    }
  while (atomic_load (&started) < n)
    usleep (1000);
  if (!quiet)
    printf ("ready\n");
  fflush (stdout);
  ts.tv_sec = (time_t) seconds;
  ts.tv_nsec = (long) ((seconds - (double) ts.tv_sec) * 1e9);
  while (nanosleep (&ts, &ts) != 0)
    ;
  atomic_store (&stop, 1);
  if (!quiet)
    printf ("waiters done\n");
  return 0;
}
