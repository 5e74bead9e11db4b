/* pool.c - many light threads, a bursty one, one that starts late and one that ends early
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: pool [-n THREADS] [-b BUSY_US] [-p PERIOD_US] [-c CYCLES] [-d SECONDS] [-B] [-L MS] [-E MS]
 *             [-o FILE] [-w FIFO]
 *   -n  light threads (default 10): each burns BUSY_US (default 1000) of its own CPU time in
 *       pool_work(), then sleeps until its next period (PERIOD_US, default 50000) begins
 *   -c  each light thread stops after CYCLES periods (the same CPU time however loaded the
 *       machine is); without -c they run until the end
 *   -d  the end: SECONDS after the start (default: when every light thread is done, or on
 *       SIGTERM/SIGINT, which also ends the sleep of a light thread waiting for its next period)
 *   -B  one bursty thread: ~1 ms of wall time in pool_bursty_work(), then 19 ms asleep; it
 *       measures its own busy share (wall time in pool_bursty_work() / its lifetime)
 *   -L  one thread starts MS after the start and runs pool_late_work() in bursts to the end
 *   -E  one thread starts at once and runs pool_early_work() in bursts for MS, then exits
 *   -w  the light threads are created, then wait until a byte comes from FIFO (so a profiler
 *       can start and know them first); the others are created after
 * Prints "ready" once the light threads run (without -o). At the end (to FILE with -o, else stdout;
 * CLOCK_MONOTONIC ns):
 *   worst_wake_us W        the latest any light thread woke after its period began
 *   worst_wake_at T        when that wake-up was (so a profiler can tell attach, sampling, detach)
 *   bursty T busy_share S  (with -B)
 *   late T START END       (with -L; its own first and last instants)
 *   early T START END      (with -E)
 *   cpu_s C                the process's CPU time
 */

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop;
static atomic_int signalled;   /* SIGTERM or SIGINT ended the run */
static atomic_int started;
static atomic_int go = 1;
static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static atomic_long worst_wake_ns;
static atomic_llong worst_wake_at;
static volatile unsigned long sink;
static long busy_us = 1000;
static long period_us = 50000;
static long cycles = -1;

static int64_t
clock_ns (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ~10 us of user-mode work between the clock's system calls */
static void
spin (void)
{
  unsigned long acc = sink;
  for (int i = 0; i < 10000; i++)
    {
      acc = acc * 6364136223846793005ul + 1;
      __asm__ volatile ("" : "+r" (acc));
    }
  sink = acc;
}

/* until the calling thread has used @us more of CPU time */
__attribute__((noinline)) void
pool_work (long us)
{
  int64_t end = clock_ns (CLOCK_THREAD_CPUTIME_ID) + us * 1000;
  while (clock_ns (CLOCK_THREAD_CPUTIME_ID) < end)
    spin ();
}

/* until @us of wall time has passed */
__attribute__((noinline)) void
pool_bursty_work (long us)
{
  int64_t end = clock_ns (CLOCK_MONOTONIC) + us * 1000;
  while (clock_ns (CLOCK_MONOTONIC) < end)
    spin ();
}

__attribute__((noinline)) void
pool_late_work (void)
{
  pool_work (500);
}

__attribute__((noinline)) void
pool_early_work (void)
{
  pool_work (500);
}

/* until @t, or until the end when a signal brought it (join_thread()) */
static void
sleep_until (int64_t t)
{
  struct timespec ts = { t / 1000000000, t % 1000000000 };
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0 && !atomic_load (&signalled))
    ;
}

static void *
light_thread (void *data)
{
  int64_t next;

  atomic_fetch_add (&started, 1);
  /* asleep until told: a thousand threads polling every millisecond kept two CPUs busy */
  pthread_mutex_lock (&go_lock);
  while (!atomic_load (&go))
    pthread_cond_wait (&go_cond, &go_lock);
  pthread_mutex_unlock (&go_lock);
  next = clock_ns (CLOCK_MONOTONIC);
  for (long i = 0; (cycles < 0 || i < cycles) && !atomic_load (&stop); i++)
    {
      int64_t late;

      pool_work (busy_us);
      next += period_us * 1000;
      sleep_until (next);
      late = clock_ns (CLOCK_MONOTONIC) - next;
      for (long w = atomic_load (&worst_wake_ns); late > w;)
        if (atomic_compare_exchange_weak (&worst_wake_ns, &w, late))
          {
            /* two threads racing may pair one's delay with the other's time: close enough to tell
             * which phase of a recording it fell in */
            atomic_store (&worst_wake_at, next + late);
            break;
          }
    }
  return NULL;
}

static int bursty_tid;
static double bursty_share;

static void *
bursty_thread (void *data)
{
  int64_t start = clock_ns (CLOCK_MONOTONIC), busy = 0, next = start;

  bursty_tid = syscall (SYS_gettid);
  while (!atomic_load (&stop))
    {
      int64_t t0 = clock_ns (CLOCK_MONOTONIC);
      pool_bursty_work (1000);
      busy += clock_ns (CLOCK_MONOTONIC) - t0;
      next += 20 * 1000000;
      sleep_until (next);
    }
  bursty_share = (double) busy / (clock_ns (CLOCK_MONOTONIC) - start);
  return NULL;
}

typedef struct {
  int     tid;
  long    delay_ms;   /* late: start after; early: end after */
  int64_t start, end;
} Timed;

static void *
late_thread (void *data)
{
  Timed *t = data;

  t->start = clock_ns (CLOCK_MONOTONIC);
  t->tid = syscall (SYS_gettid);
  while (!atomic_load (&stop))
    {
      pool_late_work ();
      usleep (5000);
    }
  t->end = clock_ns (CLOCK_MONOTONIC);
  return NULL;
}

static void *
early_thread (void *data)
{
  Timed *t = data;
  int64_t end;

  t->start = clock_ns (CLOCK_MONOTONIC);
  t->tid = syscall (SYS_gettid);
  end = t->start + t->delay_ms * 1000000;
  while (!atomic_load (&stop) && clock_ns (CLOCK_MONOTONIC) < end)
    {
      pool_early_work ();
      usleep (5000);
    }
  t->end = clock_ns (CLOCK_MONOTONIC);
  return NULL;
}

static void
on_signal (int sig)
{
  atomic_store (&signalled, 1);
  atomic_store (&stop, 1);
}

static void
on_wake (int sig)
{
}

/* Joins @t. Ended by a signal, a thread asleep until its next period (a minute, for a test of
 * sleepers) is woken: SIGUSR1 ends its sleep, again until it is gone, since it may have checked
 * for the end just before the signal came. */
static void
join_thread (pthread_t t)
{
  struct timespec ts;

  for (;;)
    {
      clock_gettime (CLOCK_REALTIME, &ts);
      ts.tv_nsec += 10 * 1000000;
      if (ts.tv_nsec >= 1000000000)
        {
          ts.tv_sec++;
          ts.tv_nsec -= 1000000000;
        }
      if (pthread_timedjoin_np (t, NULL, &ts) == 0)
        return;
      if (atomic_load (&signalled))
        pthread_kill (t, SIGUSR1);
    }
}

int
main (int argc, char **argv)
{
  int n = 10, opt, bursty = 0;
  double seconds = 0;
  long late_ms = -1, early_ms = -1;
  pthread_t *threads, bt, lt, et;
  Timed late = { 0 }, early = { 0 };
  struct rusage ru;
  int64_t t0, deadline;
  FILE *out = stdout;
  const char *go_fifo = NULL;

  while ((opt = getopt (argc, argv, "n:b:p:c:d:BL:E:o:w:")) != -1)
    switch (opt)
      {
      case 'n': n = atoi (optarg); break;
      case 'b': busy_us = atol (optarg); break;
      case 'p': period_us = atol (optarg); break;
      case 'c': cycles = atol (optarg); break;
      case 'd': seconds = atof (optarg); break;
      case 'B': bursty = 1; break;
      case 'L': late_ms = atol (optarg); break;
      case 'E': early_ms = atol (optarg); break;
      case 'w': go_fifo = optarg; break;
      case 'o':
        if ((out = fopen (optarg, "w")) == NULL)
          {
            perror (optarg);
            return 2;
          }
        break;
      default:
        fprintf (stderr, "usage: pool [-n THREADS] [-b BUSY_US] [-p PERIOD_US] [-c CYCLES] [-d SECONDS] [-B] "
                 "[-L MS] [-E MS] [-o FILE] [-w FIFO]\n");
        return 2;
      }
  signal (SIGTERM, on_signal);
  signal (SIGINT, on_signal);
  signal (SIGUSR1, on_wake);

  if (go_fifo != NULL)
    atomic_store (&go, 0);
  threads = calloc (n, sizeof *threads);
  for (int i = 0; i < n; i++)
    if (pthread_create (&threads[i], NULL, light_thread, NULL) != 0)
      {
        fprintf (stderr, "pool: cannot create thread %d\n", i);
        return 1;
      }
  while (atomic_load (&started) < n)
    usleep (1000);
  if (go_fifo != NULL)
    {
      char c;
      FILE *fifo = fopen (go_fifo, "r");
      if (fifo == NULL || fread (&c, 1, 1, fifo) != 1)
        {
          perror (go_fifo);
          return 2;
        }
      fclose (fifo);
      pthread_mutex_lock (&go_lock);
      atomic_store (&go, 1);
      pthread_cond_broadcast (&go_cond);
      pthread_mutex_unlock (&go_lock);
    }
  t0 = clock_ns (CLOCK_MONOTONIC);
  if (bursty)
    pthread_create (&bt, NULL, bursty_thread, NULL);
  if (early_ms >= 0)
    {
      early.delay_ms = early_ms;
      pthread_create (&et, NULL, early_thread, &early);
    }
  if (out == stdout)
    {
      printf ("ready\n");
      fflush (stdout);
    }

  deadline = seconds > 0 ? t0 + (int64_t) (seconds * 1e9) : INT64_MAX;
  if (late_ms >= 0)
    {
      sleep_until (t0 + late_ms * 1000000);
      pthread_create (&lt, NULL, late_thread, &late);
    }
  /* the end: the deadline, a signal, or (with -c and no -d) the light threads' last cycle */
  if (seconds > 0 || cycles < 0)
    {
      while (!atomic_load (&stop) && clock_ns (CLOCK_MONOTONIC) < deadline)
        usleep (10000);
      atomic_store (&stop, 1);
    }
  for (int i = 0; i < n; i++)
    join_thread (threads[i]);
  atomic_store (&stop, 1);
  if (bursty)
    join_thread (bt);
  if (late_ms >= 0)
    pthread_join (lt, NULL);
  if (early_ms >= 0)
    pthread_join (et, NULL);

  fprintf (out, "worst_wake_us %ld\n", atomic_load (&worst_wake_ns) / 1000);
  fprintf (out, "worst_wake_at %lld\n", (long long) atomic_load (&worst_wake_at));
  if (bursty)
    fprintf (out, "bursty %d busy_share %.4f\n", bursty_tid, bursty_share);
  if (late_ms >= 0)
    fprintf (out, "late %d %lld %lld\n", late.tid, (long long) late.start, (long long) late.end);
  if (early_ms >= 0)
    fprintf (out, "early %d %lld %lld\n", early.tid, (long long) early.start, (long long) early.end);
  getrusage (RUSAGE_SELF, &ru);
  fprintf (out, "cpu_s %.3f\n", ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
  fclose (out);
  free (threads);
  return 0;
}
