/* test-function-details.c - self, total, callers and callees with recursion counted once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-call-tree.h"
#include "fc-function-details.h"
#include "fc-stats.h"
#include "fc-test-profiles.h"

/* One thread sampled every 10 ms, root first:
 *    0 main>fib>fib>fib            (leaf fib)
 *   10 main>fib>fib>add
 *   20 main>fib>add
 *   30 main>fib>fib>fib>fib>add
 *   40 main>other
 *   50 main>fib>other>fib          (fib again, through other)
 * Every sample weighs 10 ms; fib is in five samples, the leaf of two. */
enum { MAIN, FIB, ADD, OTHER };

static FcProfile *
recursive_profile (void)
{
  FcProfile *profile = fc_profile_new (FC_FORMAT_V2);
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 fib = fc_test_frame (profile, "fib", "app", TRUE);
  guint32 add = fc_test_frame (profile, "add", "libm", FALSE);
  guint32 other = fc_test_frame (profile, "other", "app", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "1");

  g_assert_cmpuint (main_f, ==, MAIN);
  g_assert_cmpuint (other, ==, OTHER);
  fc_test_sample (profile, t, 0, 4, main_f, fib, fib, fib);
  fc_test_sample (profile, t, 10, 4, main_f, fib, fib, add);
  fc_test_sample (profile, t, 20, 3, main_f, fib, add);
  fc_test_sample (profile, t, 30, 6, main_f, fib, fib, fib, fib, add);
  fc_test_sample (profile, t, 40, 2, main_f, other);
  fc_test_sample (profile, t, 50, 4, main_f, fib, other, fib);
  fc_profile_finish (profile);
  return profile;
}

static void
assert_link (GArray  *links,
             guint    i,
             guint32  frame,
             guint64  samples)
{
  const FcFunctionLink *link;

  g_assert_cmpuint (i, <, links->len);
  link = &g_array_index (links, FcFunctionLink, i);
  g_assert_cmpuint (link->frame, ==, frame);
  g_assert_cmpuint (link->samples, ==, samples);
  g_assert_cmpint (link->total_ns, ==, (gint64) samples * 10 * FC_TEST_MS);
}

static guint64
sum_links (GArray *links)
{
  guint64 sum = 0;

  for (guint i = 0; i < links->len; i++)
    sum += g_array_index (links, FcFunctionLink, i).samples;
  return sum;
}

static void
test_recursive_function (void)
{
  g_autoptr(FcProfile) profile = recursive_profile ();
  g_autoptr(FcFunctionDetails) fib = fc_function_details_new (profile, 0, 0, 0, FC_FRAME_FILTER_ALL, FIB);

  g_assert_cmpuint (fib->all_samples, ==, 6);
  g_assert_cmpint (fib->all_ns, ==, 60 * FC_TEST_MS);

  /* five samples hold fib, however deep: 50 ms, not the 110 ms of its frames */
  g_assert_cmpuint (fib->total_samples, ==, 5);
  g_assert_cmpint (fib->total_ns, ==, 50 * FC_TEST_MS);
  g_assert_cmpuint (fib->self_samples, ==, 2);
  g_assert_cmpint (fib->self_ns, ==, 20 * FC_TEST_MS);

  /* callers: who called the outermost fib; fib is not its own caller */
  g_assert_cmpuint (fib->callers->len, ==, 1);
  assert_link (fib->callers, 0, MAIN, 5);

  /* callees: what the innermost fib called; they add up to total - self */
  g_assert_cmpuint (fib->callees->len, ==, 1);
  assert_link (fib->callees, 0, ADD, 3);
  g_assert_cmpuint (sum_links (fib->callees), ==, fib->total_samples - fib->self_samples);
  g_assert_cmpuint (sum_links (fib->callers), <=, fib->total_samples);
}

static void
test_indirect_recursion (void)
{
  g_autoptr(FcProfile) profile = recursive_profile ();
  g_autoptr(FcFunctionDetails) other = fc_function_details_new (profile, -1, 0, 0, FC_FRAME_FILTER_ALL, OTHER);
  g_autoptr(FcFunctionDetails) main_d = fc_function_details_new (profile, -1, 0, 0, FC_FRAME_FILTER_ALL, MAIN);

  g_assert_cmpuint (other->total_samples, ==, 2);
  g_assert_cmpuint (other->self_samples, ==, 1);
  /* main at 40 and fib at 50, heaviest first then by frame id */
  g_assert_cmpuint (other->callers->len, ==, 2);
  assert_link (other->callers, 0, MAIN, 1);
  assert_link (other->callers, 1, FIB, 1);
  g_assert_cmpuint (other->callees->len, ==, 1);
  assert_link (other->callees, 0, FIB, 1);

  g_assert_cmpuint (main_d->total_samples, ==, 6);
  g_assert_cmpuint (main_d->self_samples, ==, 0);
  g_assert_cmpuint (main_d->callers->len, ==, 0);
  assert_link (main_d->callees, 0, FIB, 5);
  assert_link (main_d->callees, 1, OTHER, 1);
}

static void
test_range_and_filter (void)
{
  g_autoptr(FcProfile) profile = recursive_profile ();
  /* 10..30 ms: the samples at 10 and 20 */
  g_autoptr(FcFunctionDetails) ranged = fc_function_details_new (profile, 0, FC_TEST_BASE_NS + 10 * FC_TEST_MS,
                                                                 FC_TEST_BASE_NS + 30 * FC_TEST_MS,
                                                                 FC_FRAME_FILTER_ALL, FIB);
  /* application frames only: add (a system frame) leaves every stack */
  g_autoptr(FcFunctionDetails) app = fc_function_details_new (profile, 0, 0, 0, FC_FRAME_FILTER_APPLICATION, FIB);
  g_autoptr(FcFunctionDetails) missing = fc_function_details_new (profile, 0, 0, 0, FC_FRAME_FILTER_ALL, 999);

  g_assert_cmpuint (ranged->all_samples, ==, 2);
  g_assert_cmpuint (ranged->total_samples, ==, 2);
  g_assert_cmpuint (ranged->self_samples, ==, 0);
  assert_link (ranged->callees, 0, ADD, 2);

  g_assert_cmpuint (app->total_samples, ==, 5);
  g_assert_cmpuint (app->self_samples, ==, 5);
  g_assert_cmpuint (app->callees->len, ==, 0);

  g_assert_cmpuint (missing->total_samples, ==, 0);
  g_assert_cmpuint (missing->all_samples, ==, 6);
}

/* The bottom-up tree and the top functions follow the same rule. */
static void
test_bottom_up_and_stats (void)
{
  g_autoptr(FcProfile) profile = recursive_profile ();
  g_autoptr(FcCallTree) tree = fc_call_tree_new (profile, 0, 0, 0, TRUE);
  g_autoptr(GArray) top = fc_stats_top_functions (profile, 0, FALSE, 0);
  const FcCallTreeNode *root = fc_call_tree_get_root (tree);
  guint64 sum = 0;

  for (guint i = 0; i < fc_call_tree_node_get_n_children (root); i++)
    {
      const FcCallTreeNode *leaf = fc_call_tree_node_get_child (root, i);

      sum += fc_call_tree_node_get_total (leaf);
      if (fc_call_tree_node_get_frame (leaf) == FIB)
        {
          /* fib, the leaf of two samples; its callers below sum to that */
          g_assert_cmpuint (fc_call_tree_node_get_total (leaf), ==, 2);
          g_assert_cmpint (fc_call_tree_node_get_total_ns (leaf), ==, 20 * FC_TEST_MS);
        }
    }
  g_assert_cmpuint (sum, ==, 6);

  g_assert_cmpuint (g_array_index (top, FcFunctionStat, 0).frame, ==, MAIN);
  g_assert_cmpuint (g_array_index (top, FcFunctionStat, 0).total, ==, 6);
  g_assert_cmpuint (g_array_index (top, FcFunctionStat, 1).frame, ==, FIB);
  g_assert_cmpuint (g_array_index (top, FcFunctionStat, 1).total, ==, 5);
  g_assert_cmpuint (g_array_index (top, FcFunctionStat, 1).self, ==, 2);
}

static void
details_ready_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  FcFunctionDetails **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = fc_function_details_new_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(FcProfile) profile = recursive_profile ();
  g_autoptr(FcFunctionDetails) details = NULL;

  fc_function_details_new_async (profile, 0, 0, 0, FC_FRAME_FILTER_ALL, FIB, NULL, details_ready_cb, &details);
  while (details == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (details->total_samples, ==, 5);
  assert_link (details->callers, 0, MAIN, 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/function-details/recursive", test_recursive_function);
  g_test_add_func ("/core/function-details/indirect-recursion", test_indirect_recursion);
  g_test_add_func ("/core/function-details/range-and-filter", test_range_and_filter);
  g_test_add_func ("/core/function-details/bottom-up-and-stats", test_bottom_up_and_stats);
  g_test_add_func ("/core/function-details/async", test_async);

  return g_test_run ();
}
