/* bench-children.c - what following children costs a program that starts many short processes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target is a shell running /bin/true FC_BENCH_RUNS times (default 300). Timed in one run,
 * alternating, FC_BENCH_REPEAT rounds (default 5): bare, under `perf record -g` (which follows
 * children by default), and under `flamecast-cli record --follow-children` in wall and cpu
 * mode; with FC_BENCH_CLI_BEFORE (another build of flamecast-cli), that one too, in the same
 * rounds, to compare a change. Printed: the median wall time and CPU time (user + system of the command, the
 * profiler and the target together) of each, and per short process what it adds to bare.
 * Figures only.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#ifndef FC_CLI
# error "FC_CLI must point to the built flamecast-cli"
#endif

#define N_COMMANDS 6

static double
children_cpu (void)
{
  struct rusage ru;

  getrusage (RUSAGE_CHILDREN, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* wall and CPU seconds of @command, FALSE when it failed */
static gboolean
timed (const char *command,
       double     *wall,
       double     *cpu)
{
  gint64 t0 = g_get_monotonic_time ();
  double c0 = children_cpu ();
  int status = system (command);

  if (status == -1 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return FALSE;
  *wall = (g_get_monotonic_time () - t0) / 1e6;
  *cpu = children_cpu () - c0;
  return TRUE;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_double);
  return g_array_index (values, double, values->len / 2);
}

int
main (int    argc,
      char **argv)
{
  guint runs = g_getenv ("FC_BENCH_RUNS") ? atoi (g_getenv ("FC_BENCH_RUNS")) : 300;
  guint repeat = g_getenv ("FC_BENCH_REPEAT") ? atoi (g_getenv ("FC_BENCH_REPEAT")) : 5;
  g_autofree char *tmp = g_dir_make_tmp ("fc-bench-children-XXXXXX", NULL);
  g_autofree char *loop = g_strdup_printf ("i=0; while [ $i -lt %u ]; do /bin/true; i=$((i+1)); done", runs);
  g_autofree char *quoted = g_shell_quote (loop);
  g_autofree char *clean = g_strdup_printf ("rm -rf %s/wall %s/cpu %s/perf.data", tmp, tmp, tmp);
  const char *before = g_getenv ("FC_BENCH_CLI_BEFORE");
  const char *names[N_COMMANDS] = { "bare", "perf record -g", "flamecast wall --follow-children",
                                    "flamecast cpu --follow-children", "before: wall --follow-children",
                                    "before: cpu --follow-children" };
  guint n_commands = before != NULL ? 6 : 4;
  char *commands[N_COMMANDS];
  GArray *walls[N_COMMANDS], *cpus[N_COMMANDS];
  double bare_wall = 0, bare_cpu = 0;
  double load[3];

  commands[0] = g_strdup_printf ("/bin/sh -c %s", quoted);
  commands[1] = g_strdup_printf ("perf record -q -g -o %s/perf.data -- /bin/sh -c %s > /dev/null 2>&1", tmp,
                                 quoted);
  commands[2] = g_strdup_printf ("'%s' record --follow-children -o %s/wall -- /bin/sh -c %s > /dev/null 2>&1",
                                 FC_CLI, tmp, quoted);
  commands[3] = g_strdup_printf ("'%s' record --follow-children --mode cpu -o %s/cpu -- /bin/sh -c %s "
                                 "> /dev/null 2>&1", FC_CLI, tmp, quoted);
  commands[4] = g_strdup_printf ("'%s' record --follow-children -o %s/wall -- /bin/sh -c %s > /dev/null 2>&1",
                                 before, tmp, quoted);
  commands[5] = g_strdup_printf ("'%s' record --follow-children --mode cpu -o %s/cpu -- /bin/sh -c %s "
                                 "> /dev/null 2>&1", before, tmp, quoted);
  for (guint k = 0; k < N_COMMANDS; k++)
    {
      walls[k] = g_array_new (FALSE, FALSE, sizeof (double));
      cpus[k] = g_array_new (FALSE, FALSE, sizeof (double));
    }

  if (getloadavg (load, 3) == 3)
    printf ("bench-children: load %.2f %.2f %.2f; %u runs of /bin/true from a shell, %u rounds\n",
            load[0], load[1], load[2], runs, repeat);
  for (guint r = 0; r < repeat; r++)
    for (guint k = 0; k < n_commands; k++)
      {
        double wall, cpu;

        if (timed (commands[k], &wall, &cpu))
          {
            g_array_append_val (walls[k], wall);
            g_array_append_val (cpus[k], cpu);
          }
        (void) !system (clean);
      }
  for (guint k = 0; k < N_COMMANDS; k++)
    {
      if (k >= n_commands)
        ;
      else if (walls[k]->len == 0)
        printf ("  %-34s failed (not installed, or refused)\n", names[k]);
      else
        {
          double wall = median (walls[k]), cpu = median (cpus[k]);

          if (k == 0)
            {
              bare_wall = wall;
              bare_cpu = cpu;
            }
          printf ("  %-34s wall %.2f s (+%.2f ms per process), cpu %.2f s (+%.2f ms per process)\n", names[k],
                  wall, 1000 * (wall - bare_wall) / runs, cpu, 1000 * (cpu - bare_cpu) / runs);
        }
      g_array_unref (walls[k]);
      g_array_unref (cpus[k]);
      g_free (commands[k]);
    }
  if (getloadavg (load, 3) == 3)
    printf ("bench-children: load at the end %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  rmdir (tmp);
  return 0;
}
