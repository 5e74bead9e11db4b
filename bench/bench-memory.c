/* bench-memory.c - RSS of the window per view on two 50 MB chunks, and time to first paint
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: bench-memory [FILE]
 *
 * Without FILE, writes two 50 MB / 500k-sample V2 chunks to temporary
 * files and measures each in a fresh process (this binary run again with
 * the file), so that one's memory does not count for the other:
 *  - bench-load's chunk (4 threads, stacks grown from earlier ones, so
 *    neighbouring samples share most frames: ~2.6M flamechart boxes);
 *  - gen-deep-chunk's (8 threads, 50,000 distinct stacks 5-60 frames deep:
 *    ~16M boxes, 1.6M call tree nodes; what a big C++ or JavaScript
 *    service gives).
 * With FILE, only that one. In each (needs a display: run-all.sh uses
 * xvfb-run), it opens the file in a real FcWindow as `flamecast FILE`
 * would and prints:
 *  - the time from the start of main() to the flamechart's first boxes on
 *    screen (target from issue 11: within 1 s of launch), its CPU time
 *    (main thread, all threads) and the peak RSS then; the same from a
 *    switch to All threads to its first boxes (FC_BENCH_FIRST_PAINT_ONLY=1
 *    stops there, =paint at the first paint, for a profiler's record of
 *    the launch alone);
 *  - the RSS after each view has been shown and drawn, one thread, all
 *    threads and back to one thread (target from issue 18: at most 400 MB
 *    whatever was opened), and the peak.
 * Prints figures; never fails on them.
 */

#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "fc-app-settings.h"
#include "fc-application.h"
#include "fc-renderer.h"
#include "fc-window-private.h"

static gint64 launch_us;

static double
rss_mb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, "VmRSS:")) == NULL)
    return 0;
  return g_ascii_strtod (line + 6, NULL) / 1024.0;
}

static double
peak_mb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

/* CPU time of the main thread, which a loaded machine does not inflate */
static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* the same for the whole process: the main thread and the workers */
static double
process_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static gboolean
views_busy (FcWindow *window)
{
  FcSession *session = fc_window_get_session (window);

  return fc_window_is_loading (window) ||
         fc_call_tree_view_get_busy (window->call_tree_view) ||
         fc_frame_details_get_busy (window->frame_details) ||
         (fc_session_get_document (session) != NULL &&
          fc_flame_view_get_layout (FC_FLAME_VIEW (window->flame_chart)) == NULL);
}

/* until every view's worker is done and a few frames are drawn */
static void
settle (FcWindow *window)
{
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  while (views_busy (window))
    g_main_context_iteration (NULL, TRUE);
  for (gint64 end = g_get_monotonic_time () + 300000; g_get_monotonic_time () < end;)
    g_main_context_iteration (NULL, FALSE);
}

static void
show (FcWindow   *window,
      const char *view,
      const char *what)
{
  adw_view_stack_set_visible_child_name (window->view_stack, view);
  settle (window);
  if (g_str_equal (view, "flamegraph"))
    while (fc_flame_graph_get_tree (window->flame_graph) == NULL)
      g_main_context_iteration (NULL, TRUE);
  settle (window);
  {
    FcFlameLayout *layout = fc_flame_view_get_layout (FC_FLAME_VIEW (window->flame_chart));
    FcCallTree *tree = fc_flame_graph_get_tree (window->flame_graph);

    printf ("  %-32s RSS %6.0f MB   peak %6.0f MB   (layout of %.1fM boxes in %.0f MB; call tree %u nodes)\n",
            what, rss_mb (), peak_mb (),
            layout != NULL ? fc_flame_layout_count_boxes (layout) / 1e6 : 0.0,
            layout != NULL ? fc_flame_layout_get_size (layout) / 1e6 : 0.0,
            tree != NULL ? fc_call_tree_get_n_nodes (tree) : 0);
  }
}

static void
count_paint_cb (guint *n_paints)
{
  (*n_paints)++;
}

/* runs @generator to write a chunk into a temporary file */
static char *
generate_chunk (const char *generator,
                const char *option)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { generator, NULL, NULL, NULL };
  int status = 0;
  int fd;

  fd = g_file_open_tmp ("flamecast-bench-memory-XXXXXX.json", &path, &error);
  if (fd < 0)
    g_error ("bench-memory: %s", error->message);
  close (fd);
  argv[1] = option != NULL ? option : path;
  argv[2] = option != NULL ? path : NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("bench-memory: %s: %s", generator, error->message);
  return g_steal_pointer (&path);
}

/* each shape in a fresh process */
static int
run_both (const char *self)
{
  static const struct { const char *what; const char *generator; const char *option; } shapes[] = {
    { "bench-load's chunk: 4 threads, stacks grown from earlier ones", FC_BENCH_LOAD, "--generate" },
    { "deep chunk: 8 threads, 50,000 distinct stacks 5-60 frames deep", FC_GEN_DEEP_CHUNK, NULL },
  };
  int result = 0;

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *path = generate_chunk (shapes[i].generator, shapes[i].option);
      g_autoptr(GError) error = NULL;
      const char *argv[] = { self, path, NULL };
      int status = 0;

      printf ("== %s\n", shapes[i].what);
      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL,
                         &status, &error) ||
          !g_spawn_check_wait_status (status, &error))
        {
          g_printerr ("bench-memory: %s\n", error->message);
          result = 1;
        }
      g_unlink (path);
      printf ("\n");
    }
  return result;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(FcFileLoad) load = NULL;
  FcWindow *window;
  FcSession *session;
  gint64 open_us;
  double cpu, process_cpu;

  setvbuf (stdout, NULL, _IOLBF, 0);
  if (argc < 2)
    return run_both (argv[0]);
  file = g_file_new_for_commandline_arg (argv[1]);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  printf ("file: %.1f MB\n", info ? g_file_info_get_size (info) / 1e6 : 0.0);

  /* "launch": from here on, what `flamecast FILE` does */
  launch_us = g_get_monotonic_time ();
  cpu = cpu_ms ();
  process_cpu = process_cpu_ms ();
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  /* as main() does, before any thread runs */
  fc_renderer_skip_gl_without_gpu ();
  /* main(): the file loads while GTK starts (FC_BENCH_NO_PRELOAD: once
   * the window is up, as before) */
  if (g_getenv ("FC_BENCH_NO_TUNE") == NULL)
    fc_application_tune_allocator ();
  if (g_getenv ("FC_BENCH_NO_PRELOAD") == NULL)
    {
      g_autoptr(GSettings) settings = fc_app_settings_new ();
      g_auto(GStrv) in_app_prefixes = g_settings_get_strv (settings, "in-app-prefixes");

      load = fc_file_load_new (file, (const char * const *) in_app_prefixes);
    }
  gtk_init ();
  adw_init ();
  /* what the application's startup does */
  fc_renderer_prefer_cairo_on_software_gl ();

  window = g_object_ref (fc_window_new (NULL));
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  gtk_window_present (GTK_WINDOW (window));
  session = fc_window_get_session (window);
  open_us = g_get_monotonic_time ();
  if (load != NULL)
    fc_window_open_load (window, load);
  else
    fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  printf ("loaded after                           %6.0f ms from launch (window up after %.0f ms), "
          "CPU %.0f ms (main thread %.0f ms)\n",
          (g_get_monotonic_time () - launch_us) / 1000.0, (open_us - launch_us) / 1000.0,
          process_cpu_ms () - process_cpu, cpu_ms () - cpu);
  while (fc_flame_view_get_layout (FC_FLAME_VIEW (window->flame_chart)) == NULL)
    g_main_context_iteration (NULL, TRUE);
  printf ("flamechart layout after                %6.0f ms from launch\n",
          (g_get_monotonic_time () - launch_us) / 1000.0);
  while (fc_flame_chart_get_n_drawn_boxes (window->flame_chart) == 0)
    g_main_context_iteration (NULL, TRUE);
  /* on a loaded machine the wall time is mostly waiting for a CPU: the
   * CPU time of the main thread and of all threads (workers included) is
   * what the code costs */
  process_cpu = process_cpu_ms () - process_cpu;
  cpu = cpu_ms () - cpu;
  printf ("first paint after                      %6.0f ms from launch, CPU %.0f ms (main thread %.0f ms, "
          "other threads %.0f ms), peak RSS %.0f MB  (target <= 1000 ms)\n",
          (g_get_monotonic_time () - launch_us) / 1000.0, process_cpu, cpu, process_cpu - cpu, peak_mb ());
  if (g_strcmp0 (g_getenv ("FC_BENCH_FIRST_PAINT_ONLY"), "paint") == 0)
    return 0;
  /* the same from the switch to All threads (the layout of every lane) */
  {
    gint64 switch_us;

    g_assert_nonnull (session);
    for (int i = 0; i < 20; i++)
      g_main_context_iteration (NULL, FALSE);
    switch_us = g_get_monotonic_time ();
    cpu = cpu_ms ();
    process_cpu = process_cpu_ms ();
    fc_session_set_thread (session, FC_SESSION_ALL_THREADS);
    while (fc_flame_view_get_layout (FC_FLAME_VIEW (window->flame_chart)) == NULL ||
           fc_flame_layout_get_thread (fc_flame_view_get_layout (FC_FLAME_VIEW (window->flame_chart))) >= 0)
      g_main_context_iteration (NULL, TRUE);
    /* a frame drawn with it (the count before is the last thread's) */
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window->flame_chart));
      guint n_paints = 0;
      gulong id = g_signal_connect_swapped (clock, "after-paint", G_CALLBACK (count_paint_cb), &n_paints);

      gtk_widget_queue_draw (GTK_WIDGET (window->flame_chart));
      while (n_paints == 0 || fc_flame_chart_get_n_drawn_boxes (window->flame_chart) == 0)
        g_main_context_iteration (NULL, TRUE);
      g_signal_handler_disconnect (clock, id);
    }
    process_cpu = process_cpu_ms () - process_cpu;
    cpu = cpu_ms () - cpu;
    printf ("All threads painted after               %6.0f ms from the switch, CPU %.0f ms (main thread %.0f ms, "
            "other threads %.0f ms), peak RSS %.0f MB\n",
            (g_get_monotonic_time () - switch_us) / 1000.0, process_cpu, cpu, process_cpu - cpu, peak_mb ());
    fc_session_set_thread (session, fc_session_get_default_thread (session));
  }
  if (g_getenv ("FC_BENCH_FIRST_PAINT_ONLY") != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (window));
      g_object_unref (window);
      return 0;
    }
  settle (window);

  printf ("RSS per view (target: at most 400 MB)   peak after loading %.0f MB\n", peak_mb ());
  show (window, "flamechart", "flamechart, one thread");
  show (window, "flamegraph", "flamegraph, one thread");
  show (window, "call-tree", "call tree, one thread");
  fc_session_set_thread (session, FC_SESSION_ALL_THREADS);
  show (window, "call-tree", "call tree, all threads");
  show (window, "flamegraph", "flamegraph, all threads");
  show (window, "flamechart", "flamechart, all threads");
  fc_session_set_thread (session, 0);
  show (window, "flamechart", "flamechart, back to one thread");

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);

  return 0;
}
