/* fc-record-dialog.c - choose what to record: a running process or a command to launch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "fc-app-settings.h"
#include "fc-record-dialog.h"

#define REFRESH_INTERVAL_MS 2000

/* ---- one row of the process list ---- */

#define FC_TYPE_PROCESS_ROW (fc_process_row_get_type ())
G_DECLARE_FINAL_TYPE (FcProcessRow, fc_process_row, FC, PROCESS_ROW, GObject)

struct _FcProcessRow
{
  GObject   parent_instance;
  GPid      pid;
  char     *name;
  char     *user;
  char     *cmdline;
  guint     n_threads;
  double    cpu;       /* percent of one CPU since the last refresh; < 0 before the second */
  gboolean  own;       /* the user's own */
  gboolean  kernel;    /* a kernel thread: listed only on request */
};

G_DEFINE_FINAL_TYPE (FcProcessRow, fc_process_row, G_TYPE_OBJECT)

static void
fc_process_row_finalize (GObject *object)
{
  FcProcessRow *self = FC_PROCESS_ROW (object);

  g_free (self->name);
  g_free (self->user);
  g_free (self->cmdline);
  G_OBJECT_CLASS (fc_process_row_parent_class)->finalize (object);
}

static void
fc_process_row_class_init (FcProcessRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_process_row_finalize;
}

static void
fc_process_row_init (FcProcessRow *self)
{
}

/* ---- the dialog ---- */

struct _FcRecordDialog
{
  AdwWindow           parent_instance;

  /* template widgets */
  GtkStack           *stack;
  GtkSearchEntry     *search_entry;
  GtkColumnView      *column_view;
  GtkRevealer        *problem_revealer;
  GtkLabel           *problem_label;
  GtkLabel           *count_label;
  GtkButton          *attach_button;
  AdwEntryRow        *command_row;
  AdwEntryRow        *cwd_row;
  GtkLabel           *launch_problem_label;
  GtkButton          *launch_button;
  GtkSwitch          *follow_switch;
  GtkCheckButton     *kernel_check;

  /* owned */
  GSettings          *settings;
  GListStore         *store;
  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  GtkSingleSelection *selection;
  GHashTable         *prev_ticks;      /* pid -> cpu ticks at the last refresh */
  gint64              prev_time_us;
  GCancellable       *cancellable;
  guint               refresh_source;
  char               *problem;
  GPid                selected_pid;
  gboolean            reading;
};

G_DEFINE_FINAL_TYPE (FcRecordDialog, fc_record_dialog, ADW_TYPE_WINDOW)

enum {
  STARTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_problem (FcRecordDialog *self,
              const char     *message)
{
  g_free (self->problem);
  self->problem = g_strdup (message);
  if (message != NULL)
    gtk_label_set_text (self->problem_label, message);
  gtk_revealer_set_reveal_child (self->problem_revealer, message != NULL);
}

/* Before attaching: what stands in the way, and the fix. */
static gboolean
check_selected (FcRecordDialog *self)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (self->selected_pid <= 0)
    {
      show_problem (self, NULL);
      gtk_widget_set_sensitive (GTK_WIDGET (self->attach_button), FALSE);
      return FALSE;
    }
  /* sandboxed, the host's process is not in our /proc: the helper answers for it at Record */
  ok = fc_access_through_helper (self->selected_pid) ||
       fc_attach_check (self->selected_pid, fc_app_settings_get_mode (), &error);
  if (!ok && fc_access_needs_helper (self->selected_pid, fc_app_settings_get_mode ()))
    {
      g_autofree char *text = g_strdup_printf (_("%s. Record asks flamecast-helper to open it, with an "
                                                 "administrator's consent (polkit)."), error->message);
      show_problem (self, text);
      ok = TRUE;
    }
  else
    show_problem (self, ok ? NULL : error->message);
  gtk_widget_set_sensitive (GTK_WIDGET (self->attach_button), ok);
  return ok;
}

static FcProcessRow *
selected_row (FcRecordDialog *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

static void
selection_changed_cb (FcRecordDialog *self)
{
  FcProcessRow *row = selected_row (self);
  GPid pid = row != NULL ? row->pid : 0;

  /* a refresh re-selects the same process: nothing to check again */
  if (pid == self->selected_pid)
    return;
  self->selected_pid = pid;
  check_selected (self);
}

static void
update_count (FcRecordDialog *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  guint all = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  g_autofree char *text = NULL;

  if (shown == all)
    text = g_strdup_printf (ngettext ("%u process", "%u processes", all), all);
  else
    text = g_strdup_printf (ngettext ("%u of %u process", "%u of %u processes", all), shown, all);
  gtk_label_set_text (self->count_label, text);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const FcProcessRow *ra = *(FcProcessRow **) a;
  const FcProcessRow *rb = *(FcProcessRow **) b;

  /* the user's own first, the busiest first, then by pid */
  if (ra->own != rb->own)
    return ra->own ? -1 : 1;
  if (ra->cpu != rb->cpu)
    return ra->cpu > rb->cpu ? -1 : 1;
  return (ra->pid > rb->pid) - (ra->pid < rb->pid);
}

static void
read_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  FcProcessSource source;
  GError *error = NULL;
  GPtrArray *list = fc_access_list_processes (&source, &error);

  if (list == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, list, (GDestroyNotify) g_ptr_array_unref);
}

static void
read_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  FcRecordDialog *self;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GHashTable) ticks = NULL;
  g_autoptr(GError) error = NULL;
  gint64 now = g_get_monotonic_time ();
  double elapsed_ticks;
  GPid keep;
  uid_t me = geteuid ();

  list = g_task_propagate_pointer (G_TASK (result), &error);
  if (list == NULL && (error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    return;   /* cancelled: the dialog is gone */
  self = FC_RECORD_DIALOG (object);
  self->reading = FALSE;
  if (list == NULL)
    {
      /* sandboxed, and the helper that lists the host's processes is not there or refused */
      show_problem (self, error->message);
      return;
    }

  elapsed_ticks = self->prev_time_us ? (now - self->prev_time_us) / 1e6 * sysconf (_SC_CLK_TCK) : 0;
  ticks = g_hash_table_new (NULL, NULL);
  rows = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < list->len; i++)
    {
      FcProcessInfo *info = g_ptr_array_index (list, i);
      FcProcessRow *row = g_object_new (FC_TYPE_PROCESS_ROW, NULL);
      gpointer prev;

      row->pid = info->pid;
      row->name = g_strdup (info->name);
      row->user = g_strdup (info->user);
      row->cmdline = g_strdup (info->cmdline);
      row->n_threads = info->n_threads;
      row->own = info->uid == me;
      row->kernel = info->kernel;
      row->cpu = -1;
      if (elapsed_ticks > 0 &&
          g_hash_table_lookup_extended (self->prev_ticks, GINT_TO_POINTER (info->pid), NULL, &prev))
        row->cpu = 100.0 * (info->cpu_ticks - GPOINTER_TO_SIZE (prev)) / elapsed_ticks;
      g_hash_table_insert (ticks, GINT_TO_POINTER (info->pid), GSIZE_TO_POINTER ((gsize) info->cpu_ticks));
      g_ptr_array_add (rows, row);
    }
  g_hash_table_unref (self->prev_ticks);
  self->prev_ticks = g_steal_pointer (&ticks);
  self->prev_time_us = now;
  g_ptr_array_sort (rows, compare_rows);

  /* the selection follows its process across the refresh */
  keep = self->selected_pid;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       rows->pdata, rows->len);
  if (keep > 0)
    fc_record_dialog_select_pid (self, keep);
  update_count (self);
}

void
fc_record_dialog_refresh (FcRecordDialog *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (FC_IS_RECORD_DIALOG (self));

  if (self->reading)
    return;
  self->reading = TRUE;
  task = g_task_new (self, self->cancellable, read_ready_cb, NULL);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, read_thread);
}

static gboolean
refresh_cb (gpointer user_data)
{
  fc_record_dialog_refresh (user_data);
  return G_SOURCE_CONTINUE;
}

static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  FcRecordDialog *self = user_data;
  FcProcessRow *row = item;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *pid = NULL;
  g_autofree char *needle = NULL;
  g_autofree char *name = NULL;
  g_autofree char *cmdline = NULL;

  if (row->kernel && !gtk_check_button_get_active (self->kernel_check))
    return FALSE;
  if (text == NULL || *text == '\0')
    return TRUE;
  needle = g_utf8_casefold (text, -1);
  name = g_utf8_casefold (row->name, -1);
  cmdline = g_utf8_casefold (row->cmdline, -1);
  pid = g_strdup_printf ("%d", row->pid);
  return strstr (name, needle) != NULL || strstr (cmdline, needle) != NULL ||
         g_str_has_prefix (pid, text) || g_strcmp0 (row->user, text) == 0;
}

static void
search_changed_cb (FcRecordDialog *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
retry_cb (FcRecordDialog *self)
{
  fc_record_dialog_refresh (self);
  check_selected (self);
}

static void
attached_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(FcRecordDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcLiveRecording) live = fc_live_recording_attach_finish (result, &error);

  /* closed while polkit was asked: the answer is no one's */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self->attach_button), TRUE);
  if (live == NULL)
    {
      show_problem (self, error->message);
      return;
    }
  g_signal_emit (self, signals[STARTED], 0, live);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
attach_cb (FcRecordDialog *self)
{
  if (!check_selected (self))
    return;
  /* polkit may ask for a password: the dialog waits without blocking the app */
  if (fc_access_needs_helper (self->selected_pid, fc_app_settings_get_mode ()))
    show_problem (self, _("Waiting for polkit's answer to flamecast-helper…"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->attach_button), FALSE);
  fc_live_recording_attach_async (self->selected_pid, self->cancellable, attached_cb, g_object_ref (self));
}

/* Return in the search: the one process it found (or the one selected) */
static void
search_activate_cb (FcRecordDialog *self)
{
  /* the entry reports changes after a delay: the list follows what was typed */
  search_changed_cb (self);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->filtered)) == 1)
    gtk_single_selection_set_selected (self->selection, 0);
  if (selected_row (self) != NULL)
    attach_cb (self);
}

static void
row_activated_cb (FcRecordDialog *self,
                  guint           position)
{
  gtk_single_selection_set_selected (self->selection, position);
  attach_cb (self);
}

static void
command_changed_cb (FcRecordDialog *self)
{
  g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->command_row)));

  gtk_widget_set_sensitive (GTK_WIDGET (self->launch_button), *g_strstrip (text) != '\0');
  gtk_widget_set_visible (GTK_WIDGET (self->launch_problem_label), FALSE);
}

static void
launch_cb (FcRecordDialog *self)
{
  const char *command = gtk_editable_get_text (GTK_EDITABLE (self->command_row));
  const char *cwd = gtk_editable_get_text (GTK_EDITABLE (self->cwd_row));
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcLiveRecording) live = NULL;

  if (!g_shell_parse_argv (command, NULL, &argv, &error) ||
      (live = fc_live_recording_spawn ((const char * const *) argv, cwd, &error)) == NULL)
    {
      gtk_label_set_text (self->launch_problem_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->launch_problem_label), TRUE);
      return;
    }
  g_signal_emit (self, signals[STARTED], 0, live);
  gtk_window_destroy (GTK_WINDOW (self));
}

/* ---- columns ---- */

typedef enum {
  COLUMN_NAME,
  COLUMN_PID,
  COLUMN_USER,
  COLUMN_CPU,
  COLUMN_THREADS,
  COLUMN_COMMAND,
} Column;

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);
  gboolean numeric = column == COLUMN_PID || column == COLUMN_CPU || column == COLUMN_THREADS;

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  if (column == COLUMN_COMMAND)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  FcProcessRow *row = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_autofree char *text = NULL;

  switch (column)
    {
    case COLUMN_NAME:
      gtk_label_set_text (label, row->name);
      break;
    case COLUMN_PID:
      text = g_strdup_printf ("%d", row->pid);
      break;
    case COLUMN_USER:
      gtk_label_set_text (label, row->user);
      break;
    case COLUMN_CPU:
      text = row->cpu >= 0 ? g_strdup_printf ("%.1f", row->cpu) : g_strdup ("–");
      break;
    case COLUMN_THREADS:
      text = g_strdup_printf ("%u", row->n_threads);
      break;
    case COLUMN_COMMAND:
      gtk_label_set_text (label, row->cmdline);
      gtk_widget_set_tooltip_text (GTK_WIDGET (label), row->cmdline);
      break;
    default:
      g_assert_not_reached ();
    }
  if (text != NULL)
    gtk_label_set_text (label, text);
}

static void
add_column (FcRecordDialog *self,
            const char     *title,
            Column          column,
            int             fixed_width,
            gboolean        expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (column));
  view_column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (view_column, expand);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  if (fixed_width > 0)
    gtk_column_view_column_set_fixed_width (view_column, fixed_width);
  gtk_column_view_append_column (self->column_view, view_column);
}

/* ---- public ---- */

gboolean
fc_record_dialog_select_pid (FcRecordDialog *self,
                             GPid            pid)
{
  guint n;

  g_return_val_if_fail (FC_IS_RECORD_DIALOG (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(FcProcessRow) row = g_list_model_get_item (G_LIST_MODEL (self->filtered), i);

      if (row->pid == pid)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

const char *
fc_record_dialog_get_problem (FcRecordDialog *self)
{
  g_return_val_if_fail (FC_IS_RECORD_DIALOG (self), NULL);
  return self->problem;
}

guint
fc_record_dialog_get_n_shown (FcRecordDialog *self)
{
  g_return_val_if_fail (FC_IS_RECORD_DIALOG (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
}

/* the "Follow child processes" switch, bound to the follow-children key */
GtkSwitch *
fc_record_dialog_get_follow_switch (FcRecordDialog *self)
{
  g_return_val_if_fail (FC_IS_RECORD_DIALOG (self), NULL);
  return self->follow_switch;
}

/* the "Show kernel threads" check button */
GtkCheckButton *
fc_record_dialog_get_kernel_check (FcRecordDialog *self)
{
  g_return_val_if_fail (FC_IS_RECORD_DIALOG (self), NULL);
  return self->kernel_check;
}

void
fc_record_dialog_search (FcRecordDialog *self,
                         const char     *text)
{
  g_return_if_fail (FC_IS_RECORD_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  /* the entry reports changes after a delay; the filter follows now */
  search_changed_cb (self);
}

static void
fc_record_dialog_dispose (GObject *object)
{
  FcRecordDialog *self = FC_RECORD_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->refresh_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_RECORD_DIALOG);
  g_clear_object (&self->selection);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->store);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->prev_ticks, g_hash_table_unref);
  g_clear_pointer (&self->problem, g_free);

  G_OBJECT_CLASS (fc_record_dialog_parent_class)->dispose (object);
}

/* typing searches at once; Return records the one process found */
static void
fc_record_dialog_map (GtkWidget *widget)
{
  FcRecordDialog *self = FC_RECORD_DIALOG (widget);

  GTK_WIDGET_CLASS (fc_record_dialog_parent_class)->map (widget);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
fc_record_dialog_class_init (FcRecordDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_record_dialog_dispose;
  widget_class->map = fc_record_dialog_map;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-record-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, search_entry);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, column_view);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, problem_revealer);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, problem_label);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, count_label);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, attach_button);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, cwd_row);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, launch_problem_label);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, launch_button);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, follow_switch);
  gtk_widget_class_bind_template_child (widget_class, FcRecordDialog, kernel_check);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, retry_cb);
  gtk_widget_class_bind_template_callback (widget_class, attach_cb);
  gtk_widget_class_bind_template_callback (widget_class, command_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, launch_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  /* a recording started from here: whoever shows it takes a reference */
  signals[STARTED] = g_signal_new ("started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, FC_TYPE_LIVE_RECORDING);
}

static void
fc_record_dialog_init (FcRecordDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));

  /* the recording started from here reads the key (as `record --follow-children` does) */
  self->settings = fc_app_settings_new ();
  g_settings_bind (self->settings, "follow-children", self->follow_switch, "active", G_SETTINGS_BIND_DEFAULT);

  self->cancellable = g_cancellable_new ();
  self->prev_ticks = g_hash_table_new (NULL, NULL);
  self->store = g_list_store_new (FC_TYPE_PROCESS_ROW);
  self->filter = gtk_custom_filter_new (filter_cb, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                              GTK_FILTER (g_object_ref (self->filter)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->filtered)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  add_column (self, _("Name"), COLUMN_NAME, 150, FALSE);
  add_column (self, _("PID"), COLUMN_PID, 70, FALSE);
  add_column (self, _("User"), COLUMN_USER, 90, FALSE);
  add_column (self, _("CPU %"), COLUMN_CPU, 70, FALSE);
  add_column (self, _("Threads"), COLUMN_THREADS, 70, FALSE);
  add_column (self, _("Command Line"), COLUMN_COMMAND, -1, TRUE);

  /* refreshed while open: CPU% needs two readings */
  fc_record_dialog_refresh (self);
  self->refresh_source = g_timeout_add (REFRESH_INTERVAL_MS, refresh_cb, self);
}

/**
 * fc_record_dialog_new:
 * @parent: (nullable): the window it is over
 *
 * A dialog listing every process (the user's own first) with a permission
 * check before attaching, and a page to launch a command. What it starts is
 * handed over with "started" (an #FcLiveRecording), then it closes.
 */
FcRecordDialog *
fc_record_dialog_new (GtkWindow *parent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (FC_TYPE_RECORD_DIALOG, "transient-for", parent, NULL);
}
