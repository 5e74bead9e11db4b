/* test-session.c - FcSession: document, default thread, ranges, notifications
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-flame-layout.h"
#include "fc-layout-cache.h"
#include "fc-reader.h"
#include "fc-session.h"
#include "fc-session-tree.h"
#include "fc-test-profiles.h"
#include "fc-test-util.h"

static FcDocument *
load_fixture (const char *name)
{
  g_autofree char *path = fc_test_data_path (name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  FcDocument *document;

  document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (document);

  return document;
}

static FcDocument *
document_for (FcProfile *profile)
{
  FcDocument *document = fc_document_new (FC_DOCUMENT_V2);

  fc_document_add_profile (document, profile);
  return document;
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_defaults (void)
{
  g_autoptr(FcSession) session = fc_session_new ();

  g_assert_null (fc_session_get_document (session));
  g_assert_null (fc_session_get_profile (session));
  g_assert_cmpint (fc_session_get_thread (session), ==, FC_SESSION_ALL_THREADS);
  g_assert_cmpstr (fc_session_get_search_text (session), ==, "");
  g_assert_cmpint (fc_session_get_color_mode (session), ==, FC_COLOR_MODE_IN_APP);
  g_assert_cmpint (fc_session_get_frame_filter (session), ==, FC_FRAME_FILTER_ALL);
  g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_SESSION_NO_FRAME);
  g_assert_false (fc_session_has_selection (session));

  /* without a profile there is no thread or frame to select */
  fc_session_set_thread (session, 3);
  g_assert_cmpint (fc_session_get_thread (session), ==, FC_SESSION_ALL_THREADS);
  fc_session_set_selected_frame (session, 2);
  g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_SESSION_NO_FRAME);

  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_enums (void)
{
  g_autoptr(GEnumClass) color = g_type_class_ref (FC_TYPE_COLOR_MODE);
  g_autoptr(GEnumClass) filter = g_type_class_ref (FC_TYPE_FRAME_FILTER);

  /* the nicks are the GSettings choices and the menu's action targets */
  g_assert_cmpint (g_enum_get_value_by_nick (color, "in-app")->value, ==, FC_COLOR_MODE_IN_APP);
  g_assert_cmpint (g_enum_get_value_by_nick (color, "package")->value, ==, FC_COLOR_MODE_PACKAGE);
  g_assert_cmpint (g_enum_get_value_by_nick (color, "function")->value, ==, FC_COLOR_MODE_FUNCTION);
  g_assert_cmpint (g_enum_get_value_by_nick (filter, "all")->value, ==, FC_FRAME_FILTER_ALL);
  g_assert_cmpint (g_enum_get_value_by_nick (filter, "application")->value, ==, FC_FRAME_FILTER_APPLICATION);
  g_assert_cmpint (g_enum_get_value_by_nick (filter, "system")->value, ==, FC_FRAME_FILTER_SYSTEM);
}

static void
test_document (void)
{
  g_autoptr(FcSession) session = fc_session_new ();
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = document_for (profile);
  guint document_notifies = 0;
  guint thread_notifies = 0;

  g_signal_connect (session, "notify::document", G_CALLBACK (count_notify_cb), &document_notifies);
  g_signal_connect (session, "notify::thread", G_CALLBACK (count_notify_cb), &thread_notifies);

  fc_session_set_search_text (session, "foo");
  fc_session_set_color_mode (session, FC_COLOR_MODE_PACKAGE);
  fc_session_set_document (session, document);

  g_assert_true (fc_session_get_document (session) == document);
  /* one profile: the merged profile is that profile */
  g_assert_true (fc_session_get_profile (session) == profile);
  /* no active thread id: the busiest thread, 0, with 7 samples against 2 */
  g_assert_cmpint (fc_session_get_thread (session), ==, 0);
  /* the last sample, at 200 ms, weighs the 10 ms median: the view ends at 210 */
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, FC_TEST_BASE_NS);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, FC_TEST_BASE_NS + 210 * FC_TEST_MS);
  /* the user's choices survive a new document */
  g_assert_cmpstr (fc_session_get_search_text (session), ==, "foo");
  g_assert_cmpint (fc_session_get_color_mode (session), ==, FC_COLOR_MODE_PACKAGE);
  g_assert_cmpuint (document_notifies, ==, 1);
  g_assert_cmpuint (thread_notifies, ==, 1);

  /* the same document again changes nothing */
  fc_session_set_document (session, document);
  g_assert_cmpuint (document_notifies, ==, 1);

  fc_session_set_selected_frame (session, FC_TEST_BAR);
  g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_TEST_BAR);
  fc_session_set_selected_frame (session, 4000);
  g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_SESSION_NO_FRAME);

  fc_session_set_selected_frame (session, FC_TEST_FOO);
  fc_session_set_document (session, NULL);
  g_assert_null (fc_session_get_profile (session));
  g_assert_cmpint (fc_session_get_thread (session), ==, FC_SESSION_ALL_THREADS);
  g_assert_cmpuint (fc_session_get_selected_frame (session), ==, FC_SESSION_NO_FRAME);
  g_assert_cmpuint (document_notifies, ==, 2);

  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_thread_switch (void)
{
  g_autoptr(FcSession) session = fc_session_new ();
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = document_for (profile);
  guint visible_notifies = 0;

  fc_session_set_document (session, document);
  fc_session_set_selection (session, FC_TEST_BASE_NS + 10 * FC_TEST_MS, FC_TEST_BASE_NS + 30 * FC_TEST_MS);
  g_assert_true (fc_session_has_selection (session));

  g_signal_connect (session, "notify::visible-end-ns", G_CALLBACK (count_notify_cb), &visible_notifies);
  fc_session_set_thread (session, 1);
  g_assert_cmpint (fc_session_get_thread (session), ==, 1);
  /* thread 1's samples at 0 and 5 ms weigh 5 ms each, so its time runs
   * from 0 to 10 ms: the view follows, the selection goes */
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, FC_TEST_BASE_NS);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, FC_TEST_BASE_NS + 10 * FC_TEST_MS);
  g_assert_false (fc_session_has_selection (session));
  g_assert_cmpuint (visible_notifies, ==, 1);

  /* all threads: the profile's whole range, to the latest end (thread 0's) */
  fc_session_set_thread (session, FC_SESSION_ALL_THREADS);
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, FC_TEST_BASE_NS);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, FC_TEST_BASE_NS + 210 * FC_TEST_MS);

  /* a thread the profile does not have means all threads */
  fc_session_set_thread (session, 0);
  fc_session_set_thread (session, 99);
  g_assert_cmpint (fc_session_get_thread (session), ==, FC_SESSION_ALL_THREADS);

  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_ranges (void)
{
  g_autoptr(FcSession) session = fc_session_new ();
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = document_for (profile);
  guint selection_notifies = 0;
  gint64 base = FC_TEST_BASE_NS;

  fc_session_set_document (session, document);

  /* zooming stays inside the thread's 0..210 ms */
  fc_session_zoom_to (session, base + 10 * FC_TEST_MS, base + 20 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, base + 10 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, base + 20 * FC_TEST_MS);
  fc_session_zoom_to (session, base - 50 * FC_TEST_MS, base + 50 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, base);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, base + 100 * FC_TEST_MS);
  /* past the end: the 40 ms window slides back to end at 210 */
  fc_session_zoom_to (session, base + 190 * FC_TEST_MS, base + 230 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, base + 170 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, base + 210 * FC_TEST_MS);
  fc_session_zoom_to (session, base - FC_TEST_MS, base + 500 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, base);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, base + 210 * FC_TEST_MS);
  /* never narrower than a microsecond, reversed ends swapped */
  fc_session_zoom_to (session, base + 50 * FC_TEST_MS + 10, base + 50 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_visible_end_ns (session) - fc_session_get_visible_begin_ns (session), ==, 1000);

  /* panning past the data is the flamechart's business */
  fc_session_set_visible_range (session, base - 10, base + 10);
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, base - 10);
  fc_session_reset_view (session);
  g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, base);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, base + 210 * FC_TEST_MS);

  /* selections: either order, and every empty one is 0..0 */
  g_signal_connect (session, "notify::selection-begin-ns", G_CALLBACK (count_notify_cb), &selection_notifies);
  fc_session_set_selection (session, base + 30 * FC_TEST_MS, base + 10 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_selection_begin_ns (session), ==, base + 10 * FC_TEST_MS);
  g_assert_cmpint (fc_session_get_selection_end_ns (session), ==, base + 30 * FC_TEST_MS);
  g_assert_cmpuint (selection_notifies, ==, 1);
  fc_session_set_selection (session, base + 30 * FC_TEST_MS, base + 10 * FC_TEST_MS);
  g_assert_cmpuint (selection_notifies, ==, 1);
  fc_session_set_selection (session, base + 7, base + 7);
  g_assert_false (fc_session_has_selection (session));
  g_assert_cmpint (fc_session_get_selection_begin_ns (session), ==, 0);
  g_assert_cmpint (fc_session_get_selection_end_ns (session), ==, 0);

  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
assert_range_is_layout_extent (FcSession *session)
{
  g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (fc_session_get_profile (session),
                                                         fc_session_get_thread (session));
  gint64 begin_ns, end_ns, layout_begin_ns, layout_end_ns;

  fc_session_get_thread_range (session, &begin_ns, &end_ns);
  fc_flame_layout_get_extent (layout, &layout_begin_ns, &layout_end_ns);
  g_assert_cmpint (begin_ns, ==, layout_begin_ns);
  g_assert_cmpint (end_ns, ==, layout_end_ns);
}

static void
test_range_end (void)
{
  g_autoptr(FcSession) session = fc_session_new ();
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcDocument) document = NULL;
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 slow = fc_profile_ensure_thread (profile, "slow");
  guint32 fast = fc_profile_ensure_thread (profile, "fast");
  guint32 single = fc_profile_ensure_thread (profile, "single");
  gint64 base = FC_TEST_BASE_NS;
  gint64 begin_ns, end_ns;

  /* "slow": 0, 60, 100, 120 ms (intervals 60, 40, 20: median 40) -> ends at 160;
   * "fast": every 10 ms from 5 to 145 ms (median 10) -> ends at 155;
   * "single": one sample at 20 ms, weighing the 10 ms default -> ends at 30 */
  fc_test_sample (profile, slow, 0, 1, main_f);
  fc_test_sample (profile, slow, 60, 1, main_f);
  fc_test_sample (profile, slow, 100, 1, main_f);
  fc_test_sample (profile, slow, 120, 1, main_f);
  for (gint64 ms = 5; ms <= 145; ms += 10)
    fc_test_sample (profile, fast, ms, 1, main_f);
  fc_test_sample (profile, single, 20, 1, main_f);
  document = document_for (profile);

  fc_session_set_document (session, document);
  g_assert_cmpint (fc_session_get_thread (session), ==, (gint) fast);
  fc_session_get_thread_range (session, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, base + 5 * FC_TEST_MS);
  g_assert_cmpint (end_ns, ==, base + 155 * FC_TEST_MS);
  assert_range_is_layout_extent (session);

  fc_session_set_thread (session, (gint) slow);
  fc_session_get_thread_range (session, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, base);
  g_assert_cmpint (end_ns, ==, base + 160 * FC_TEST_MS);
  assert_range_is_layout_extent (session);

  fc_session_set_thread (session, (gint) single);
  fc_session_get_thread_range (session, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, base + 20 * FC_TEST_MS);
  g_assert_cmpint (end_ns, ==, base + 30 * FC_TEST_MS);
  assert_range_is_layout_extent (session);

  /* all threads end with the thread whose time ends last, "slow", not with
   * the one sampled last, "fast" */
  fc_session_set_thread (session, FC_SESSION_ALL_THREADS);
  fc_session_get_thread_range (session, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, base);
  g_assert_cmpint (end_ns, ==, base + 160 * FC_TEST_MS);
  assert_range_is_layout_extent (session);
  g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, base + 160 * FC_TEST_MS);

  /* no document: the 1 µs placeholder */
  fc_session_set_document (session, NULL);
  fc_session_get_thread_range (session, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, 0);
  g_assert_cmpint (end_ns, ==, 1000);

  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_setters_return_early (void)
{
  g_autoptr(FcSession) session = fc_session_new ();
  guint notifies = 0;

  g_signal_connect (session, "notify", G_CALLBACK (count_notify_cb), &notifies);

  fc_session_set_search_text (session, "");
  fc_session_set_search_text (session, NULL);
  fc_session_set_color_mode (session, FC_COLOR_MODE_IN_APP);
  fc_session_set_frame_filter (session, FC_FRAME_FILTER_ALL);
  fc_session_set_selection (session, 0, 0);
  g_assert_cmpuint (notifies, ==, 0);

  fc_session_set_search_text (session, "bar");
  fc_session_set_search_text (session, "bar");
  g_object_set (session, "color-mode", FC_COLOR_MODE_FUNCTION, NULL);
  g_object_set (session, "color-mode", FC_COLOR_MODE_FUNCTION, NULL);
  fc_session_set_frame_filter (session, FC_FRAME_FILTER_SYSTEM);
  g_assert_cmpuint (notifies, ==, 3);
  g_assert_cmpstr (fc_session_get_search_text (session), ==, "bar");
  g_assert_cmpint (fc_session_get_color_mode (session), ==, FC_COLOR_MODE_FUNCTION);
  g_assert_cmpint (fc_session_get_frame_filter (session), ==, FC_FRAME_FILTER_SYSTEM);

  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_default_thread_fixtures (void)
{
  struct {
    const char *fixture;
    const char *tid;
  } cases[] = {
    /* V1 with active_thread_id 259, which has the samples */
    { "payloads/v1-cocoa-symbolicated.json", "259" },
    /* V1 whose active thread (259) has no samples: the busiest */
    { "payloads/v1-cocoa.json", "1" },
    /* V1 with active_thread_id 0 as a number */
    { "payloads/v1-node-stored.json", "0" },
    /* V2: no transaction, the busiest */
    { "payloads/v2-android.json", "1" },
    { "payloads/v2-python-cut.json", "140230426244864" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(FcDocument) document = load_fixture (cases[i].fixture);
      g_autoptr(FcSession) session = fc_session_new ();
      FcProfile *profile;
      const FcThread *thread;

      g_test_message ("%s", cases[i].fixture);
      fc_session_set_document (session, document);
      profile = fc_session_get_profile (session);
      g_assert_nonnull (profile);
      g_assert_cmpint (fc_session_get_thread (session), >=, 0);
      thread = fc_profile_get_thread (profile, fc_session_get_thread (session));
      g_assert_cmpstr (fc_profile_string (profile, thread->tid), ==, cases[i].tid);
      g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, thread->first_ns);
      /* the last sample's time is part of the view */
      g_assert_cmpint (fc_session_get_visible_end_ns (session), >, thread->last_ns);
      assert_range_is_layout_extent (session);
    }
}

static FcDocument *
load_data (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "good", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  FcDocument *document;

  document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (document);

  return document;
}

/* An envelope with a V2 chunk and its transaction opens on the thread the
 * transaction ran on (contexts.trace.data["thread.id"]), not on the busiest;
 * when that thread has no samples, on the busiest. */
static void
test_default_thread_transaction (void)
{
  struct {
    const char *file;
    const char *tid;
  } cases[] = {
    /* MainThread (1) has 4 samples, the request's worker (2) has 2 */
    { "python-v2-transaction-thread.envelope", "2" },
    /* thread.id 7, a number, has no samples: the busiest */
    { "python-v2-transaction-idle-thread.envelope", "1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(FcDocument) document = load_data (cases[i].file);
      g_autoptr(FcSession) session = fc_session_new ();
      FcProfile *profile;
      const FcThread *thread;

      g_test_message ("%s", cases[i].file);
      g_assert_cmpuint (fc_document_get_n_transactions (document), ==, 1);
      fc_session_set_document (session, document);
      profile = fc_session_get_profile (session);
      g_assert_cmpint (fc_session_get_thread (session), >=, 0);
      thread = fc_profile_get_thread (profile, fc_session_get_thread (session));
      g_assert_cmpstr (fc_profile_string (profile, thread->tid), ==, cases[i].tid);
    }
}

typedef struct {
  gboolean laid_out;
  gboolean tree_before_layout;
  guint    n_trees;
} Order;

static void
laid_out_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Order *order = user_data;
  g_autoptr(FcFlameLayout) layout = fc_layout_cache_request_finish (result, NULL);
  FcSessionTree *tree = fc_session_get_call_tree (FC_SESSION (source));

  g_assert_nonnull (layout);
  /* the flamechart's first paint shares the CPU with no call tree */
  g_assert_null (fc_session_tree_get_tree (tree));
  g_assert_true (fc_session_tree_get_busy (tree));
  order->laid_out = TRUE;
}

static void
tree_cb (FcSessionTree *tree,
         GParamSpec    *pspec,
         Order         *order)
{
  if (fc_session_tree_get_tree (tree) == NULL)
    return;
  order->n_trees++;
  order->tree_before_layout |= !order->laid_out;
}

/* The session owns what it derives: the default thread, one layout for the
 * views, one call tree; a big tree waits for the layout the window opens on. */
static void
test_derived_state (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = NULL;
  g_autoptr(FcSession) session = fc_session_new ();
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();
  FcSessionTree *tree;
  guint32 t2 = fc_profile_ensure_thread (profile, "3");
  Order order = { 0 };

  /* enough samples that the layout and the tree are a worker's */
  for (guint i = 0; i < 2 * FC_LAYOUT_CACHE_SYNC_SAMPLES; i++)
    fc_test_sample (profile, t2, 300 + i, 2, FC_TEST_MAIN, i % 2 ? FC_TEST_FOO : FC_TEST_BAR);
  fc_profile_finish (profile);
  document = document_for (profile);

  /* what the caller found (a loader, on its worker) is what the session
   * opens on: the thread and its range, taken as given, not read again */
  {
    FcViewStart start = { 1, 0, 0 };
    gint64 begin_ns, end_ns;

    fc_view_threads_get_range (profile, 1, &start.begin_ns, &start.end_ns);
    start.end_ns += 7;
    fc_session_set_document_full (session, document, profile, &start);
    g_assert_cmpint (fc_session_get_default_thread (session), ==, 1);
    g_assert_cmpint (fc_session_get_thread (session), ==, 1);
    fc_session_get_thread_range (session, &begin_ns, &end_ns);
    g_assert_cmpint (begin_ns, ==, start.begin_ns);
    g_assert_cmpint (end_ns, ==, start.end_ns);
    g_assert_cmpint (fc_session_get_visible_begin_ns (session), ==, start.begin_ns);
    g_assert_cmpint (fc_session_get_visible_end_ns (session), ==, start.end_ns);
  }
  /* else it picks it: the busiest */
  fc_session_set_document (session, NULL);
  g_assert_cmpint (fc_session_get_default_thread (session), ==, FC_SESSION_ALL_THREADS);
  fc_session_set_document (session, document);
  g_assert_cmpint (fc_session_get_default_thread (session), ==, (gint) t2);
  g_assert_cmpint (fc_session_get_thread (session), ==, (gint) t2);

  g_assert_true (fc_session_get_layouts (session) == fc_session_get_layouts (session));
  g_assert_false (fc_layout_cache_get_busy (fc_session_get_layouts (session)));
  fc_layout_cache_request (session, NULL, laid_out_cb, &order);
  g_assert_true (fc_layout_cache_get_busy (fc_session_get_layouts (session)));
  tree = fc_session_get_call_tree (session);
  g_assert_true (fc_session_get_call_tree (session) == tree);
  g_signal_connect (tree, "notify::tree", G_CALLBACK (tree_cb), &order);

  while (!order.laid_out || fc_session_tree_get_busy (tree))
    g_main_context_iteration (context, TRUE);
  g_assert_false (fc_layout_cache_get_busy (fc_session_get_layouts (session)));
  g_assert_false (order.tree_before_layout);
  g_assert_cmpuint (order.n_trees, ==, 1);
  g_assert_cmpuint (fc_call_tree_node_get_total (fc_call_tree_get_root (fc_session_tree_get_tree (tree))), ==,
                    2 * FC_LAYOUT_CACHE_SYNC_SAMPLES);

  /* with no layout being computed, the tree does not wait */
  fc_session_set_thread (session, 0);
  while (fc_session_tree_get_busy (tree))
    g_main_context_iteration (context, TRUE);
  g_assert_cmpuint (order.n_trees, ==, 2);
  g_assert_cmpint (fc_call_tree_get_thread (fc_session_tree_get_tree (tree)), ==, 0);

  g_signal_handlers_disconnect_by_data (tree, &order);
  g_assert_finalize_object (g_steal_pointer (&session));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/app/session/defaults", test_defaults);
  g_test_add_func ("/app/session/enums", test_enums);
  g_test_add_func ("/app/session/document", test_document);
  g_test_add_func ("/app/session/thread-switch", test_thread_switch);
  g_test_add_func ("/app/session/ranges", test_ranges);
  g_test_add_func ("/app/session/range-end", test_range_end);
  g_test_add_func ("/app/session/setters-return-early", test_setters_return_early);
  g_test_add_func ("/app/session/default-thread-fixtures", test_default_thread_fixtures);
  g_test_add_func ("/app/session/default-thread-transaction", test_default_thread_transaction);
  g_test_add_func ("/app/session/derived-state", test_derived_state);

  return g_test_run ();
}
