/* fc-outbox-window.c - what waits in the outbox and what Sentry rejected: retry, discard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The outbox is a directory other processes change too (`flamecast-cli send
 * --flush`, another window), so the page lists it again every few seconds.
 * Listing, discarding and requeueing touch the disk and run on workers;
 * sending is the transport's asynchronous flush.
 */

#include <glib/gi18n.h>

#include "fc-resources.h"

#include "fc-app-settings.h"
#include "fc-outbox-entries.h"
#include "fc-outbox-window.h"
#include "fc-transport.h"

#define REFRESH_SECONDS 3

struct _FcOutboxWindow
{
  AdwWindow         parent_instance;

  /* template widgets */
  AdwToastOverlay  *toast_overlay;
  GtkSpinner       *spinner;
  GtkStack         *stack;
  AdwPreferencesGroup *waiting_group;
  AdwPreferencesGroup *rejected_group;

  /* owned */
  FcOutbox         *outbox;
  GSettings        *settings;
  GHashTable       *rows;          /* ID -> AdwActionRow (borrowed from the groups) */
  guint             refresh_source;
  guint             n_busy;
  gboolean          listing;
};

G_DEFINE_FINAL_TYPE (FcOutboxWindow, fc_outbox_window, ADW_TYPE_WINDOW)

/* -- work on the outbox, on workers -- */

typedef enum {
  OP_LIST,
  OP_DISCARD,
  OP_REQUEUE,
} OpKind;

typedef struct {
  OpKind    kind;
  char     *id;
  gboolean  rejected;
} Op;

static void
op_free (Op *op)
{
  g_free (op->id);
  g_free (op);
}

static void
op_thread (GTask        *task,
           gpointer      source_object,
           gpointer      task_data,
           GCancellable *cancellable)
{
  FcOutboxWindow *self = source_object;
  Op *op = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcRateLimits) rate_limits = NULL;

  switch (op->kind)
    {
    case OP_DISCARD:
      if (op->rejected ? !fc_outbox_discard_rejected (self->outbox, op->id, &error)
                       : !fc_outbox_discard (self->outbox, op->id, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_task_return_pointer (task, NULL, NULL);
      return;

    case OP_REQUEUE:
      if (!fc_outbox_requeue_rejected (self->outbox, op->id, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_task_return_pointer (task, NULL, NULL);
      return;

    case OP_LIST:
    default:
      break;
    }

  /* Loaded afresh: other processes (the CLI) learn limits too. */
  rate_limits = fc_rate_limits_new (NULL);
  g_task_return_pointer (task, fc_outbox_list_entries (self->outbox, rate_limits, g_get_real_time ()),
                         (GDestroyNotify) g_ptr_array_unref);
}

static void
busy_changed (FcOutboxWindow *self,
              int             delta)
{
  self->n_busy += delta;
  if (self->n_busy > 0)
    gtk_spinner_start (self->spinner);
  else
    gtk_spinner_stop (self->spinner);
}

static void
toast (FcOutboxWindow *self,
       const char     *text)
{
  AdwToast *t = adw_toast_new (text);

  adw_toast_set_timeout (t, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, t);
}

/* "2026-11-24 02:31:07", from the wall-clock microseconds an outbox ID starts with */
static char *
format_id_time (const char *id)
{
  gint64 usec = g_ascii_strtoll (id, NULL, 10);
  g_autoptr(GDateTime) utc = usec > 0 ? g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC) : NULL;
  g_autoptr(GDateTime) local = utc ? g_date_time_to_local (utc) : NULL;

  return local ? g_date_time_format (local, "%Y-%m-%d %H:%M:%S") : g_strdup (id);
}

static GtkWidget *
row_button (const char *icon_name,
            const char *tooltip,
            const char *action,
            const char *target)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", target);
  return button;
}

static GtkWidget *
entry_row (const FcOutboxEntry *entry)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *when = format_id_time (entry->id);
  g_autofree char *size = g_format_size (entry->size);
  g_autofree char *title = NULL;
  g_autofree char *target = g_strconcat (entry->rejected ? "rejected:" : "waiting:", entry->id, NULL);
  g_autofree char *subtitle = NULL;
  const char *why = entry->why;

  /* TRANSLATORS: item categories, size, the time it was added */
  title = g_strdup_printf (_("%s, %s, added %s"), entry->categories ? entry->categories : _("envelope"), size, when);
  if (why == NULL)
    why = entry->rejected ? _("Rejected, no reason given") : _("Waiting for the next flush");

  gtk_widget_set_name (row, entry->id);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (entry->limited_until > 0)
    {
      g_autoptr(GDateTime) until = g_date_time_new_from_unix_local (entry->limited_until / G_USEC_PER_SEC);
      g_autofree char *at = g_date_time_format (until, "%H:%M:%S");

      /* TRANSLATORS: %s is a time, then the reason of the last attempt */
      subtitle = g_strdup_printf (_("Held back by Sentry's rate limit, retry after %s. Last attempt: %s"), at, why);
    }
  /* each goes to its own project only: say which */
  {
    g_autofree char *to = entry->destination != NULL
      /* TRANSLATORS: %s is where the envelope goes (a Sentry project URL), then why it waits */
      ? g_strdup_printf (_("For %s. %s"), entry->destination, subtitle ? subtitle : why)
      : g_strdup_printf (_("No destination recorded (an older Flamecast's): not sent to a guessed project. %s"),
                         subtitle ? subtitle : why);

    g_free (subtitle);
    subtitle = g_steal_pointer (&to);
  }
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 4);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             row_button ("view-refresh-symbolic",
                                         entry->rejected ? _("Send again as it is") : _("Send now"),
                                         "outbox.retry", target));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             row_button ("user-trash-symbolic", _("Discard"), "outbox.discard", target));
  return row;
}

static void
list_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  FcOutboxWindow *self = FC_OUTBOX_WINDOW (object);
  g_autoptr(GPtrArray) entries = g_task_propagate_pointer (G_TASK (result), NULL);
  GHashTableIter iter;
  gpointer value;
  guint n_waiting = 0, n_rejected = 0;

  self->listing = FALSE;
  busy_changed (self, -1);
  if (entries == NULL)
    return;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GtkWidget *row = value;
      AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP));

      adw_preferences_group_remove (group, row);
    }
  g_hash_table_remove_all (self->rows);

  for (guint i = 0; i < entries->len; i++)
    {
      const FcOutboxEntry *entry = g_ptr_array_index (entries, i);
      GtkWidget *row = entry_row (entry);

      adw_preferences_group_add (entry->rejected ? self->rejected_group : self->waiting_group, row);
      g_hash_table_insert (self->rows, g_strdup (entry->id), row);
      if (entry->rejected)
        n_rejected++;
      else
        n_waiting++;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->waiting_group), n_waiting > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->rejected_group), n_rejected > 0);
  gtk_stack_set_visible_child_name (self->stack, entries->len > 0 ? "list" : "empty");
}

static void
run_op (FcOutboxWindow      *self,
        OpKind               kind,
        const char          *id,
        gboolean             rejected,
        GAsyncReadyCallback  callback)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, NULL);
  Op *op = g_new0 (Op, 1);

  op->kind = kind;
  op->id = g_strdup (id);
  op->rejected = rejected;
  busy_changed (self, +1);
  g_task_set_source_tag (task, run_op);
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);
  g_task_run_in_thread (task, op_thread);
}

void
fc_outbox_window_refresh (FcOutboxWindow *self)
{
  g_return_if_fail (FC_IS_OUTBOX_WINDOW (self));

  if (self->listing)
    return;
  self->listing = TRUE;
  run_op (self, OP_LIST, NULL, FALSE, list_ready_cb);
}

static gboolean
refresh_cb (gpointer user_data)
{
  FcOutboxWindow *self = user_data;

  if (self->n_busy == 0)
    fc_outbox_window_refresh (self);
  return G_SOURCE_CONTINUE;
}

/* -- sending again -- */

static void
flush_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(FcOutboxWindow) self = user_data;
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  busy_changed (self, -1);
  report = fc_transport_flush_finish (FC_TRANSPORT (object), result, &error);
  if (report == NULL)
    text = g_strdup_printf (_("Could not send: %s"), error->message);
  else if (report->messages->len > 0)
    {
      /* "ID: why" -> "why": the row shows which one. */
      const char *line = g_ptr_array_index (report->messages, 0);
      const char *colon = strstr (line, ": ");

      text = g_strdup_printf (_("%u sent, %u waiting, %u rejected: %s"),
                              report->delivered, report->waiting, report->rejected, colon ? colon + 2 : line);
    }
  else
    text = g_strdup_printf (ngettext ("%u envelope sent", "%u envelopes sent", report->delivered), report->delivered);

  toast (self, text);
  fc_outbox_window_refresh (self);
}

static void
fc_outbox_window_flush (FcOutboxWindow *self)
{
  g_autofree char *text = g_settings_get_string (self->settings, "dsn");
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDsn) dsn = NULL;
  g_autoptr(FcTransport) transport = NULL;

  dsn = text[0] ? fc_dsn_parse (text, &error) : NULL;
  if (dsn == NULL)
    {
      toast (self, error ? error->message : _("No Sentry DSN is set: set it in the preferences first"));
      return;
    }

  transport = fc_transport_new (dsn, self->outbox, NULL);
  busy_changed (self, +1);
  fc_transport_flush_async (transport, NULL, flush_ready_cb, g_object_ref (self));
}

static void
op_ready_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  FcOutboxWindow *self = FC_OUTBOX_WINDOW (object);
  Op *op = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  busy_changed (self, -1);
  g_task_propagate_pointer (G_TASK (result), &error);
  if (error != NULL)
    toast (self, error->message);
  else if (op->kind == OP_REQUEUE)
    fc_outbox_window_flush (self);
  fc_outbox_window_refresh (self);
}

static gboolean
parse_target (GVariant    *param,
              const char **id,
              gboolean    *rejected)
{
  const char *target = g_variant_get_string (param, NULL);

  if (g_str_has_prefix (target, "waiting:"))
    {
      *id = target + strlen ("waiting:");
      *rejected = FALSE;
      return TRUE;
    }
  if (g_str_has_prefix (target, "rejected:"))
    {
      *id = target + strlen ("rejected:");
      *rejected = TRUE;
      return TRUE;
    }
  return FALSE;
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  FcOutboxWindow *self = FC_OUTBOX_WINDOW (widget);
  const char *id;
  gboolean rejected;

  if (!parse_target (param, &id, &rejected))
    return;

  /* A waiting envelope goes with the next flush anyway: flush now. A
   * rejected one first goes back into the outbox. */
  if (rejected)
    run_op (self, OP_REQUEUE, id, TRUE, op_ready_cb);
  else
    fc_outbox_window_flush (self);
}

static void
discard_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  FcOutboxWindow *self = FC_OUTBOX_WINDOW (widget);
  const char *id;
  gboolean rejected;

  if (parse_target (param, &id, &rejected))
    run_op (self, OP_DISCARD, id, rejected, op_ready_cb);
}

static void
flush_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  fc_outbox_window_flush (FC_OUTBOX_WINDOW (widget));
}

/* -- the object -- */

gboolean
fc_outbox_window_is_busy (FcOutboxWindow *self)
{
  g_return_val_if_fail (FC_IS_OUTBOX_WINDOW (self), FALSE);

  return self->n_busy > 0;
}

AdwActionRow *
fc_outbox_window_get_row (FcOutboxWindow *self,
                          const char     *id)
{
  g_return_val_if_fail (FC_IS_OUTBOX_WINDOW (self), NULL);

  return g_hash_table_lookup (self->rows, id);
}

static void
fc_outbox_window_dispose (GObject *object)
{
  FcOutboxWindow *self = (FcOutboxWindow *)object;

  g_clear_handle_id (&self->refresh_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_OUTBOX_WINDOW);
  g_clear_pointer (&self->rows, g_hash_table_unref);
  g_clear_object (&self->outbox);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (fc_outbox_window_parent_class)->dispose (object);
}

static void
fc_outbox_window_class_init (FcOutboxWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_outbox_window_dispose;

  /* Referencing the resource links it (and its constructor) from the static library. */
  (void) fc_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-outbox-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FcOutboxWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, FcOutboxWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, FcOutboxWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, FcOutboxWindow, waiting_group);
  gtk_widget_class_bind_template_child (widget_class, FcOutboxWindow, rejected_group);

  gtk_widget_class_install_action (widget_class, "outbox.retry", "s", retry_action);
  gtk_widget_class_install_action (widget_class, "outbox.discard", "s", discard_action);
  gtk_widget_class_install_action (widget_class, "outbox.flush", NULL, flush_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
fc_outbox_window_init (FcOutboxWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = fc_app_settings_new ();
  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->refresh_source = g_timeout_add_seconds (REFRESH_SECONDS, refresh_cb, self);
}

/**
 * fc_outbox_window_new:
 * @parent: (nullable): the window it belongs to
 * @outbox: (nullable): the outbox, NULL for the user's
 *
 * Returns: (transfer full): a new outbox window, listing on a worker
 */
FcOutboxWindow *
fc_outbox_window_new (GtkWindow *parent,
                      FcOutbox  *outbox)
{
  FcOutboxWindow *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (outbox == NULL || FC_IS_OUTBOX (outbox), NULL);

  self = g_object_new (FC_TYPE_OUTBOX_WINDOW, "transient-for", parent, NULL);
  self->outbox = outbox ? g_object_ref (outbox) : fc_outbox_new (NULL);
  fc_outbox_window_refresh (self);
  return self;
}
