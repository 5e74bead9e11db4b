/* test-call-tree-view.c - FcCallTreeView: rows, self/total numbers, bottom-up, thread and range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>
#include "fc-call-tree-view.h"
#include "fc-test-profiles.h"

typedef struct {
  FcProfile      *profile;
  FcSession      *session;
  FcCallTreeView *view;
  GtkWidget      *window;
} Fixture;

static void
wait_until_built (FcCallTreeView *view)
{
  while (fc_call_tree_view_get_busy (view))
    g_main_context_iteration (NULL, TRUE);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);

  f->profile = fc_test_profile_new ();
  fc_document_add_profile (document, f->profile);
  f->session = fc_session_new ();
  fc_session_set_document (f->session, document);

  f->view = FC_CALL_TREE_VIEW (g_object_ref_sink (fc_call_tree_view_new ()));
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 600);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  gtk_window_present (GTK_WINDOW (f->window));

  g_object_set (f->view, "session", f->session, NULL);
  wait_until_built (f->view);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_finalize_object (f->view);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->profile);
}

/* The row at @position: its frame, self and total in ms, total samples. */
static void
assert_row (FcCallTreeView *view,
            guint           position,
            guint           depth,
            guint32         frame,
            gint64          self_ms,
            gint64          total_ms,
            guint64         samples)
{
  GtkTreeListModel *model = fc_call_tree_view_get_model (view);
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (model), position);
  g_autoptr(FcCallTreeRow) item = NULL;
  const FcFilteredTreeNode *node;

  g_assert_nonnull (row);
  item = gtk_tree_list_row_get_item (row);
  node = fc_call_tree_row_get_node (item);
  g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, depth);
  g_assert_cmpuint (fc_filtered_tree_node_get_frame (node), ==, frame);
  g_assert_cmpint (fc_filtered_tree_node_get_self_ns (node), ==, self_ms * FC_TEST_MS);
  g_assert_cmpint (fc_filtered_tree_node_get_total_ns (node), ==, total_ms * FC_TEST_MS);
  g_assert_cmpuint (fc_filtered_tree_node_get_total (node), ==, samples);
}

static void
test_top_down (Fixture       *f,
               gconstpointer  data)
{
  GtkTreeListModel *model = fc_call_tree_view_get_model (f->view);
  g_autoptr(GtkTreeListRow) foo = NULL;

  g_assert_false (fc_call_tree_view_get_bottom_up (f->view));
  g_assert_nonnull (fc_call_tree_view_get_filtered_tree (f->view));
  g_assert_cmpint (fc_filtered_tree_get_thread (fc_call_tree_view_get_filtered_tree (f->view)), ==, 0);

  /* thread 0, the heaviest path opened: main > foo > bar, then baz */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
  assert_row (f->view, 0, 0, FC_TEST_MAIN, 0, 60, 6);
  assert_row (f->view, 1, 1, FC_TEST_FOO, 10, 40, 4);
  assert_row (f->view, 2, 2, FC_TEST_BAR, 30, 30, 3);
  assert_row (f->view, 3, 1, FC_TEST_BAZ, 20, 20, 2);

  /* collapsing foo hides bar */
  foo = g_list_model_get_item (G_LIST_MODEL (model), 1);
  gtk_tree_list_row_set_expanded (foo, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 3);
  assert_row (f->view, 2, 1, FC_TEST_BAZ, 20, 20, 2);
}

static void
test_bottom_up (Fixture       *f,
                gconstpointer  data)
{
  GtkTreeListModel *model;

  /* the toggle, as the Top-Down / Bottom-Up buttons and shortcuts do it */
  gtk_widget_activate_action (GTK_WIDGET (f->view), "call-tree.bottom-up", NULL);
  g_assert_true (fc_call_tree_view_get_bottom_up (f->view));
  g_assert_true (fc_call_tree_view_get_busy (f->view));
  wait_until_built (f->view);
  g_assert_true (fc_filtered_tree_is_bottom_up (fc_call_tree_view_get_filtered_tree (f->view)));

  /* leaves first, each opened along its heaviest callers: bar < foo < main */
  model = fc_call_tree_view_get_model (f->view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 5);
  assert_row (f->view, 0, 0, FC_TEST_BAR, 30, 30, 3);
  assert_row (f->view, 1, 1, FC_TEST_FOO, 30, 30, 3);
  assert_row (f->view, 2, 2, FC_TEST_MAIN, 30, 30, 3);
  assert_row (f->view, 3, 0, FC_TEST_BAZ, 20, 20, 2);
  assert_row (f->view, 4, 0, FC_TEST_FOO, 10, 10, 1);

  g_object_set (f->view, "bottom-up", FALSE, NULL);
  wait_until_built (f->view);
  assert_row (f->view, 0, 0, FC_TEST_MAIN, 0, 60, 6);
}

static void
test_thread_and_range (Fixture       *f,
                       gconstpointer  data)
{
  /* thread 1: main > baz twice, 5 ms each */
  fc_session_set_thread (f->session, 1);
  wait_until_built (f->view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fc_call_tree_view_get_model (f->view))), ==, 2);
  assert_row (f->view, 0, 0, FC_TEST_MAIN, 0, 10, 2);
  assert_row (f->view, 1, 1, FC_TEST_BAZ, 10, 10, 2);

  /* all threads merge both */
  fc_session_set_thread (f->session, FC_SESSION_ALL_THREADS);
  wait_until_built (f->view);
  assert_row (f->view, 0, 0, FC_TEST_MAIN, 0, 70, 8);

  /* thread 0 from 0 to 25 ms: the samples at 0, 10 and 20 */
  fc_session_set_thread (f->session, 0);
  fc_session_set_selection (f->session, FC_TEST_BASE_NS, FC_TEST_BASE_NS + 25 * FC_TEST_MS);
  wait_until_built (f->view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fc_call_tree_view_get_model (f->view))), ==, 3);
  assert_row (f->view, 0, 0, FC_TEST_MAIN, 0, 30, 3);
  assert_row (f->view, 1, 1, FC_TEST_FOO, 10, 30, 3);
  assert_row (f->view, 2, 2, FC_TEST_BAR, 20, 20, 2);

  /* no document: no rows */
  fc_session_set_document (f->session, NULL);
  wait_until_built (f->view);
  g_assert_null (fc_call_tree_view_get_filtered_tree (f->view));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fc_call_tree_view_get_model (f->view))), ==, 0);
}

static guint
n_rows (FcCallTreeView *view)
{
  return g_list_model_get_n_items (G_LIST_MODEL (fc_call_tree_view_get_model (view)));
}

static void
test_frame_filter (Fixture       *f,
                   gconstpointer  data)
{
  const FcFilteredTreeNode *root;

  /* application frames only (main, foo): bar's time becomes foo's self
   * time, baz's becomes main's */
  fc_session_set_frame_filter (f->session, FC_FRAME_FILTER_APPLICATION);
  g_assert_true (fc_call_tree_view_get_busy (f->view));
  wait_until_built (f->view);
  g_assert_cmpint (fc_filtered_tree_get_filter (fc_call_tree_view_get_filtered_tree (f->view)), ==,
                   FC_FRAME_FILTER_APPLICATION);
  g_assert_cmpuint (n_rows (f->view), ==, 2);
  assert_row (f->view, 0, 0, FC_TEST_MAIN, 20, 60, 6);
  assert_row (f->view, 1, 1, FC_TEST_FOO, 40, 40, 4);

  /* system frames only (bar, baz): they move up to the root, whose own
   * time takes foo's */
  fc_session_set_frame_filter (f->session, FC_FRAME_FILTER_SYSTEM);
  wait_until_built (f->view);
  g_assert_cmpuint (n_rows (f->view), ==, 2);
  assert_row (f->view, 0, 0, FC_TEST_BAR, 30, 30, 3);
  assert_row (f->view, 1, 0, FC_TEST_BAZ, 20, 20, 2);
  root = fc_filtered_tree_get_root (fc_call_tree_view_get_filtered_tree (f->view));
  g_assert_cmpint (fc_filtered_tree_node_get_self_ns (root), ==, 30 * FC_TEST_MS);
  g_assert_cmpint (fc_filtered_tree_node_get_total_ns (root), ==, 80 * FC_TEST_MS);

  /* bottom-up, application only: time lands on the innermost application
   * frame, foo (its own 10 ms and bar's 30), then main (baz's 20) */
  fc_session_set_frame_filter (f->session, FC_FRAME_FILTER_APPLICATION);
  fc_call_tree_view_set_bottom_up (f->view, TRUE);
  wait_until_built (f->view);
  g_assert_cmpuint (n_rows (f->view), ==, 3);
  assert_row (f->view, 0, 0, FC_TEST_FOO, 40, 40, 4);
  assert_row (f->view, 1, 1, FC_TEST_MAIN, 40, 40, 4);
  assert_row (f->view, 2, 0, FC_TEST_MAIN, 20, 20, 2);

  fc_session_set_frame_filter (f->session, FC_FRAME_FILTER_ALL);
  fc_call_tree_view_set_bottom_up (f->view, FALSE);
  wait_until_built (f->view);
  assert_row (f->view, 0, 0, FC_TEST_MAIN, 0, 60, 6);
}

static void
test_hidden (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcSession) session = fc_session_new ();
  FcCallTreeView *view = FC_CALL_TREE_VIEW (g_object_ref_sink (fc_call_tree_view_new ()));

  /* never shown: the rows are made when someone asks for them */
  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  fc_call_tree_view_set_session (view, session);
  wait_until_built (view);
  g_assert_cmpuint (n_rows (view), ==, 4);
  assert_row (view, 0, 0, FC_TEST_MAIN, 0, 60, 6);

  fc_session_set_thread (session, 1);
  wait_until_built (view);
  g_assert_cmpuint (n_rows (view), ==, 2);

  fc_call_tree_view_set_session (view, NULL);
  g_assert_finalize_object (view);
  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_without_session (void)
{
  FcCallTreeView *view = FC_CALL_TREE_VIEW (g_object_ref_sink (fc_call_tree_view_new ()));

  g_assert_null (fc_call_tree_view_get_session (view));
  g_assert_null (fc_call_tree_view_get_filtered_tree (view));
  g_assert_false (fc_call_tree_view_get_busy (view));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fc_call_tree_view_get_model (view))), ==, 0);
  g_assert_finalize_object (view);
}

/* A frame picked elsewhere (a callee in the details, a flame view) is
 * selected in the tree, the rows above it opened */
static void
test_follows_selection (Fixture       *f,
                        gconstpointer  data)
{
  GtkTreeListModel *model = fc_call_tree_view_get_model (f->view);
  GtkSelectionModel *selection;
  g_autoptr(GtkBitset) selected = NULL;
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(FcCallTreeRow) item = NULL;

  fc_session_set_selected_frame (f->session, FC_TEST_BAR);
  selection = GTK_SELECTION_MODEL (gtk_column_view_get_model (fc_call_tree_view_get_column_view (f->view)));
  selected = gtk_selection_model_get_selection (selection);
  g_assert_cmpuint (gtk_bitset_get_size (selected), ==, 1);
  row = g_list_model_get_item (G_LIST_MODEL (model), gtk_bitset_get_nth (selected, 0));
  item = gtk_tree_list_row_get_item (row);
  g_assert_cmpuint (fc_filtered_tree_node_get_frame (fc_call_tree_row_get_node (item)), ==, FC_TEST_BAR);
  /* main > foo > bar */
  g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, 2);
  g_assert_cmpuint (fc_session_get_selected_frame (f->session), ==, FC_TEST_BAR);
}

/* The row the column view shows at @position: its depth and frame. */
static void
assert_shown (FcCallTreeView *view,
              guint           position,
              guint           depth,
              guint32         frame)
{
  GListModel *shown = G_LIST_MODEL (gtk_column_view_get_model (fc_call_tree_view_get_column_view (view)));
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (shown, position);
  g_autoptr(FcCallTreeRow) item = NULL;

  g_assert_nonnull (row);
  item = gtk_tree_list_row_get_item (row);
  g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, depth);
  g_assert_cmpuint (fc_filtered_tree_node_get_frame (fc_call_tree_row_get_node (item)), ==, frame);
}

static GtkColumnViewColumn *
column_titled (FcCallTreeView *view,
               const char     *title)
{
  GListModel *columns = gtk_column_view_get_columns (fc_call_tree_view_get_column_view (view));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  g_assert_not_reached ();
}

/* Clicking a header sorts siblings by that column, children kept right
 * under their parent; a frame picked elsewhere is found among sorted rows */
static void
test_sort_columns (Fixture       *f,
                   gconstpointer  data)
{
  GtkColumnView *column_view = fc_call_tree_view_get_column_view (f->view);
  GtkSelectionModel *selection = gtk_column_view_get_model (column_view);
  g_autoptr(GtkBitset) selected = NULL;

  /* opens as today: heaviest total first, main > foo > bar, then baz */
  assert_shown (f->view, 0, 0, FC_TEST_MAIN);
  assert_shown (f->view, 1, 1, FC_TEST_FOO);
  assert_shown (f->view, 2, 2, FC_TEST_BAR);
  assert_shown (f->view, 3, 1, FC_TEST_BAZ);

  /* self descending: baz (20 ms) before foo (10 ms), bar still under foo */
  gtk_column_view_sort_by_column (column_view, column_titled (f->view, "Self"), GTK_SORT_DESCENDING);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, 4);
  assert_shown (f->view, 0, 0, FC_TEST_MAIN);
  assert_shown (f->view, 1, 1, FC_TEST_BAZ);
  assert_shown (f->view, 2, 1, FC_TEST_FOO);
  assert_shown (f->view, 3, 2, FC_TEST_BAR);

  /* the frame picked elsewhere is selected at its sorted place */
  fc_session_set_selected_frame (f->session, FC_TEST_BAR);
  selected = gtk_selection_model_get_selection (selection);
  g_assert_cmpuint (gtk_bitset_get_size (selected), ==, 1);
  g_assert_cmpuint (gtk_bitset_get_nth (selected, 0), ==, 3);

  /* bottom-up, self ascending: foo (10) < baz (20) < bar (30), bar's
   * opened callers foo > main still right under it */
  g_object_set (f->view, "bottom-up", TRUE, NULL);
  wait_until_built (f->view);
  gtk_column_view_sort_by_column (column_view, column_titled (f->view, "Self"), GTK_SORT_ASCENDING);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, 5);
  assert_shown (f->view, 0, 0, FC_TEST_FOO);
  assert_shown (f->view, 1, 0, FC_TEST_BAZ);
  assert_shown (f->view, 2, 0, FC_TEST_BAR);
  assert_shown (f->view, 3, 1, FC_TEST_FOO);
  assert_shown (f->view, 4, 2, FC_TEST_MAIN);

  /* by function name, ascending: bar, baz, foo among the roots */
  gtk_column_view_sort_by_column (column_view, column_titled (f->view, "Function"), GTK_SORT_ASCENDING);
  assert_shown (f->view, 0, 0, FC_TEST_BAR);
  assert_shown (f->view, 1, 1, FC_TEST_FOO);
  assert_shown (f->view, 2, 2, FC_TEST_MAIN);
  assert_shown (f->view, 3, 0, FC_TEST_BAZ);
  assert_shown (f->view, 4, 0, FC_TEST_FOO);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/app/call-tree-view/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("top-down", test_top_down);
  ADD ("bottom-up", test_bottom_up);
  ADD ("thread-and-range", test_thread_and_range);
  ADD ("frame-filter", test_frame_filter);
  ADD ("follows-selection", test_follows_selection);
  ADD ("sort-columns", test_sort_columns);
#undef ADD
  g_test_add_func ("/app/call-tree-view/hidden", test_hidden);
  g_test_add_func ("/app/call-tree-view/without-session", test_without_session);

  return g_test_run ();
}
