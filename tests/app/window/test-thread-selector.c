/* test-thread-selector.c - FcThreadSelector: order, counts, search, switching threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-reader.h"
#include "fc-thread-list.h"
#include "fc-thread-selector.h"
#include "fc-test-profiles.h"
#include "fc-test-util.h"

/*
 * Threads, in table order:
 *   0 tid "1"  "zeta"   3 samples      4 tid "5" "busy"  5 samples (busiest)
 *   1 tid "10" unnamed  2 samples      5 tid "6" "idle"  no samples
 *   2 tid "9"  unnamed  2 samples      6 tid "7" unnamed no samples
 *   3 tid "4"  "Alpha"  1 sample
 */
static FcProfile *
threads_profile_new (void)
{
  FcProfile *profile = fc_profile_new (FC_FORMAT_V2);
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  struct { const char *tid; const char *name; guint n_samples; } threads[] = {
    { "1", "zeta", 3 }, { "10", NULL, 2 }, { "9", NULL, 2 }, { "4", "Alpha", 1 },
    { "5", "busy", 5 }, { "6", "idle", 0 }, { "7", NULL, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      guint32 t = fc_profile_ensure_thread (profile, threads[i].tid);

      g_assert_cmpuint (t, ==, i);
      if (threads[i].name != NULL)
        fc_profile_set_thread_name (profile, t, threads[i].name);
      for (guint s = 0; s < threads[i].n_samples; s++)
        fc_test_sample (profile, t, 10 * s, 1, main_f);
    }

  return profile;
}

static void
set_up_session (FcSession *session,
                FcProfile *profile)
{
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
}

static void
assert_order (GListModel        *model,
              const char * const *names,
              const gint         *indices)
{
  guint n = g_list_model_get_n_items (model);
  guint i;

  for (i = 0; names[i] != NULL; i++)
    {
      g_autoptr(FcThreadItem) item = NULL;

      g_assert_cmpuint (i, <, n);
      item = g_list_model_get_item (model, i);
      g_assert_cmpstr (fc_thread_item_get_name (item), ==, names[i]);
      g_assert_cmpint (fc_thread_item_get_index (item), ==, indices[i]);
    }
  g_assert_cmpuint (i, ==, n);
}

static void
test_order_and_counts (void)
{
  g_autoptr(FcProfile) profile = threads_profile_new ();
  g_autoptr(FcSession) session = fc_session_new ();
  FcThreadSelector *selector = FC_THREAD_SELECTOR (g_object_ref_sink (fc_thread_selector_new ()));
  GListModel *model;
  static const char * const names[] = {
    "All threads", "busy", "Alpha", "zeta", "tid 9", "tid 10", "idle", "tid 7", NULL
  };
  static const gint indices[] = { -1, 4, 3, 0, 2, 1, 5, 6 };
  g_autoptr(FcThreadItem) all = NULL;
  g_autoptr(FcThreadItem) busy = NULL;
  g_autoptr(FcThreadItem) tid9 = NULL;
  g_autoptr(FcThreadItem) idle = NULL;
  g_autofree char *details = NULL;

  fc_thread_selector_set_session (selector, session);
  model = fc_thread_selector_get_model (selector);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_assert_cmpstr (fc_thread_selector_get_label (selector), ==, "All threads");

  set_up_session (session, profile);
  /* the busiest first, named A-Z, unnamed by numeric tid, then the idle ones */
  assert_order (model, names, indices);
  g_assert_cmpint (fc_session_get_thread (session), ==, 4);
  g_assert_cmpstr (fc_thread_selector_get_label (selector), ==, "busy");

  all = g_list_model_get_item (model, 0);
  g_assert_cmpuint (fc_thread_item_get_n_samples (all), ==, 13);
  g_assert_null (fc_thread_item_get_tid (all));
  g_assert_cmpint (fc_thread_item_get_duration_ns (all), ==, 40 * FC_TEST_MS);

  busy = g_list_model_get_item (model, 1);
  g_assert_true (fc_thread_item_get_is_default (busy));
  g_assert_false (fc_thread_item_get_is_active (busy));
  g_assert_cmpstr (fc_thread_item_get_tid (busy), ==, "5");
  g_assert_cmpuint (fc_thread_item_get_n_samples (busy), ==, 5);
  g_assert_cmpint (fc_thread_item_get_duration_ns (busy), ==, 40 * FC_TEST_MS);
  g_assert_null (fc_thread_item_get_heading (busy));
  details = fc_thread_item_dup_details (busy);
  g_assert_cmpstr (details, ==, "tid 5 · 5 samples · 40.0 ms");

  tid9 = g_list_model_get_item (model, 4);
  g_assert_false (fc_thread_item_get_is_default (tid9));
  g_assert_cmpuint (fc_thread_item_get_n_samples (tid9), ==, 2);
  g_assert_cmpint (fc_thread_item_get_duration_ns (tid9), ==, 10 * FC_TEST_MS);

  /* the threads without samples sit apart, under a heading */
  idle = g_list_model_get_item (model, 6);
  g_assert_cmpstr (fc_thread_item_get_heading (idle), ==, "Threads without samples");
  g_assert_cmpuint (fc_thread_item_get_n_samples (idle), ==, 0);

  fc_thread_selector_set_session (selector, NULL);
  g_assert_finalize_object (selector);
  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_switch_and_search (void)
{
  g_autoptr(FcProfile) profile = threads_profile_new ();
  g_autoptr(FcSession) session = fc_session_new ();
  FcThreadSelector *selector = FC_THREAD_SELECTOR (g_object_ref_sink (fc_thread_selector_new ()));
  GtkWidget *window = gtk_window_new ();
  GListModel *model;
  static const char * const al[] = { "All threads", "Alpha", NULL };
  static const gint al_indices[] = { -1, 3 };
  static const char * const one[] = { "zeta", "tid 10", NULL };
  static const gint one_indices[] = { 0, 1 };
  static const char * const none[] = { NULL };
  static const char * const unnamed[] = { "tid 9", "tid 10", "tid 7", NULL };
  static const gint unnamed_indices[] = { 2, 1, 6 };

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (selector));
  gtk_window_present (GTK_WINDOW (window));

  g_object_set (selector, "session", session, NULL);
  set_up_session (session, profile);
  model = fc_thread_selector_get_model (selector);

  gtk_widget_activate_action (GTK_WIDGET (selector), "thread-selector.select", "i", 3);
  g_assert_cmpint (fc_session_get_thread (session), ==, 3);
  g_assert_cmpstr (fc_thread_selector_get_label (selector), ==, "Alpha");

  gtk_widget_activate_action (GTK_WIDGET (selector), "thread-selector.select", "i", -1);
  g_assert_cmpint (fc_session_get_thread (session), ==, FC_SESSION_ALL_THREADS);
  g_assert_cmpstr (fc_thread_selector_get_label (selector), ==, "All threads");

  /* someone else switching threads shows on the button too */
  fc_session_set_thread (session, 2);
  g_assert_cmpstr (fc_thread_selector_get_label (selector), ==, "tid 9");

  /* search is case-insensitive over names and thread ids */
  gtk_widget_activate_action (GTK_WIDGET (selector), "thread-selector.filter", "s", "AL");
  assert_order (model, al, al_indices);
  gtk_widget_activate_action (GTK_WIDGET (selector), "thread-selector.filter", "s", "1");
  assert_order (model, one, one_indices);
  gtk_widget_activate_action (GTK_WIDGET (selector), "thread-selector.filter", "s", "tid ");
  assert_order (model, unnamed, unnamed_indices);
  gtk_widget_activate_action (GTK_WIDGET (selector), "thread-selector.filter", "s", "nothing like it");
  assert_order (model, none, NULL);
  /* a search hides threads, never the session's choice on the button */
  g_assert_cmpint (fc_session_get_thread (session), ==, 2);
  g_assert_cmpstr (fc_thread_selector_get_label (selector), ==, "tid 9");
  gtk_widget_activate_action (GTK_WIDGET (selector), "thread-selector.filter", "s", "");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 8);

  /* the popover opens and closes */
  fc_thread_selector_popup (selector);
  fc_thread_selector_popdown (selector);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (selector);
  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_fixture_order (void)
{
  g_autofree char *path = fc_test_data_path ("payloads/v1-cocoa-symbolicated.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &error);
  g_autoptr(FcProfile) profile = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(FcThreadItem) main_item = NULL;
  g_autoptr(FcThreadItem) first_idle = NULL;
  static const char * const names[] = { "All threads", "main", "tid 5635", "tid 8747", "tid 16131", NULL };

  g_assert_no_error (error);
  profile = fc_document_dup_merged_profile (document);
  list = fc_thread_list_new (profile, fc_view_threads_pick_default (profile));

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr(FcThreadItem) item = g_list_model_get_item (list, i);
      g_assert_nonnull (item);
      g_assert_cmpstr (fc_thread_item_get_name (item), ==, names[i]);
    }
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 5);

  /* active_thread_id 259 is "main", with the 3 samples whose stacks exist */
  main_item = g_list_model_get_item (list, 1);
  g_assert_true (fc_thread_item_get_is_default (main_item));
  g_assert_true (fc_thread_item_get_is_active (main_item));
  g_assert_cmpstr (fc_thread_item_get_tid (main_item), ==, "259");
  g_assert_cmpuint (fc_thread_item_get_n_samples (main_item), ==, 3);
  first_idle = g_list_model_get_item (list, 2);
  g_assert_nonnull (fc_thread_item_get_heading (first_idle));
}

/* four threads all named "xz" read apart by their tid; a unique name stays as it is */
/* A main thread blocked in pause() and a sleeping worker wait in nearly all
 * their samples: they are listed as idle, after the busy ones, even where
 * (wall mode) they have as many samples. */
static void
test_idle_grouped (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcSession) session = fc_session_new ();
  FcThreadSelector *selector = FC_THREAD_SELECTOR (g_object_ref_sink (fc_thread_selector_new ()));
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 pause_f = fc_test_frame (profile, "pause", "libc.so.6", FALSE);
  guint32 work_f = fc_test_frame (profile, "work", "app", TRUE);
  guint32 sleep_f = fc_test_frame (profile, "clock_nanosleep", "libc.so.6", FALSE);
  guint32 threads[4];
  static const char * const names[] = { "All threads", "worker-b", "worker-a", "main", "sleeper", NULL };
  static const gint indices[] = { -1, 2, 1, 0, 3 };
  GListModel *model;

  threads[0] = fc_profile_ensure_thread (profile, "100");
  fc_profile_set_thread_name (profile, threads[0], "main");
  threads[1] = fc_profile_ensure_thread (profile, "101");
  fc_profile_set_thread_name (profile, threads[1], "worker-a");
  threads[2] = fc_profile_ensure_thread (profile, "102");
  fc_profile_set_thread_name (profile, threads[2], "worker-b");
  threads[3] = fc_profile_ensure_thread (profile, "103");
  fc_profile_set_thread_name (profile, threads[3], "sleeper");
  for (guint s = 0; s < 100; s++)
    {
      /* main waits in pause() all along; the sleeper runs once in 100 */
      fc_test_sample (profile, threads[0], 10 * s, 2, main_f, pause_f);
      fc_test_sample (profile, threads[1], 10 * s, 2, main_f, s % 2 ? work_f : sleep_f);
      fc_test_sample (profile, threads[2], 10 * s, 2, main_f, work_f);
      fc_test_sample (profile, threads[3], 10 * s, 2, main_f, s == 50 ? work_f : sleep_f);
    }
  fc_profile_finish (profile);

  fc_thread_selector_set_session (selector, session);
  set_up_session (session, profile);
  model = fc_thread_selector_get_model (selector);
  /* the busiest, the other busy one, then the idle ones under a heading */
  assert_order (model, names, indices);
  {
    g_autoptr(FcThreadItem) worker_a = g_list_model_get_item (model, 2);
    g_autoptr(FcThreadItem) main_item = g_list_model_get_item (model, 3);
    g_autoptr(FcThreadItem) sleeper = g_list_model_get_item (model, 4);

    g_assert_false (fc_thread_item_get_is_idle (worker_a));
    g_assert_null (fc_thread_item_get_heading (worker_a));
    g_assert_true (fc_thread_item_get_is_idle (main_item));
    g_assert_cmpstr (fc_thread_item_get_heading (main_item), ==, "Idle threads");
    g_assert_true (fc_thread_item_get_is_idle (sleeper));
    g_assert_null (fc_thread_item_get_heading (sleeper));
  }

  fc_thread_selector_set_session (selector, NULL);
  g_assert_finalize_object (selector);
  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_equal_names (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  g_autoptr(GListModel) model = NULL;
  static const char * const names[] = {
    "All threads", "xz (101)", "main", "xz (102)", "xz (103)", "xz (104)", NULL
  };
  static const gint indices[] = { -1, 1, 0, 2, 3, 4 };
  struct { const char *tid; const char *name; guint n_samples; } threads[] = {
    { "100", "main", 1 }, { "101", "xz", 4 }, { "102", "xz", 2 }, { "103", "xz", 2 }, { "104", "xz", 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      guint32 t = fc_profile_ensure_thread (profile, threads[i].tid);

      fc_profile_set_thread_name (profile, t, threads[i].name);
      for (guint s = 0; s < threads[i].n_samples; s++)
        fc_test_sample (profile, t, 10 * s, 1, main_f);
    }

  model = fc_thread_list_new (profile, fc_view_threads_pick_default (profile));
  assert_order (model, names, indices);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/thread-selector/order-and-counts", test_order_and_counts);
  g_test_add_func ("/app/thread-selector/switch-and-search", test_switch_and_search);
  g_test_add_func ("/app/thread-selector/fixture-order", test_fixture_order);
  g_test_add_func ("/app/thread-selector/equal-names", test_equal_names);
  g_test_add_func ("/app/thread-selector/idle-grouped", test_idle_grouped);

  return g_test_run ();
}
