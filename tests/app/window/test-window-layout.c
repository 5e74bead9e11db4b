/* test-window-layout.c - the window at a small size, and the thread an envelope opens on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "fc-call-tree-view.h"
#include "fc-test-screenshot.h"
#include "fc-thread-list.h"
#include "fc-thread-selector.h"
#include "fc-window.h"
#include "fc-test-util.h"

static FcWindow *
open_and_wait (const char *path,
               int         width,
               int         height)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  FcWindow *window = g_object_ref (fc_window_new (NULL));

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (fc_session_get_document (fc_window_get_session (window)));
  return window;
}

static void
window_free (FcWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

/* Iterates until @widget has been laid out (a width of its own). */
static int
width_when_laid_out (GtkWidget *widget)
{
  fc_test_wait_for_paint (widget);
  fc_test_spin_until (gtk_widget_get_width (widget) > 0);
  return gtk_widget_get_width (widget);
}

/* #11: at 800x600 the empty details panel squeezed the call tree. With no
 * frame selected the panel is gone and the call tree has the window's
 * width; a selection brings the panel back, and the call tree keeps more
 * than half of the width. */
static void
test_narrow (void)
{
  g_autofree char *path = fc_test_data_path ("payloads/v2-python-cut.json");
  FcWindow *window = open_and_wait (path, 800, 600);
  FcSession *session = fc_window_get_session (window);
  GtkWidget *tree = GTK_WIDGET (fc_window_get_part (window, "call_tree_view"));
  GtkWidget *content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  int width;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page", g_variant_new_string ("call-tree"));
  while (fc_call_tree_view_get_busy (fc_window_get_part (window, "call_tree_view")))
    g_main_context_iteration (NULL, TRUE);
  width = width_when_laid_out (tree);
  /* the window is really 800 wide (less its client-side decorations):
   * nothing in it asks for more */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  g_assert_cmpint (gtk_widget_get_width (content), >=, 760);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));
  g_assert_cmpint (width, ==, gtk_widget_get_width (content));
  fc_test_screenshot (GTK_WIDGET (window), "appitems-800x600-call-tree");

  /* a frame selected: the panel is back, beside a call tree still usable */
  fc_session_set_selected_frame (session, 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));
  fc_test_wait_for_paint (tree);
  width = gtk_widget_get_width (tree);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  g_assert_cmpint (width, >=, 800 * 55 / 100);
  g_assert_cmpint (width + gtk_widget_get_width (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))), <=, 800);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))), >=, 200);
  fc_test_screenshot (GTK_WIDGET (window), "appitems-800x600-details");

  /* the flamechart has the whole width as well when nothing is selected */
  fc_session_set_selected_frame (session, FC_SESSION_NO_FRAME);
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page", g_variant_new_string ("flamechart"));
  g_assert_cmpint (width_when_laid_out (GTK_WIDGET (fc_window_get_part (window, "flame_chart"))), ==, gtk_widget_get_width (content));

  window_free (window);
}

/* #9: an envelope with a V2 chunk and its transaction opens on the thread
 * the transaction ran on (contexts.trace.data["thread.id"]), marked
 * "active" in the thread selector, though another thread is busier. */
static void
test_transaction_thread (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "good",
                                                 "python-v2-transaction-thread.envelope", NULL);
  FcWindow *window = open_and_wait (path, 1000, 700);
  FcSession *session = fc_window_get_session (window);
  FcProfile *profile = fc_session_get_profile (session);
  GListModel *model = fc_thread_selector_get_model (fc_window_get_part (window, "thread_selector"));
  g_autoptr(FcThreadItem) first = NULL;

  g_assert_cmpint (fc_session_get_thread (session), >=, 0);
  g_assert_cmpstr (fc_profile_string (profile, fc_profile_get_thread (profile, fc_session_get_thread (session))->tid),
                   ==, "2");
  /* "All threads", then the thread it opened on */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  first = g_list_model_get_item (model, 1);
  g_assert_cmpstr (fc_thread_item_get_tid (first), ==, "2");
  g_assert_true (fc_thread_item_get_is_default (first));
  g_assert_true (fc_thread_item_get_is_active (first));
  /* its transaction is on the span track */
  g_assert_cmpuint (fc_session_get_spans (session)->len, ==, 1);
  fc_test_screenshot (GTK_WIDGET (window), "appitems-transaction-thread");

  window_free (window);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/window-layout/narrow", test_narrow);
  g_test_add_func ("/app/window-layout/transaction-thread", test_transaction_thread);

  return fc_test_run ();
}
