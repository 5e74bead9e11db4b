/* bench-load.c - load time and peak memory of the reader on a 50 MB V2 chunk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: bench-load [FILE]
 *        bench-load --generate PATH   (only write the chunk, for bench-convert)
 *
 * Without FILE, generates a V2 chunk the size of Relay's limit (500k samples,
 * 50k stacks, 20k frames, 4 threads, ~50 MB) in a temporary file. Each load
 * runs in a fresh process (this binary re-executed with --child) so that its
 * peak RSS is the reader's alone. Prints figures; never fails on them.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "flamecast.h"
#include "fc-reader.h"

#define N_SAMPLES 500000
#define N_STACKS  50000
#define N_FRAMES  20000
#define N_THREADS 4
#define MAX_DEPTH 48
#define N_RUNS    3

static void
flush_if_big (GString *buf,
              FILE    *out)
{
  if (buf->len > (1 << 20))
    {
      fwrite (buf->str, 1, buf->len, out);
      g_string_truncate (buf, 0);
    }
}

static void
generate (const char *path)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(GString) buf = g_string_new (NULL);
  g_autoptr(GPtrArray) stacks = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  static const char *tids[N_THREADS] = { "140234567890123", "140234567890456", "140234567890789", "140234567891012" };
  static const char *names[N_THREADS] = { "MainThread", "worker-1", "worker-2", "sentry.monitor" };
  gint64 ts_us = G_GINT64_CONSTANT (1710805788000000);
  FILE *out = fopen (path, "w");

  g_assert (out != NULL);

  g_string_append (buf,
                   "{\"version\":\"2\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\","
                   "\"profiler_id\":\"4d229f1d3807421ba62a5f8bc295d836\",\"platform\":\"python\","
                   "\"release\":\"bench@1.0\",\"environment\":\"bench\","
                   "\"client_sdk\":{\"name\":\"sentry.python\",\"version\":\"2.13.0\"},"
                   "\"profile\":{\"frames\":[");

  for (guint i = 0; i < N_FRAMES; i++)
    {
      g_string_append_printf (buf,
                              "%s{\"function\":\"handler_%u.process_item\",\"module\":\"app.module_%u\","
                              "\"filename\":\"app/module_%u.py\",\"abs_path\":\"/srv/app/app/module_%u.py\","
                              "\"lineno\":%u,\"in_app\":%s}",
                              i ? "," : "", i, i / 10, i / 10, i / 10, 10 + g_rand_int_range (rand, 0, 900),
                              i % 3 ? "true" : "false");
      flush_if_big (buf, out);
    }

  /* Stacks grow from earlier ones, as real call trees do; written leaf first. */
  g_string_append (buf, "],\"stacks\":[");
  for (guint i = 0; i < N_STACKS; i++)
    {
      GArray *stack = g_array_new (FALSE, FALSE, sizeof (guint32));

      if (i > 0 && g_rand_int_range (rand, 0, 20) != 0)
        {
          GArray *parent = g_ptr_array_index (stacks, g_rand_int_range (rand, MAX (0, (int)i - 2000), i));
          guint keep = parent->len > MAX_DEPTH - 3 ? MAX_DEPTH / 2 : parent->len;

          g_array_append_vals (stack, parent->data, keep);
        }
      for (guint k = g_rand_int_range (rand, 1, 4); k > 0; k--)
        {
          guint32 frame = g_rand_int_range (rand, 0, N_FRAMES);
          g_array_append_val (stack, frame);
        }
      g_ptr_array_add (stacks, stack);

      g_string_append (buf, i ? ",[" : "[");
      for (guint k = stack->len; k > 0; k--)
        g_string_append_printf (buf, k < stack->len ? ",%u" : "%u", g_array_index (stack, guint32, k - 1));
      g_string_append_c (buf, ']');
      flush_if_big (buf, out);
    }

  g_string_append (buf, "],\"samples\":[");
  for (guint i = 0; i < N_SAMPLES; i++)
    {
      ts_us += g_rand_int_range (rand, 50, 190);
      g_string_append_printf (buf, "%s{\"stack_id\":%u,\"thread_id\":\"%s\",\"timestamp\":%" G_GINT64_FORMAT ".%06u}",
                              i ? "," : "",
                              (guint)g_rand_int_range (rand, 0, N_STACKS),
                              tids[g_rand_int_range (rand, 0, N_THREADS)],
                              ts_us / 1000000, (guint)(ts_us % 1000000));
      flush_if_big (buf, out);
    }

  g_string_append (buf, "],\"thread_metadata\":{");
  for (guint t = 0; t < N_THREADS; t++)
    g_string_append_printf (buf, "%s\"%s\":{\"name\":\"%s\"}", t ? "," : "", tids[t], names[t]);
  g_string_append (buf, "}}}\n");

  fwrite (buf->str, 1, buf->len, out);
  fclose (out);
}

static int
run_child (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = NULL;
  g_autoptr(FcProfile) view = NULL;
  FcProfile *profile;
  struct rusage before, after;
  gint64 begin;
  gint64 elapsed;
  gint64 cpu;
  gint64 copy_cpu;
  long peak_kb;

  getrusage (RUSAGE_SELF, &before);
  begin = g_get_monotonic_time ();
  doc = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
  elapsed = g_get_monotonic_time () - begin;
  getrusage (RUSAGE_SELF, &after);
  /* CPU time too: on a busy machine it varies far less than wall time */
  cpu = (after.ru_utime.tv_sec - before.ru_utime.tv_sec + after.ru_stime.tv_sec - before.ru_stime.tv_sec) * G_USEC_PER_SEC +
        (after.ru_utime.tv_usec - before.ru_utime.tv_usec + after.ru_stime.tv_usec - before.ru_stime.tv_usec);

  if (doc == NULL)
    {
      g_printerr ("bench-load: %s\n", error->message);
      return 1;
    }

  profile = fc_document_get_profile (doc, 0);
  /* the reader's peak, before the view copy adds its own */
  peak_kb = after.ru_maxrss;

  /* then what the app's loading worker does next: the copy by function the
   * views read (fc_profile_dup_for_view()) */
  getrusage (RUSAGE_SELF, &before);
  view = fc_profile_dup_for_view (profile, NULL);
  getrusage (RUSAGE_SELF, &after);
  copy_cpu = (after.ru_utime.tv_sec - before.ru_utime.tv_sec + after.ru_stime.tv_sec - before.ru_stime.tv_sec) * G_USEC_PER_SEC +
             (after.ru_utime.tv_usec - before.ru_utime.tv_usec + after.ru_stime.tv_usec - before.ru_stime.tv_usec);

  /* One line for the parent: wall and CPU microseconds, samples, stack nodes, frames, threads,
   * the view copy's CPU microseconds, the reader's peak RSS in KiB. */
  printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u %u %u %u %" G_GINT64_FORMAT " %ld\n", elapsed, cpu,
          fc_profile_get_n_samples (profile), fc_profile_get_n_stacks (profile),
          fc_profile_get_n_frames (profile), fc_profile_get_n_threads (profile), copy_cpu, peak_kb);
  return 0;
}

static int
compare_int64 (const void *a,
               const void *b)
{
  gint64 x = *(const gint64 *)a;
  gint64 y = *(const gint64 *)b;

  return (x > y) - (x < y);
}

static gboolean
gzip_file (const char *src,
           const char *dst)
{
  g_autoptr(GFile) in_file = g_file_new_for_path (src);
  g_autoptr(GFile) out_file = g_file_new_for_path (dst);
  g_autoptr(GFileInputStream) in = g_file_read (in_file, NULL, NULL);
  g_autoptr(GFileOutputStream) out = g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL);
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
  g_autoptr(GOutputStream) gz = NULL;

  if (in == NULL || out == NULL)
    return FALSE;
  gz = g_converter_output_stream_new (G_OUTPUT_STREAM (out), G_CONVERTER (compressor));
  return g_output_stream_splice (gz, G_INPUT_STREAM (in),
                                 G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                                 NULL, NULL) >= 0;
}

/* Loads @path N_RUNS times, each in a fresh process, and prints the figures. */
static gboolean
measure (const char *argv0,
         const char *path,
         const char *label,
         gsize       payload_size)
{
  gint64 times[N_RUNS];
  gint64 cpu_times[N_RUNS];
  gint64 copy_times[N_RUNS];
  long max_rss_kb = 0;
  char line[256] = "";
  guint n_samples = 0, n_stacks = 0, n_frames = 0, n_threads = 0;
  double size_mb = payload_size / 1e6;
  double rss_mb;
  GStatBuf st;

  g_assert (g_stat (path, &st) == 0);

  for (guint run = 0; run < N_RUNS; run++)
    {
      int fds[2];
      pid_t pid;
      int status = 0;
      struct rusage usage;
      FILE *in;

      g_assert (pipe (fds) == 0);
      pid = fork ();
      g_assert (pid >= 0);
      if (pid == 0)
        {
          dup2 (fds[1], STDOUT_FILENO);
          close (fds[0]);
          close (fds[1]);
          execl ("/proc/self/exe", argv0, "--child", path, (char *)NULL);
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
          g_printerr ("bench-load: loading %s failed\n", path);
          return FALSE;
        }

      {
        gint64 copy_us = 0;
        long peak_kb = 0;

        sscanf (line, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %*u %*u %*u %*u %" G_GINT64_FORMAT " %ld",
                &times[run], &cpu_times[run], &copy_us, &peak_kb);
        copy_times[run] = copy_us;
        max_rss_kb = MAX (max_rss_kb, peak_kb);
      }
    }

  qsort (times, N_RUNS, sizeof times[0], compare_int64);
  qsort (cpu_times, N_RUNS, sizeof cpu_times[0], compare_int64);
  qsort (copy_times, N_RUNS, sizeof copy_times[0], compare_int64);
  rss_mb = max_rss_kb * 1024 / 1e6;
  sscanf (line, "%*d %*d %u %u %u %u", &n_samples, &n_stacks, &n_frames, &n_threads);

  printf ("%s: %s\n", label, path);
  printf ("  file            %.1f MB on disk, %.1f MB of JSON (%u samples, %u stack nodes, %u frames, %u threads)\n",
          st.st_size / 1e6, size_mb, n_samples, n_stacks, n_frames, n_threads);
  printf ("  load time       %.3f s (median of %d fresh processes; min %.3f, max %.3f)   target <= 0.5 s\n",
          times[N_RUNS / 2] / 1e6, N_RUNS, times[0] / 1e6, times[N_RUNS - 1] / 1e6);
  printf ("  CPU time        %.3f s (median; user + system of the loading process)\n", cpu_times[N_RUNS / 2] / 1e6);
  printf ("  view copy       %.3f s of CPU (median; the app's copy by function after reading, "
          "fc_profile_dup_for_view())\n", copy_times[N_RUNS / 2] / 1e6);
  printf ("  peak RSS        %.1f MB = %.2fx the JSON   target <= 1.5x\n", rss_mb, rss_mb / size_mb);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *tmp_path = NULL;
  g_autofree char *gz_path = NULL;
  const char *path;
  gboolean ok;
  GStatBuf st;

  if (argc == 3 && g_str_equal (argv[1], "--child"))
    return run_child (argv[2]);
  if (argc == 3 && g_str_equal (argv[1], "--generate"))
    {
      generate (argv[2]);
      return 0;
    }

  if (argc > 1)
    path = argv[1];
  else
    {
      int fd = g_file_open_tmp ("flamecast-bench-XXXXXX.json", &tmp_path, NULL);

      g_assert (fd >= 0);
      close (fd);
      path = tmp_path;
      generate (path);
    }

  g_assert (g_stat (path, &st) == 0);
  ok = measure (argv[0], path, "V2 chunk", st.st_size);

  /* The same chunk gzip-compressed, as SDKs send it: decompressed as a stream. */
  if (ok && tmp_path != NULL)
    {
      gz_path = g_strconcat (tmp_path, ".gz", NULL);
      if (gzip_file (path, gz_path))
        ok = measure (argv[0], gz_path, "V2 chunk, gzip", st.st_size);
      g_unlink (gz_path);
    }

  if (tmp_path != NULL)
    g_unlink (tmp_path);

  return ok ? 0 : 1;
}
