/* bench-hostile.c - time and peak memory of the CLI on files made to hurt a reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: bench-hostile [SHAPE-NAME...]
 *
 * Writes each shape of tests/fc-hostile-shapes.c (deep nesting, compression
 * bombs, amplification, long tokens) to a temporary folder, runs
 * `flamecast-cli inspect` on it as a child process and prints its exit
 * status, wall time and peak RSS (getrusage of the child), with the first
 * line it printed. Target (issue 22): under 500 MB and 10 s for any file
 * under 1 MB compressed. Then a long JSON number of 5, 10, 20 and 40 MB, to
 * show the time is linear in a token's length (it was quadratic: 1.2, 3.1,
 * 14.5, 57.8 s). Prints figures; never fails on them.
 */

#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-hostile-shapes.h"

typedef struct {
  int     status;
  double  seconds;
  double  peak_mb;
  char   *first_line;
} Run;

static void
run_cli (const char *path,
         Run        *run)
{
  g_autofree char *out_path = g_strconcat (path, ".out", NULL);
  g_autofree char *out = NULL;
  struct rusage usage;
  gint64 start = g_get_monotonic_time ();
  pid_t pid;
  int status = 0;

  fflush (stdout);
  pid = fork ();
  g_assert (pid >= 0);
  if (pid == 0)
    {
      FILE *f = freopen (out_path, "w", stdout);

      if (f == NULL || dup2 (fileno (stdout), 2) < 0)
        _exit (127);
      execl (FC_CLI, FC_CLI, "inspect", path, (char *) NULL);
      _exit (127);
    }
  while (wait4 (pid, &status, 0, &usage) < 0)
    ;
  run->seconds = (g_get_monotonic_time () - start) / 1e6;
  run->peak_mb = usage.ru_maxrss / 1024.0;
  run->status = status;
  if (g_file_get_contents (out_path, &out, NULL, NULL))
    {
      char *nl = strchr (out, '\n');

      if (nl != NULL)
        *nl = '\0';
      run->first_line = g_strndup (out, 150);
    }
  else
    run->first_line = g_strdup ("");
  g_unlink (out_path);
}

static char *
describe_status (int status)
{
  if (WIFSIGNALED (status))
    return g_strdup_printf ("SIGNAL %d", WTERMSIG (status));
  return g_strdup_printf ("exit %d", WEXITSTATUS (status));
}

static gboolean
wanted (const char *name,
        int         argc,
        char      **argv)
{
  if (argc < 2)
    return TRUE;
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], name))
      return TRUE;
  return FALSE;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = g_dir_make_tmp ("fc-bench-hostile-XXXXXX", NULL);
  guint n_shapes = 0;
  const FcHostileShape *shapes = fc_hostile_shapes (&n_shapes);
  static const guint64 number_mb[] = { 5, 10, 20, 40 };

  g_assert (dir != NULL);
  printf ("flamecast-cli inspect on each shape: exit, wall time, peak RSS (target: < 10 s and < 500 MB "
          "for files under 1 MB compressed)\n");
  printf ("%-40s %10s %9s %8s %9s  %s\n", "shape", "file KB", "status", "time s", "peak MB", "first line printed");

  for (guint i = 0; i < n_shapes; i++)
    {
      const FcHostileShape *shape = &shapes[i];
      g_autofree char *path = NULL;
      g_autofree char *status = NULL;
      GStatBuf st;
      Run run = { 0 };

      if (!wanted (shape->name, argc, argv))
        continue;
      path = fc_hostile_shape_write (shape, dir, shape->size, 9);
      g_assert (g_stat (path, &st) == 0);
      run_cli (path, &run);
      status = describe_status (run.status);
      printf ("%-40s %10.0f %9s %8.2f %9.0f  %s\n", shape->name, st.st_size / 1024.0, status, run.seconds,
              run.peak_mb, run.first_line);
      printf ("  (%s)\n", shape->what);
      fflush (stdout);
      g_free (run.first_line);
      g_unlink (path);
    }

  if (wanted ("long-number", argc, argv))
    {
      printf ("\nA long JSON number in a V2 chunk (linear: time per MB about constant)\n");
      printf ("%8s %8s %9s %10s\n", "MB", "time s", "peak MB", "s per MB");
      for (guint i = 0; i < G_N_ELEMENTS (number_mb); i++)
        {
          g_autofree char *path = g_build_filename (dir, "number.json", NULL);
          g_autoptr(GFile) file = g_file_new_for_path (path);
          g_autoptr(GOutputStream) out = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE,
                                                                          NULL, NULL));
          Run run = { 0 };

          g_assert (out != NULL);
          fc_hostile_write_long_number (out, number_mb[i] * 1000 * 1000);
          g_assert (g_output_stream_close (out, NULL, NULL));
          run_cli (path, &run);
          printf ("%8" G_GUINT64_FORMAT " %8.2f %9.0f %10.3f\n", number_mb[i], run.seconds, run.peak_mb,
                  run.seconds / number_mb[i]);
          fflush (stdout);
          g_free (run.first_line);
          g_unlink (path);
        }
    }

  g_rmdir (dir);
  return 0;
}
