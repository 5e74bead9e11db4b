/* fc-window-actions.c - the window's win.* actions and its Open Recent menu
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <string.h>

#include "fc-record-dialog.h"
#include "fc-window-private.h"

#define MAX_RECENT_ITEMS 10

static void
file_chooser_response_cb (FcWindow             *self,
                          int                   response,
                          GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        fc_window_open_file (self, file);
    }

  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  g_object_unref (chooser);
}

/* Open and Compare with offer the same files, from the open file's folder */
static GtkFileChooserNative *
profile_chooser_new (FcWindow   *self,
                     const char *title,
                     const char *accept)
{
  g_autoptr(GtkFileFilter) profiles = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  gtk_file_filter_set_name (profiles, _("Profiles, Chunks and Envelopes"));
  gtk_file_filter_add_mime_type (profiles, "application/json");
  gtk_file_filter_add_mime_type (profiles, "application/gzip");
  gtk_file_filter_add_suffix (profiles, "json");
  gtk_file_filter_add_suffix (profiles, "envelope");
  gtk_file_filter_add_suffix (profiles, "gz");
  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, accept, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), profiles);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  if (self->file != NULL)
    {
      g_autoptr(GFile) folder = g_file_get_parent (self->file);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  return chooser;
}

static void
open_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  FcWindow *self = user_data;
  GtkFileChooserNative *chooser;

  /* modal: no second one while it is shown; the response drops this reference */
  chooser = profile_chooser_new (self, _("Open a Profile"), _("_Open"));
  g_signal_connect_object (chooser, "response", G_CALLBACK (file_chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
compare_chooser_response_cb (FcWindow             *self,
                             int                   response,
                             GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT && fc_session_get_profile (self->session) != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        fc_window_compare_file (self, file);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  g_object_unref (chooser);
}

static void
compare_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  FcWindow *self = user_data;
  GtkFileChooserNative *chooser;

  if (fc_session_get_profile (self->session) == NULL)
    return;

  /* the response drops this reference */
  chooser = profile_chooser_new (self, _("Compare with a Profile from Before"), _("_Compare"));
  g_signal_connect_object (chooser, "response", G_CALLBACK (compare_chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_uri_action (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  FcWindow *self = user_data;
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  fc_window_open_file (self, file);
}

static void
cancel_load_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  FcWindow *self = user_data;

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
}

static void
find_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  FcWindow *self = user_data;

  fc_search_bar_focus (self->search_bar);
}

static void
search_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  FcWindow *self = user_data;

  /* The session first: the window mirrors it into the entry. */
  fc_session_set_search_text (self->session, g_variant_get_string (param, NULL));
}

static void
choose_thread_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  FcWindow *self = user_data;

  if (gtk_widget_get_visible (GTK_WIDGET (self->thread_selector)))
    fc_thread_selector_popup (self->thread_selector);
}

static void
select_thread_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  FcWindow *self = user_data;

  fc_session_set_thread (self->session, g_variant_get_int32 (param));
}

static void
clear_selection_action (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  FcWindow *self = user_data;

  fc_session_set_selection (self->session, 0, 0);
}

static void
show_page_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  FcWindow *self = user_data;
  const char *name = g_variant_get_string (param, NULL);

  if (adw_view_stack_get_child_by_name (self->view_stack, name) != NULL)
    adw_view_stack_set_visible_child_name (self->view_stack, name);
}

static void
record_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  FcWindow *self = user_data;
  FcRecordDialog *dialog = fc_record_dialog_new (GTK_WINDOW (self));

  g_signal_connect_object (dialog, "started", G_CALLBACK (fc_window_show_recording), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
stop_recording_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  fc_window_stop_recording (FC_WINDOW (user_data), FALSE);
}

static void
stop_and_end_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  fc_window_stop_recording (FC_WINDOW (user_data), TRUE);
}

static void
follow_live_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  fc_window_record_follow (FC_WINDOW (user_data));
}

static void
show_problems_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  fc_window_show_problems (FC_WINDOW (user_data));
}

static const GActionEntry win_entries[] = {
  { .name = "show-problems", .activate = show_problems_action },
  { .name = "record", .activate = record_action },
  { .name = "stop-recording", .activate = stop_recording_action },
  { .name = "stop-and-end", .activate = stop_and_end_action },
  { .name = "follow-live", .activate = follow_live_action },
  { .name = "open", .activate = open_action },
  { .name = "compare", .activate = compare_action },
  { .name = "open-uri", .activate = open_uri_action, .parameter_type = "s" },
  { .name = "cancel-load", .activate = cancel_load_action },
  { .name = "find", .activate = find_action },
  { .name = "search", .activate = search_action, .parameter_type = "s" },
  { .name = "choose-thread", .activate = choose_thread_action },
  { .name = "select-thread", .activate = select_thread_action, .parameter_type = "i" },
  { .name = "clear-selection", .activate = clear_selection_action },
  { .name = "show-page", .activate = show_page_action, .parameter_type = "s" },
};

void
fc_window_set_action_enabled (FcWindow   *self,
                              const char *name,
                              gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_return_if_fail (G_IS_SIMPLE_ACTION (action));

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

static void
recent_changed_cb (FcWindow         *self,
                   GtkRecentManager *manager)
{
  fc_window_update_recent_menu (self);
}

static int
compare_recent_by_age (gconstpointer a,
                       gconstpointer b)
{
  GDateTime *da = gtk_recent_info_get_modified (*(GtkRecentInfo **) a);
  GDateTime *db = gtk_recent_info_get_modified (*(GtkRecentInfo **) b);

  return g_date_time_compare (db, da);
}

/**
 * fc_window_recent_label:
 * @uri: a local file's URI
 *
 * Returns: (transfer full): the Open Recent entry of @uri, "name — folder"
 *   (the folder with ~ for the home directory: two files of one name from
 *   two places differ), underscores doubled so the menu does not take them
 *   for mnemonics
 */
char *
fc_window_recent_label (const char *uri)
{
  g_autoptr(GFile) file = g_file_new_for_uri (uri);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *folder = parent != NULL ? g_file_get_path (parent) : NULL;
  g_autofree char *label = NULL;
  g_auto(GStrv) parts = NULL;
  const char *home = g_get_home_dir ();

  if (folder != NULL && home != NULL && g_str_has_prefix (folder, home) &&
      (folder[strlen (home)] == '/' || folder[strlen (home)] == '\0'))
    {
      g_autofree char *rest = g_strdup (folder + strlen (home));

      g_free (folder);
      folder = g_strconcat ("~", rest, NULL);
    }

  /* Translators: an Open Recent entry, "profile.json — ~/profiles" */
  label = folder != NULL ? g_strdup_printf (_("%s — %s"), name, folder) : g_strdup (name);
  parts = g_strsplit (label, "_", -1);
  return g_strjoinv ("__", parts);
}

/**
 * fc_window_update_recent_menu:
 * @self: a window
 *
 * Refills Open Recent with the files Flamecast opened most recently.
 */
void
fc_window_update_recent_menu (FcWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  g_autoptr(GPtrArray) ours = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  GList *items = gtk_recent_manager_get_items (manager);
  GMenu *recent;

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (gtk_recent_info_has_application (info, FC_RECENT_APP_NAME) &&
          gtk_recent_info_is_local (info) &&
          gtk_recent_info_exists (info))
        g_ptr_array_add (ours, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);

  g_ptr_array_sort (ours, compare_recent_by_age);

  recent = G_MENU (gtk_widget_get_template_child (GTK_WIDGET (self), FC_TYPE_WINDOW, "recent_section"));
  g_menu_remove_all (recent);
  for (guint i = 0; i < ours->len && i < MAX_RECENT_ITEMS; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (ours, i);
      g_autoptr(GMenuItem) item = NULL;

      g_autofree char *label = fc_window_recent_label (gtk_recent_info_get_uri (info));

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "win.open-uri", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (recent, item);
    }

  if (ours->len == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No Recent Profiles"), "win.no-recent");

      g_menu_append_item (recent, item);
    }
}

static void
show_details_change_state_cb (FcWindow      *self,
                              GVariant      *state,
                              GSimpleAction *action)
{
  g_simple_action_set_state (action, state);
  fc_window_update_details (self);
}

void
fc_window_init_actions (FcWindow *self)
{
  g_autoptr(GPropertyAction) color_mode = NULL;
  g_autoptr(GPropertyAction) frame_filter = NULL;
  g_autoptr(GSimpleAction) show_details = NULL;
  g_autoptr(GPropertyAction) show_before = NULL;
  g_autoptr(GSimpleAction) no_recent = NULL;

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);
  fc_window_init_send_actions (self);

  color_mode = g_property_action_new ("color-mode", self->session, "color-mode");
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (color_mode));
  frame_filter = g_property_action_new ("frame-filter", self->session, "frame-filter");
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (frame_filter));
  /* the user's wish; the panel shows when a frame is selected too */
  show_details = g_simple_action_new_stateful ("show-details", NULL, g_variant_new_boolean (TRUE));
  g_signal_connect_object (show_details, "change-state", G_CALLBACK (show_details_change_state_cb),
                           self, G_CONNECT_SWAPPED);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (show_details));
  show_before = g_property_action_new ("compare-show-before", self->flame_graph, "show-before");
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (show_before));

  /* A disabled placeholder, so an empty Open Recent says why it is empty. */
  no_recent = g_simple_action_new ("no-recent", NULL);
  g_simple_action_set_enabled (no_recent, FALSE);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (no_recent));

  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (recent_changed_cb), self, G_CONNECT_SWAPPED);
  fc_window_update_recent_menu (self);
}
