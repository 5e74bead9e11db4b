/* bench-convert.c - the 50 MB chunk to OTLP, OTLP/JSON, pprof, speedscope and folded stacks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: bench-convert [FILE]
 *
 * Without FILE, bench-load --generate writes the chunk of bench-load (500k
 * samples, 50k stacks, 20k frames, 4 threads, ~50 MB) to a temporary file.
 * Each conversion runs in a fresh process (this binary re-executed with
 * --child FORMAT FILE): it loads the file, then writes the format in memory.
 * Printed per format: the median time of the conversion alone (wall, and
 * the CPU time the process spent in it: the figure that holds on a loaded
 * machine) and of load + conversion over N_RUNS runs, the output size, and
 * the peak RSS of the process ("load only" is the baseline). Prints
 * figures; never fails on them.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "flamecast.h"

#define N_RUNS 3

static const char * const formats[] = { "load-only", "otlp", "otlp-json", "pprof", "speedscope", "collapsed" };

static GBytes *
convert (FcDocument  *doc,
         const char  *format,
         GError     **error)
{
  if (g_str_equal (format, "otlp"))
    return fc_otlp_write (doc, error);
  if (g_str_equal (format, "otlp-json"))
    return fc_otlp_write_json (doc, error);
  if (g_str_equal (format, "pprof"))
    return fc_pprof_write (doc, error);
  if (g_str_equal (format, "speedscope"))
    return fc_speedscope_write (doc, error);
  if (g_str_equal (format, "collapsed"))
    return fc_folded_write (doc, FALSE, error);
  return g_bytes_new (NULL, 0);
}

/* CPU time of the whole process (a writer may use threads), in µs */
static gint64
cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static int
run_child (const char *format,
           const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = NULL;
  g_autoptr(GBytes) out = NULL;
  gint64 begin = g_get_monotonic_time ();
  gint64 loaded, done, cpu_loaded, cpu_done;

  doc = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
  loaded = g_get_monotonic_time ();
  cpu_loaded = cpu_us ();
  if (doc != NULL)
    out = convert (doc, format, &error);
  done = g_get_monotonic_time ();
  cpu_done = cpu_us ();
  if (out == NULL)
    {
      g_printerr ("bench-convert: %s: %s\n", format, error->message);
      return 1;
    }
  /* one line for the parent: convert µs, load + convert µs, output bytes, convert CPU µs */
  printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GSIZE_FORMAT " %" G_GINT64_FORMAT "\n",
          done - loaded, done - begin, g_bytes_get_size (out), cpu_done - cpu_loaded);
  return 0;
}

static int
compare_int64 (const void *a,
               const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static gboolean
measure (const char *argv0,
         const char *format,
         const char *path)
{
  gint64 convert_us[N_RUNS], total_us[N_RUNS], convert_cpu_us[N_RUNS];
  long max_rss_kb = 0;
  gsize size = 0;

  for (guint run = 0; run < N_RUNS; run++)
    {
      char line[256] = "";
      int fds[2];
      int status = 0;
      struct rusage usage;
      pid_t pid;
      FILE *in;
      char *end = NULL;

      g_assert (pipe (fds) == 0);
      pid = fork ();
      g_assert (pid >= 0);
      if (pid == 0)
        {
          dup2 (fds[1], STDOUT_FILENO);
          close (fds[0]);
          close (fds[1]);
          execl ("/proc/self/exe", argv0, "--child", format, path, (char *) NULL);
          _exit (127);
        }
      close (fds[1]);
      in = fdopen (fds[0], "r");
      if (fgets (line, sizeof line, in) == NULL)
        line[0] = '\0';
      fclose (in);
      g_assert (wait4 (pid, &status, 0, &usage) == pid);
      if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        {
          g_printerr ("bench-convert: %s failed\n", format);
          return FALSE;
        }
      convert_us[run] = g_ascii_strtoll (line, &end, 10);
      total_us[run] = g_ascii_strtoll (end, &end, 10);
      size = g_ascii_strtoull (end, &end, 10);
      convert_cpu_us[run] = g_ascii_strtoll (end, NULL, 10);
      max_rss_kb = MAX (max_rss_kb, usage.ru_maxrss);
    }
  qsort (convert_us, N_RUNS, sizeof (gint64), compare_int64);
  qsort (total_us, N_RUNS, sizeof (gint64), compare_int64);
  qsort (convert_cpu_us, N_RUNS, sizeof (gint64), compare_int64);
  printf ("%-11s convert %6.3f s (CPU %6.3f s)   load+convert %6.3f s   output %7.1f MB   peak RSS %6.1f MB\n",
          format, convert_us[N_RUNS / 2] / 1e6, convert_cpu_us[N_RUNS / 2] / 1e6, total_us[N_RUNS / 2] / 1e6,
          size / 1e6, max_rss_kb / 1024.0);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *tmp_path = NULL;
  const char *path;
  gboolean ok = TRUE;
  GStatBuf st;

  if (argc == 4 && g_str_equal (argv[1], "--child"))
    return run_child (argv[2], argv[3]);

  if (argc > 1)
    path = argv[1];
  else
    {
      g_autofree char *cmd = NULL;
      int fd = g_file_open_tmp ("flamecast-bench-XXXXXX.json", &tmp_path, NULL);
      int status = 0;

      g_assert (fd >= 0);
      close (fd);
      cmd = g_strdup_printf ("'%s' --generate '%s'", FC_BENCH_LOAD, tmp_path);
      if (!g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL) || !g_spawn_check_wait_status (status, NULL))
        {
          g_printerr ("bench-convert: %s failed\n", cmd);
          return 1;
        }
      path = tmp_path;
    }
  g_assert (g_stat (path, &st) == 0);
  printf ("bench-convert: %s, %.1f MB; median of %d runs, each in a fresh process\n", path, st.st_size / 1e6, N_RUNS);

  for (guint i = 0; i < G_N_ELEMENTS (formats) && ok; i++)
    ok = measure (argv[0], formats[i], path);

  if (tmp_path != NULL)
    g_unlink (tmp_path);
  return ok ? 0 : 1;
}
