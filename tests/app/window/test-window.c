/* test-window.c - FcWindow: opening every payload of tests/data through the real window code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <glib/gstdio.h>

#include "fc-app-settings.h"
#include "fc-call-tree-view.h"
#include "fc-flame-chart.h"
#include "fc-flame-graph.h"
#include "fc-header-title.h"
#include "fc-search-bar.h"
#include "fc-thread-list.h"
#include "fc-thread-selector.h"
#include "fc-window.h"
#include "fc-test-util.h"

static FcWindow *
window_new (void)
{
  FcWindow *window = g_object_ref (fc_window_new (NULL));

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
window_free (FcWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

static void
open_and_wait (FcWindow   *window,
               const char *fixture)
{
  g_autofree char *path = fc_test_data_path (fixture);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  fc_window_open_file (window, file);
  g_assert_true (fc_window_is_loading (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "loading");
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
details_wanted (GActionGroup *actions)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (actions, "show-details");

  return g_variant_get_boolean (state);
}

static char *
list_names (GListModel *model)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(FcThreadItem) item = g_list_model_get_item (model, i);

      g_string_append_printf (names, "%s%s:%u", i ? "|" : "", fc_thread_item_get_name (item),
                              fc_thread_item_get_n_samples (item));
    }

  return g_string_free (names, FALSE);
}

/* Problems in the File… opens a dialog over @window whose lines wrap
 * anywhere (a JSON pointer has no spaces to wrap at) */
static void
assert_problems_dialog (FcWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  g_autofree char *first = fc_problem_to_string (g_ptr_array_index (
    fc_document_get_problems (fc_session_get_document (fc_window_get_session (window))), 0));
  GtkWindow *dialog = NULL;
  g_autoptr(GPtrArray) todo = g_ptr_array_new ();
  gboolean found = FALSE;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-problems", NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && dialog == NULL; i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (toplevel) && gtk_window_get_transient_for (toplevel) == GTK_WINDOW (window))
        dialog = toplevel;
    }
  g_assert_nonnull (dialog);

  g_ptr_array_add (todo, dialog);
  while (todo->len > 0 && !found)
    {
      GtkWidget *w = g_ptr_array_steal_index (todo, todo->len - 1);

      if (GTK_IS_LABEL (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), first) != NULL)
        {
          g_assert_true (gtk_label_get_wrap (GTK_LABEL (w)));
          g_assert_cmpint (gtk_label_get_wrap_mode (GTK_LABEL (w)), ==, PANGO_WRAP_WORD_CHAR);
          found = TRUE;
        }
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (todo, c);
    }
  g_assert_true (found);
  gtk_window_destroy (dialog);
}

static void
test_open_fixtures (void)
{
  /* every fixture a reader accepts, with the selector's list: name:samples in order */
  static const struct {
    const char *fixture;
    const char *threads;
    guint       min_problems;
  } cases[] = {
    { "payloads/v1-cocoa.json", "All threads:4|tid 1:4|tid 2:0", 0 },
    { "payloads/v2-cocoa.json",
      "All threads:4|com.apple.main-thread:4|com.apple.uikit.eventfetch-thread:0", 0 },
    { "payloads/v1-node-stored.json", "All threads:44|main:44", 0 },
    /* stack 4 does not exist: that sample is dropped */
    { "payloads/v1-cocoa-symbolicated.json", "All threads:3|main:3|tid 5635:0|tid 8747:0|tid 16131:0", 1 },
    /* the active thread has no samples and all tie at one: the first thread read leads */
    { "payloads/v1-python-stored.json",
      "All threads:4|pool-2_1:1|pool-1_8:1|pool-1_9:1|tid 140230393067200:1",
      0 },
    { "payloads/v2-android.json", "All threads:5|main:3|OkHttp Dispatcher:2", 0 },
    { "payloads/v2-cocoa-stored.json",
      "All threads:4|com.apple.main-thread:4|com.apple.uikit.eventfetch-thread:0", 0 },
    /* a stack pointing at frames the file lacks: read leniently, with problems */
    { "payloads/v2-python-cut.json",
      "All threads:1|shop-jobs.Scheduler:1|MainThread:0|shop-jobs.monitor:0", 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      FcWindow *window = window_new ();
      FcSession *session = fc_window_get_session (window);
      g_autofree char *names = NULL;

      g_test_message ("%s", cases[i].fixture);
      g_assert_true (fc_window_is_empty (window));
      open_and_wait (window, cases[i].fixture);

      g_assert_null (fc_window_get_load_error (window));
      g_assert_false (fc_window_is_empty (window));
      g_assert_nonnull (fc_session_get_document (session));
      g_assert_nonnull (fc_session_get_profile (session));
      g_assert_nonnull (fc_window_get_file (window));
      g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "profile");
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "thread_selector"))));
      g_assert_true (gtk_widget_is_visible (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry")));
      /* the file's name shows at normal width too, not only in the narrow title */
      {
        g_autofree char *base = g_path_get_basename (cases[i].fixture);

        g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (fc_header_title_get_part (fc_window_get_part (window, "header_title"), "file_label"))), ==, base);
        g_assert_true (gtk_widget_get_visible (fc_header_title_get_part (fc_window_get_part (window, "header_title"), "file_label")));
      }
      /* the toast counts what the lenient reader recorded */
      g_assert_cmpuint (fc_window_get_n_load_problems (window), ==,
                        fc_document_get_problems (fc_session_get_document (session))->len);
      g_assert_cmpuint (fc_window_get_n_load_problems (window), >=, cases[i].min_problems);
      /* and the main menu reaches them as long as the file is shown */
      g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-problems") ==
                     (fc_window_get_n_load_problems (window) > 0));
      if (fc_window_get_n_load_problems (window) > 0)
        assert_problems_dialog (window);

      names = list_names (fc_thread_selector_get_model (fc_window_get_part (window, "thread_selector")));
      g_assert_cmpstr (names, ==, cases[i].threads);

      window_free (window);
    }
}

static void
test_open_errors (void)
{
  static const char *fixtures[] = {
    /* the Android trace format and the legacy cocoa format are not read */
    "payloads/android-trace-chunk.json",
    "payloads/legacy-cocoa.json",
    "no/such/file.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      FcWindow *window = window_new ();
      g_autofree char *basename = g_path_get_basename (fixtures[i]);

      g_test_message ("%s", fixtures[i]);
      open_and_wait (window, fixtures[i]);

      /* the reader's own message, on the empty page */
      g_assert_nonnull (fc_window_get_load_error (window));
      g_assert_true (fc_window_is_empty (window));
      g_assert_null (fc_session_get_document (fc_window_get_session (window)));
      g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "empty");
      g_assert_cmpstr (adw_status_page_get_description (fc_window_get_part (window, "empty_page")), ==, fc_window_get_load_error (window));
      g_assert_nonnull (strstr (adw_status_page_get_title (fc_window_get_part (window, "empty_page")), basename));
      g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "thread_selector"))));

      /* a failed open keeps what was shown */
      open_and_wait (window, "payloads/v1-node-stored.json");
      g_assert_null (fc_window_get_load_error (window));
      open_and_wait (window, fixtures[i]);
      g_assert_nonnull (fc_window_get_load_error (window));
      g_assert_nonnull (fc_session_get_document (fc_window_get_session (window)));
      g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "profile");

      window_free (window);
    }
}

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  *(gboolean *) user_data = fc_file_load_wait_finish (FC_FILE_LOAD (source), result, &error) ? 1 : 2;
}

/* `flamecast FILE`: the load starts before the window exists (here it
 * is even done before), and the window shows its result */
static void
test_open_load (void)
{
  g_autofree char *path = fc_test_data_path ("payloads/v1-node-stored.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) missing = g_file_new_for_path ("/no/such/file.json");
  g_autoptr(FcFileLoad) load = fc_file_load_new (file, NULL);
  g_autoptr(FcFileLoad) failing = fc_file_load_new (missing, NULL);
  gboolean done = FALSE, failed = FALSE;
  FcWindow *window;
  FcSession *session;

  fc_file_load_wait_async (load, load_done_cb, &done);
  fc_file_load_wait_async (failing, load_done_cb, &failed);
  while (!done || !failed)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (done, ==, 1);
  g_assert_cmpint (failed, ==, 2);
  g_assert_nonnull (fc_file_load_get_document (load));
  g_assert_nonnull (fc_file_load_get_profile (load));
  g_assert_null (fc_file_load_get_document (failing));

  window = window_new ();
  session = fc_window_get_session (window);
  fc_window_open_load (window, load);
  g_assert_true (fc_window_is_loading (window));
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (fc_session_get_document (session) == fc_file_load_get_document (load));
  g_assert_true (fc_session_get_profile (session) == fc_file_load_get_profile (load));
  g_assert_true (g_file_equal (fc_window_get_file (window), file));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "profile");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "v1-node-stored.json");

  /* a load that failed before its window existed: the error, as Open shows it */
  fc_window_open_load (window, failing);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (fc_window_get_load_error (window));
  g_assert_nonnull (strstr (fc_window_get_load_error (window), "file.json"));
  g_assert_true (fc_session_get_document (session) == fc_file_load_get_document (load));

  window_free (window);
}

static void
test_actions (void)
{
  FcWindow *window = window_new ();
  FcSession *session = fc_window_get_session (window);
  GActionGroup *actions = G_ACTION_GROUP (window);
  g_autoptr(GSettings) settings = fc_app_settings_new ();

  open_and_wait (window, "payloads/v2-android.json");
  g_assert_cmpint (fc_session_get_thread (session), ==, 0);
  g_assert_cmpstr (fc_thread_selector_get_label (fc_window_get_part (window, "thread_selector")), ==, "main");

  /* frame search: main > onCreate > computeTotal twice is one computeTotal box;
   * the counter next to the entry follows the flamechart's matches */
  g_action_group_activate_action (actions, "search", g_variant_new_string ("compute"));
  while (fc_flame_chart_get_n_matches (fc_window_get_part (window, "flame_chart")) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fc_flame_chart_get_n_matches (fc_window_get_part (window, "flame_chart")), ==, 1);
  g_assert_true (gtk_widget_get_visible (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_matches_label")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_matches_label"))), ==, "0/1");
  g_signal_emit_by_name (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry"), "next-match");
  g_assert_cmpuint (fc_flame_chart_get_current_match (fc_window_get_part (window, "flame_chart")), ==, 1);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_matches_label"))), ==, "1/1");
  /* next and previous buttons beside the counter; Shift+Enter goes back */
  g_assert_true (gtk_widget_get_visible (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_next_button")));
  g_assert_true (gtk_widget_get_visible (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_previous_button")));
  g_assert_cmpint (gtk_editable_get_width_chars (GTK_EDITABLE (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry"))), >=, 12);
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry"));
    gboolean handled = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

        if (GTK_IS_EVENT_CONTROLLER_KEY (controller) &&
            gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)) == GTK_PHASE_CAPTURE)
          g_signal_emit_by_name (controller, "key-pressed", GDK_KEY_Return, 0, GDK_SHIFT_MASK, &handled);
      }
    g_assert_true (handled);
  }
  g_assert_cmpuint (fc_flame_chart_get_current_match (fc_window_get_part (window, "flame_chart")), ==, 1);
  g_signal_emit_by_name (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_previous_button"), "clicked");
  g_assert_cmpuint (fc_flame_chart_get_current_match (fc_window_get_part (window, "flame_chart")), ==, 1);
  g_action_group_activate_action (actions, "search", g_variant_new_string (""));
  g_assert_false (gtk_widget_get_visible (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_matches_label")));

  /* thread switching */
  g_action_group_activate_action (actions, "select-thread", g_variant_new_int32 (1));
  g_assert_cmpint (fc_session_get_thread (session), ==, 1);
  g_assert_cmpstr (fc_thread_selector_get_label (fc_window_get_part (window, "thread_selector")), ==, "OkHttp Dispatcher");
  g_action_group_activate_action (actions, "select-thread", g_variant_new_int32 (-1));
  g_assert_cmpint (fc_session_get_thread (session), ==, FC_SESSION_ALL_THREADS);

  /* search: the entry and the session agree both ways */
  g_action_group_activate_action (actions, "search", g_variant_new_string ("foo"));
  g_assert_cmpstr (fc_session_get_search_text (session), ==, "foo");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry"))), ==, "foo");
  fc_session_set_search_text (session, "bar");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fc_search_bar_get_part (fc_window_get_part (window, "search_bar"), "search_entry"))), ==, "bar");
  g_action_group_activate_action (actions, "search", g_variant_new_string (""));
  g_assert_cmpstr (fc_session_get_search_text (session), ==, "");

  /* colour mode and frame filter, the colour mode remembered in GSettings */
  g_action_group_activate_action (actions, "color-mode", g_variant_new_string ("package"));
  g_assert_cmpint (fc_session_get_color_mode (session), ==, FC_COLOR_MODE_PACKAGE);
  {
    g_autofree char *stored = g_settings_get_string (settings, "color-mode");
    g_assert_cmpstr (stored, ==, "package");
  }
  g_action_group_activate_action (actions, "frame-filter", g_variant_new_string ("application"));
  g_assert_cmpint (fc_session_get_frame_filter (session), ==, FC_FRAME_FILTER_APPLICATION);

  /* pages and the details panel */
  g_action_group_activate_action (actions, "show-page", g_variant_new_string ("call-tree"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (fc_window_get_part (window, "view_stack")), ==, "call-tree");
  g_action_group_activate_action (actions, "show-page", g_variant_new_string ("flamegraph"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (fc_window_get_part (window, "view_stack")), ==, "flamegraph");
  /* the details panel: hidden while no frame is selected, shown on a
   * selection unless the user turned it off */
  fc_session_set_selected_frame (session, FC_SESSION_NO_FRAME);
  g_assert_true (details_wanted (actions));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));
  fc_session_set_selected_frame (session, 0);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));
  g_action_group_activate_action (actions, "show-details", NULL);
  g_assert_false (details_wanted (actions));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));
  g_action_group_activate_action (actions, "show-details", NULL);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));
  fc_session_set_selected_frame (session, FC_SESSION_NO_FRAME);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fc_window_get_part (window, "details_scroller"))));

  /* a time selection, and clearing it */
  fc_session_set_selection (session, 1, 2);
  g_action_group_activate_action (actions, "clear-selection", NULL);
  g_assert_false (fc_session_has_selection (session));

  window_free (window);
}

static gboolean
recent_menu_has (FcWindow   *window,
                 const char *uri)
{
  GMenuModel *section = G_MENU_MODEL (fc_window_get_part (window, "recent_section"));

  for (int i = 0; i < g_menu_model_get_n_items (section); i++)
    {
      g_autofree char *action = NULL;
      g_autoptr(GVariant) target = NULL;

      g_menu_model_get_item_attribute (section, i, "action", "s", &action);
      target = g_menu_model_get_item_attribute_value (section, i, "target", G_VARIANT_TYPE_STRING);
      if (g_strcmp0 (action, "win.open-uri") == 0 && target != NULL &&
          g_strcmp0 (g_variant_get_string (target, NULL), uri) == 0)
        return TRUE;
    }

  return FALSE;
}

static void
test_recent (void)
{
  FcWindow *window = window_new ();
  g_autofree char *source = fc_test_data_path ("payloads/v1-node-stored.json");
  g_autofree char *folder = g_build_filename (g_get_home_dir (), "my_profiles", NULL);
  g_autofree char *path = g_build_filename (folder, "recent_test_node.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr(GError) error = NULL;
  gsize length;
  FcWindow *second;

  /* a file no other test opened */
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_get_contents (source, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  g_assert_false (recent_menu_has (window, uri));

  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (fc_session_get_document (fc_window_get_session (window)));

  /* the recent manager saves and announces the change from the main loop */
  while (!recent_menu_has (window, uri))
    g_main_context_iteration (NULL, TRUE);

  /* and opening it from there works, in another window too */
  second = window_new ();
  g_assert_true (recent_menu_has (second, uri));
  g_action_group_activate_action (G_ACTION_GROUP (second), "open-uri", g_variant_new_string (uri));
  while (fc_window_is_loading (second))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_file_equal (fc_window_get_file (second), file));

  /* the entry names the file and its folder, underscores kept */
  {
    g_autofree char *label = fc_window_recent_label (uri);

    g_assert_cmpstr (label, ==, "recent__test__node.json — ~/my__profiles");
  }

  /* a file that no longer opens leaves the list */
  g_file_set_contents (path, "{ not a profile", -1, &error);
  g_assert_no_error (error);
  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  while (recent_menu_has (window, uri))
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (recent_menu_has (second, uri));

  window_free (second);
  window_free (window);
}

static void
test_drop (void)
{
  FcWindow *window = window_new ();
  g_autofree char *path = fc_test_data_path ("payloads/v1-node-stored.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (fc_window_get_part (window, "main_stack")));
  GtkDropTarget *target = NULL;
  GdkFileList *files;
  GSList *list;
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);

  /* files dropped from a file manager arrive as a GdkFileList */
  list = g_slist_prepend (NULL, file);
  files = gdk_file_list_new_from_list (list);
  g_slist_free (list);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, files);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_assert_true (accepted);

  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_file_equal (fc_window_get_file (window), file));
  g_assert_nonnull (fc_session_get_document (fc_window_get_session (window)));

  g_clear_object (&controllers);
  window_free (window);
}

static void
test_cancel (void)
{
  FcWindow *window = window_new ();
  g_autofree char *path = fc_test_data_path ("payloads/legacy-cocoa.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);

  fc_window_open_file (window, file);
  g_action_group_activate_action (G_ACTION_GROUP (window), "cancel-load", NULL);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);

  /* cancelled or failed, the window is back to its empty state */
  g_assert_true (fc_window_is_empty (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), ==, "empty");

  window_free (window);
}

static void
count_in_app (FcProfile  *profile,
              const char *path_part,
              guint      *yes,
              guint      *no)
{
  *yes = *no = 0;
  for (guint32 f = 0; f < fc_profile_get_n_frames (profile); f++)
    {
      const FcFrame *frame = fc_profile_get_frame (profile, f);
      const char *file = fc_profile_string (profile, frame->filename);

      if (file == NULL || strstr (file, path_part) == NULL)
        continue;
      /* the node profile says "in_app": null everywhere: every value is inferred */
      g_assert_true (frame->in_app_inferred);
      if (frame->in_app == FC_IN_APP_YES)
        (*yes)++;
      else if (frame->in_app == FC_IN_APP_NO)
        (*no)++;
    }
}

/* Application only, on a profile whose frames are all system frames: every
 * view says why it is empty instead of showing nothing */
static void
test_filter_empty (void)
{
  FcWindow *window = window_new ();
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "system-only.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  const char *json =
    "{\"version\":\"2\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\","
    "\"profiler_id\":\"4d229f1d3807421ba62a5f8bc295d836\",\"platform\":\"python\","
    "\"client_sdk\":{\"name\":\"sentry.python\",\"version\":\"2.13.0\"},"
    "\"profile\":{\"samples\":[{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.5},"
    "{\"stack_id\":1,\"thread_id\":\"1\",\"timestamp\":1710805788.51},"
    "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.52}],"
    "\"stacks\":[[0],[1,0]],"
    "\"frames\":[{\"function\":\"select\",\"filename\":\"selectors.py\",\"in_app\":false},"
    "{\"function\":\"poll\",\"filename\":\"selectors.py\",\"in_app\":false}],"
    "\"thread_metadata\":{\"1\":{\"name\":\"MainThread\"}}}}";
  GActionGroup *actions = G_ACTION_GROUP (window);

  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (fc_session_get_document (fc_window_get_session (window)));

  /* all frames: nothing to explain (once laid out: boxes are drawn) */
  adw_view_stack_set_visible_child_name (fc_window_get_part (window, "view_stack"), "flamechart");
  while (fc_flame_view_get_layout (FC_FLAME_VIEW (fc_window_get_part (window, "flame_chart"))) == NULL)
    g_main_context_iteration (NULL, TRUE);
  for (;;)
    {
      node = fc_flame_view_render_scene (FC_FLAME_VIEW (fc_window_get_part (window, "flame_chart")), 800, 300);
      g_clear_pointer (&node, gsk_render_node_unref);
      if (fc_flame_chart_get_n_drawn_boxes (fc_window_get_part (window, "flame_chart")) > 0)
        break;
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_null (fc_flame_chart_get_message (fc_window_get_part (window, "flame_chart")));

  g_action_group_activate_action (actions, "frame-filter", g_variant_new_string ("application"));
  g_assert_cmpint (fc_session_get_frame_filter (fc_window_get_session (window)), ==, FC_FRAME_FILTER_APPLICATION);

  /* the flamechart greys the system boxes out and says none is left */
  node = fc_flame_view_render_scene (FC_FLAME_VIEW (fc_window_get_part (window, "flame_chart")), 800, 300);
  g_assert_cmpstr (fc_flame_chart_get_message (fc_window_get_part (window, "flame_chart")), ==, "No application frames in this range");
  g_clear_pointer (&node, gsk_render_node_unref);

  /* the flamegraph and the call tree, once their trees are rebuilt */
  adw_view_stack_set_visible_child_name (fc_window_get_part (window, "view_stack"), "call-tree");
  while (fc_flame_graph_get_message (fc_window_get_part (window, "flame_graph")) == NULL ||
         strstr (fc_call_tree_view_get_summary (fc_window_get_part (window, "call_tree_view")), "No application frames") == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (fc_flame_graph_get_message (fc_window_get_part (window, "flame_graph")), ==, "No application frames in this range");
  g_assert_nonnull (strstr (fc_call_tree_view_get_summary (fc_window_get_part (window, "call_tree_view")),
                            "3 samples · 30.0 ms · No application frames in this range"));

  /* and system frames only: everything is back, no message */
  g_action_group_activate_action (actions, "frame-filter", g_variant_new_string ("system"));
  node = fc_flame_view_render_scene (FC_FLAME_VIEW (fc_window_get_part (window, "flame_chart")), 800, 300);
  g_assert_null (fc_flame_chart_get_message (fc_window_get_part (window, "flame_chart")));
  while (fc_flame_graph_get_message (fc_window_get_part (window, "flame_graph")) != NULL)
    g_main_context_iteration (NULL, TRUE);

  window_free (window);
}

/* A Node profile without in_app: the user's code is application code, the
 * packages under node_modules/ are not, unless the settings say they are. */
static void
test_in_app_inferred (void)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  guint yes, no;

  for (guint round = 0; round < 2; round++)
    {
      FcWindow *window = window_new ();
      FcProfile *profile;
      g_autoptr(FcCallTree) app_only = NULL;

      if (round == 1)
        g_settings_set_strv (settings, "in-app-prefixes",
                             (const char * const[]) { "/srv/shop/node_modules/react-dom/", NULL });
      open_and_wait (window, "payloads/v1-node-stored.json");
      profile = fc_session_get_profile (fc_window_get_session (window));

      count_in_app (profile, "/static/app/", &yes, &no);
      g_assert_cmpuint (yes, >, 10);
      g_assert_cmpuint (no, ==, 0);
      count_in_app (profile, "/node_modules/react-dom/", &yes, &no);
      if (round == 0)
        {
          g_assert_cmpuint (yes, ==, 0);
          g_assert_cmpuint (no, >, 10);
        }
      else
        {
          g_assert_cmpuint (yes, >, 10);
          g_assert_cmpuint (no, ==, 0);
        }

      /* "application frames only" has something to show */
      app_only = fc_call_tree_new_full (profile, -1, 0, 0, FALSE, FC_FRAME_FILTER_APPLICATION);
      g_assert_cmpuint (fc_call_tree_node_get_n_children (fc_call_tree_get_root (app_only)), >, 0);

      window_free (window);
    }
  g_settings_reset (settings, "in-app-prefixes");
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/window/open-fixtures", test_open_fixtures);
  g_test_add_func ("/app/window/open-errors", test_open_errors);
  g_test_add_func ("/app/window/open-load", test_open_load);
  g_test_add_func ("/app/window/actions", test_actions);
  g_test_add_func ("/app/window/recent", test_recent);
  g_test_add_func ("/app/window/drop", test_drop);
  g_test_add_func ("/app/window/cancel", test_cancel);
  g_test_add_func ("/app/window/in-app-inferred", test_in_app_inferred);
  g_test_add_func ("/app/window/filter-empty", test_filter_empty);

  return fc_test_run ();
}
