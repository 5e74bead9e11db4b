/* fc-screenshot.c - the window photographs itself for the README (tools/screenshots.sh)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-screenshot.h"
#include "fc-window-private.h"

/*
 * Renders the window's content with its own GskRenderer into PNGs, the way
 * it is on screen, for docs/screenshots/. Each step waits a little so
 * worker threads (layout, call tree) finish and the frame clock paints;
 * this is a documentation tool, not something the tests rely on.
 */

#define STEP_MS 1200

typedef struct {
  FcWindow *window;      /* owned */
  char     *directory;
  guint     step;
  gboolean  started;
} Shooter;

static void
shooter_free (Shooter *shooter)
{
  g_clear_object (&shooter->window);
  g_free (shooter->directory);
  g_free (shooter);
}

static void
save_png (Shooter    *shooter,
          const char *name,
          gboolean    with_popover)
{
  GtkWidget *content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (shooter->window));
  int width = gtk_widget_get_width (content);
  int height = gtk_widget_get_height (content);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (content);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_build_filename (shooter->directory, name, NULL);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (shooter->window));

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);

  /* A popover is its own surface: draw it where it pops up, under its button. */
  if (with_popover)
    {
      GtkWidget *selector = GTK_WIDGET (shooter->window->thread_selector);
      GtkWidget *button = gtk_widget_get_first_child (selector);
      GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
      graphene_rect_t bounds;

      if (popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover)) &&
          gtk_widget_compute_bounds (selector, content, &bounds))
        {
          g_autoptr(GdkPaintable) popover_paintable = gtk_widget_paintable_new (GTK_WIDGET (popover));
          int pw = gtk_widget_get_width (GTK_WIDGET (popover));
          int ph = gtk_widget_get_height (GTK_WIDGET (popover));
          double x = bounds.origin.x + bounds.size.width / 2 - pw / 2.0;

          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (MAX (0, x), bounds.origin.y + bounds.size.height - 4));
          gdk_paintable_snapshot (popover_paintable, GDK_SNAPSHOT (snapshot), pw, ph);
          gtk_snapshot_restore (snapshot);
        }
    }

  node = gtk_snapshot_to_node (snapshot);
  if (node == NULL)
    {
      g_printerr ("screenshot %s: nothing drawn\n", path);
      return;
    }

  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    g_printerr ("screenshot %s: could not save\n", path);
  else
    g_print ("%s\n", path);
}

static void
select_some_frame (FcWindow *window)
{
  /* A row a few levels down the heaviest path, so the details panel and
   * the selection highlight have something to show. */
  GtkTreeListModel *model = fc_call_tree_view_get_model (window->call_tree_view);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_autoptr(GtkTreeListRow) row = n > 0 ? g_list_model_get_item (G_LIST_MODEL (model), MIN (n, 5) - 1) : NULL;

  if (row != NULL)
    {
      g_autoptr(FcCallTreeRow) item = gtk_tree_list_row_get_item (row);

      fc_session_set_selected_frame (window->session,
                                     fc_filtered_tree_node_get_frame (fc_call_tree_row_get_node (item)));
    }
}

static gboolean
step_cb (gpointer user_data)
{
  Shooter *shooter = user_data;
  FcWindow *window = shooter->window;

  switch (shooter->step++)
    {
    case 0:
      adw_view_stack_set_visible_child_name (window->view_stack, "flamechart");
      select_some_frame (window);
      return G_SOURCE_CONTINUE;
    case 1:
      save_png (shooter, "flamechart.png", FALSE);
      fc_thread_selector_popup (window->thread_selector);
      return G_SOURCE_CONTINUE;
    case 2:
      save_png (shooter, "threads.png", TRUE);
      fc_thread_selector_popdown (window->thread_selector);
      adw_view_stack_set_visible_child_name (window->view_stack, "flamegraph");
      return G_SOURCE_CONTINUE;
    case 3:
      save_png (shooter, "flamegraph.png", FALSE);
      adw_view_stack_set_visible_child_name (window->view_stack, "call-tree");
      return G_SOURCE_CONTINUE;
    case 4:
      save_png (shooter, "call-tree.png", FALSE);
      /* FLAMECAST_SCREENSHOT_COMPARE: a profile from before, for compare.png */
      if (g_getenv ("FLAMECAST_SCREENSHOT_COMPARE") != NULL)
        {
          g_autoptr(GFile) before = g_file_new_for_path (g_getenv ("FLAMECAST_SCREENSHOT_COMPARE"));

          fc_window_compare_file (window, before);
        }
      return G_SOURCE_CONTINUE;
    case 5:
      if (fc_flame_graph_has_diff (window->flame_graph))
        save_png (shooter, "compare.png", FALSE);
      adw_view_stack_set_visible_child_name (window->view_stack, "flamechart");
      fc_session_set_thread (window->session, FC_SESSION_ALL_THREADS);
      return G_SOURCE_CONTINUE;
    case 6:
      save_png (shooter, "all-threads.png", FALSE);
      return G_SOURCE_CONTINUE;
    default:
      fc_screenshot_send_windows (window, shooter->directory);
      return G_SOURCE_REMOVE;
    }
}

static void
document_cb (Shooter    *shooter,
             GParamSpec *pspec,
             FcSession  *session)
{
  if (fc_session_get_document (session) == NULL || shooter->started)
    return;

  shooter->started = TRUE;
  g_timeout_add_full (G_PRIORITY_DEFAULT, STEP_MS, step_cb, shooter, (GDestroyNotify) shooter_free);
}

/**
 * fc_screenshot_window_when_loaded:
 * @window: a window about to open a file
 * @directory: where to write flamechart.png, threads.png (the flamechart with
 *   the thread selector open), flamegraph.png, call-tree.png and
 *   all-threads.png (the flamechart's lanes)
 *
 * Once @window shows a document, takes the README screenshots and quits.
 */
void
fc_screenshot_window_when_loaded (FcWindow   *window,
                                  const char *directory)
{
  Shooter *shooter = g_new0 (Shooter, 1);

  shooter->window = g_object_ref (window);
  shooter->directory = g_strdup (directory);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  g_signal_connect_swapped (window->session, "notify::document", G_CALLBACK (document_cb), shooter);
}
