/* soak.c - a target that does everything a profiler must survive
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: soak N_THREADS. Keeps N_THREADS workers busy, and one more thread
 * creating and joining short-lived threads, fork()ing and exec()ing
 * /bin/true, all the while taking SIGUSR1 and job-control stops from outside.
 * Runs until SIGTERM, then prints "soak ok threads=T signals=S execs=E" and
 * exits 0: a profiler that left it stopped, traced or broken shows here.
 */

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop;
static atomic_ulong n_threads, n_signals, n_execs;
static volatile unsigned long sink;

__attribute__((noinline)) void *
soak_work (void *data)
{
  unsigned long acc = sink;
  int forever = data != NULL;

  do
    for (int i = 0; i < 100000; i++)
      {
        acc = acc * 6364136223846793005ul + 1;
        __asm__ volatile ("" : "+r" (acc));
      }
  while (forever && !atomic_load (&stop));
  sink = acc;
  return NULL;
}

__attribute__((noinline)) void *
soak_churn (void *data)
{
  while (!atomic_load (&stop))
    {
      pthread_t t;
      pid_t pid;

      if (pthread_create (&t, NULL, soak_work, NULL) == 0)
        {
          pthread_join (t, NULL);
          atomic_fetch_add (&n_threads, 1);
        }
      if (atomic_load (&n_threads) % 20 == 0)
        {
          pid = fork ();
          if (pid == 0)
            {
              execl ("/bin/true", "true", (char *) NULL);
              _exit (127);
            }
          if (pid > 0 && waitpid (pid, NULL, 0) == pid)
            atomic_fetch_add (&n_execs, 1);
        }
    }
  return NULL;
}

static void
on_usr1 (int sig)
{
  atomic_fetch_add (&n_signals, 1);
}

static void
on_term (int sig)
{
  atomic_store (&stop, 1);
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 4;
  pthread_t *workers = calloc (n, sizeof *workers);
  pthread_t churn;
  struct sigaction sa = { 0 };
  sigset_t term, waiting;

  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_RESTART;
  sigaction (SIGUSR1, &sa, NULL);
  sa.sa_handler = on_term;
  sigaction (SIGTERM, &sa, NULL);

  /* SIGTERM blocked here and so in every thread made below: only main's
   * sigsuspend() takes it. Handled on a worker, it would leave main in
   * pause() for good (the threads end, nothing wakes main). */
  sigemptyset (&term);
  sigaddset (&term, SIGTERM);
  pthread_sigmask (SIG_BLOCK, &term, &waiting);
  sigdelset (&waiting, SIGTERM);

  for (int i = 0; i < n; i++)
    pthread_create (&workers[i], NULL, soak_work, (void *) 1);
  pthread_create (&churn, NULL, soak_churn, NULL);
  printf ("ready\n");
  fflush (stdout);

  while (!atomic_load (&stop))
    sigsuspend (&waiting);

  pthread_join (churn, NULL);
  for (int i = 0; i < n; i++)
    pthread_join (workers[i], NULL);
  printf ("soak ok threads=%lu signals=%lu execs=%lu\n",
          atomic_load (&n_threads), atomic_load (&n_signals), atomic_load (&n_execs));
  free (workers);
  return 0;
}
