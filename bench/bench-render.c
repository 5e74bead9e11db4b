/* bench-render.c - flamechart, flamegraph and minimap frame times on a big profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: bench-render [FILE]
 *
 * Without FILE, builds in memory a profile shaped like Relay's largest chunk
 * (500k samples, 50k stacks, 20k frames, 4 threads; each sample takes a
 * random stack, the worst case for merging runs). Then it opens it in the
 * real widgets inside a window (needs a display: run-all.sh uses xvfb-run)
 * and prints:
 *  - the first layout and the first paint after the document is set;
 *  - for several zoom levels, the time to record the flamechart's scene and
 *    to render it with the window's GSK renderer and with a cairo renderer;
 *  - frame times of an interactive zoom and pan sequence;
 *  - the flamegraph's tree build and render, the minimap's render.
 * Targets from the issue: first paint <= 1.5 s, every redraw <= 16 ms.
 * Prints figures; never fails on them.
 */

#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "flamecast.h"
#include "fc-call-tree.h"
#include "fc-flame-chart.h"
#include "fc-flame-graph.h"
#include "fc-flame-layout.h"
#include "fc-minimap.h"
#include "fc-reader.h"
#include "fc-renderer.h"
#include "fc-session.h"

#define N_SAMPLES 500000
#define N_STACKS  50000
#define N_FRAMES  20000
#define N_THREADS 4
#define MAX_DEPTH 48
#define WIDTH     1280
#define HEIGHT    720

static double
ms_since (gint64 begin_us)
{
  return (g_get_monotonic_time () - begin_us) / 1000.0;
}

/* CPU time of this thread: other processes on a busy machine do not count */
static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* the longest the main loop went without running a 1 ms timeout */
typedef struct {
  gint64 last;
  gint64 worst;
} Stall;

static gboolean
stall_tick_cb (gpointer user_data)
{
  Stall *stall = user_data;
  gint64 now = g_get_monotonic_time ();

  if (stall->last != 0)
    stall->worst = MAX (stall->worst, now - stall->last);
  stall->last = now;
  return G_SOURCE_CONTINUE;
}

static FcProfile *
generate (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GPtrArray) stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autofree guint32 *stack_ids = g_new (guint32, N_STACKS);
  FcProfile *profile = fc_profile_new (FC_FORMAT_V2);
  guint32 threads[N_THREADS];
  gint64 ts = G_GINT64_CONSTANT (1710805788000000000);

  for (guint i = 0; i < N_FRAMES; i++)
    {
      g_autofree char *function = g_strdup_printf ("handler_%u.process_item", i);
      g_autofree char *module = g_strdup_printf ("app.module_%u", i / 10);
      FcFrame frame;

      fc_frame_init (&frame);
      frame.function = fc_profile_intern (profile, function);
      frame.module = fc_profile_intern (profile, module);
      frame.lineno = 10 + g_rand_int_range (rand, 0, 900);
      frame.in_app = i % 3 ? FC_IN_APP_YES : FC_IN_APP_NO;
      fc_profile_intern_frame (profile, &frame);
    }

  /* stacks grow from recent ones, as real call trees do; kept root first */
  for (guint i = 0; i < N_STACKS; i++)
    {
      GArray *stack = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autofree guint32 *leaf_first = NULL;

      if (i > 0 && g_rand_int_range (rand, 0, 20) != 0)
        {
          GArray *parent = g_ptr_array_index (stacks, g_rand_int_range (rand, MAX (0, (int) i - 2000), i));
          guint keep = parent->len > MAX_DEPTH - 3 ? MAX_DEPTH / 2 : parent->len;

          g_array_append_vals (stack, parent->data, keep);
        }
      for (guint k = g_rand_int_range (rand, 1, 4); k > 0; k--)
        {
          guint32 frame = g_rand_int_range (rand, 0, N_FRAMES);

          g_array_append_val (stack, frame);
        }
      g_ptr_array_add (stacks, stack);

      leaf_first = g_new (guint32, stack->len);
      for (guint k = 0; k < stack->len; k++)
        leaf_first[k] = g_array_index (stack, guint32, stack->len - 1 - k);
      stack_ids[i] = fc_profile_intern_stack_frames (profile, leaf_first, stack->len);
    }

  for (guint t = 0; t < N_THREADS; t++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", 1000 + t);

      threads[t] = fc_profile_ensure_thread (profile, tid);
    }

  for (guint i = 0; i < N_SAMPLES; i++)
    {
      ts += g_rand_int_range (rand, 50, 190) * G_GINT64_CONSTANT (1000);
      fc_profile_append_sample (profile, ts, threads[g_rand_int_range (rand, 0, N_THREADS)],
                                stack_ids[g_rand_int_range (rand, 0, N_STACKS)], 0);
    }

  fc_profile_finish (profile);
  return profile;
}

static FcDocument *
load_document (const char *path)
{
  g_autoptr(FcDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  gint64 begin = g_get_monotonic_time ();

  if (path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);

      document = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
      if (document == NULL)
        {
          g_printerr ("bench-render: %s\n", error->message);
          exit (1);
        }
      printf ("loaded %s in %.0f ms\n", path, ms_since (begin));
    }
  else
    {
      g_autoptr(FcProfile) profile = generate ();

      document = fc_document_new (FC_DOCUMENT_V2);
      fc_document_add_profile (document, profile);
      printf ("generated %u samples, %u stacks, %u frames, %u threads in %.0f ms\n",
              fc_profile_get_n_samples (profile), fc_profile_get_n_stacks (profile),
              fc_profile_get_n_frames (profile), fc_profile_get_n_threads (profile), ms_since (begin));
    }

  return g_steal_pointer (&document);
}

typedef struct {
  double scene_ms;
  double scene_cpu_ms;
  double render_ms;
  double cairo_ms;
  double cairo_cpu_ms;
} Frame;

static Frame
measure_chart_frame (FcFlameChart *chart,
                     GskRenderer  *renderer,
                     GskRenderer  *cairo)
{
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GdkTexture) cairo_texture = NULL;
  graphene_rect_t viewport = GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT);
  Frame frame;
  gint64 begin;

  double cpu;

  begin = g_get_monotonic_time ();
  cpu = cpu_ms ();
  node = fc_flame_view_render_scene (FC_FLAME_VIEW (chart), WIDTH, HEIGHT);
  frame.scene_ms = ms_since (begin);
  frame.scene_cpu_ms = cpu_ms () - cpu;

  begin = g_get_monotonic_time ();
  texture = gsk_renderer_render_texture (renderer, node, &viewport);
  frame.render_ms = ms_since (begin);

  begin = g_get_monotonic_time ();
  cpu = cpu_ms ();
  cairo_texture = gsk_renderer_render_texture (cairo, node, &viewport);
  frame.cairo_ms = ms_since (begin);
  frame.cairo_cpu_ms = cpu_ms () - cpu;

  return frame;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
print_series (const char *what,
              GArray     *times)
{
  double *v = (double *) (gpointer) times->data;
  guint over = 0;

  qsort (v, times->len, sizeof (double), compare_double);
  for (guint i = 0; i < times->len; i++)
    over += v[i] > 16.0;
  printf ("%-34s %3u frames: p50 %6.2f ms  p95 %6.2f ms  max %6.2f ms  over 16 ms: %u\n",
          what, times->len, v[times->len / 2], v[times->len * 95 / 100], v[times->len - 1], over);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FcDocument) document = NULL;
  g_autoptr(FcSession) session = NULL;
  g_autoptr(GskRenderer) cairo = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cairo_frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu_frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) scene_cpu_frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cairo_cpu_frames = g_array_new (FALSE, FALSE, sizeof (double));
  FcFlameChart *chart;
  FcFlameGraph *graph;
  FcMinimap *minimap;
  GtkWidget *window;
  GtkWidget *box;
  GskRenderer *renderer;
  gint64 range_begin, range_end, begin;
  FcProfile *profile;
  gint thread;
  Stall stall = { 0 };
  guint stall_source;
  static const double zooms[] = { 1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 1048576 };

  gboolean renderer_from_env;

  gtk_init ();
  renderer_from_env = g_getenv ("GSK_RENDERER") != NULL;
  /* the window draws with the renderer the app would choose here (cairo
   * where GL is Mesa's software emulation, as under Xvfb) */
  fc_renderer_prefer_cairo_on_software_gl ();

  document = load_document (argc > 1 ? argv[1] : NULL);
  session = fc_session_new ();

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT + 64);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  minimap = FC_MINIMAP (fc_minimap_new ());
  chart = FC_FLAME_CHART (fc_flame_chart_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (chart), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (minimap));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (chart));
  gtk_window_set_child (GTK_WINDOW (window), box);
  fc_flame_view_set_session (FC_FLAME_VIEW (chart), session);
  fc_flame_view_set_session (FC_FLAME_VIEW (minimap), session);
  gtk_window_present (GTK_WINDOW (window));
  while (gtk_widget_get_width (GTK_WIDGET (chart)) == 0)
    g_main_context_iteration (NULL, TRUE);

  /* first paint: from handing the document to the session to the window
   * having drawn the chart with its boxes */
  stall_source = g_timeout_add (1, stall_tick_cb, &stall);
  begin = g_get_monotonic_time ();
  stall.last = begin;
  fc_session_set_document (session, document);
  profile = fc_session_get_profile (session);
  thread = fc_session_get_thread (session);
  while (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)) == NULL)
    g_main_context_iteration (NULL, TRUE);
  printf ("flamechart layout ready after        %7.1f ms (worker thread; main loop kept running)\n", ms_since (begin));
  while (fc_flame_chart_get_n_drawn_boxes (chart) == 0)
    g_main_context_iteration (NULL, TRUE);
  printf ("first paint after                    %7.1f ms  (target <= 1500 ms)\n", ms_since (begin));
  g_source_remove (stall_source);
  printf ("longest main loop stall until then   %7.1f ms  (target <= 50 ms; includes set_document)\n",
          stall.worst / 1000.0);

  {
    FcFlameLayout *layout = fc_flame_view_get_layout (FC_FLAME_VIEW (chart));
    g_autoptr(FcFlameLayout) again = NULL;
    double cpu = cpu_ms ();

    begin = g_get_monotonic_time ();
    again = fc_flame_layout_new (profile, thread);
    printf ("layout of thread %d alone            %7.1f ms, %.1f ms CPU  (%" G_GUINT64_FORMAT " boxes, %u rows, %.1f MB)\n",
            thread, ms_since (begin), cpu_ms () - cpu, fc_flame_layout_count_boxes (layout),
            fc_flame_layout_get_n_rows (layout), fc_flame_layout_get_size (layout) / 1e6);
  }

  {
    g_autoptr(FcFlameLayout) all = NULL;
    double cpu = cpu_ms ();

    begin = g_get_monotonic_time ();
    all = fc_flame_layout_new (profile, -1);
    printf ("layout of all threads               %7.1f ms, %.1f ms CPU  (%" G_GUINT64_FORMAT " boxes, %.1f MB)\n",
            ms_since (begin), cpu_ms () - cpu, fc_flame_layout_count_boxes (all), fc_flame_layout_get_size (all) / 1e6);
  }

  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  cairo = gsk_cairo_renderer_new ();
  if (!gsk_renderer_realize (cairo, gtk_native_get_surface (GTK_NATIVE (window)), &error))
    {
      g_printerr ("bench-render: cannot realize a cairo renderer: %s\n", error->message);
      return 1;
    }
  printf ("window renderer: %s%s; %d x %d px\n\n", G_OBJECT_TYPE_NAME (renderer),
          renderer_from_env ? " (from GSK_RENDERER)" : " (as the app chooses it on this display)", WIDTH, HEIGHT);

  fc_session_get_thread_range (session, &range_begin, &range_end);
  printf ("wall-clock ms, and (CPU ms of this thread) where the machine's load inflates wall time\n");
  printf ("%-10s %8s %20s %10s %20s\n", "zoom", "boxes", "scene ms (cpu)", "gsk ms", "cairo ms (cpu)");
  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      gint64 span = (gint64) ((range_end - range_begin) / zooms[z]);
      Frame worst = { 0 };
      guint drawn = 0;

      /* five windows across the range; the worst of them */
      for (guint p = 0; p < 5; p++)
        {
          gint64 start = range_begin + (gint64) ((range_end - range_begin - span) * (p / 4.0));
          Frame frame;

          fc_session_set_visible_range (session, start, start + MAX (span, 1000));
          frame = measure_chart_frame (chart, renderer, cairo);
          if (frame.scene_ms + frame.render_ms > worst.scene_ms + worst.render_ms)
            {
              worst = frame;
              drawn = fc_flame_chart_get_n_drawn_boxes (chart);
            }
        }
      printf ("1/%-8.0f %8u %10.2f (%6.2f) %10.2f %10.2f (%6.2f)\n", zooms[z], drawn,
              worst.scene_ms, worst.scene_cpu_ms, worst.render_ms, worst.cairo_ms, worst.cairo_cpu_ms);
    }

  /* an interactive sequence: zoom in at a third of the width, then pan */
  fc_session_reset_view (session);
  for (guint i = 0; i < 120; i++)
    {
      gint64 b = fc_session_get_visible_begin_ns (session);
      gint64 e = fc_session_get_visible_end_ns (session);
      Frame frame;
      double total, cairo_total, cpu_total;

      if (i < 80)
        {
          gint64 anchor = b + (e - b) / 3;
          gint64 width = (gint64) ((e - b) / 1.15);

          fc_session_zoom_to (session, anchor - width / 3, anchor - width / 3 + width);
        }
      else
        fc_session_zoom_to (session, b + (e - b) / 10, e + (e - b) / 10);

      frame = measure_chart_frame (chart, renderer, cairo);
      total = frame.scene_ms + frame.render_ms;
      cairo_total = frame.scene_ms + frame.cairo_ms;
      cpu_total = frame.scene_cpu_ms + frame.cairo_cpu_ms;
      g_array_append_val (frames, total);
      g_array_append_val (cairo_frames, cairo_total);
      g_array_append_val (cpu_frames, cpu_total);
      g_array_append_val (scene_cpu_frames, frame.scene_cpu_ms);
      g_array_append_val (cairo_cpu_frames, frame.cairo_cpu_ms);
    }
  printf ("\n");
  print_series ("zoom+pan, scene + window renderer", frames);
  print_series ("zoom+pan, scene + cairo", cairo_frames);
  print_series ("zoom+pan, scene + cairo, CPU time", cpu_frames);
  print_series ("  of which scene, CPU time", scene_cpu_frames);
  print_series ("  of which cairo, CPU time", cairo_cpu_frames);

  /* the whole widget as GTK snapshots it (scene cached + overlays) */
  {
    g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (chart));
    g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
    g_autoptr(GskRenderNode) node = NULL;

    begin = g_get_monotonic_time ();
    gdk_paintable_snapshot (paintable, snapshot, WIDTH, HEIGHT);
    node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
    printf ("widget snapshot with a cached scene: %.3f ms\n", ms_since (begin));
  }

  /* flamegraph and minimap */
  {
    g_autoptr(FcCallTree) tree = NULL;
    g_autoptr(GskRenderNode) node = NULL;
    g_autoptr(GdkTexture) texture = NULL;
    graphene_rect_t viewport = GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT);
    double build_ms, scene_ms;

    begin = g_get_monotonic_time ();
    tree = fc_call_tree_new (profile, thread, 0, 0, FALSE);
    build_ms = ms_since (begin);
    printf ("\ncall tree of thread %d: %u nodes in %.1f ms\n", thread, fc_call_tree_get_n_nodes (tree), build_ms);

    graph = FC_FLAME_GRAPH (g_object_ref_sink (fc_flame_graph_new ()));
    fc_flame_view_set_session (FC_FLAME_VIEW (graph), session);
    while (fc_flame_graph_get_tree (graph) == NULL)
      g_main_context_iteration (NULL, TRUE);
    begin = g_get_monotonic_time ();
    node = fc_flame_view_render_scene (FC_FLAME_VIEW (graph), WIDTH, HEIGHT);
    scene_ms = ms_since (begin);
    begin = g_get_monotonic_time ();
    texture = gsk_renderer_render_texture (renderer, node, &viewport);
    printf ("flamegraph: scene %.2f ms (%u boxes), render %.2f ms\n",
            scene_ms, fc_flame_graph_get_n_drawn_boxes (graph), ms_since (begin));
    g_object_unref (graph);

    g_clear_pointer (&node, gsk_render_node_unref);
    g_clear_object (&texture);
    begin = g_get_monotonic_time ();
    node = fc_flame_view_render_scene (FC_FLAME_VIEW (minimap), WIDTH, 64);
    scene_ms = ms_since (begin);
    viewport = GRAPHENE_RECT_INIT (0, 0, WIDTH, 64);
    begin = g_get_monotonic_time ();
    texture = gsk_renderer_render_texture (renderer, node, &viewport);
    printf ("minimap: scene %.2f ms (%u rects), render %.2f ms\n",
            scene_ms, fc_minimap_get_n_drawn_rects (minimap), ms_since (begin));
  }

  gsk_renderer_unrealize (cairo);
  gtk_window_destroy (GTK_WINDOW (window));

  return 0;
}
