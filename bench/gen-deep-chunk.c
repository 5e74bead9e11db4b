/* gen-deep-chunk.c - writes the hard 50 MB chunk: many distinct deep stacks over many threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: gen-deep-chunk [--seed N] [--names js|cpp] PATH
 *
 * bench-load's chunk grows each stack from an earlier one, so neighbouring
 * samples share most of their frames and its flamechart is a few million
 * boxes. A big C++ or JavaScript service does not look like that: this
 * chunk has 50,000 distinct stacks, each 5-60 frames drawn at random from
 * 20,000 functions (so almost no two share a prefix), and 500,000 samples
 * spread at random over 8 threads. Every sample then starts a new box at
 * nearly every depth: about 16 million flamechart boxes over all threads,
 * 1.6 million call tree nodes, ~50 MB of JSON. The same seed always gives
 * the same bytes. bench-memory uses it as its second shape. --seed draws
 * other stacks and samples of the same shape; --names cpp names the frames
 * as a C++ service's (long demangled names, a package and an address each,
 * platform "native") instead of JavaScript's.
 */

#include <stdio.h>

#include <glib.h>

#define N_SAMPLES 500000
#define N_STACKS  50000
#define N_FRAMES  20000
#define N_THREADS 8
#define MIN_DEPTH 5
#define MAX_DEPTH 60
#define DEFAULT_SEED 18
/* pthread ids, as native SDKs write them */
#define FIRST_TID G_GINT64_CONSTANT (140234567890100)

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

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GRand) rand = NULL;
  g_autoptr(GString) buf = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *names_option = NULL;
  gint64 seed = DEFAULT_SEED;
  gboolean cpp;
  static const char *names[N_THREADS] = {
    "main", "io-loop", "worker-1", "worker-2", "worker-3", "worker-4", "gc", "sentry-monitor",
  };
  const GOptionEntry entries[] = {
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the random stacks and samples (18)", "N" },
    { "names", 0, 0, G_OPTION_ARG_STRING, &names_option, "js (default) or cpp", "KIND" },
    { NULL }
  };
  gint64 ts_us = G_GINT64_CONSTANT (1710805788000000);
  FILE *out;

  context = g_option_context_new ("PATH");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 ||
      (names_option != NULL && g_strcmp0 (names_option, "js") != 0 && g_strcmp0 (names_option, "cpp") != 0))
    {
      g_printerr ("usage: %s [--seed N] [--names js|cpp] PATH%s%s\n", argv[0],
                  error ? ": " : "", error ? error->message : "");
      return 2;
    }
  cpp = g_strcmp0 (names_option, "cpp") == 0;
  out = fopen (argv[1], "w");
  if (out == NULL)
    {
      g_printerr ("%s: cannot write %s\n", argv[0], argv[1]);
      return 1;
    }

  rand = g_rand_new_with_seed ((guint32) seed);
  buf = g_string_new (NULL);
  g_string_append_printf (buf,
                          "{\"version\":\"2\",\"chunk_id\":\"9b1c0e6a54d24f0c8e3f2a7d6b5c4e31\","
                          "\"profiler_id\":\"5e0f3a2b1c4d4e6f8a9b0c1d2e3f4a5b\",\"platform\":\"%s\","
                          "\"release\":\"bench-deep@1.0\",\"environment\":\"bench\","
                          "\"client_sdk\":{\"name\":\"%s\",\"version\":\"8.0.0\"},"
                          "\"profile\":{\"frames\":[",
                          cpp ? "native" : "node", cpp ? "sentry.native" : "sentry.javascript.node");

  for (guint i = 0; i < N_FRAMES && cpp; i++)
    {
      g_string_append_printf (buf,
                              "%s{\"function\":\"app::svc%u::Service%u<int>::handle%u(std::string const&)\","
                              "\"package\":\"/opt/app/libsvc%u.so\",\"abs_path\":\"/src/svc%u/part%u.cpp\","
                              "\"lineno\":%u,\"instruction_addr\":\"0x%x\",\"in_app\":%s}",
                              i ? "," : "", i / 100, i / 8, i % 8, i / 100, i / 100, i / 10,
                              1 + g_rand_int_range (rand, 0, 2000), 0x400000 + i * 0x40, i % 4 ? "true" : "false");
      flush_if_big (buf, out);
    }
  for (guint i = 0; i < N_FRAMES && !cpp; i++)
    {
      g_string_append_printf (buf,
                              "%s{\"function\":\"Service%u.handle%u\",\"module\":\"svc%u\","
                              "\"abs_path\":\"/srv/app/svc%u/part%u.js\",\"lineno\":%u,\"in_app\":%s}",
                              i ? "," : "", i / 8, i % 8, i / 100, i / 100, i / 10,
                              1 + g_rand_int_range (rand, 0, 2000), i % 4 ? "true" : "false");
      flush_if_big (buf, out);
    }

  /* written leaf first, as the format has it */
  g_string_append (buf, "],\"stacks\":[");
  for (guint i = 0; i < N_STACKS; i++)
    {
      guint depth = g_rand_int_range (rand, MIN_DEPTH, MAX_DEPTH + 1);

      g_string_append (buf, i ? ",[" : "[");
      for (guint k = 0; k < depth; k++)
        g_string_append_printf (buf, k ? ",%d" : "%d", g_rand_int_range (rand, 0, N_FRAMES));
      g_string_append_c (buf, ']');
      flush_if_big (buf, out);
    }

  /* 8 threads share the clock: about 1 ms between a thread's samples */
  g_string_append (buf, "],\"samples\":[");
  for (guint i = 0; i < N_SAMPLES; i++)
    {
      ts_us += g_rand_int_range (rand, 80, 170);
      g_string_append_printf (buf, "%s{\"stack_id\":%d,\"thread_id\":\"%" G_GINT64_FORMAT "\",\"timestamp\":%" G_GINT64_FORMAT ".%06u}",
                              i ? "," : "",
                              g_rand_int_range (rand, 0, N_STACKS),
                              FIRST_TID + g_rand_int_range (rand, 0, N_THREADS),
                              ts_us / 1000000, (guint) (ts_us % 1000000));
      flush_if_big (buf, out);
    }

  g_string_append (buf, "],\"thread_metadata\":{");
  for (guint t = 0; t < N_THREADS; t++)
    g_string_append_printf (buf, "%s\"%" G_GINT64_FORMAT "\":{\"name\":\"%s\"}", t ? "," : "", FIRST_TID + t, names[t]);
  g_string_append (buf, "}}}\n");

  fwrite (buf->str, 1, buf->len, out);
  if (fclose (out) != 0)
    {
      g_printerr ("%s: cannot write %s\n", argv[0], argv[1]);
      return 1;
    }
  return 0;
}
