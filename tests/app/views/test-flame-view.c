/* test-flame-view.c - what the flame views share: one call tree, dark mode, the time ruler, the zoom keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <adwaita.h>

#include "fc-call-tree-view.h"
#include "fc-flame-chart.h"
#include "fc-flame-graph.h"
#include "fc-format.h"
#include "fc-frame-details.h"
#include "fc-session-tree.h"
#include "fc-time-ruler.h"
#include "fc-test-profiles.h"

#define AT(ms) (FC_TEST_BASE_NS + (gint64) ((ms) * FC_TEST_MS))

static void
count_cb (GObject    *object,
          GParamSpec *pspec,
          guint      *count)
{
  (*count)++;
}

static void
test_one_tree (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  FcSession *session = fc_session_new ();
  FcFlameGraph *graph = FC_FLAME_GRAPH (g_object_ref_sink (fc_flame_graph_new ()));
  FcFrameDetails *details = FC_FRAME_DETAILS (g_object_ref_sink (fc_frame_details_new ()));
  FcCallTreeView *view = FC_CALL_TREE_VIEW (g_object_ref_sink (fc_call_tree_view_new ()));
  FcSessionTree *shared;
  guint n_builds = 0;

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  fc_flame_view_set_session (FC_FLAME_VIEW (graph), session);
  fc_frame_details_set_session (details, session);
  fc_call_tree_view_set_session (view, session);

  shared = fc_session_get_call_tree (session);
  g_assert_true (fc_session_get_call_tree (session) == shared);
  g_signal_connect (shared, "notify::tree", G_CALLBACK (count_cb), &n_builds);
  while (fc_call_tree_view_get_busy (view) || fc_frame_details_get_busy (details))
    g_main_context_iteration (NULL, TRUE);

  /* a selection change builds one tree from the samples; the flamegraph
   * shows that very tree, the details panel reads it, and the call tree
   * view copies it without walking the samples */
  fc_session_set_selection (session, AT (10), AT (40));
  fc_session_set_selected_frame (session, FC_TEST_FOO);
  while (fc_call_tree_view_get_busy (view) || fc_frame_details_get_busy (details))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_builds, ==, 1);
  g_assert_nonnull (fc_flame_graph_get_tree (graph));
  g_assert_true (fc_flame_graph_get_tree (graph) == fc_session_tree_get_tree (shared));
  g_assert_cmpuint (fc_call_tree_node_get_total (fc_call_tree_get_root (fc_flame_graph_get_tree (graph))), ==, 3);
  g_assert_cmpuint (fc_filtered_tree_node_get_total (fc_filtered_tree_get_root (fc_call_tree_view_get_filtered_tree (view))), ==, 3);
  /* foo in [10, 40): the samples at 10 (main>foo>bar) and 20 (main>foo) */
  g_assert_cmpuint (fc_frame_details_get_stats (details)->total_samples, ==, 2);

  /* the frame filter is applied once, in the shared tree */
  fc_session_set_frame_filter (session, FC_FRAME_FILTER_APPLICATION);
  while (fc_call_tree_view_get_busy (view) || fc_frame_details_get_busy (details))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_builds, ==, 2);
  g_assert_cmpint (fc_call_tree_get_frames (fc_flame_graph_get_tree (graph)), ==, FC_FRAME_FILTER_APPLICATION);
  g_assert_cmpint (fc_filtered_tree_get_filter (fc_call_tree_view_get_filtered_tree (view)), ==,
                   FC_FRAME_FILTER_APPLICATION);

  fc_flame_view_set_session (FC_FLAME_VIEW (graph), NULL);
  fc_frame_details_set_session (details, NULL);
  fc_call_tree_view_set_session (view, NULL);
  g_assert_finalize_object (graph);
  g_assert_finalize_object (details);
  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
}

static void
test_dark (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  AdwStyleManager *style = adw_style_manager_get_default ();
  FcSession *session = fc_session_new ();
  FcFlameChart *chart = FC_FLAME_CHART (g_object_ref_sink (fc_flame_chart_new ()));
  GtkWidget *window = gtk_window_new ();

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  fc_flame_view_set_session (FC_FLAME_VIEW (chart), session);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (chart));
  gtk_window_present (GTK_WINDOW (window));
  while (fc_flame_view_get_layout (FC_FLAME_VIEW (chart)) == NULL || gtk_widget_get_width (GTK_WIDGET (chart)) == 0)
    g_main_context_iteration (NULL, TRUE);

  /* the style manager says, not the colour of the text */
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_false (fc_flame_view_is_dark (FC_FLAME_VIEW (chart)));
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (fc_flame_view_is_dark (FC_FLAME_VIEW (chart)));
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_false (fc_flame_view_is_dark (FC_FLAME_VIEW (chart)));

  /* the selection colour comes from the stylesheet's accent */
  {
    const GdkRGBA *accent = fc_flame_view_get_accent (FC_FLAME_VIEW (chart));

    g_assert_cmpfloat (accent->blue, >, accent->red);
    g_assert_cmpfloat (accent->alpha, ==, 1.0);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (chart);
  g_assert_finalize_object (session);
}

static void
test_ruler_format (void)
{
  static const struct {
    gint64      offset_ns;
    gint64      step_ns;
    const char *text;
  } cases[] = {
    /* zoomed in far: neighbouring ticks never print the same */
    { 1680000000, 2000000, "1.680 s" },
    { 1682000000, 2000000, "1.682 s" },
    { 1680500000, 500000, "1.6805 s" },
    { 1680000020, 20, "1.68000002 s" },
    { 250000000, 10000000, "250 ms" },
    { 40000, 20000, "40 µs" },
    { 3 * G_GINT64_CONSTANT (1000000000), G_GINT64_CONSTANT (1000000000), "3 s" },
    /* long recordings read as clocks do */
    { 1000 * G_GINT64_CONSTANT (1000000000), 20 * G_GINT64_CONSTANT (1000000000), "16 min 40 s" },
    { 1200 * G_GINT64_CONSTANT (1000000000), 300 * G_GINT64_CONSTANT (1000000000), "20 min" },
    { 3720 * G_GINT64_CONSTANT (1000000000), 600 * G_GINT64_CONSTANT (1000000000), "1 h 02 min" },
    { 65500 * G_GINT64_CONSTANT (1000000), 500 * G_GINT64_CONSTANT (1000000), "1 min 05.5 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = fc_time_ruler_format_tick (cases[i].offset_ns, cases[i].step_ns);

      g_assert_cmpstr (text, ==, cases[i].text);
    }

  g_assert_cmpint (fc_time_ruler_step (1e6 / 110.0 * 0.9), ==, 1000000);
  /* 3 min per 110 px: ticks every 5 minutes, never at 200 s */
  g_assert_cmpint (fc_time_ruler_step (180e9 / 110.0), ==, 300 * G_GINT64_CONSTANT (1000000000));
  g_assert_cmpint (fc_time_ruler_first_tick (100, 250, 100), ==, 300);
  g_assert_cmpint (fc_time_ruler_first_tick (100, 300, 100), ==, 300);
}

/* one duration format for tooltips, details and the ruler's selection */
static void
test_format (void)
{
  static const struct {
    gint64      ns;
    const char *text;
  } durations[] = {
    { 850, "850 ns" },
    { 1500000, "1.50 ms" },
    { G_GINT64_CONSTANT (2500000000), "2.50 s" },
    { G_GINT64_CONSTANT (1000000000000), "16 min 40 s" },
    { G_GINT64_CONSTANT (3720000000000), "1 h 02 min" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    {
      g_autofree char *text = fc_format_duration (durations[i].ns);

      g_assert_cmpstr (text, ==, durations[i].text);
    }

  /* 17 ms of 59 s is not nothing */
  {
    g_autofree char *small = fc_format_percent (17 * FC_TEST_MS, 59000 * FC_TEST_MS);
    g_autofree char *usual = fc_format_percent (1, 8);
    g_autofree char *none = fc_format_percent (0, 8);

    g_assert_cmpstr (small, ==, "0.029%");
    g_assert_cmpstr (usual, ==, "12.5%");
    g_assert_cmpstr (none, ==, "0.0%");
  }
}

static void
test_ruler (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  FcSession *session = fc_session_new ();
  FcTimeRuler *ruler = FC_TIME_RULER (g_object_ref_sink (fc_time_ruler_new ()));
  GtkWidget *window = gtk_window_new ();
  GPtrArray *labels;
  gint64 begin, end;

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  fc_time_ruler_set_session (ruler, session);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 22);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (ruler));
  gtk_window_present (GTK_WINDOW (window));

  /* zoomed in to 40 µs over 800 px: ticks every 10 µs from the profile's
   * origin, and no two labels alike */
  fc_session_get_thread_range (session, &begin, &end);
  fc_session_zoom_to (session, AT (1.68), AT (1.68) + 40000);
  do
    {
      g_main_context_iteration (NULL, TRUE);
      labels = fc_time_ruler_get_labels (ruler);
    }
  while (labels->len == 0);
  g_assert_cmpuint (labels->len, ==, 4);
  for (guint i = 1; i < labels->len; i++)
    g_assert_cmpstr (g_ptr_array_index (labels, i - 1), !=, g_ptr_array_index (labels, i));
  g_assert_cmpstr (g_ptr_array_index (labels, 0), ==, "1.68 ms");
  g_assert_cmpstr (g_ptr_array_index (labels, 1), ==, "1.69 ms");

  /* what covers the ruler's right end (the flamechart's lane button) takes
   * the last label, whose text starts 600 px in, not its tick: it was
   * drawn under the button, "1.7⊞ ms" */
  fc_time_ruler_set_end_inset (ruler, 180);
  g_ptr_array_set_size (labels, 0);
  while (labels->len == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (labels->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (labels, 2), ==, "1.70 ms");
  fc_time_ruler_set_end_inset (ruler, 0);

  /* a selection shows its length */
  fc_session_set_selection (session, AT (1.68), AT (1.68) + 12500);
  g_ptr_array_set_size (labels, 0);
  while (labels->len == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (g_ptr_array_index (labels, labels->len - 1), ==, "12.5 µs");

  gtk_window_destroy (GTK_WINDOW (window));
  fc_time_ruler_set_session (ruler, NULL);
  g_assert_finalize_object (ruler);
  g_assert_finalize_object (session);
}

/* the action each key of @widget's class shortcuts names, as "keyval action" lines */
static GString *
key_actions (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  GString *lines = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint s = 0; s < g_list_model_get_n_items (G_LIST_MODEL (controller)); s++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), s);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) && GTK_IS_NAMED_ACTION (action))
            g_string_append_printf (lines, "%s %s\n", gdk_keyval_name (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger))),
                                    gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)));
        }
    }
  return lines;
}

/* The flamechart and the flamegraph zoom on the same keys, each with its
 * own zoom (time range; call tree node). */
static void
test_zoom_keys (void)
{
  static const char * const keys[][2] = {
    { "plus", "zoom-in" }, { "equal", "zoom-in" }, { "KP_Add", "zoom-in" },
    { "minus", "zoom-out" }, { "KP_Subtract", "zoom-out" },
    { "0", "zoom-reset" }, { "KP_0", "zoom-reset" },
  };
  GtkWidget *chart = g_object_ref_sink (fc_flame_chart_new ());
  GtkWidget *graph = g_object_ref_sink (fc_flame_graph_new ());
  struct { GtkWidget *widget; const char *prefix; } views[] = { { chart, "flamechart" }, { graph, "flamegraph" } };

  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      g_autoptr(GString) lines = key_actions (views[v].widget);

      g_test_message ("%s:\n%s", views[v].prefix, lines->str);
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          g_autofree char *line = g_strdup_printf ("%s %s.%s\n", keys[k][0], views[v].prefix, keys[k][1]);

          g_assert_nonnull (strstr (lines->str, line));
        }
    }
  /* with no session there is nothing to zoom, and nothing breaks */
  g_assert_true (gtk_widget_activate_action (chart, "flamechart.zoom-in", NULL));
  g_assert_true (gtk_widget_activate_action (graph, "flamegraph.zoom-reset", NULL));
  g_object_unref (chart);
  g_object_unref (graph);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/app/flame-view/one-tree", test_one_tree);
  g_test_add_func ("/app/flame-view/dark", test_dark);
  g_test_add_func ("/app/flame-view/ruler-format", test_ruler_format);
  g_test_add_func ("/app/flame-view/ruler", test_ruler);
  g_test_add_func ("/app/flame-view/format", test_format);
  g_test_add_func ("/app/flame-view/zoom-keys", test_zoom_keys);

  return g_test_run ();
}
