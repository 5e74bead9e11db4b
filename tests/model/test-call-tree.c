/* test-call-tree.c - call paths aggregated top-down and bottom-up
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-call-tree.h"
#include "fc-sample-weights.h"
#include "fc-test-profiles.h"

static const FcCallTreeNode *
find_child (const FcCallTreeNode *node,
            guint32               frame)
{
  for (guint i = 0; i < fc_call_tree_node_get_n_children (node); i++)
    if (fc_call_tree_node_get_frame (fc_call_tree_node_get_child (node, i)) == frame)
      return fc_call_tree_node_get_child (node, i);
  return NULL;
}

static void
assert_node (const FcCallTreeNode *node,
             guint64               self,
             guint64               total,
             gint64                self_ms,
             gint64                total_ms)
{
  g_assert_nonnull (node);
  g_assert_cmpuint (fc_call_tree_node_get_self (node), ==, self);
  g_assert_cmpuint (fc_call_tree_node_get_total (node), ==, total);
  g_assert_cmpint (fc_call_tree_node_get_self_ns (node), ==, self_ms * FC_TEST_MS);
  g_assert_cmpint (fc_call_tree_node_get_total_ns (node), ==, total_ms * FC_TEST_MS);
}

static void
test_weights (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcSampleWeights) w0 = fc_sample_weights_new (profile, 0);
  g_autoptr(FcSampleWeights) w1 = fc_sample_weights_new (profile, 1);
  const gint64 expected[] = { 10, 10, 10, 10, 10, 20, 10 };

  g_assert_cmpuint (w0->n_samples, ==, 7);
  g_assert_cmpint (w0->median_interval_ns, ==, 10 * FC_TEST_MS);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpint (w0->durations_ns[i], ==, expected[i] * FC_TEST_MS);
  g_assert_cmpuint (fc_sample_weights_lower_bound (w0, FC_TEST_BASE_NS + 15 * FC_TEST_MS), ==, 2);
  g_assert_cmpuint (fc_sample_weights_lower_bound (w0, FC_TEST_BASE_NS + 20 * FC_TEST_MS), ==, 2);
  g_assert_cmpuint (fc_sample_weights_lower_bound (w0, FC_TEST_BASE_NS + 1000 * FC_TEST_MS), ==, 7);

  g_assert_cmpuint (w1->n_samples, ==, 2);
  g_assert_cmpint (w1->durations_ns[0], ==, 5 * FC_TEST_MS);
  g_assert_cmpint (w1->durations_ns[1], ==, 5 * FC_TEST_MS);
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The median interval of many irregular samples is the sorted middle one;
 * where most samples share a timestamp, the shortest real interval. */
static void
test_weights_median (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) bursts = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcSampleWeights) weights = NULL;
  g_autoptr(FcSampleWeights) burst_weights = NULL;
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint32 thread = fc_profile_ensure_thread (profile, "1");
  guint32 burst_thread = fc_profile_ensure_thread (bursts, "1");
  gint64 ts = FC_TEST_BASE_NS;

  for (guint i = 0; i < 4001; i++)
    {
      gint64 interval = g_rand_int_range (rand, 1, 50) * (gint64) g_rand_int_range (rand, 1, 5) * 1000;

      if (i > 0)
        g_array_append_val (intervals, interval);
      ts += i > 0 ? interval : 0;
      fc_profile_append_sample (profile, ts, thread, FC_STACK_EMPTY, 0);
    }
  fc_profile_finish (profile);
  g_array_sort (intervals, compare_gint64);
  weights = fc_sample_weights_new (profile, thread);
  g_assert_cmpint (weights->median_interval_ns, ==, g_array_index (intervals, gint64, intervals->len / 2));

  /* ten samples per tick, ticks 7 ms and 9 ms apart */
  ts = FC_TEST_BASE_NS;
  for (guint tick = 0; tick < 20; tick++, ts += (tick % 2 ? 7 : 9) * FC_TEST_MS)
    for (guint i = 0; i < 10; i++)
      fc_profile_append_sample (bursts, ts, burst_thread, FC_STACK_EMPTY, 0);
  fc_profile_finish (bursts);
  burst_weights = fc_sample_weights_new (bursts, burst_thread);
  g_assert_cmpint (burst_weights->median_interval_ns, ==, 7 * FC_TEST_MS);
}

static void
test_top_down (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcCallTree) tree = fc_call_tree_new (profile, 0, 0, 0, FALSE);
  const FcCallTreeNode *root = fc_call_tree_get_root (tree);
  const FcCallTreeNode *main_n, *foo, *bar, *baz;

  g_assert_false (fc_call_tree_is_bottom_up (tree));
  g_assert_cmpuint (fc_call_tree_node_get_frame (root), ==, FC_CALL_TREE_ROOT_FRAME);
  g_assert_null (fc_call_tree_node_get_parent (root));
  /* the empty sample at 50 is the root's own time */
  assert_node (root, 1, 7, 20, 80);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (root), ==, 1);

  main_n = fc_call_tree_node_get_child (root, 0);
  g_assert_cmpuint (fc_call_tree_node_get_frame (main_n), ==, FC_TEST_MAIN);
  g_assert_true (fc_call_tree_node_get_parent (main_n) == root);
  g_assert_cmpuint (fc_call_tree_node_get_depth (main_n), ==, 1);
  assert_node (main_n, 0, 6, 0, 60);

  /* widest first: foo (40 ms) before baz (20 ms) */
  g_assert_cmpuint (fc_call_tree_node_get_n_children (main_n), ==, 2);
  foo = fc_call_tree_node_get_child (main_n, 0);
  baz = fc_call_tree_node_get_child (main_n, 1);
  g_assert_cmpuint (fc_call_tree_node_get_frame (foo), ==, FC_TEST_FOO);
  g_assert_cmpuint (fc_call_tree_node_get_frame (baz), ==, FC_TEST_BAZ);
  assert_node (foo, 1, 4, 10, 40);
  assert_node (baz, 2, 2, 20, 20);

  bar = find_child (foo, FC_TEST_BAR);
  assert_node (bar, 3, 3, 30, 30);
  g_assert_cmpuint (fc_call_tree_node_get_depth (bar), ==, 3);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (bar), ==, 0);

  g_assert_cmpuint (fc_call_tree_get_n_nodes (tree), ==, 5);
  g_assert_cmpuint (fc_call_tree_get_max_depth (tree), ==, 3);
  g_assert_true (fc_call_tree_get_node (tree, fc_call_tree_node_get_index (bar)) == bar);
}

static void
test_bottom_up (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcCallTree) tree = fc_call_tree_new (profile, 0, 0, 0, TRUE);
  const FcCallTreeNode *root = fc_call_tree_get_root (tree);
  const FcCallTreeNode *bar, *baz, *foo, *n;

  g_assert_true (fc_call_tree_is_bottom_up (tree));
  assert_node (root, 1, 7, 20, 80);

  /* the leaf functions, by self time: bar 30 ms, baz 20 ms, foo 10 ms */
  g_assert_cmpuint (fc_call_tree_node_get_n_children (root), ==, 3);
  bar = fc_call_tree_node_get_child (root, 0);
  baz = fc_call_tree_node_get_child (root, 1);
  foo = fc_call_tree_node_get_child (root, 2);
  g_assert_cmpuint (fc_call_tree_node_get_frame (bar), ==, FC_TEST_BAR);
  g_assert_cmpuint (fc_call_tree_node_get_frame (baz), ==, FC_TEST_BAZ);
  g_assert_cmpuint (fc_call_tree_node_get_frame (foo), ==, FC_TEST_FOO);
  assert_node (bar, 3, 3, 30, 30);
  assert_node (baz, 2, 2, 20, 20);
  assert_node (foo, 1, 1, 10, 10);

  /* callers: bar <- foo <- main */
  n = find_child (bar, FC_TEST_FOO);
  assert_node (n, 3, 3, 30, 30);
  n = find_child (n, FC_TEST_MAIN);
  assert_node (n, 3, 3, 30, 30);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (n), ==, 0);
  g_assert_cmpuint (fc_call_tree_node_get_depth (n), ==, 3);

  n = find_child (foo, FC_TEST_MAIN);
  assert_node (n, 1, 1, 10, 10);
  g_assert_null (find_child (foo, FC_TEST_BAR));
}

static void
test_range_and_threads (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcCallTree) range = NULL;
  g_autoptr(FcCallTree) all = NULL;
  const FcCallTreeNode *main_n, *foo;
  gint64 begin, end;

  /* [10, 40): the samples at 10, 20 and 30 */
  range = fc_call_tree_new (profile, 0, FC_TEST_BASE_NS + 10 * FC_TEST_MS,
                            FC_TEST_BASE_NS + 40 * FC_TEST_MS, FALSE);
  fc_call_tree_get_range (range, &begin, &end);
  g_assert_cmpint (begin, ==, FC_TEST_BASE_NS + 10 * FC_TEST_MS);
  g_assert_cmpint (end, ==, FC_TEST_BASE_NS + 40 * FC_TEST_MS);
  assert_node (fc_call_tree_get_root (range), 0, 3, 0, 30);
  main_n = find_child (fc_call_tree_get_root (range), FC_TEST_MAIN);
  foo = find_child (main_n, FC_TEST_FOO);
  assert_node (foo, 1, 2, 10, 20);
  assert_node (find_child (foo, FC_TEST_BAR), 1, 1, 10, 10);
  assert_node (find_child (main_n, FC_TEST_BAZ), 1, 1, 10, 10);

  /* every thread: thread 1 adds two 5 ms samples of main>baz */
  all = fc_call_tree_new (profile, -1, 0, 0, FALSE);
  g_assert_cmpint (fc_call_tree_get_thread (all), ==, -1);
  assert_node (fc_call_tree_get_root (all), 1, 9, 20, 90);
  main_n = fc_call_tree_node_get_child (fc_call_tree_get_root (all), 0);
  assert_node (main_n, 0, 8, 0, 70);
  assert_node (find_child (main_n, FC_TEST_BAZ), 4, 4, 30, 30);
  assert_node (find_child (main_n, FC_TEST_FOO), 1, 4, 10, 40);
}

static void
test_recursion (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V1);
  g_autoptr(FcCallTree) top = NULL;
  g_autoptr(FcCallTree) bottom = NULL;
  guint32 f = fc_test_frame (profile, "f", "m", TRUE);
  guint32 g = fc_test_frame (profile, "g", "m", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "7");
  const FcCallTreeNode *n;

  /* f>f>f>g, f>f, f>f>f>g at 1 ms intervals */
  fc_test_sample (profile, t, 0, 4, f, f, f, g);
  fc_test_sample (profile, t, 1, 2, f, f);
  fc_test_sample (profile, t, 2, 4, f, f, f, g);

  top = fc_call_tree_new (profile, 0, 0, 0, FALSE);
  n = fc_call_tree_get_root (top);
  for (guint depth = 1; depth <= 3; depth++)
    {
      n = find_child (n, f);
      g_assert_nonnull (n);
      g_assert_cmpuint (fc_call_tree_node_get_depth (n), ==, depth);
    }
  assert_node (n, 0, 2, 0, 2);
  assert_node (fc_call_tree_node_get_parent (n), 1, 3, 1, 3);
  assert_node (find_child (n, g), 2, 2, 2, 2);

  bottom = fc_call_tree_new (profile, 0, 0, 0, TRUE);
  n = fc_call_tree_get_root (bottom);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (n), ==, 2);
  assert_node (fc_call_tree_node_get_child (n, 0), 2, 2, 2, 2);
  g_assert_cmpuint (fc_call_tree_node_get_frame (fc_call_tree_node_get_child (n, 0)), ==, g);
  assert_node (fc_call_tree_node_get_child (n, 1), 1, 1, 1, 1);
}

static void
test_frame_filter (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcCallTree) app = NULL;
  g_autoptr(FcCallTree) system = NULL;
  g_autoptr(FcCallTree) app_bottom = NULL;
  const FcCallTreeNode *root, *main_n, *n;

  /* application frames only: main and foo; bar's time is foo's, baz's
   * main's, the empty sample stays the root's */
  app = fc_call_tree_new_full (profile, 0, 0, 0, FALSE, FC_FRAME_FILTER_APPLICATION);
  g_assert_cmpint (fc_call_tree_get_frames (app), ==, FC_FRAME_FILTER_APPLICATION);
  root = fc_call_tree_get_root (app);
  assert_node (root, 1, 7, 20, 80);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (root), ==, 1);
  main_n = find_child (root, FC_TEST_MAIN);
  assert_node (main_n, 2, 6, 20, 60);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (main_n), ==, 1);
  n = find_child (main_n, FC_TEST_FOO);
  assert_node (n, 4, 4, 40, 40);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (n), ==, 0);
  g_assert_cmpuint (fc_call_tree_get_n_nodes (app), ==, 3);

  /* system frames only: bar and baz move up to the root; main>foo has
   * none, so its sample is the root's own */
  system = fc_call_tree_new_full (profile, 0, 0, 0, FALSE, FC_FRAME_FILTER_SYSTEM);
  root = fc_call_tree_get_root (system);
  assert_node (root, 2, 7, 30, 80);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (root), ==, 2);
  n = fc_call_tree_node_get_child (root, 0);
  g_assert_cmpuint (fc_call_tree_node_get_frame (n), ==, FC_TEST_BAR);
  assert_node (n, 3, 3, 30, 30);
  n = fc_call_tree_node_get_child (root, 1);
  g_assert_cmpuint (fc_call_tree_node_get_frame (n), ==, FC_TEST_BAZ);
  assert_node (n, 2, 2, 20, 20);

  /* bottom-up with application frames: foo (4 samples) <- main, and main
   * alone (2 samples, where baz ran) */
  app_bottom = fc_call_tree_new_full (profile, 0, 0, 0, TRUE, FC_FRAME_FILTER_APPLICATION);
  root = fc_call_tree_get_root (app_bottom);
  assert_node (root, 1, 7, 20, 80);
  n = fc_call_tree_node_get_child (root, 0);
  g_assert_cmpuint (fc_call_tree_node_get_frame (n), ==, FC_TEST_FOO);
  assert_node (n, 4, 4, 40, 40);
  assert_node (find_child (n, FC_TEST_MAIN), 4, 4, 40, 40);
  n = fc_call_tree_node_get_child (root, 1);
  g_assert_cmpuint (fc_call_tree_node_get_frame (n), ==, FC_TEST_MAIN);
  assert_node (n, 2, 2, 20, 20);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (n), ==, 0);
}

static void
built_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  FcCallTree **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = fc_call_tree_new_finish (result, &error);
  g_assert_no_error (error);
}

/* Nodes are one array, parents before children; a node's children come
 * heaviest first, each pointing back to it, one level deeper. Every
 * shape, every filter. */
static void
test_node_order (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  guint32 frames[6];
  guint32 t = fc_profile_ensure_thread (profile, "1");

  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", f);

      frames[f] = fc_test_frame (profile, name, "m", f % 2 == 0);
    }
  for (guint i = 0; i < 3000; i++)
    {
      guint32 leaf_first[8];
      guint depth = g_rand_int_range (rand, 0, 8);

      for (guint d = 0; d < depth; d++)
        leaf_first[d] = frames[g_rand_int_range (rand, 0, G_N_ELEMENTS (frames))];
      fc_profile_append_sample (profile, FC_TEST_BASE_NS + i * FC_TEST_MS, t,
                                fc_profile_intern_stack_frames (profile, leaf_first, depth), 0);
    }
  fc_profile_finish (profile);

  for (guint shape = 0; shape < 6; shape++)
    {
      g_autoptr(FcCallTree) tree = fc_call_tree_new_full (profile, 0, 0, 0, shape % 2, shape / 2);
      guint n = fc_call_tree_get_n_nodes (tree);
      guint64 leaves = 0;

      g_assert_cmpuint (n, >, 100);
      g_assert_null (fc_call_tree_node_get_parent (fc_call_tree_get_root (tree)));
      for (guint i = 0; i < n; i++)
        {
          const FcCallTreeNode *node = fc_call_tree_get_node (tree, i);
          guint64 children_total = 0;

          g_assert_cmpuint (fc_call_tree_node_get_index (node), ==, i);
          for (guint c = 0; c < fc_call_tree_node_get_n_children (node); c++)
            {
              const FcCallTreeNode *child = fc_call_tree_node_get_child (node, c);

              g_assert_true (fc_call_tree_node_get_parent (child) == node);
              g_assert_cmpuint (fc_call_tree_node_get_index (child), >, i);
              g_assert_cmpuint (fc_call_tree_node_get_depth (child), ==, fc_call_tree_node_get_depth (node) + 1);
              if (c > 0)
                g_assert_cmpint (fc_call_tree_node_get_total_ns (child), <=,
                                 fc_call_tree_node_get_total_ns (fc_call_tree_node_get_child (node, c - 1)));
              children_total += fc_call_tree_node_get_total (child);
            }
          /* top-down, a node's time is its own plus its callees' */
          if (shape % 2 == 0)
            g_assert_cmpuint (fc_call_tree_node_get_total (node), ==, fc_call_tree_node_get_self (node) + children_total);
          leaves += fc_call_tree_node_get_self (node);
        }
      g_assert_cmpuint (fc_call_tree_node_get_total (fc_call_tree_get_root (tree)), ==, 3000);
      if (shape % 2 == 0)
        g_assert_cmpuint (leaves, ==, 3000);
    }
}

static void
test_async (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcCallTree) tree = NULL;

  fc_call_tree_new_async (profile, 0, 0, 0, FALSE, NULL, built_cb, &tree);
  while (tree == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (fc_call_tree_get_profile (tree) == profile);
  assert_node (fc_call_tree_get_root (tree), 1, 7, 20, 80);
}

static void
test_empty (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcCallTree) tree = fc_call_tree_new (profile, -1, 0, 0, FALSE);
  g_autoptr(FcCallTree) missing = fc_call_tree_new (profile, 3, 0, 0, TRUE);

  assert_node (fc_call_tree_get_root (tree), 0, 0, 0, 0);
  g_assert_cmpuint (fc_call_tree_get_n_nodes (tree), ==, 1);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (fc_call_tree_get_root (missing)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/call-tree/weights", test_weights);
  g_test_add_func ("/core/call-tree/weights-median", test_weights_median);
  g_test_add_func ("/core/call-tree/top-down", test_top_down);
  g_test_add_func ("/core/call-tree/bottom-up", test_bottom_up);
  g_test_add_func ("/core/call-tree/range-and-threads", test_range_and_threads);
  g_test_add_func ("/core/call-tree/recursion", test_recursion);
  g_test_add_func ("/core/call-tree/frame-filter", test_frame_filter);
  g_test_add_func ("/core/call-tree/node-order", test_node_order);
  g_test_add_func ("/core/call-tree/async", test_async);
  g_test_add_func ("/core/call-tree/empty", test_empty);

  return g_test_run ();
}
