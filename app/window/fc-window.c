/* fc-window.c - a window showing one profile document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>

#include "fc-resources.h"

#include "fc-app-settings.h"
#include "fc-diff.h"
#include "fc-file-load.h"
#include "fc-reader.h"
#include "fc-window-private.h"

G_DEFINE_FINAL_TYPE (FcWindow, fc_window, ADW_TYPE_APPLICATION_WINDOW)

/* What Compare with's thread hands back: the document and its merged
 * profile (fc_file_load_run()), and the comparison. */
typedef struct {
  FcDocument *document;
  FcProfile  *profile;
  FcDiff     *diff;       /* Compare with: this file before, the window's profile after */
  FcCallTree *before;     /* Compare with: this file's shape, all threads */
} LoadResult;

static void
load_result_free (LoadResult *result)
{
  g_clear_pointer (&result->diff, fc_diff_unref);
  g_clear_pointer (&result->before, fc_call_tree_unref);
  g_clear_object (&result->document);
  g_clear_object (&result->profile);
  g_free (result);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoadResult, load_result_free)

typedef struct {
  GFile      *file;
  char      **in_app_prefixes;   /* read on the main thread: GSettings stays there */
  FcProfile  *after;             /* the window's profile */
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_clear_object (&data->after);
  g_clear_object (&data->file);
  g_strfreev (data->in_app_prefixes);
  g_free (data);
}

static void
fc_window_stop_loading (FcWindow *self)
{
  fc_loading_page_stop (self->loading_page);
  g_clear_object (&self->load_cancellable);
  fc_window_set_action_enabled (self, "cancel-load", FALSE);
}

/**
 * fc_window_show_problems:
 *
 * The problems the reader recovered from, in a dialog: from the toast after
 * opening, and from the main menu for as long as the file is shown.
 */
void
fc_window_show_problems (FcWindow *self)
{
  GPtrArray *problems;
  g_autoptr(GString) text = g_string_new (NULL);
  AdwMessageDialog *dialog;
  GtkWidget *label;
  GtkWidget *scroller;
  guint shown;

  if (fc_session_get_document (self->session) == NULL)
    return;

  problems = fc_document_get_problems (fc_session_get_document (self->session));
  /* A dialog is no place for a hundred thousand lines; the CLI's validate has them all. */
  shown = MIN (problems->len, 200);
  for (guint i = 0; i < shown; i++)
    {
      g_autofree char *line = fc_problem_to_string (g_ptr_array_index (problems, i));

      g_string_append_printf (text, "%s\n", line);
    }
  if (shown < problems->len)
    g_string_append_printf (text, _("… and %u more"), problems->len - shown);

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Problems in the File"), NULL));
  adw_message_dialog_format_body (dialog,
                                  ngettext ("The reader recovered from %u problem. What it could not use is left out.",
                                            "The reader recovered from %u problems. What it could not use is left out.",
                                            problems->len),
                                  problems->len);
  label = gtk_label_new (g_strchomp (text->str));
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  /* a long path or JSON pointer has no spaces: break anywhere, never clip */
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), label);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 200);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 400);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  adw_message_dialog_set_extra_child (dialog, scroller);
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
fc_window_add_recent (FcWindow *self,
                      GFile    *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = {
    .display_name = NULL,
    .description = NULL,
    .mime_type = (char *) "application/json",
    .app_name = (char *) FC_RECENT_APP_NAME,
    .app_exec = (char *) "flamecast %u",
    .groups = NULL,
    .is_private = FALSE,
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static void
load_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  FcFileLoad *load = FC_FILE_LOAD (object);
  g_autoptr(FcWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_object_ref (fc_file_load_get_file (load));
  g_autofree char *name = g_file_get_basename (file);
  FcDocument *document;
  GPtrArray *problems;

  /* A newer load replaced this one: it owns the window's state now. */
  if (fc_file_load_get_cancellable (load) != self->load_cancellable)
    return;

  fc_file_load_wait_finish (load, result, &error);
  document = fc_file_load_get_document (load);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      fc_window_stop_loading (self);
      gtk_stack_set_visible_child_name (self->main_stack,
                                        fc_session_get_document (self->session) ? "profile" : "empty");
      return;
    }

  fc_window_stop_loading (self);

  if (error != NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_autofree char *title = g_strdup_printf (_("Could Not Open “%s”"), name);
      g_autofree char *toast_title = g_strdup_printf (_("Could not open “%s”: %s"), name, error->message);
      AdwToast *toast;

      g_free (self->last_error);
      self->last_error = g_strdup (error->message);
      /* Open Recent lists what opens: a file that no longer does leaves it */
      gtk_recent_manager_remove_item (gtk_recent_manager_get_default (), uri, NULL);

      toast = adw_toast_new (toast_title);
      adw_toast_set_timeout (toast, 10);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);

      if (fc_session_get_document (self->session) == NULL)
        {
          adw_status_page_set_icon_name (self->empty_page, "dialog-error-symbolic");
          adw_status_page_set_title (self->empty_page, title);
          adw_status_page_set_description (self->empty_page, error->message);
          gtk_stack_set_visible_child_name (self->main_stack, "empty");
        }
      else
        gtk_stack_set_visible_child_name (self->main_stack, "profile");

      return;
    }

  g_clear_pointer (&self->last_error, g_free);
  g_set_object (&self->file, file);
  fc_flame_graph_set_diff (self->flame_graph, NULL, NULL);
  fc_diff_tree_view_set_diff (self->diff_tree_view, NULL);
  adw_view_stack_page_set_visible (self->compare_page, FALSE);
  fc_session_set_document_full (self->session, document, fc_file_load_get_profile (load),
                                fc_file_load_get_start (load));
  {
    g_autoptr(GFile) parent = g_file_get_parent (file);
    g_autofree char *folder = parent ? g_file_get_parse_name (parent) : NULL;

    fc_window_show_title (self, name, folder);
  }
  /* no cross-fade from the loading page: each of its frames draws both
   * pages whole and blends them (the cairo renderer's 100-200 ms of the
   * main thread on a big window), before the flamechart's first paint */
  gtk_stack_set_visible_child_full (self->main_stack, "profile", GTK_STACK_TRANSITION_TYPE_NONE);
  fc_window_add_recent (self, file);

  problems = fc_document_get_problems (document);
  self->last_n_problems = problems->len;
  fc_window_set_action_enabled (self, "show-problems", problems->len > 0);
  if (problems->len > 0)
    {
      g_autofree char *toast_title = NULL;
      AdwToast *toast;

      toast_title = g_strdup_printf (ngettext ("Opened with %u problem", "Opened with %u problems", problems->len),
                                     problems->len);
      toast = adw_toast_new (toast_title);
      adw_toast_set_button_label (toast, _("_Details"));
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (fc_window_show_problems), self, G_CONNECT_SWAPPED);
      adw_toast_set_timeout (toast, 8);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }
}

/**
 * fc_window_show_title:
 * @self: a window
 * @title: the process or file shown, short ("threads", "profile.json")
 * @subtitle: (nullable): what else tells it apart (pid, folder)
 *
 * The header names what the window holds in full at the default width: the
 * name keeps the room it needs (up to 20 characters) there, the subtitle
 * below it gives way first; its tooltip has both. A narrow window gives
 * the name way too (see fc_window_size_allocate ()).
 */
void
fc_window_show_title (FcWindow   *self,
                      const char *title,
                      const char *subtitle)
{
  g_return_if_fail (FC_IS_WINDOW (self));
  g_return_if_fail (title != NULL);

  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_view_switcher_title_set_subtitle (self->switcher_title, title);
  fc_header_title_set (self->header_title, title, subtitle);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

/**
 * fc_window_open_file:
 * @self: a window
 * @file: a V1 profile, V2 chunk or envelope (plain or gzip)
 *
 * Reads @file on a worker thread, leniently, and shows it when done: the
 * main loop runs all along, with a spinner while it takes. Problems the
 * reader recovered from appear as a toast; a load error as a toast and, in
 * an empty window, on the status page, quoting the reader's message.
 */
void
fc_window_open_file (FcWindow *self,
                     GFile    *file)
{
  g_auto(GStrv) in_app_prefixes = NULL;
  g_autoptr(FcFileLoad) load = NULL;

  g_return_if_fail (FC_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  in_app_prefixes = g_settings_get_strv (self->settings, "in-app-prefixes");
  load = fc_file_load_new (file, (const char * const *) in_app_prefixes);
  fc_window_open_load (self, load);
}

/**
 * fc_window_open_load:
 * @self: a window
 * @load: a file being opened, perhaps since before the window existed
 *
 * As fc_window_open_file(), for a load already under way.
 */
void
fc_window_open_load (FcWindow   *self,
                     FcFileLoad *load)
{
  GFile *file;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;

  g_return_if_fail (FC_IS_WINDOW (self));
  g_return_if_fail (FC_IS_FILE_LOAD (load));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  fc_window_stop_loading (self);

  file = fc_file_load_get_file (load);
  self->load_cancellable = g_object_ref (fc_file_load_get_cancellable (load));

  name = g_file_get_basename (file);
  /* Only a local stat, to name the size; the read happens on the worker. */
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info != NULL)
    {
      g_autofree char *size = g_format_size (g_file_info_get_size (info));
      label = g_strdup_printf (_("Opening “%s” (%s)…"), name, size);
    }
  else
    label = g_strdup_printf (_("Opening “%s”…"), name);

  fc_loading_page_start (self->loading_page, label);
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
  fc_window_set_action_enabled (self, "cancel-load", TRUE);

  fc_file_load_wait_async (load, load_ready_cb, g_object_ref (self));
}

static void
compare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  LoadData *data = task_data;
  GError *error = NULL;
  LoadResult *result = g_new0 (LoadResult, 1);

  if (!fc_file_load_run (data->file, (const char * const *) data->in_app_prefixes, cancellable,
                         &result->document, &result->profile, NULL, &error))
    {
      load_result_free (result);
      g_task_return_error (task, error);
      return;
    }
  /* shares of all samples, so profiles of different lengths compare */
  result->diff = fc_diff_new (result->profile, data->after, FC_DIFF_FLAGS_NONE);
  result->before = fc_call_tree_new (result->profile, -1, 0, 0, FALSE);
  g_task_return_pointer (task, result, (GDestroyNotify) load_result_free);
}

static void
compare_ready_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  FcWindow *self = FC_WINDOW (object);
  g_autoptr(LoadResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_basename (((LoadData *) g_task_get_task_data (G_TASK (result)))->file);
  g_autofree char *toast_title = NULL;

  if (g_task_get_cancellable (G_TASK (result)) != self->load_cancellable)
    return;

  loaded = g_task_propagate_pointer (G_TASK (result), &error);
  fc_window_stop_loading (self);
  gtk_stack_set_visible_child_name (self->main_stack, "profile");
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (loaded == NULL)
    toast_title = g_strdup_printf (_("Could not compare with “%s”: %s"), name, error->message);
  else
    {
      /* one comparison for both views: the table shares the flamegraph's */
      fc_diff_tree_view_set_diff (self->diff_tree_view, loaded->diff);
      adw_view_stack_page_set_visible (self->compare_page, TRUE);
      fc_flame_graph_set_diff (self->flame_graph, g_steal_pointer (&loaded->diff), loaded->before);
      adw_view_stack_set_visible_child_name (self->view_stack, "flamegraph");
      toast_title = g_strdup_printf (_("Compared with “%s”: red is more now, blue less"), name);
    }
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (toast_title));
}

/**
 * fc_window_compare_file:
 * @self: a window showing a profile
 * @file: the profile to compare with, as it was before
 *
 * Reads @file on a worker thread as Open does, compares it with the
 * window's profile there (fc_diff_new()), and turns the flamegraph into a
 * differential one: the window's profile is the after.
 */
void
fc_window_compare_file (FcWindow *self,
                        GFile    *file)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  LoadData *data;

  g_return_if_fail (FC_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (fc_session_get_profile (self->session) != NULL);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  fc_window_stop_loading (self);

  self->load_cancellable = g_cancellable_new ();
  name = g_file_get_basename (file);
  label = g_strdup_printf (_("Comparing with “%s”…"), name);
  fc_loading_page_start (self->loading_page, label);
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
  fc_window_set_action_enabled (self, "cancel-load", TRUE);

  data = g_new0 (LoadData, 1);
  data->file = g_object_ref (file);
  data->in_app_prefixes = g_settings_get_strv (self->settings, "in-app-prefixes");
  data->after = g_object_ref (fc_session_get_profile (self->session));
  task = g_task_new (self, self->load_cancellable, compare_ready_cb, NULL);
  g_task_set_source_tag (task, fc_window_compare_file);
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, compare_thread);
}

gboolean
fc_window_is_loading (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), FALSE);

  return self->load_cancellable != NULL;
}

gboolean
fc_window_is_empty (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), FALSE);

  return self->load_cancellable == NULL && fc_session_get_document (self->session) == NULL &&
         self->live == NULL;
}

FcSession *
fc_window_get_session (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), NULL);

  return self->session;
}

/**
 * fc_window_get_file:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the file shown, if any
 */
GFile *
fc_window_get_file (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), NULL);

  return self->file;
}

const char *
fc_window_get_load_error (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), NULL);

  return self->last_error;
}

guint
fc_window_get_n_load_problems (FcWindow *self)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), 0);

  return self->last_n_problems;
}

/**
 * fc_window_get_part:
 *
 * Returns: (transfer none) (nullable): the template child @id
 */
gpointer
fc_window_get_part (FcWindow   *self,
                    const char *id)
{
  g_return_val_if_fail (FC_IS_WINDOW (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  return gtk_widget_get_template_child (GTK_WIDGET (self), FC_TYPE_WINDOW, id);
}

static gboolean
drop_cb (FcWindow     *self,
         const GValue *value,
         double        x,
         double        y)
{
  GFile *file = NULL;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = g_value_get_boxed (value);

      if (files != NULL)
        file = files->data;
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    file = g_value_get_object (value);

  if (file == NULL)
    return FALSE;

  fc_window_open_file (self, file);
  return TRUE;
}

/* Escape in the search: the keys go back to the view shown. */
static void
search_stop_cb (FcWindow *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);
  GtkWidget *view = GTK_WIDGET (self->flame_chart);

  if (g_strcmp0 (page, "flamegraph") == 0)
    view = GTK_WIDGET (self->flame_graph);
  else if (g_strcmp0 (page, "call-tree") == 0)
    view = GTK_WIDGET (self->call_tree_view);
  else if (g_strcmp0 (page, "compare") == 0)
    view = GTK_WIDGET (self->diff_tree_view);
  gtk_widget_grab_focus (view);
}

/**
 * fc_window_update_details:
 * @self: a window
 *
 * The details panel takes room from the views only when it has something to
 * say: with no frame selected it is hidden, so a narrow window (800 px) gives
 * the call tree and the flamechart its whole width (Sentry's frame drawer
 * also opens on a selection). The toolbar toggle (F9) still hides it.
 */
void
fc_window_update_details (FcWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "show-details");
  g_autoptr(GVariant) state = action ? g_action_get_state (action) : NULL;
  gboolean wanted = state == NULL || g_variant_get_boolean (state);

  gtk_widget_set_visible (GTK_WIDGET (self->details_scroller),
                          wanted && fc_session_get_selected_frame (self->session) != FC_SESSION_NO_FRAME);
}

static void
selected_frame_cb (FcWindow *self)
{
  fc_window_update_details (self);
}

static void
session_document_cb (FcWindow   *self,
                     GParamSpec *pspec,
                     FcSession  *session)
{
  gboolean has_document = fc_session_get_document (session) != NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->thread_selector), has_document);
  gtk_widget_set_visible (GTK_WIDGET (self->search_bar), has_document);
  gtk_widget_set_visible (GTK_WIDGET (self->document_tools), has_document);
}

static void
fc_window_save_size (FcWindow *self)
{
  int width, height;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", MAX (width, 360));
      g_settings_set_int (self->settings, "window-height", MAX (height, 294));
    }
}

/* From the default width (1200) down to 1100 px the name of what the window
 * holds and the line below it (a pid) keep the room they need, the thread's
 * name what is left of it, and the view switcher narrows (icons over
 * labels); below that they are ellipsized too, so that nothing in the header
 * makes the window wider than the user made it. */
#define TITLE_ROOM_WIDTH 1100
/* as much as leaves the view switcher room in the header at 1200 px: a name
 * of 20 characters beside "All th…", or one of 16 beside "All threads" */
#define TITLE_ROOM_CHARS 20
#define HEADER_ROOM_CHARS 27

static void
fc_window_size_allocate (GtkWidget *widget,
                         int        width,
                         int        height,
                         int        baseline)
{
  FcWindow *self = FC_WINDOW (widget);
  gboolean room = width >= TITLE_ROOM_WIDTH;
  int title_chars;

  title_chars = fc_header_title_keep_room (self->header_title, room ? TITLE_ROOM_CHARS : -1);
  fc_thread_selector_keep_room (self->thread_selector, room ? HEADER_ROOM_CHARS - title_chars : -1);
  GTK_WIDGET_CLASS (fc_window_parent_class)->size_allocate (widget, width, height, baseline);
}

static gboolean
fc_window_close_request (GtkWindow *window)
{
  FcWindow *self = FC_WINDOW (window);

  fc_window_save_size (self);
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  /* the target is released first; the window goes when it is */
  if (fc_window_record_close_request (self))
    return TRUE;

  return GTK_WINDOW_CLASS (fc_window_parent_class)->close_request (window);
}

static void
fc_window_dispose (GObject *object)
{
  FcWindow *self = (FcWindow *)object;

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  fc_window_record_dispose (self);
  fc_window_symbols_dispose (self);


  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_WINDOW);

  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  g_clear_object (&self->file);
  g_clear_object (&self->load_cancellable);

  G_OBJECT_CLASS (fc_window_parent_class)->dispose (object);
}

static void
fc_window_finalize (GObject *object)
{
  FcWindow *self = (FcWindow *)object;

  g_clear_pointer (&self->last_error, g_free);
  fc_window_symbols_finalize (self);

  G_OBJECT_CLASS (fc_window_parent_class)->finalize (object);
}

static void
fc_window_class_init (FcWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = fc_window_dispose;
  object_class->finalize = fc_window_finalize;
  window_class->close_request = fc_window_close_request;
  widget_class->size_allocate = fc_window_size_allocate;

  g_type_ensure (FC_TYPE_THREAD_SELECTOR);
  g_type_ensure (FC_TYPE_CALL_TREE_VIEW);
  g_type_ensure (FC_TYPE_DIFF_TREE_VIEW);
  g_type_ensure (FC_TYPE_FRAME_DETAILS);
  g_type_ensure (FC_TYPE_MINIMAP);
  g_type_ensure (FC_TYPE_SPAN_TRACK);
  g_type_ensure (FC_TYPE_FLAME_CHART);
  g_type_ensure (FC_TYPE_FLAME_GRAPH);
  g_type_ensure (FC_TYPE_RECORD_BAR);
  g_type_ensure (FC_TYPE_SEARCH_BAR);
  g_type_ensure (FC_TYPE_LOADING_PAGE);
  g_type_ensure (FC_TYPE_HEADER_TITLE);

  /* Referencing the resource links it (and its constructor) from the static library. */
  (void) fc_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FcWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, thread_selector);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, call_tree_view);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, compare_page);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, diff_tree_view);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, frame_details);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, details_scroller);
  gtk_widget_class_bind_template_child_full (widget_class, "recent_section", FALSE, 0);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, minimap);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, span_track);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, flame_chart);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, record_stack);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, record_bar);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, header_title);
  gtk_widget_class_bind_template_child (widget_class, FcWindow, document_tools);
  /* fetched by fc-window-symbols.c, not kept in the window's fields */
  gtk_widget_class_bind_template_child_full (widget_class, "symbols_status", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "symbols_spinner", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "symbols_label", FALSE, 0);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
}

static void
fc_window_init (FcWindow *self)
{
  GtkDropTarget *drop_target;

  self->session = fc_session_new ();
  self->settings = fc_app_settings_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  g_object_set (self->thread_selector, "session", self->session, NULL);
  g_object_set (self->call_tree_view, "session", self->session, NULL);
  g_object_set (self->frame_details, "session", self->session, NULL);
  g_object_set (self->minimap, "session", self->session, NULL);
  g_object_set (self->span_track, "session", self->session, NULL);
  g_object_set (self->flame_chart, "session", self->session, NULL);
  g_object_set (self->flame_graph, "session", self->session, NULL);

  fc_search_bar_bind (self->search_bar, self->session, self->flame_chart);

  g_signal_connect_object (self->session, "notify::document",
                           G_CALLBACK (session_document_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::selected-frame",
                           G_CALLBACK (selected_frame_cb), self, G_CONNECT_SWAPPED);
  g_settings_bind (self->settings, "color-mode", self->session, "color-mode", G_SETTINGS_BIND_DEFAULT);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  drop_target = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop_target, (GType[2]) { GDK_TYPE_FILE_LIST, G_TYPE_FILE }, 2);
  g_signal_connect_object (drop_target, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->main_stack), GTK_EVENT_CONTROLLER (drop_target));

  fc_window_init_actions (self);
  fc_window_record_init (self);
  fc_window_symbols_init (self);
  fc_window_update_details (self);
  fc_window_set_action_enabled (self, "cancel-load", FALSE);
  gtk_stack_set_visible_child_name (self->main_stack, "empty");
}

FcWindow *
fc_window_new (GtkApplication *application)
{
  g_return_val_if_fail (!application || GTK_IS_APPLICATION (application), NULL);

  return g_object_new (FC_TYPE_WINDOW,
                       "application", application,
                       NULL);
}
