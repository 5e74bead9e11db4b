/* test-compare.c - Compare with: two hand-made profiles with known shares in the real window's differential flamegraph and call tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "fc-diff-tree-view.h"
#include "fc-flame-graph.h"
#include "fc-window.h"
#include "fc-test-util.h"

/* folded stacks; 12 samples before, 5 after */
static const char before_folded[] = "main;foo 6\nmain;bar 3\nmain 1\nmain;old 2\n";
static const char after_folded[] = "main;foo 1\nmain;bar;baz 3\nmain 1\n";

static GFile *
write_profile (const char *dir,
               const char *name,
               const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_file_new_for_path (path);
}

static void
wait_loaded (FcWindow *window)
{
  g_assert_true (fc_window_is_loading (window));
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
}

/* the child of @node labelled @name */
/* asks for a frame and says how many boxes the last one drew */
static guint
queue_draw_and_count (FcFlameGraph *graph)
{
  gtk_widget_queue_draw (GTK_WIDGET (graph));
  return fc_flame_graph_get_n_drawn_boxes (graph);
}

static const FcCallTreeNode *
child_named (FcCallTree           *tree,
             const FcCallTreeNode *node,
             const char           *name)
{
  for (guint c = 0; c < fc_call_tree_node_get_n_children (node); c++)
    {
      const FcCallTreeNode *child = fc_call_tree_node_get_child (node, c);
      char buf[256];

      if (g_str_equal (fc_profile_frame_label (fc_call_tree_get_profile (tree), fc_call_tree_node_get_frame (child),
                                               buf, sizeof buf), name))
        return child;
    }
  g_error ("no child %s", name);
}

static void
test_compare_colours (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fc-compare-XXXXXX", NULL);
  g_autoptr(GFile) before = write_profile (dir, "before.txt", before_folded);
  g_autoptr(GFile) after = write_profile (dir, "after.txt", after_folded);
  FcWindow *window = g_object_ref (fc_window_new (NULL));
  FcFlameGraph *graph = fc_window_get_part (window, "flame_graph");
  const FcCallTreeNode *root, *main_node, *foo, *bar, *baz;
  FcCallTree *tree;
  double delta;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 600);
  gtk_window_present (GTK_WINDOW (window));
  fc_window_open_file (window, after);
  wait_loaded (window);
  g_assert_false (fc_flame_graph_has_diff (graph));

  /* the action's path: the chooser hands its file to fc_window_compare_file() */
  g_assert_true (g_action_get_enabled (g_action_map_lookup_action (G_ACTION_MAP (window), "compare")));
  fc_window_compare_file (window, before);
  wait_loaded (window);
  g_assert_true (fc_flame_graph_has_diff (graph));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (fc_window_get_part (window, "view_stack")), ==, "flamegraph");
  /* the window still shows the after profile */
  g_assert_true (g_file_equal (fc_window_get_file (window), after));

  while ((tree = fc_flame_graph_get_tree (graph)) == NULL)
    g_main_context_iteration (NULL, TRUE);
  root = fc_call_tree_get_root (tree);
  main_node = child_named (tree, root, "main");
  foo = child_named (tree, main_node, "foo");
  bar = child_named (tree, main_node, "bar");
  baz = child_named (tree, bar, "baz");

  /* main: all samples both times */
  g_assert_cmpint (fc_flame_graph_get_node_diff (graph, main_node, &delta), ==, FC_FLAME_DIFF_SAME);
  g_assert_cmpfloat_with_epsilon (delta, 0, 1e-9);
  /* main;foo 50% -> 20%: blue */
  g_assert_cmpint (fc_flame_graph_get_node_diff (graph, foo, &delta), ==, FC_FLAME_DIFF_LESS);
  g_assert_cmpfloat_with_epsilon (delta, -0.3, 1e-9);
  /* main;bar 25% -> 60%: red */
  g_assert_cmpint (fc_flame_graph_get_node_diff (graph, bar, &delta), ==, FC_FLAME_DIFF_MORE);
  g_assert_cmpfloat_with_epsilon (delta, 0.35, 1e-9);
  /* main;bar;baz was on no stack before */
  g_assert_cmpint (fc_flame_graph_get_node_diff (graph, baz, &delta), ==, FC_FLAME_DIFF_NEW);
  g_assert_cmpfloat_with_epsilon (delta, 0.6, 1e-9);

  /* it draws: every box of the small tree */
  adw_view_stack_set_visible_child_name (fc_window_get_part (window, "view_stack"), "flamegraph");
  fc_test_poll_until (queue_draw_and_count (graph) > 0);
  g_assert_cmpuint (fc_flame_graph_get_n_drawn_boxes (graph), ==, 4);

  /* the before shape, through the window's toggle: main;old vanished */
  g_action_group_activate_action (G_ACTION_GROUP (window), "compare-show-before", NULL);
  tree = fc_flame_graph_get_tree (graph);
  root = fc_call_tree_get_root (tree);
  main_node = child_named (tree, root, "main");
  g_assert_cmpint (fc_flame_graph_get_node_diff (graph, child_named (tree, main_node, "old"), &delta), ==,
                   FC_FLAME_DIFF_VANISHED);
  g_assert_cmpfloat_with_epsilon (delta, -2.0 / 12, 1e-9);
  g_assert_cmpint (fc_flame_graph_get_node_diff (graph, child_named (tree, main_node, "foo"), NULL), ==,
                   FC_FLAME_DIFF_LESS);
  g_action_group_activate_action (G_ACTION_GROUP (window), "compare-show-before", NULL);
  tree = fc_flame_graph_get_tree (graph);
  g_assert_cmpint (fc_flame_graph_get_node_diff (graph, child_named (tree, fc_call_tree_get_root (tree), "main"),
                                                 NULL), ==, FC_FLAME_DIFF_SAME);

  /* opening another file ends the comparison */
  fc_window_open_file (window, before);
  wait_loaded (window);
  g_assert_false (fc_flame_graph_has_diff (graph));

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  g_remove (g_file_peek_path (before));
  g_remove (g_file_peek_path (after));
  g_rmdir (dir);
}

/* the text of the row at @position in each column, joined by " | " */
static char *
row_text (GListModel *rows,
          guint       position)
{
  g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (rows, position);
  g_autoptr(FcDiffRow) row = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  g_assert_nonnull (tree_row);
  row = gtk_tree_list_row_get_item (tree_row);
  for (FcDiffColumn c = 0; c < FC_DIFF_N_COLUMNS; c++)
    {
      g_autofree char *cell = fc_diff_row_format (row, c);

      g_string_append_printf (text, "%s%s", c > 0 ? " | " : "", cell);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
assert_row (GListModel *rows,
            guint       position,
            const char *expected)
{
  g_autofree char *text = row_text (rows, position);

  g_assert_cmpstr (text, ==, expected);
}

/* whether a label under @widget shows @text: the cells are drawn, not only modelled */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

static void
test_compare_call_tree (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fc-compare-XXXXXX", NULL);
  g_autoptr(GFile) before = write_profile (dir, "before.txt", before_folded);
  g_autoptr(GFile) after = write_profile (dir, "after.txt", after_folded);
  FcWindow *window = g_object_ref (fc_window_new (NULL));
  FcDiffTreeView *view = fc_window_get_part (window, "diff_tree_view");
  GListModel *rows = fc_diff_tree_view_get_model (view);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 600);
  gtk_window_present (GTK_WINDOW (window));
  fc_window_open_file (window, after);
  wait_loaded (window);
  /* no comparison yet: no Compare page */
  g_assert_false (adw_view_stack_page_get_visible (fc_window_get_part (window, "compare_page")));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);

  fc_window_compare_file (window, before);
  wait_loaded (window);
  g_assert_true (adw_view_stack_page_get_visible (fc_window_get_part (window, "compare_page")));
  g_assert_nonnull (fc_diff_tree_view_get_diff (view));

  /* before 12 samples, after 5; shares of each, deltas in points. Opened
   * on the biggest |Δ total| first: main, then bar (+35) with baz (new),
   * then foo (−30) and old (vanished, −16.7) */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  assert_row (rows, 0, "main | 8.3% | 20.0% | +11.7 | 100.0% | 100.0% | 0.0");
  assert_row (rows, 1, "bar | 25.0% | 0.0% | −25.0 | 25.0% | 60.0% | +35.0");
  assert_row (rows, 2, "baz | — | 60.0% | +60.0 | — | 60.0% | +60.0");
  assert_row (rows, 3, "foo | 50.0% | 20.0% | −30.0 | 50.0% | 20.0% | −30.0");
  assert_row (rows, 4, "old | 16.7% | — | −16.7 | 16.7% | — | −16.7");

  /* by the change of self time, biggest first whichever way it went */
  fc_diff_tree_view_sort_by (view, FC_DIFF_COLUMN_DELTA_SELF, GTK_SORT_DESCENDING);
  assert_row (rows, 1, "foo | 50.0% | 20.0% | −30.0 | 50.0% | 20.0% | −30.0");
  assert_row (rows, 2, "bar | 25.0% | 0.0% | −25.0 | 25.0% | 60.0% | +35.0");
  assert_row (rows, 4, "old | 16.7% | — | −16.7 | 16.7% | — | −16.7");
  /* by the after share, smallest first: old (none) before foo (20%) */
  fc_diff_tree_view_sort_by (view, FC_DIFF_COLUMN_AFTER_TOTAL, GTK_SORT_ASCENDING);
  assert_row (rows, 1, "old | 16.7% | — | −16.7 | 16.7% | — | −16.7");
  assert_row (rows, 2, "foo | 50.0% | 20.0% | −30.0 | 50.0% | 20.0% | −30.0");
  /* by name */
  fc_diff_tree_view_sort_by (view, FC_DIFF_COLUMN_FUNCTION, GTK_SORT_ASCENDING);
  assert_row (rows, 1, "bar | 25.0% | 0.0% | −25.0 | 25.0% | 60.0% | +35.0");
  assert_row (rows, 3, "foo | 50.0% | 20.0% | −30.0 | 50.0% | 20.0% | −30.0");
  assert_row (rows, 4, "old | 16.7% | — | −16.7 | 16.7% | — | −16.7");

  /* the page draws its cells */
  adw_view_stack_set_visible_child_name (fc_window_get_part (window, "view_stack"), "compare");
  fc_test_poll_until (shows_label (GTK_WIDGET (view), "+35.0"));
  g_assert_true (shows_label (GTK_WIDGET (view), "baz"));

  /* opening another file ends the comparison, and the page goes */
  fc_window_open_file (window, before);
  wait_loaded (window);
  g_assert_false (adw_view_stack_page_get_visible (fc_window_get_part (window, "compare_page")));
  g_assert_null (fc_diff_tree_view_get_diff (view));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  g_remove (g_file_peek_path (before));
  g_remove (g_file_peek_path (after));
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/compare/colours", test_compare_colours);
  g_test_add_func ("/app/compare/call-tree", test_compare_call_tree);

  return fc_test_run ();
}
