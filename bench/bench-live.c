/* bench-live.c - a live recording's cost: main-loop stalls per update, memory for an hour
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: bench-live [SECONDS [PREFILL_SECONDS]]   (under xvfb-run; default 30 s
 *        of feed after 120 s already recorded)
 *        bench-live --hour                        (part 2 only)
 *        bench-live --window [SECONDS [PREFILL]]   (part 1 only)
 *
 * A synthetic feed stands in for the recorder: 20 threads at 101 Hz, each a
 * random walk over a call tree 24 deep, appended to a live profile in 200 ms
 * batches, as FcRecording does. Part 1 shows it in the real window
 * (flamechart, minimap, thread selector following the live edge), after
 * PREFILL seconds already recorded (a recording is seldom seconds old), and
 * prints per live update the main-loop stall (the longest single main-loop
 * iteration between one update and the next, wall time), the stall in the
 * main thread's CPU time (the costliest single iteration: what a quiet
 * machine's stall comes to however loaded this one is) and the main
 * thread's CPU time for the whole update. As in the window, the views show
 * the recording by function,
 * a copy a worker brings up to date (FcProfileFollower) before each update.
 * Part 2 appends an hour's worth (7.3M samples) without a window and prints
 * the RSS at the end and its peak, for the recording alone and with the
 * window's live copy.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fc-renderer.h"
#include "fc-window-private.h"

#define N_THREADS 20
#define HZ        101
#define DEPTH     24
#define N_FUNCS   400
#define BATCH_MS  200

typedef struct {
  FcProfile *profile;
  guint32    frames[N_FUNCS];
  guint32    threads[N_THREADS];
  guint32    walk[N_THREADS][DEPTH];
  guint      depth[N_THREADS];
  gint64     now_ns;
  GRand     *rand;
} Feed;

static void
feed_init (Feed      *feed,
           FcProfile *profile)
{
  memset (feed, 0, sizeof *feed);
  feed->profile = profile;
  feed->rand = g_rand_new_with_seed (42);
  feed->now_ns = g_get_real_time () * 1000;
  for (guint i = 0; i < N_FUNCS; i++)
    {
      g_autofree char *name = g_strdup_printf ("function_%u", i);
      FcFrame frame;

      fc_frame_init (&frame);
      frame.function = fc_profile_intern (profile, name);
      frame.module = fc_profile_intern (profile, i % 3 ? "/usr/bin/app" : "/usr/lib/libc.so.6");
      feed->frames[i] = fc_profile_intern_frame (profile, &frame);
    }
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", 1000 + t);
      g_autofree char *name = g_strdup_printf ("worker-%u", t);

      feed->threads[t] = fc_profile_ensure_thread (profile, tid);
      fc_profile_set_thread_name (profile, feed->threads[t], name);
      feed->depth[t] = 4;
      for (guint d = 0; d < DEPTH; d++)
        feed->walk[t][d] = feed->frames[(t * 7 + d * 13) % N_FUNCS];
    }
}

/* One tick: every thread takes a sample; stacks wander a little. */
static void
feed_tick (Feed *feed)
{
  for (guint t = 0; t < N_THREADS; t++)
    {
      guint32 leaf_first[DEPTH];
      guint n;

      if (g_rand_int_range (feed->rand, 0, 4) == 0)
        {
          gint step = g_rand_int_range (feed->rand, -2, 3);
          feed->depth[t] = CLAMP ((gint) feed->depth[t] + step, 3, DEPTH);
          feed->walk[t][feed->depth[t] - 1] = feed->frames[g_rand_int_range (feed->rand, 0, N_FUNCS)];
        }
      n = feed->depth[t];
      for (guint d = 0; d < n; d++)
        leaf_first[d] = feed->walk[t][n - 1 - d];
      fc_profile_append_sample (feed->profile, feed->now_ns + t * 1000, feed->threads[t],
                                fc_profile_intern_stack_frames (feed->profile, leaf_first, n), FC_STRING_NONE);
    }
  feed->now_ns += 1000000000 / HZ;
}

static void
feed_batch (Feed *feed)
{
  for (guint i = 0; i < HZ * BATCH_MS / 1000; i++)
    feed_tick (feed);
  fc_profile_publish (feed->profile);
}

static int
compare_double (const void *a,
                const void *b)
{
  double da = *(const double *) a, db = *(const double *) b;
  return (da > db) - (da < db);
}

/* "VmRSS:" now, "VmHWM:" its peak */
static double
status_mb (const char *key)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, key)) == NULL)
    return 0;
  return atof (line + strlen (key)) / 1024.0;
}

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
print_percentiles (const char *what,
                   GArray     *values)
{
  qsort (values->data, values->len, sizeof (double), compare_double);
  printf ("  %s: p50 %.1f ms, p95 %.1f ms, max %.1f ms\n", what,
          g_array_index (values, double, values->len / 2),
          g_array_index (values, double, values->len * 95 / 100),
          g_array_index (values, double, values->len - 1));
}

static void
layout_cb (FcLiveEdge *edge,
           GParamSpec *pspec,
           FcFlameView *view)
{
  fc_live_edge_layout_ready (edge, fc_flame_view_get_layout (view));
}

static void
bench_window (double seconds,
              double prefill)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfileFollower) follower = NULL;
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(GArray) stalls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) stalls_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  FcWindow *window = fc_window_new (NULL);
  FcSession *session = fc_window_get_session (window);
  g_autoptr(FcLiveEdge) edge = NULL;
  guint n_updates = (guint) (seconds * 1000 / BATCH_MS);
  guint n_scenes = 0;
  Feed feed;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  gtk_window_present (GTK_WINDOW (window));
  feed_init (&feed, profile);
  fc_profile_publish (profile);
  feed_batch (&feed);
  for (guint b = 0; b < prefill * 1000 / BATCH_MS; b++)
    feed_batch (&feed);
  /* the window shows the recording by function, a copy its worker keeps up to date */
  follower = fc_profile_follower_new (profile);
  fc_profile_follower_update (follower);
  fc_session_set_document_full (session, document, fc_profile_follower_get_profile (follower), NULL);
  gtk_stack_set_visible_child_name (window->main_stack, "profile");
  /* what a live recording follows the edge with, the flamechart's layouts as the window hands them */
  edge = fc_live_edge_new (session);
  fc_live_edge_set_live (edge, fc_profile_follower_get_profile (follower));
  g_signal_connect_swapped (window->flame_chart, "notify::layout", G_CALLBACK (layout_cb), edge);

  for (guint u = 0; u < n_updates; u++)
    {
      if (u == 1)
        n_scenes = fc_flame_view_get_n_scenes (FC_FLAME_VIEW (window->flame_chart));
      gint64 next = g_get_monotonic_time () + BATCH_MS * 1000;
      double worst = 0;
      double worst_cpu;
      gint64 t0;
      double cpu0;

      /* the feed is the recorder's thread's work, the copy a worker's, not the main loop's */
      feed_batch (&feed);
      fc_profile_follower_update (follower);
      t0 = g_get_monotonic_time ();
      cpu0 = thread_cpu_ms ();

      /* the update itself, as the window's live tick makes it */
      fc_live_edge_grew (edge);
      worst = (g_get_monotonic_time () - t0) / 1000.0;
      worst_cpu = thread_cpu_ms () - cpu0;

      /* then whatever it caused on the main loop until the next one */
      while (g_get_monotonic_time () < next)
        {
          gint64 start = g_get_monotonic_time ();
          double start_cpu = thread_cpu_ms ();

          if (!g_main_context_iteration (NULL, FALSE))
            g_usleep (1000);
          else
            {
              worst = MAX (worst, (g_get_monotonic_time () - start) / 1000.0);
              worst_cpu = MAX (worst_cpu, thread_cpu_ms () - start_cpu);
            }
        }
      g_array_append_val (stalls, worst);
      g_array_append_val (stalls_cpu, worst_cpu);
      cpu0 = thread_cpu_ms () - cpu0;
      g_array_append_val (cpu, cpu0);
    }

  printf ("live window, %u threads at %u Hz, %u updates (%.0f ms apart) after %.0f s recorded, %u samples at the end:\n",
          N_THREADS, HZ, stalls->len, (double) BATCH_MS, prefill, fc_profile_get_n_samples (profile));
  print_percentiles ("main-loop stall per update (wall)", stalls);
  print_percentiles ("main-loop stall per update (CPU, costliest iteration)", stalls_cpu);
  print_percentiles ("main-thread CPU per update", cpu);
  /* one per update is the grown layout's; more is drawing the same again */
  n_scenes = fc_flame_view_get_n_scenes (FC_FLAME_VIEW (window->flame_chart)) - n_scenes;
  printf ("  flamechart scenes recorded per update: %.2f\n", n_scenes / (double) (MAX (n_updates, 2) - 1));
  gtk_window_destroy (GTK_WINDOW (window));
  g_rand_free (feed.rand);
}

static void
bench_hour (gboolean with_view)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfileFollower) follower = NULL;
  double before = status_mb ("VmRSS:");
  guint batches = 3600 * 1000 / BATCH_MS;
  gint64 t0 = g_get_monotonic_time ();
  Feed feed;

  feed_init (&feed, profile);
  fc_profile_publish (profile);
  if (with_view)
    follower = fc_profile_follower_new (profile);
  for (guint b = 0; b < batches; b++)
    {
      feed_batch (&feed);
      if (follower != NULL)
        fc_profile_follower_update (follower);
    }
  fc_profile_finish (profile);
  printf ("an hour at %u Hz x %u threads%s: %u samples, %u stacks, RSS %.0f MB at the end, peak %.0f MB "
          "(%.0f MB before), fed in %.1f s\n",
          HZ, N_THREADS, with_view ? ", with the window's live copy by function" : "",
          fc_profile_get_n_samples (profile), fc_profile_get_n_stacks (profile),
          status_mb ("VmRSS:"), status_mb ("VmHWM:"), before, (g_get_monotonic_time () - t0) / 1e6);
  g_rand_free (feed.rand);
}

int
main (int   argc,
      char *argv[])
{
  gboolean window = TRUE, hour = TRUE;
  double seconds, prefill;

  if (argc > 1 && g_str_equal (argv[1], "--hour"))
    window = FALSE, argc--, argv++;
  else if (argc > 1 && g_str_equal (argv[1], "--window"))
    hour = FALSE, argc--, argv++;
  seconds = argc > 1 ? atof (argv[1]) : 30;
  prefill = argc > 2 ? atof (argv[2]) : 120;

  printf ("bench-live (the machine may be loaded: the CPU figure holds, compare medians of several runs)\n");
  /* the hour first: its peak RSS is its own, not the window's */
  /* each in a process of its own: a peak RSS is a process's */
  for (int with_view = 0; hour && with_view <= 1; with_view++)
    {
      pid_t pid;

      fflush (stdout);
      pid = fork ();
      if (pid == 0)
        {
          bench_hour (with_view);
          fflush (stdout);
          _exit (0);
        }
      if (pid > 0)
        waitpid (pid, NULL, 0);
    }
  if (window)
    {
      /* as main() does, before GTK starts */
      fc_renderer_skip_gl_without_gpu ();
      gtk_init ();
      adw_init ();
      /* as the app does */
      fc_renderer_prefer_cairo_on_software_gl ();
      bench_window (seconds, prefill);
    }
  return 0;
}
