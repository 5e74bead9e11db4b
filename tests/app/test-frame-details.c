/* test-frame-details.c - FcFrameDetails: fields, self/total time, callers and callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>
#include "fc-frame-details.h"
#include "fc-test-profiles.h"

static void
wait_until_built (FcFrameDetails *details)
{
  while (fc_frame_details_get_busy (details))
    g_main_context_iteration (NULL, TRUE);
}

static void
assert_link (GArray  *links,
             guint    index,
             guint32  frame,
             gint64   total_ms)
{
  g_assert_cmpuint (index, <, links->len);
  g_assert_cmpuint (g_array_index (links, FcFrameLink, index).frame, ==, frame);
  g_assert_cmpint (g_array_index (links, FcFrameLink, index).total_ns, ==, total_ms * FC_TEST_MS);
}

static void
test_stats (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcSession) session = fc_session_new ();
  FcFrameDetails *details = FC_FRAME_DETAILS (g_object_ref_sink (fc_frame_details_new ()));
  GtkWidget *window = gtk_window_new ();
  const FcFrameStats *stats;

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (details));
  gtk_window_present (GTK_WINDOW (window));
  fc_frame_details_set_session (details, session);
  wait_until_built (details);

  stats = fc_frame_details_get_stats (details);
  g_assert_cmpuint (stats->frame, ==, FC_SESSION_NO_FRAME);

  /* foo on thread 0: 10 ms alone, 40 ms with bar; called by main, calls bar */
  fc_session_set_selected_frame (session, FC_TEST_FOO);
  wait_until_built (details);
  stats = fc_frame_details_get_stats (details);
  g_assert_cmpuint (stats->frame, ==, FC_TEST_FOO);
  g_assert_cmpint (stats->self_ns, ==, 10 * FC_TEST_MS);
  g_assert_cmpint (stats->total_ns, ==, 40 * FC_TEST_MS);
  g_assert_cmpuint (stats->self_samples, ==, 1);
  g_assert_cmpuint (stats->total_samples, ==, 4);
  g_assert_cmpint (stats->all_ns, ==, 80 * FC_TEST_MS);
  g_assert_cmpuint (fc_frame_details_get_callers (details)->len, ==, 1);
  assert_link (fc_frame_details_get_callers (details), 0, FC_TEST_MAIN, 40);
  g_assert_cmpuint (fc_frame_details_get_callees (details)->len, ==, 1);
  assert_link (fc_frame_details_get_callees (details), 0, FC_TEST_BAR, 30);

  /* main: the entry point, nothing calls it */
  fc_session_set_selected_frame (session, FC_TEST_MAIN);
  wait_until_built (details);
  g_assert_cmpint (stats->self_ns, ==, 0);
  g_assert_cmpint (stats->total_ns, ==, 60 * FC_TEST_MS);
  g_assert_cmpuint (fc_frame_details_get_callers (details)->len, ==, 0);
  g_assert_cmpuint (fc_frame_details_get_callees (details)->len, ==, 2);
  assert_link (fc_frame_details_get_callees (details), 0, FC_TEST_FOO, 40);
  assert_link (fc_frame_details_get_callees (details), 1, FC_TEST_BAZ, 20);

  /* another thread: baz twice on thread 1, 5 ms each */
  fc_session_set_thread (session, 1);
  wait_until_built (details);
  fc_session_set_selected_frame (session, FC_TEST_BAZ);
  wait_until_built (details);
  g_assert_cmpint (stats->self_ns, ==, 10 * FC_TEST_MS);
  g_assert_cmpint (stats->total_ns, ==, 10 * FC_TEST_MS);
  g_assert_cmpint (stats->all_ns, ==, 10 * FC_TEST_MS);

  fc_session_set_selected_frame (session, FC_SESSION_NO_FRAME);

  wait_until_built (details);
  g_assert_cmpuint (stats->frame, ==, FC_SESSION_NO_FRAME);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (details);
  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_recursion (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcSession) session = fc_session_new ();
  FcFrameDetails *details = FC_FRAME_DETAILS (g_object_ref_sink (fc_frame_details_new ()));
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 walk = fc_test_frame (profile, "walk", "app", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  const FcFrameStats *stats;

  /* walk > walk > walk: counted once in total, and once among callers:
   * the caller is who called the outermost walk, as in Sentry */
  fc_test_sample (profile, t, 0, 4, main_f, walk, walk, walk);
  fc_test_sample (profile, t, 10, 2, main_f, walk);
  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  fc_frame_details_set_session (details, session);
  wait_until_built (details);

  fc_session_set_selected_frame (session, walk);

  wait_until_built (details);
  stats = fc_frame_details_get_stats (details);
  g_assert_cmpint (stats->total_ns, ==, 20 * FC_TEST_MS);
  g_assert_cmpint (stats->self_ns, ==, 20 * FC_TEST_MS);
  g_assert_cmpuint (stats->total_samples, ==, 2);
  g_assert_cmpuint (fc_frame_details_get_callers (details)->len, ==, 1);
  g_assert_cmpuint (g_array_index (fc_frame_details_get_callers (details), FcFrameLink, 0).frame, ==, main_f);
  g_assert_cmpint (g_array_index (fc_frame_details_get_callers (details), FcFrameLink, 0).total_ns, ==, 20 * FC_TEST_MS);
  /* the innermost walk is the leaf every time: no callee */
  g_assert_cmpuint (fc_frame_details_get_callees (details)->len, ==, 0);

  fc_frame_details_set_session (details, NULL);
  g_assert_finalize_object (details);
  g_assert_finalize_object (g_steal_pointer (&session));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/app/frame-details/stats", test_stats);
  g_test_add_func ("/app/frame-details/recursion", test_recursion);

  return g_test_run ();
}
