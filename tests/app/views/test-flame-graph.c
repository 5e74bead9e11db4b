/* test-flame-graph.c - the aggregated flamegraph: geometry, focus, range, search
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>

#include "fc-flame-graph.h"
#include "fc-session.h"
#include "fc-test-profiles.h"

#define AT(ms) (FC_TEST_BASE_NS + (gint64) ((ms) * FC_TEST_MS))
#define WIDTH  800
#define HEIGHT 200
#define ROW(r) ((r) * FC_FLAME_GRAPH_ROW_HEIGHT + 5.0)

static guint32
frame_at (FcFlameGraph *graph,
          double        x,
          double        y)
{
  const FcCallTreeNode *node = fc_flame_graph_node_at (graph, x, y);

  return node ? fc_call_tree_node_get_frame (node) : G_MAXUINT32;
}

static void
test_flame_graph (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(GskRenderNode) node = NULL;
  FcSession *session = fc_session_new ();
  FcFlameGraph *graph;
  const FcCallTreeNode *foo;
  GtkWidget *window;
  graphene_rect_t bounds;
  FcCallTree *tree;

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);

  graph = FC_FLAME_GRAPH (g_object_ref_sink (fc_flame_graph_new ()));
  fc_flame_view_set_session (FC_FLAME_VIEW (graph), session);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (graph));
  gtk_window_present (GTK_WINDOW (window));
  while (fc_flame_graph_get_tree (graph) == NULL || gtk_widget_get_width (GTK_WIDGET (graph)) != WIDTH)
    g_main_context_iteration (NULL, TRUE);

  /* thread 0 weighs 80 ms: 10 px per ms. main 60 ms (the empty sample's
   * 20 ms stay blank on the right), under it foo 40 ms left of baz 20 ms,
   * under foo bar 30 ms */
  tree = fc_flame_graph_get_tree (graph);
  g_assert_cmpint (fc_call_tree_node_get_total_ns (fc_call_tree_get_root (tree)), ==, 80 * FC_TEST_MS);
  g_assert_cmpuint (frame_at (graph, 10, ROW (0)), ==, FC_TEST_MAIN);
  g_assert_cmpuint (frame_at (graph, 599, ROW (0)), ==, FC_TEST_MAIN);
  g_assert_cmpuint (frame_at (graph, 601, ROW (0)), ==, G_MAXUINT32);
  g_assert_cmpuint (frame_at (graph, 350, ROW (1)), ==, FC_TEST_FOO);
  g_assert_cmpuint (frame_at (graph, 450, ROW (1)), ==, FC_TEST_BAZ);
  g_assert_cmpuint (frame_at (graph, 250, ROW (2)), ==, FC_TEST_BAR);
  g_assert_cmpuint (frame_at (graph, 350, ROW (2)), ==, G_MAXUINT32);
  g_assert_cmpuint (frame_at (graph, 250, ROW (3)), ==, G_MAXUINT32);

  fc_flame_graph_get_node_bounds (graph, fc_flame_graph_node_at (graph, 450, ROW (1)), &bounds);
  g_assert_cmpfloat_with_epsilon (bounds.origin.x, 400, 0.001);
  g_assert_cmpfloat_with_epsilon (bounds.size.width, 200, 0.001);
  g_assert_cmpfloat_with_epsilon (bounds.origin.y, FC_FLAME_GRAPH_ROW_HEIGHT, 0.001);

  node = fc_flame_view_render_scene (FC_FLAME_VIEW (graph), WIDTH, HEIGHT);
  g_assert_nonnull (node);
  g_assert_cmpuint (fc_flame_graph_get_n_drawn_boxes (graph), ==, 4);
  g_clear_pointer (&node, gsk_render_node_unref);

  /* focus on foo: its 40 ms fill the width, baz leaves the view */
  foo = fc_flame_graph_node_at (graph, 350, ROW (1));
  fc_flame_graph_set_focus (graph, foo);
  g_assert_true (fc_flame_graph_get_focus (graph) == foo);
  g_assert_cmpuint (frame_at (graph, 790, ROW (1)), ==, FC_TEST_FOO);
  g_assert_cmpuint (frame_at (graph, 590, ROW (2)), ==, FC_TEST_BAR);
  g_assert_cmpuint (frame_at (graph, 610, ROW (2)), ==, G_MAXUINT32);
  node = fc_flame_view_render_scene (FC_FLAME_VIEW (graph), WIDTH, HEIGHT);
  g_assert_cmpuint (fc_flame_graph_get_n_drawn_boxes (graph), ==, 3);
  g_clear_pointer (&node, gsk_render_node_unref);

  gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.zoom-out", NULL);
  g_assert_cmpuint (fc_call_tree_node_get_frame (fc_flame_graph_get_focus (graph)), ==, FC_TEST_MAIN);
  gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.zoom-reset", NULL);
  g_assert_true (fc_flame_graph_get_focus (graph) == fc_call_tree_get_root (fc_flame_graph_get_tree (graph)));

  /* a time selection filters the graph: [10, 40) holds the samples at
   * 10 (main>foo>bar), 20 (main>foo) and 30 (main>baz) */
  fc_session_set_selection (session, AT (10), AT (40));
  tree = fc_flame_graph_get_tree (graph);
  g_assert_cmpuint (fc_call_tree_node_get_total (fc_call_tree_get_root (tree)), ==, 3);
  /* 30 ms over 800 px: foo 20 ms, baz 10 ms */
  g_assert_cmpuint (frame_at (graph, 530, ROW (1)), ==, FC_TEST_FOO);
  g_assert_cmpuint (frame_at (graph, 540, ROW (1)), ==, FC_TEST_BAZ);
  fc_session_set_selection (session, 0, 0);
  g_assert_cmpuint (fc_call_tree_node_get_total (fc_call_tree_get_root (fc_flame_graph_get_tree (graph))), ==, 7);

  /* search: matching nodes counted, the others dimmed */
  fc_session_set_search_text (session, "ba");
  g_assert_cmpuint (fc_flame_graph_get_n_matches (graph), ==, 2);
  fc_session_set_search_text (session, NULL);
  g_assert_cmpuint (fc_flame_graph_get_n_matches (graph), ==, 0);

  /* application frames only: main (its 20 ms of baz as self) and foo
   * (with bar's 30 ms) */
  fc_session_set_frame_filter (session, FC_FRAME_FILTER_APPLICATION);
  tree = fc_flame_graph_get_tree (graph);
  g_assert_cmpint (fc_call_tree_get_frames (tree), ==, FC_FRAME_FILTER_APPLICATION);
  g_assert_cmpuint (frame_at (graph, 350, ROW (1)), ==, FC_TEST_FOO);
  g_assert_cmpuint (frame_at (graph, 450, ROW (1)), ==, G_MAXUINT32);
  g_assert_cmpuint (frame_at (graph, 250, ROW (2)), ==, G_MAXUINT32);
  fc_session_set_frame_filter (session, FC_FRAME_FILTER_ALL);
  g_assert_cmpuint (frame_at (graph, 450, ROW (1)), ==, FC_TEST_BAZ);

  /* another thread: thread 1 is main>baz twice, 5 ms each */
  fc_session_set_thread (session, 1);
  tree = fc_flame_graph_get_tree (graph);
  g_assert_cmpint (fc_call_tree_get_thread (tree), ==, 1);
  g_assert_cmpuint (frame_at (graph, 790, ROW (1)), ==, FC_TEST_BAZ);

  fc_session_set_color_mode (session, FC_COLOR_MODE_PACKAGE);
  node = fc_flame_view_render_scene (FC_FLAME_VIEW (graph), WIDTH, HEIGHT);
  g_assert_cmpuint (fc_flame_graph_get_n_drawn_boxes (graph), ==, 2);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (graph);
  g_assert_finalize_object (session);
}

static void
tree_changed_cb (GObject    *graph,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  guint *n_changes = user_data;

  (*n_changes)++;
}

static void
test_big_profile (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  FcSession *session = fc_session_new ();
  FcFlameGraph *graph;
  guint32 thread = fc_profile_ensure_thread (profile, "1");
  guint32 a = fc_test_frame (profile, "a", "m", TRUE);
  guint32 b = fc_test_frame (profile, "b", "m", TRUE);
  guint n_changes = 0;

  /* enough samples for the tree to be built on a worker: a>b, then a */
  for (guint i = 0; i < 30000; i++)
    {
      guint32 leaf_first[2] = { b, a };

      fc_profile_append_sample (profile, FC_TEST_BASE_NS + i * FC_TEST_MS, thread,
                                fc_profile_intern_stack_frames (profile, i < 20000 ? leaf_first : leaf_first + 1,
                                                                i < 20000 ? 2 : 1), 0);
    }
  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);

  graph = FC_FLAME_GRAPH (g_object_ref_sink (fc_flame_graph_new ()));
  g_signal_connect (graph, "notify::tree", G_CALLBACK (tree_changed_cb), &n_changes);
  fc_flame_view_set_session (FC_FLAME_VIEW (graph), session);
  while (fc_flame_graph_get_tree (graph) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fc_call_tree_node_get_total (fc_call_tree_get_root (fc_flame_graph_get_tree (graph))), ==, 30000);

  /* a selection dragged over three motion events: one rebuild, of the last */
  n_changes = 0;
  fc_session_set_selection (session, AT (0), AT (100));
  fc_session_set_selection (session, AT (0), AT (1000));
  fc_session_set_selection (session, AT (19000), AT (21000));
  g_assert_cmpuint (n_changes, ==, 0);
  while (n_changes == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_changes, ==, 1);
  {
    const FcCallTreeNode *root = fc_call_tree_get_root (fc_flame_graph_get_tree (graph));
    const FcCallTreeNode *a_node = fc_call_tree_node_get_child (root, 0);

    g_assert_cmpuint (fc_call_tree_node_get_total (root), ==, 2000);
    g_assert_cmpuint (fc_call_tree_node_get_total (a_node), ==, 2000);
    g_assert_cmpuint (fc_call_tree_node_get_self (a_node), ==, 1000);
  }

  fc_flame_view_set_session (FC_FLAME_VIEW (graph), NULL);
  g_assert_finalize_object (graph);
  g_assert_finalize_object (session);
}

/* 2000 call paths side by side over 800 px: each is 0.4 px wide, and
 * the graph says so instead of looking blank; a click zooms into the
 * widest */
static void
test_sub_pixel (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  FcSession *session = fc_session_new ();
  guint32 t = fc_profile_ensure_thread (profile, "1");
  FcFlameGraph *graph;
  GtkWidget *window;
  g_autoptr(GListModel) controllers = NULL;
  guint32 widest = 0;

  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);
      guint32 frame = fc_test_frame (profile, name, "app", TRUE);
      guint32 leaf = fc_test_frame (profile, "leaf", "app", TRUE);

      fc_test_sample (profile, t, 10 * i, 2, frame, leaf);
      if (i == 0)
        {
          /* f0 twice as wide as the others, and still under a pixel */
          fc_test_sample (profile, t, 10 * i + 5, 2, frame, leaf);
          widest = frame;
        }
    }
  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);

  graph = FC_FLAME_GRAPH (g_object_ref_sink (fc_flame_graph_new ()));
  fc_flame_view_set_session (FC_FLAME_VIEW (graph), session);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (graph));
  gtk_window_present (GTK_WINDOW (window));
  while (fc_flame_graph_get_tree (graph) == NULL || gtk_widget_get_width (GTK_WIDGET (graph)) != WIDTH)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (fc_flame_graph_get_all_sub_pixel (graph));

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (graph));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        g_signal_emit_by_name (controller, "pressed", 1, 400.0, ROW (5));
    }
  g_assert_cmpuint (fc_call_tree_node_get_frame (fc_flame_graph_get_focus (graph)), ==, widest);
  g_assert_false (fc_flame_graph_get_all_sub_pixel (graph));

  gtk_window_destroy (GTK_WINDOW (window));
  fc_flame_view_set_session (FC_FLAME_VIEW (graph), NULL);
  g_assert_finalize_object (graph);
  g_assert_finalize_object (session);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/app/flame-graph/geometry-focus-range-search", test_flame_graph);
  g_test_add_func ("/app/flame-graph/big-profile", test_big_profile);
  g_test_add_func ("/app/flame-graph/sub-pixel", test_sub_pixel);

  return g_test_run ();
}
