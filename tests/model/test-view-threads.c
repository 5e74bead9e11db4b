/* test-view-threads.c - the thread a profile opens on, and the time a thread covers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "flamecast.h"
#include "fc-test-profiles.h"

#define AT(ms) (FC_TEST_BASE_NS + (ms) * FC_TEST_MS)

static void
set_active_thread (FcProfile  *profile,
                   const char *tid)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = g_strdup_printf ("{\"transactions\":[{\"id\":\"x\",\"active_thread_id\":\"%s\"}]}", tid);
  JsonObject *root;

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  json_object_set_member (fc_profile_get_meta (profile), "transactions",
                          json_node_copy (json_object_get_member (root, "transactions")));
}

static void
test_pick_default (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcProfile) empty = fc_profile_new (FC_FORMAT_V2);
  guint32 quiet;

  /* no transaction: the busiest, thread 0 with 6 samples on CPU against 2 */
  g_assert_cmpint (fc_view_threads_pick_default (profile), ==, 0);
  g_assert_cmpint (fc_view_threads_pick_default (empty), ==, FC_VIEW_ALL_THREADS);
  g_assert_cmpint (fc_view_threads_pick_default (NULL), ==, FC_VIEW_ALL_THREADS);

  /* the transaction's active thread, though it is not the busiest */
  set_active_thread (profile, "2");
  g_assert_cmpint (fc_view_threads_pick_default (profile), ==, 1);

  /* an active thread without samples: the busiest again */
  quiet = fc_profile_ensure_thread (profile, "3");
  g_assert_cmpuint (quiet, ==, 2);
  set_active_thread (profile, "3");
  g_assert_cmpint (fc_view_threads_pick_default (profile), ==, 0);
}

/* what a loader hands the window: the default thread and that thread's range */
static void
test_pick_start (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  FcViewStart start;
  gint64 begin_ns, end_ns;

  set_active_thread (profile, "2");
  fc_view_threads_pick_start (profile, &start);
  g_assert_cmpint (start.thread, ==, 1);
  fc_view_threads_get_range (profile, 1, &begin_ns, &end_ns);
  g_assert_cmpint (start.begin_ns, ==, begin_ns);
  g_assert_cmpint (start.end_ns, ==, end_ns);
  /* not the whole profile's: thread 0 covers other times */
  fc_view_threads_get_range (profile, FC_VIEW_ALL_THREADS, &begin_ns, &end_ns);
  g_assert_true (start.begin_ns != begin_ns || start.end_ns != end_ns);

  fc_view_threads_pick_start (NULL, &start);
  g_assert_cmpint (start.thread, ==, FC_VIEW_ALL_THREADS);
  g_assert_cmpint (start.begin_ns, ==, 0);
  g_assert_cmpint (start.end_ns, ==, 1000);
}

static void
test_range (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcProfile) empty = fc_profile_new (FC_FORMAT_V2);
  gint64 begin, end;

  /* thread 0: samples 0..50 every 10 ms, then 200; the last weighs the
   * median interval, 10 ms, so its boxes end at 210 */
  fc_view_threads_get_range (profile, 0, &begin, &end);
  g_assert_cmpint (begin, ==, AT (0));
  g_assert_cmpint (end, ==, AT (210));
  /* thread 1: 0 and 5, median 5 ms */
  fc_view_threads_get_range (profile, 1, &begin, &end);
  g_assert_cmpint (begin, ==, AT (0));
  g_assert_cmpint (end, ==, AT (10));
  fc_view_threads_get_range (profile, FC_VIEW_ALL_THREADS, &begin, &end);
  g_assert_cmpint (begin, ==, AT (0));
  g_assert_cmpint (end, ==, AT (210));

  /* a live profile that grew: from its threads' first and last samples */
  fc_view_threads_get_grown_range (profile, 0, &begin, &end);
  g_assert_cmpint (begin, ==, AT (0));
  g_assert_cmpint (end, ==, AT (200));
  fc_view_threads_get_grown_range (profile, 1, &begin, &end);
  g_assert_cmpint (end, ==, AT (5));

  /* nothing to show: a microsecond at 0 */
  fc_view_threads_get_range (empty, FC_VIEW_ALL_THREADS, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 1000);
  fc_view_threads_get_range (NULL, 0, &begin, &end);
  g_assert_cmpint (end - begin, ==, 1000);
  fc_view_threads_get_grown_range (empty, 0, &begin, &end);
  g_assert_cmpint (end - begin, ==, 1000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/view-threads/pick-default", test_pick_default);
  g_test_add_func ("/core/view-threads/pick-start", test_pick_start);
  g_test_add_func ("/core/view-threads/range", test_range);

  return g_test_run ();
}
