/* bench-children.c - what following children costs a program that starts many short processes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target is a shell running /bin/true FC_BENCH_RUNS times (default 300). Timed in one run,
 * alternating, FC_BENCH_REPEAT rounds (default 3): bare, under `perf record -g` (which follows
 * children by default), and under `flamecast-cli record --follow-children` in wall and cpu
 * mode. Printed: the median wall time of each, and per short process. Figures only.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#ifndef FC_CLI
# error "FC_CLI must point to the built flamecast-cli"
#endif

static double
timed (const char *command)
{
  gint64 t0 = g_get_monotonic_time ();
  int status = system (command);

  if (status == -1 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return -1;
  return (g_get_monotonic_time () - t0) / 1e6;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

int
main (int    argc,
      char **argv)
{
  guint runs = g_getenv ("FC_BENCH_RUNS") ? atoi (g_getenv ("FC_BENCH_RUNS")) : 300;
  guint repeat = g_getenv ("FC_BENCH_REPEAT") ? atoi (g_getenv ("FC_BENCH_REPEAT")) : 3;
  g_autofree char *tmp = g_dir_make_tmp ("fc-bench-children-XXXXXX", NULL);
  g_autofree char *loop = g_strdup_printf ("i=0; while [ $i -lt %u ]; do /bin/true; i=$((i+1)); done", runs);
  g_autofree char *quoted = g_shell_quote (loop);
  const char *names[] = { "bare", "perf record -g", "flamecast wall --follow-children",
                          "flamecast cpu --follow-children" };
  char *commands[4];
  GArray *times[4];
  double load[3];

  commands[0] = g_strdup_printf ("/bin/sh -c %s", quoted);
  commands[1] = g_strdup_printf ("perf record -q -g -o %s/perf.data -- /bin/sh -c %s > /dev/null 2>&1", tmp,
                                 quoted);
  commands[2] = g_strdup_printf ("'%s' record --follow-children -o %s/wall -- /bin/sh -c %s > /dev/null 2>&1",
                                 FC_CLI, tmp, quoted);
  commands[3] = g_strdup_printf ("'%s' record --follow-children --mode cpu -o %s/cpu -- /bin/sh -c %s "
                                 "> /dev/null 2>&1", FC_CLI, tmp, quoted);
  for (guint k = 0; k < 4; k++)
    times[k] = g_array_new (FALSE, FALSE, sizeof (double));

  if (getloadavg (load, 3) == 3)
    printf ("bench-children: load %.2f %.2f %.2f; %u runs of /bin/true from a shell, %u rounds\n",
            load[0], load[1], load[2], runs, repeat);
  for (guint r = 0; r < repeat; r++)
    for (guint k = 0; k < 4; k++)
      {
        double s = timed (commands[k]);
        if (s >= 0)
          g_array_append_val (times[k], s);
        g_autofree char *clean = g_strdup_printf ("rm -rf %s/wall %s/cpu %s/perf.data", tmp, tmp, tmp);
        (void) !system (clean);
      }
  for (guint k = 0; k < 4; k++)
    {
      if (times[k]->len == 0)
        {
          printf ("  %-34s failed (not installed, or refused)\n", names[k]);
          continue;
        }
      g_array_sort (times[k], compare_double);
      {
        double median = g_array_index (times[k], double, times[k]->len / 2);
        printf ("  %-34s %.2f s, %.1f ms per process\n", names[k], median, 1000 * median / runs);
      }
      g_array_unref (times[k]);
      g_free (commands[k]);
    }
  rmdir (tmp);
  return 0;
}
