/* test-flame-chart.c - the flamechart widget driven through its actions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>
#include <math.h>

#include "fc-colors.h"
#include "fc-flame-chart-private.h"
#include "fc-format.h"
#include "fc-session.h"
#include "fc-test-profiles.h"
#include "fc-view-util.h"

#define AT(ms) (FC_TEST_BASE_NS + (gint64) ((ms) * FC_TEST_MS))
#define WIDTH  800
#define HEIGHT 300
/* thread 0's time: samples from 0 to 200 ms, the last one weighing 10 ms */
#define RANGE_MS 210.0
/* x of a time when the whole of thread 0 is visible */
#define X_AT(ms) ((ms) * WIDTH / RANGE_MS)

typedef struct {
  FcSession    *session;
  GtkWidget    *window;
  FcFlameChart *chart;
} Fixture;

/* the box under @x, @y, or NULL (until the next call) */
static const FcFlameBox *
box_at (FcFlameChart *chart,
        double        x,
        double        y)
{
  static FcFlameBox box;

  return fc_flame_chart_box_at (chart, x, y, &box) ? &box : NULL;
}

static FcSession *
session_for (FcProfile *profile)
{
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  FcSession *session = fc_session_new ();

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  return session;
}

static void
wait_for_layout (FcFlameChart *chart)
{
  while (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)) == NULL ||
         gtk_widget_get_width (GTK_WIDGET (chart)) != WIDTH)
    g_main_context_iteration (NULL, TRUE);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();

  f->session = session_for (profile);
  f->chart = FC_FLAME_CHART (fc_flame_chart_new ());
  g_object_ref_sink (f->chart);
  fc_flame_view_set_session (FC_FLAME_VIEW (f->chart), f->session);

  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->chart));
  gtk_window_present (GTK_WINDOW (f->window));
  wait_for_layout (f->chart);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_finalize_object (f->chart);
  g_assert_finalize_object (f->session);
}

static void
assert_visible (FcSession *session,
                double     begin_ms,
                double     end_ms)
{
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, AT (begin_ms));
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, AT (end_ms));
}

static void
test_layout_and_bounds (Fixture       *f,
                        gconstpointer  data)
{
  FcFlameLayout *layout = fc_flame_view_get_layout (FC_FLAME_VIEW (f->chart));
  g_autofree FcFlameBox *row = NULL;
  graphene_rect_t bounds;
  guint n = 0;

  /* the session's default thread is the busiest, thread 0 */
  g_assert_cmpint (fc_session_get_thread (f->session), ==, 0);
  assert_visible (f->session, 0, RANGE_MS);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 3);

  row = fc_flame_layout_dup_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (row[0].frame, ==, FC_TEST_FOO);
  g_assert_cmpint (fc_flame_layout_box_begin_ns (layout, &row[0]), ==, AT (0));
  g_assert_cmpint (fc_flame_layout_box_end_ns (layout, &row[0]), ==, AT (30));
  g_assert_cmpuint (fc_flame_layout_box_n_samples (layout, &row[0]), ==, 3);

  /* 210 ms over 800 px: baz, 30-40 ms, is 114.29-152.38 px */
  g_assert_cmpuint (row[1].frame, ==, FC_TEST_BAZ);
  fc_flame_chart_get_box_bounds (f->chart, &row[1], &bounds);
  g_assert_cmpfloat_with_epsilon (bounds.origin.x, X_AT (30), 0.001);
  g_assert_cmpfloat_with_epsilon (bounds.size.width, X_AT (10), 0.001);
  g_assert_cmpfloat_with_epsilon (bounds.origin.y, FC_FLAME_CHART_RULER_HEIGHT + FC_FLAME_CHART_ROW_HEIGHT, 0.001);
  g_assert_cmpfloat_with_epsilon (bounds.size.height, FC_FLAME_CHART_ROW_HEIGHT, 0.001);
}

static void
test_hit_testing (Fixture       *f,
                  gconstpointer  data)
{
  const double row0 = FC_FLAME_CHART_RULER_HEIGHT + 5;
  const double row1 = row0 + FC_FLAME_CHART_ROW_HEIGHT;
  const double row2 = row1 + FC_FLAME_CHART_ROW_HEIGHT;
  FcFlameLayout *layout = fc_flame_view_get_layout (FC_FLAME_VIEW (f->chart));
  const FcFlameBox *box;

  box = box_at (f->chart, 100, row1);     /* 26.25 ms */
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, FC_TEST_FOO);
  box = box_at (f->chart, 130, row1);     /* 34.125 ms */
  g_assert_cmpuint (box->frame, ==, FC_TEST_BAZ);
  box = box_at (f->chart, 40, row2);      /* 10.5 ms */
  g_assert_cmpuint (box->frame, ==, FC_TEST_BAR);
  box = box_at (f->chart, 600, row0);     /* 157.5 ms, in the pause */
  g_assert_null (box);
  /* the last sample's time, 200-210 ms, ends the view: its boxes show at
   * the right edge (799 px is 209.74 ms) */
  box = box_at (f->chart, 799, row0);
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, FC_TEST_MAIN);
  g_assert_cmpint (fc_flame_layout_box_begin_ns (layout, box), ==, AT (200));
  g_assert_cmpint (fc_flame_layout_box_end_ns (layout, box), ==, AT (210));
  box = box_at (f->chart, 799, row1);
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, FC_TEST_BAZ);
  g_assert_cmpint (fc_flame_layout_box_begin_ns (layout, box), ==, AT (200));
  g_assert_null (box_at (f->chart, 799, row2));
  g_assert_null (box_at (f->chart, 100, row2));
  g_assert_null (box_at (f->chart, 100, 3));   /* the ruler */
  g_assert_null (box_at (f->chart, 100, row2 + 3 * FC_FLAME_CHART_ROW_HEIGHT));
}

static void
test_zoom_and_pan (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (f->chart);
  const FcFlameBox *box;

  g_assert_true (gtk_widget_activate_action (widget, "flamechart.zoom-in", NULL));
  assert_visible (f->session, 21, 189);    /* 210 / 1.25 around the middle */

  /* the hit-test follows the zoom: 168 ms on 800 px, 25 px are 26.25 ms
   * (foo) and 55 px 32.55 ms (baz) */
  box = box_at (f->chart, 25, FC_FLAME_CHART_RULER_HEIGHT + FC_FLAME_CHART_ROW_HEIGHT + 5);
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, FC_TEST_FOO);
  box = box_at (f->chart, 55, FC_FLAME_CHART_RULER_HEIGHT + FC_FLAME_CHART_ROW_HEIGHT + 5);
  g_assert_cmpuint (box->frame, ==, FC_TEST_BAZ);

  gtk_widget_activate_action (widget, "flamechart.pan-right", NULL);
  assert_visible (f->session, 37.8, 205.8);        /* a tenth of the width */
  gtk_widget_activate_action (widget, "flamechart.pan-right", NULL);
  assert_visible (f->session, 42, RANGE_MS);    /* stops at the end of the thread's time */
  gtk_widget_activate_action (widget, "flamechart.pan-left", NULL);
  assert_visible (f->session, 25.2, 193.2);

  gtk_widget_activate_action (widget, "flamechart.zoom-out", NULL);
  assert_visible (f->session, 0, RANGE_MS);     /* clamped to the thread */

  gtk_widget_activate_action (widget, "flamechart.zoom-in", NULL);
  gtk_widget_activate_action (widget, "flamechart.zoom-in", NULL);
  assert_visible (f->session, 37.8, 172.2);        /* 210 / 1.25² around the middle */
  gtk_widget_activate_action (widget, "flamechart.zoom-reset", NULL);
  assert_visible (f->session, 0, RANGE_MS);
}

static void
test_drag (Fixture       *f,
           gconstpointer  data)
{
  /* dragging pans: with 50 ms on 800 px, 80 px are 5 ms... */
  fc_session_zoom_to (f->session, AT (50), AT (100));
  fc_flame_chart_drag_begin (f->chart, 400, 100, FALSE);
  fc_flame_chart_drag_update (f->chart, -80, 0);
  assert_visible (f->session, 55, 105);
  fc_flame_chart_drag_update (f->chart, 160, 0);
  assert_visible (f->session, 40, 90);
  g_assert_false (fc_session_has_selection (f->session));

  /* ...and depth when the rows do not fit; three rows always fit here */
  fc_flame_chart_drag_update (f->chart, 160, -50);
  g_assert_cmpfloat (fc_flame_chart_get_scroll_y (f->chart), ==, 0);

  /* shift+drag selects the time range covered, either way */
  fc_flame_chart_drag_begin (f->chart, 160, 100, TRUE);
  fc_flame_chart_drag_update (f->chart, -80, 0);
  g_assert_cmpint (fc_session_get_selection_begin_ns (f->session), ==, AT (45));
  g_assert_cmpint (fc_session_get_selection_end_ns (f->session), ==, AT (50));
  assert_visible (f->session, 40, 90);
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (f->chart);
  guint n_matches = 0;

  g_assert_cmpuint (fc_flame_chart_get_n_matches (f->chart), ==, 0);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 0);

  fc_session_set_search_text (f->session, "BAR");
  g_object_get (f->chart, "n-matches", &n_matches, NULL);
  g_assert_cmpuint (n_matches, ==, 2);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 0);

  /* each match zoomed to with a twentieth of its width on both sides */
  gtk_widget_activate_action (widget, "flamechart.search-next", NULL);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 1);
  assert_visible (f->session, 0, 22);           /* [0, 20) padded, moved inside */
  g_assert_cmpuint (fc_session_get_selected_frame (f->session), ==, FC_TEST_BAR);

  gtk_widget_activate_action (widget, "flamechart.search-next", NULL);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 2);
  assert_visible (f->session, 39.5, 50.5);

  gtk_widget_activate_action (widget, "flamechart.search-next", NULL);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 1);
  gtk_widget_activate_action (widget, "flamechart.search-previous", NULL);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 2);
  assert_visible (f->session, 39.5, 50.5);

  /* modules match too, case-insensitively: baz lives in libz */
  fc_session_set_search_text (f->session, "LibZ");
  g_assert_cmpuint (fc_flame_chart_get_n_matches (f->chart), ==, 2);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 0);
  gtk_widget_activate_action (widget, "flamechart.search-previous", NULL);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 2);
  g_assert_cmpuint (fc_session_get_selected_frame (f->session), ==, FC_TEST_BAZ);
  assert_visible (f->session, 199, RANGE_MS);   /* [199.5, 210.5] moved inside */

  fc_session_set_search_text (f->session, "no such function");
  g_assert_cmpuint (fc_flame_chart_get_n_matches (f->chart), ==, 0);
  gtk_widget_activate_action (widget, "flamechart.search-next", NULL);
  g_assert_cmpuint (fc_flame_chart_get_current_match (f->chart), ==, 0);

  fc_session_set_search_text (f->session, "");
  g_assert_cmpuint (fc_flame_chart_get_n_matches (f->chart), ==, 0);
}

static void
test_render (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderNode) wide = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) widget_node = NULL;
  graphene_rect_t bounds;

  node = fc_flame_view_render_scene (FC_FLAME_VIEW (f->chart), WIDTH, HEIGHT);
  g_assert_nonnull (node);
  /* all boxes are wider than a pixel, the two of the last sample (main
   * and baz, 200-210 ms) too: main, main; foo, baz, foo, baz; bar, bar */
  g_assert_cmpuint (fc_flame_chart_get_n_drawn_boxes (f->chart), ==, 8);
  gsk_render_node_get_bounds (node, &bounds);
  g_assert_cmpfloat (bounds.size.width, >=, WIDTH - 1);

  /* 100 s on 800 px: each row's boxes before the pause merge into one
   * 0.4 px strip, the 10 ms boxes after it (0.08 px) are culled */
  fc_session_set_visible_range (f->session, AT (0), AT (100000));
  wide = fc_flame_view_render_scene (FC_FLAME_VIEW (f->chart), WIDTH, HEIGHT);
  g_assert_nonnull (wide);
  g_assert_cmpuint (fc_flame_chart_get_n_drawn_boxes (f->chart), ==, 3);

  /* the widget itself, as GTK draws it in its window */
  fc_session_reset_view (f->session);
  while (fc_flame_chart_get_n_drawn_boxes (f->chart) != 8)
    g_main_context_iteration (NULL, TRUE);
  paintable = gtk_widget_paintable_new (GTK_WIDGET (f->chart));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, WIDTH, HEIGHT);
  widget_node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (widget_node);
  g_assert_cmpuint (fc_flame_chart_get_n_drawn_boxes (f->chart), ==, 8);
  /* drawn over it, the colour legend */
  g_assert_cmpuint (fc_flame_chart_get_n_legend_entries (f->chart), ==, 2);
}

/* The boxes' pixels: a texture node where the window draws with GL, a
 * cairo node painting them where it draws with cairo (GSK_RENDERER=cairo,
 * the second run of this test), drawn here by a cairo renderer. */
static GdkTexture *
find_texture (GskRenderNode *node,
              GskRenderer   *renderer)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXTURE_NODE:
      g_assert_false (GSK_IS_CAIRO_RENDERER (renderer));
      return g_object_ref (gsk_texture_node_get_texture (node));
    case GSK_CAIRO_NODE:
      {
        g_autoptr(GskRenderer) cairo = gsk_cairo_renderer_new ();
        GdkTexture *texture;
        graphene_rect_t bounds;

        g_assert_true (GSK_IS_CAIRO_RENDERER (renderer));
        g_assert_true (gsk_renderer_realize (cairo, NULL, NULL));
        gsk_render_node_get_bounds (node, &bounds);
        texture = gsk_renderer_render_texture (cairo, node, &bounds);
        gsk_renderer_unrealize (cairo);
        return texture;
      }
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        {
          GdkTexture *texture = find_texture (gsk_container_node_get_child (node, i), renderer);

          if (texture != NULL)
            return texture;
        }
      return NULL;
    case GSK_CLIP_NODE:
      return find_texture (gsk_clip_node_get_child (node), renderer);
    default:
      return NULL;
    }
}

static guint32
pixel_at (GdkTexture *texture,
          int         x,
          int         y)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, width * height);

  gdk_texture_download (texture, (guchar *) pixels, width * 4);
  return pixels[y * width + x];
}

static void
test_pixels (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GskRenderNode) plain = NULL;
  g_autoptr(GskRenderNode) selected = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (f->window));
  GdkRGBA foo_color;
  guint32 inside, edge, accent;

  /* boxes are pixels of one texture, below the ruler: foo, 0-30 ms, is
   * [0, 114.29) px on the second row */
  plain = fc_flame_view_render_scene (FC_FLAME_VIEW (f->chart), WIDTH, HEIGHT);
  texture = find_texture (plain, renderer);
  g_assert_nonnull (texture);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, WIDTH);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, 3 * FC_FLAME_CHART_ROW_HEIGHT);

  fc_colors_for_frame (fc_session_get_profile (f->session), FC_TEST_FOO, FC_COLOR_MODE_IN_APP, &foo_color);
  inside = pixel_at (texture, 60, FC_FLAME_CHART_ROW_HEIGHT + 10);
  g_assert_cmphex (inside >> 24, ==, 0xff);
  g_assert_cmphex ((inside >> 16) & 0xff, ==, (guint) (foo_color.red * 255 + 0.5f));
  g_assert_cmphex ((inside >> 8) & 0xff, ==, (guint) (foo_color.green * 255 + 0.5f));
  g_assert_cmphex (inside & 0xff, ==, (guint) (foo_color.blue * 255 + 0.5f));
  /* foo up to 112 px, the seam after it at 113 px, nothing in the pause
   * after 50 ms, and the last sample's main (761.9-800 px) at the edge */
  g_assert_cmphex (pixel_at (texture, 112, FC_FLAME_CHART_ROW_HEIGHT + 10), ==, inside);
  g_assert_cmphex (pixel_at (texture, 113, FC_FLAME_CHART_ROW_HEIGHT + 10), ==, 0);
  g_assert_cmphex (pixel_at (texture, 300, 10), ==, 0);
  g_assert_cmphex (pixel_at (texture, 790, 10) >> 24, ==, 0xff);
  edge = pixel_at (texture, 60, FC_FLAME_CHART_ROW_HEIGHT);
  g_assert_cmphex (edge, ==, inside);

  /* the selected frame's runs get an accent frame */
  fc_session_set_selected_frame (f->session, FC_TEST_FOO);
  selected = fc_flame_view_render_scene (FC_FLAME_VIEW (f->chart), WIDTH, HEIGHT);
  g_clear_object (&texture);
  texture = find_texture (selected, renderer);
  accent = pixel_at (texture, 60, FC_FLAME_CHART_ROW_HEIGHT);
  g_assert_cmphex (accent, !=, inside);
  g_assert_cmphex (accent & 0xff, >, (accent >> 16) & 0xff);      /* blue */
  g_assert_cmphex (pixel_at (texture, 60, FC_FLAME_CHART_ROW_HEIGHT + 10), ==, inside);
}

static void
test_thread_switch (Fixture       *f,
                    gconstpointer  data)
{
  FcFlameLayout *layout;

  fc_session_set_thread (f->session, 1);
  wait_for_layout (f->chart);
  layout = fc_flame_view_get_layout (FC_FLAME_VIEW (f->chart));
  g_assert_cmpint (fc_flame_layout_get_thread (layout), ==, 1);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 2);
  assert_visible (f->session, 0, 10);           /* 0 and 5 ms, weighing 5 ms each */

  fc_session_set_thread (f->session, FC_SESSION_ALL_THREADS);
  wait_for_layout (f->chart);
  layout = fc_flame_view_get_layout (FC_FLAME_VIEW (f->chart));
  g_assert_cmpuint (fc_flame_layout_get_n_lanes (layout), ==, 2);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 7);
  assert_visible (f->session, 0, RANGE_MS);     /* thread 0's time ends last */

  /* a time selection survives until cleared */
  fc_session_set_selection (f->session, AT (10), AT (20));
  g_assert_true (fc_session_has_selection (f->session));
  gtk_widget_activate_action (GTK_WIDGET (f->chart), "flamechart.clear-selection", NULL);
  g_assert_false (fc_session_has_selection (f->session));
}

static void
count_cb (guint *count)
{
  (*count)++;
}

/* until the chart has been drawn once more */
static void
draw_once (FcFlameChart *chart)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (chart));
  guint n_paints = 0;
  gulong id = g_signal_connect_swapped (clock, "after-paint", G_CALLBACK (count_cb), &n_paints);

  gtk_widget_queue_draw (GTK_WIDGET (chart));
  while (n_paints == 0)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, id);
}

/* The scene is recorded again when what it shows moves, not when the
 * thread's range grows beyond the visible one (a live profile, several
 * times a second, before its grown layout is there). */
static void
test_scene_kept (Fixture       *f,
                 gconstpointer  data)
{
  FcTimeAxis *axis = fc_session_get_time_axis (f->session);
  g_autoptr(GtkCssProvider) provider = NULL;
  gint64 begin, end;
  guint n;

  draw_once (f->chart);
  n = fc_flame_view_get_n_scenes (FC_FLAME_VIEW (f->chart));
  g_assert_cmpuint (n, >, 0);

  /* drawn again without a change: the same scene */
  draw_once (f->chart);
  g_assert_cmpuint (fc_flame_view_get_n_scenes (FC_FLAME_VIEW (f->chart)), ==, n);

  /* A restyle that changes nothing the scene draws (here its text colour,
   * which the scene does not use; under Xvfb a style change can come from
   * the X server after the first frames) keeps the scene; another font
   * records it again. */
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_data (provider, ".fc-restyled { color: #123456; } .fc-big { font-size: 30px; }", -1);
  gtk_style_context_add_provider_for_display (gtk_widget_get_display (f->window), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_widget_add_css_class (GTK_WIDGET (f->chart), "fc-restyled");
  draw_once (f->chart);
  g_assert_cmpuint (fc_flame_view_get_n_scenes (FC_FLAME_VIEW (f->chart)), ==, n);
  gtk_widget_add_css_class (GTK_WIDGET (f->chart), "fc-big");
  draw_once (f->chart);
  g_assert_cmpuint (fc_flame_view_get_n_scenes (FC_FLAME_VIEW (f->chart)), ==, n + 1);
  gtk_widget_remove_css_class (GTK_WIDGET (f->chart), "fc-big");
  draw_once (f->chart);
  n = fc_flame_view_get_n_scenes (FC_FLAME_VIEW (f->chart));
  gtk_style_context_remove_provider_for_display (gtk_widget_get_display (f->window), GTK_STYLE_PROVIDER (provider));

  fc_time_axis_get_total (axis, &begin, &end);
  fc_time_axis_set_total (axis, begin, end + 100 * FC_TEST_MS);
  draw_once (f->chart);
  g_assert_cmpuint (fc_flame_view_get_n_scenes (FC_FLAME_VIEW (f->chart)), ==, n);

  fc_session_zoom_to (f->session, AT (10), AT (20));
  draw_once (f->chart);
  g_assert_cmpuint (fc_flame_view_get_n_scenes (FC_FLAME_VIEW (f->chart)), ==, n + 1);
}

static void
test_async_layout (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcSession) session = NULL;
  FcFlameChart *chart;
  guint32 frames[3];
  guint32 thread = fc_profile_ensure_thread (profile, "1");
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      frames[i] = fc_test_frame (profile, name, "m", TRUE);
    }
  /* enough samples to be laid out on a worker thread */
  for (guint i = 0; i < 30000; i++)
    {
      guint depth = 1 + (i / 100) % 3;
      guint32 leaf_first[3];

      for (guint d = 0; d < depth; d++)
        leaf_first[d] = frames[depth - 1 - d];
      fc_profile_append_sample (profile, FC_TEST_BASE_NS + i * FC_TEST_MS, thread,
                                fc_profile_intern_stack_frames (profile, leaf_first, depth), 0);
    }

  session = session_for (profile);
  chart = FC_FLAME_CHART (g_object_ref_sink (fc_flame_chart_new ()));
  fc_flame_view_set_session (FC_FLAME_VIEW (chart), session);
  g_assert_null (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)));
  while (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)) == NULL)
    g_main_context_iteration (NULL, TRUE);

  /* depth cycles 1, 2, 3 every 100 samples under one root: one run at
   * depth 0, one per cycle deeper */
  g_free (fc_flame_layout_dup_row (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)), 0, &n));
  g_assert_cmpuint (n, ==, 1);
  g_free (fc_flame_layout_dup_row (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)), 2, &n));
  g_assert_cmpuint (n, ==, 100);

  /* dropping the session while a layout is under way is safe */
  fc_session_set_thread (session, FC_SESSION_ALL_THREADS);
  fc_flame_view_set_session (FC_FLAME_VIEW (chart), NULL);
  g_assert_null (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)));
  g_assert_finalize_object (chart);
}

/* fib > fib > fib is one match, not three: search steps through boxes,
 * one per maximal run down a stack */
static void
test_search_recursion (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 fib = fc_test_frame (profile, "fib", "app", TRUE);
  guint32 add = fc_test_frame (profile, "add", "app", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  FcSession *session;
  FcFlameChart *chart = FC_FLAME_CHART (g_object_ref_sink (fc_flame_chart_new ()));
  GtkWidget *window = gtk_window_new ();

  fc_test_sample (profile, t, 0, 4, main_f, fib, fib, fib);
  fc_test_sample (profile, t, 10, 5, main_f, fib, fib, add, fib);
  fc_test_sample (profile, t, 20, 2, main_f, add);
  fc_test_sample (profile, t, 30, 2, main_f, fib);
  session = session_for (profile);
  fc_flame_view_set_session (FC_FLAME_VIEW (chart), session);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (chart));
  gtk_window_present (GTK_WINDOW (window));
  wait_for_layout (chart);

  /* the fib run in 0-20 ms (levels 1-2, and level 3 of the first sample),
   * the fib under add at 10 ms (a new run: add breaks it), and the fib at 30 ms */
  fc_session_set_search_text (session, "fib");
  g_assert_cmpuint (fc_flame_chart_get_n_matches (chart), ==, 3);
  gtk_widget_activate_action (GTK_WIDGET (chart), "flamechart.search-next", NULL);
  gtk_widget_activate_action (GTK_WIDGET (chart), "flamechart.search-next", NULL);
  g_assert_cmpuint (fc_flame_chart_get_current_match (chart), ==, 2);
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), >=, FC_TEST_BASE_NS + 9 * FC_TEST_MS);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (chart);
  g_assert_finalize_object (session);
}

static void
test_colors_and_text (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcProfile) other = fc_profile_new (FC_FORMAT_V1);
  g_autofree char *tooltip = NULL;
  g_autofree guint8 *match = NULL;
  g_autofree char *d1 = fc_format_duration (850);
  g_autofree char *d2 = fc_format_duration (1500000);
  g_autofree char *d3 = fc_format_duration (G_GINT64_CONSTANT (2500000000));
  GdkRGBA a, b, c;
  guint n_matching = 0;
  guint32 foo_again;

  /* application and system frames never share a colour */
  fc_colors_for_frame (profile, FC_TEST_FOO, FC_COLOR_MODE_IN_APP, &a);
  fc_colors_for_frame (profile, FC_TEST_BAR, FC_COLOR_MODE_IN_APP, &b);
  g_assert_false (gdk_rgba_equal (&a, &b));

  /* a function keeps its colour in another file, whatever its frame id */
  fc_test_frame (other, "unrelated", "x", FALSE);
  fc_test_frame (other, "unrelated too", "x", FALSE);
  foo_again = fc_test_frame (other, "foo", "app.foo", TRUE);
  g_assert_cmpuint (foo_again, !=, FC_TEST_FOO);
  for (FcColorMode mode = FC_COLOR_MODE_IN_APP; mode <= FC_COLOR_MODE_FUNCTION; mode++)
    {
      fc_colors_for_frame (profile, FC_TEST_FOO, mode, &a);
      fc_colors_for_frame (other, foo_again, mode, &c);
      g_assert_true (gdk_rgba_equal (&a, &c));
    }

  /* by package: frames of one module share a colour */
  fc_colors_for_frame (other, fc_test_frame (other, "foo2", "app.foo", TRUE), FC_COLOR_MODE_PACKAGE, &b);
  fc_colors_for_frame (other, foo_again, FC_COLOR_MODE_PACKAGE, &c);
  g_assert_true (gdk_rgba_equal (&b, &c));

  tooltip = fc_view_frame_tooltip (profile, FC_TEST_FOO, 30 * FC_TEST_MS, 200 * FC_TEST_MS, "of the visible range");
  g_assert_nonnull (strstr (tooltip, "<b>foo</b>"));
  g_assert_nonnull (strstr (tooltip, "app.foo"));
  g_assert_nonnull (strstr (tooltip, "app.py:11"));
  g_assert_nonnull (strstr (tooltip, "Application frame"));
  g_assert_nonnull (strstr (tooltip, "30.0 ms (15.0% of the visible range)"));

  /* the legend names the two in-app colours; the other modes have none */
  {
    const char *names[FC_COLORS_MAX_LEGEND];
    GdkRGBA colors[FC_COLORS_MAX_LEGEND];
    GdkRGBA system;

    g_assert_cmpuint (fc_colors_legend (FC_COLOR_MODE_IN_APP, names, colors), ==, 2);
    g_assert_cmpstr (names[0], ==, "Application");
    g_assert_cmpstr (names[1], ==, "System");
    g_assert_false (gdk_rgba_equal (&colors[0], &colors[1]));
    /* the system colour is a shade of the one system frames get */
    fc_colors_for_frame (profile, FC_TEST_BAR, FC_COLOR_MODE_IN_APP, &system);
    g_assert_cmpfloat (fabs (system.red - colors[1].red), <, 0.1);
    g_assert_cmpfloat (fabs (system.blue - colors[1].blue), <, 0.1);
    g_assert_cmpuint (fc_colors_legend (FC_COLOR_MODE_PACKAGE, names, colors), ==, 0);
  }

  g_assert_cmpstr (d1, ==, "850 ns");
  g_assert_cmpstr (d2, ==, "1.50 ms");
  g_assert_cmpstr (d3, ==, "2.50 s");

  match = fc_view_search_frames (profile, "APP.FOO", &n_matching);
  g_assert_cmpuint (n_matching, ==, 1);
  g_assert_true (match[FC_TEST_FOO]);
  g_assert_false (match[FC_TEST_MAIN]);
  g_assert_null (fc_view_search_frames (profile, "", NULL));
}

/* a click as the chart's click gesture reports it */
static void
click_at (FcFlameChart *chart,
          double        x,
          double        y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (chart));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        {
          g_signal_emit_by_name (controller, "pressed", 1, x, y);
          g_signal_emit_by_name (controller, "released", 1, x, y);
        }
    }
}

/* All threads with one 118-deep thread between two shallow ones: lanes
 * under headers, the deep one folded to 12 rows until its header is
 * clicked, a scrollbar, a lane list that jumps, headers pinned while their
 * lane scrolls past */
#define DEEP 118
#define FOLDED 12

static void
test_all_threads_lanes (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  guint32 deep[DEEP];
  guint32 io = fc_profile_ensure_thread (profile, "7");
  guint32 worker = fc_profile_ensure_thread (profile, "101");
  guint32 ui = fc_profile_ensure_thread (profile, "9");
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 poll = fc_test_frame (profile, "poll", "libc", FALSE);
  FcSession *session;
  FcFlameChart *chart = FC_FLAME_CHART (g_object_ref_sink (fc_flame_chart_new ()));
  GtkWidget *window = gtk_window_new ();
  GtkAdjustment *adjustment;
  GtkListBox *list;
  const FcFlameBox *box;
  const double top = FC_FLAME_CHART_RULER_HEIGHT;
  const double row = FC_FLAME_CHART_ROW_HEIGHT;
  double y, h;

  for (guint d = 0; d < DEEP; d++)
    {
      g_autofree char *name = g_strdup_printf ("level%u", d);

      deep[DEEP - 1 - d] = fc_test_frame (profile, name, "app", TRUE);   /* leaf first */
    }
  fc_profile_set_thread_name (profile, io, "io");
  fc_profile_set_thread_name (profile, worker, "worker");
  fc_profile_set_thread_name (profile, ui, "ui");
  fc_test_sample (profile, io, 0, 2, main_f, poll);
  fc_test_sample (profile, io, 10, 2, main_f, poll);
  for (guint i = 0; i < 3; i++)
    fc_profile_append_sample (profile, FC_TEST_BASE_NS + i * 10 * FC_TEST_MS, worker,
                              fc_profile_intern_stack_frames (profile, deep, DEEP), 0);
  fc_test_sample (profile, ui, 5, 3, main_f, poll, main_f);
  fc_profile_sort_samples (profile);

  session = session_for (profile);
  fc_flame_view_set_session (FC_FLAME_VIEW (chart), session);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, 400);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (chart));
  gtk_window_present (GTK_WINDOW (window));
  fc_session_set_thread (session, 1);
  wait_for_layout (chart);

  /* one thread: no lanes, no lane list */
  g_assert_cmpuint (fc_flame_chart_get_n_lanes (chart), ==, 0);

  fc_session_set_thread (session, FC_SESSION_ALL_THREADS);
  while (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)) == NULL ||
         fc_flame_layout_get_thread (fc_flame_view_get_layout (FC_FLAME_VIEW (chart))) >= 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fc_flame_chart_get_n_lanes (chart), ==, 3);

  /* the deep lane is folded: the lane below it starts 13 rows down, not 119 */
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 0), ==, top);
  g_assert_cmpfloat (fc_flame_chart_get_lane_height (chart, 0), ==, 3 * row);
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 1), ==, top + 3 * row);
  g_assert_cmpfloat (fc_flame_chart_get_lane_height (chart, 1), ==, (1 + FOLDED) * row);
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 2), ==, top + (3 + 1 + FOLDED) * row);
  g_assert_false (fc_flame_chart_get_lane_expanded (chart, 1));
  g_assert_true (fc_flame_chart_get_lane_expanded (chart, 0));
  {
    g_autofree char *io_title = fc_flame_chart_dup_lane_title (chart, 0);
    g_autofree char *worker_title = fc_flame_chart_dup_lane_title (chart, 1);
    g_autofree char *ui_title = fc_flame_chart_dup_lane_title (chart, 2);

    g_assert_cmpstr (io_title, ==, "io (7) · 2 samples");
    g_assert_cmpstr (worker_title, ==, "worker (101) · 3 samples · 106 more rows (click to show)");
    g_assert_cmpstr (ui_title, ==, "ui (9) · 1 sample");
  }

  /* a box right under a header is the lane's outermost frame; the header
   * row itself is no box */
  box = box_at (chart, 10, top + 3 * row + row + 5);
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, deep[DEEP - 1]);
  g_assert_null (box_at (chart, 10, top + 3 * row + 5));
  /* the 12th row of the folded lane is drawn, the 13th is the next lane's header */
  box = box_at (chart, 10, top + 3 * row + FOLDED * row + 5);
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, deep[DEEP - FOLDED]);

  /* everything fits at 400 px: no scrollbar needed yet */
  adjustment = fc_flame_chart_get_vadjustment (chart);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >=, (3 + 1 + FOLDED + 4) * row);

  /* unfolded: 119 rows, the next lane below them, a scrollbar to reach it */
  /* unfolded by a click on its header */
  click_at (chart, 100, fc_flame_chart_get_lane_y (chart, 1) + 5);
  g_assert_true (fc_flame_chart_get_lane_expanded (chart, 1));
  g_assert_cmpfloat (fc_flame_chart_get_lane_height (chart, 1), ==, (1 + DEEP) * row);
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 2), ==, top + (3 + 1 + DEEP) * row);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, (3 + 1 + DEEP + 4 + 1) * row);
  {
    g_autofree char *worker_title = fc_flame_chart_dup_lane_title (chart, 1);

    g_assert_cmpstr (worker_title, ==, "worker (101) · 3 samples · click to fold");
  }

  /* scrolled into the deep lane: its header stays pinned under the ruler,
   * the row under it is the lane's, not the header's */
  gtk_adjustment_set_value (adjustment, (3 + 40) * row);
  g_assert_cmpfloat (fc_flame_chart_get_scroll_y (chart), ==, (3 + 40) * row);
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 1), ==, top);
  g_assert_null (box_at (chart, 10, top + 5));
  box = box_at (chart, 10, top + row + 5);
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, deep[DEEP - 1 - 40]);
  /* near a lane's end the next header pushes it up */
  gtk_adjustment_set_value (adjustment, 3 * row - row / 2);
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 0), ==, top - row / 2);
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 1), ==, top + row / 2);

  /* the lane list jumps: its header becomes the top row */
  list = fc_flame_chart_get_lane_list (chart);
  g_assert_nonnull (gtk_list_box_get_row_at_index (list, 2));
  g_assert_null (gtk_list_box_get_row_at_index (list, 3));
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 0));
  g_assert_cmpfloat (fc_flame_chart_get_scroll_y (chart), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0);
  fc_flame_chart_show_lane (chart, 1);
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 1), ==, top);
  g_assert_cmpfloat (fc_flame_chart_get_lane_y (chart, 0), <, top);

  /* folding again (a click on the pinned header) brings the ui lane back up */
  click_at (chart, 100, top + 5);
  g_assert_false (fc_flame_chart_get_lane_expanded (chart, 1));
  y = fc_flame_chart_get_lane_y (chart, 2) + fc_flame_chart_get_scroll_y (chart);
  h = fc_flame_chart_get_lane_height (chart, 1);
  g_assert_cmpfloat (y, ==, top + (3 + 1 + FOLDED) * row);
  g_assert_cmpfloat (h, ==, (1 + FOLDED) * row);

  /* search stepping to a frame below the fold unfolds its lane */
  fc_session_set_search_text (session, "level100");
  g_assert_cmpuint (fc_flame_chart_get_n_matches (chart), ==, 1);
  gtk_widget_activate_action (GTK_WIDGET (chart), "flamechart.search-next", NULL);
  g_assert_true (fc_flame_chart_get_lane_expanded (chart, 1));
  box = box_at (chart, WIDTH / 2.0, top + (3 + 1 + 100) * row + 5 - fc_flame_chart_get_scroll_y (chart));
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, deep[DEEP - 1 - 100]);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (chart);
  g_assert_finalize_object (session);
}

/* A Node-like chunk: no samples while the process idles. The frames on the
 * stack on both sides of a gap are one box across it (as in Sentry's
 * flamechart), not one box per burst of samples. */
static void
test_idle_gap (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 tick = fc_test_frame (profile, "processTicksAndRejections", "node:internal/process/task_queues", FALSE);
  guint32 a = fc_test_frame (profile, "handle", "app", TRUE);
  FcSession *session;
  FcFlameChart *chart = FC_FLAME_CHART (g_object_ref_sink (fc_flame_chart_new ()));
  GtkWidget *window = gtk_window_new ();
  FcFlameLayout *layout;
  g_autoptr(GskRenderNode) node = NULL;
  const FcFlameBox *box;
  const double row0 = FC_FLAME_CHART_RULER_HEIGHT + 5;
  const double row2 = row0 + 2 * FC_FLAME_CHART_ROW_HEIGHT;
  graphene_rect_t bounds;

  /* bursts every 10 ms at 0, 1000 and 4000 ms, idle in between */
  for (guint burst = 0; burst < 3; burst++)
    for (guint i = 0; i < 3; i++)
      fc_test_sample (profile, t, (gint64) (burst == 0 ? 0 : burst == 1 ? 1000 : 4000) + i * 10, 3, main_f, tick, a);

  session = session_for (profile);
  fc_flame_view_set_session (FC_FLAME_VIEW (chart), session);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (chart));
  gtk_window_present (GTK_WINDOW (window));
  wait_for_layout (chart);
  layout = fc_flame_view_get_layout (FC_FLAME_VIEW (chart));

  /* 0-4030 ms on 800 px: main, processTicks and handle one box each */
  node = fc_flame_view_render_scene (FC_FLAME_VIEW (chart), WIDTH, HEIGHT);
  g_assert_nonnull (node);
  g_assert_cmpuint (fc_flame_chart_get_n_drawn_boxes (chart), ==, 3);
  for (guint r = 0; r < 3; r++)
    {
      guint n = 0;

      g_free (fc_flame_layout_dup_row (layout, r, &n));
      g_assert_cmpuint (n, ==, 1);
    }

  /* in the middle of the long gap (2500 ms), the boxes are under the pointer */
  box = box_at (chart, 2500 * WIDTH / 4030.0, row0);
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, main_f);
  box = box_at (chart, 2500 * WIDTH / 4030.0, row2);
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, a);
  fc_flame_chart_get_box_bounds (chart, box, &bounds);
  g_assert_cmpfloat_with_epsilon (bounds.origin.x, 0, 0.001);
  g_assert_cmpfloat_with_epsilon (bounds.size.width, WIDTH, 0.001);
  /* what it ran: 9 samples of 10 ms, the last two before a gap capped at
   * twice the 10 ms median */
  g_assert_cmpuint (fc_flame_layout_box_n_samples (layout, box), ==, 9);
  g_assert_cmpint (fc_flame_layout_box_sampled_ns (layout, box), ==, 110 * FC_TEST_MS);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (chart);
  g_assert_finalize_object (session);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/app/flame-chart/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("layout-and-bounds", test_layout_and_bounds);
  ADD ("hit-testing", test_hit_testing);
  ADD ("zoom-and-pan", test_zoom_and_pan);
  ADD ("search", test_search);
  ADD ("drag", test_drag);
  ADD ("render", test_render);
  ADD ("pixels", test_pixels);
  ADD ("thread-switch", test_thread_switch);
  ADD ("scene-kept", test_scene_kept);
#undef ADD
  g_test_add_func ("/app/flame-chart/async-layout", test_async_layout);
  g_test_add_func ("/app/flame-chart/colors-and-text", test_colors_and_text);
  g_test_add_func ("/app/flame-chart/search-recursion", test_search_recursion);
  g_test_add_func ("/app/flame-chart/all-threads-lanes", test_all_threads_lanes);
  g_test_add_func ("/app/flame-chart/idle-gap", test_idle_gap);

  return g_test_run ();
}
