/* test-filtered-tree.c - the call tree the call tree view shows, for one frame filter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "flamecast.h"
#include "fc-test-profiles.h"

/* the node a path from fc_filtered_tree_find_path() leads to */
static const FcFilteredTreeNode *
follow (FcFilteredTree *tree,
        GArray         *path)
{
  const FcFilteredTreeNode *node = fc_filtered_tree_get_root (tree);

  for (guint i = 0; i < path->len; i++)
    {
      g_assert_cmpuint (g_array_index (path, guint, i), <, fc_filtered_tree_node_get_n_children (node));
      node = fc_filtered_tree_node_get_child (node, g_array_index (path, guint, i));
    }
  return node;
}

static void
test_shares_tree (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcCallTree) call_tree = fc_call_tree_new_full (profile, 0, 0, 0, FALSE, FC_FRAME_FILTER_APPLICATION);
  g_autoptr(FcFilteredTree) tree = fc_filtered_tree_new (call_tree);
  const FcFilteredTreeNode *root = fc_filtered_tree_get_root (tree);
  const FcFilteredTreeNode *main_node;

  /* the same nodes, not a copy */
  g_assert_true (fc_filtered_tree_get_tree (tree) == call_tree);
  g_assert_true (root == fc_call_tree_get_root (call_tree));
  g_assert_true (fc_filtered_tree_get_profile (tree) == profile);
  g_assert_cmpint (fc_filtered_tree_get_thread (tree), ==, 0);
  g_assert_false (fc_filtered_tree_is_bottom_up (tree));
  g_assert_cmpint (fc_filtered_tree_get_filter (tree), ==, FC_FRAME_FILTER_APPLICATION);

  /* application frames only: bar's and baz's time is their callers' own */
  g_assert_cmpuint (fc_filtered_tree_node_get_n_children (root), ==, 1);
  main_node = fc_filtered_tree_node_get_child (root, 0);
  g_assert_cmpuint (fc_filtered_tree_node_get_frame (main_node), ==, FC_TEST_MAIN);
  g_assert_cmpuint (fc_filtered_tree_node_get_total (main_node), ==, 6);
  g_assert_cmpuint (fc_filtered_tree_node_get_n_children (main_node), ==, 1);
  g_assert_cmpuint (fc_filtered_tree_node_get_frame (fc_filtered_tree_node_get_child (main_node, 0)), ==, FC_TEST_FOO);
  g_assert_cmpuint (fc_filtered_tree_node_get_total (fc_filtered_tree_node_get_child (main_node, 0)), ==, 4);
  g_assert_cmpint (fc_filtered_tree_node_get_total_ns (main_node), ==,
                   fc_filtered_tree_node_get_self_ns (main_node) +
                   fc_filtered_tree_node_get_total_ns (fc_filtered_tree_node_get_child (main_node, 0)));

  /* a reference keeps the call tree: the root counts the empty sample too */
  g_clear_pointer (&call_tree, fc_call_tree_unref);
  g_assert_cmpuint (fc_filtered_tree_node_get_total (fc_filtered_tree_get_root (tree)), ==, 7);
}

static void
test_find_path (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcCallTree) all = fc_call_tree_new_full (profile, -1, 0, 0, FALSE, FC_FRAME_FILTER_ALL);
  g_autoptr(FcCallTree) app = fc_call_tree_new_full (profile, -1, 0, 0, FALSE, FC_FRAME_FILTER_APPLICATION);
  g_autoptr(FcFilteredTree) all_tree = fc_filtered_tree_new (all);
  g_autoptr(FcFilteredTree) app_tree = fc_filtered_tree_new (app);
  g_autoptr(GArray) bar = fc_filtered_tree_find_path (all_tree, FC_TEST_BAR);
  g_autoptr(GArray) baz = fc_filtered_tree_find_path (all_tree, FC_TEST_BAZ);
  g_autoptr(GArray) main_path = fc_filtered_tree_find_path (all_tree, FC_TEST_MAIN);
  g_autoptr(GArray) hidden = fc_filtered_tree_find_path (app_tree, FC_TEST_BAR);

  /* bar only under main > foo, three samples */
  g_assert_nonnull (bar);
  g_assert_cmpuint (bar->len, ==, 3);
  g_assert_cmpuint (fc_filtered_tree_node_get_frame (follow (all_tree, bar)), ==, FC_TEST_BAR);
  g_assert_cmpuint (fc_filtered_tree_node_get_total (follow (all_tree, bar)), ==, 3);
  /* baz right under main, on both threads: 2 + 2 */
  g_assert_cmpuint (baz->len, ==, 2);
  g_assert_cmpuint (fc_filtered_tree_node_get_frame (follow (all_tree, baz)), ==, FC_TEST_BAZ);
  g_assert_cmpuint (fc_filtered_tree_node_get_total (follow (all_tree, baz)), ==, 4);
  g_assert_cmpuint (main_path->len, ==, 1);
  /* a frame the filter hides has no node */
  g_assert_null (hidden);
  g_assert_null (fc_filtered_tree_find_path (all_tree, 4242));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/filtered-tree/shares-tree", test_shares_tree);
  g_test_add_func ("/core/filtered-tree/find-path", test_find_path);

  return g_test_run ();
}
