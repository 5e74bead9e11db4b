/* fc-send-dialog.c - "Send to Sentry" (or an OTLP endpoint): a preview of exactly what leaves the machine, then send
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The envelopes are built, validated and (optionally) stripped of the home
 * directory on a worker; the preview lists exactly those bytes, and Send
 * stores exactly those in the outbox (on a worker) before an asynchronous
 * flush delivers them. Once they are in the outbox nothing is lost: closing
 * or quitting while they are in flight leaves them there for the next flush.
 *
 * With an OpenTelemetry endpoint in the preferences, the same dialog offers
 * it as the target: one ExportProfilesServiceRequest, through the OTLP
 * outbox, with the same promises.
 */

#include <glib/gi18n.h>

#include "fc-resources.h"

#include "fc-app-settings.h"
#include "fc-envelope-summary.h"
#include "fc-otlp-endpoint.h"
#include "fc-otlp.h"
#include "fc-preferences-window.h"
#include "fc-send-plan.h"
#include "fc-send-dialog.h"
#include "fc-validate.h"

/* A dialog has room for a few hundred rows, not a hundred thousand. */
#define MAX_PATH_ROWS   300
#define MAX_THREAD_NAMES 40
#define MAX_WARNINGS     20

struct _FcSendDialog
{
  AdwWindow         parent_instance;

  /* template widgets */
  AdwWindowTitle   *window_title;
  GtkButton        *send_button;
  GtkStack         *stack;
  GtkSpinner       *building_spinner;
  GtkListBox       *target_box;
  AdwComboRow      *target_row;
  GtkLabel         *validation_label;
  GtkLabel         *warnings_label;
  GtkCheckButton   *strip_home_check;
  GtkBox           *envelopes_box;
  GtkLabel         *sending_label;
  GtkProgressBar   *sending_progress;

  /* owned */
  GSettings        *settings;
  FcDocument       *document;
  GFile            *file;
  AdwToastOverlay  *toasts;
  GCancellable     *build_cancellable;
  FcSendPlan       *plan;             /* Sentry: what the preview shows, NULL for OTLP */
  GPtrArray        *envelopes;        /* GBytes*, what the preview shows (the plan's, or the OTLP request) */
  FcTransport      *transport;
  GPtrArray        *sent_ids;         /* char*, the outbox IDs of what was sent */
  char             *outcome;
  char             *otlp_url;         /* the endpoint's profiles URL, NULL when none is set */
  char             *otlp_masked;      /* ... with its user info masked, for people */
  GStrv             otlp_headers;
  guint             pulse_source;
  gboolean          sending;
};

G_DEFINE_FINAL_TYPE (FcSendDialog, fc_send_dialog, ADW_TYPE_WINDOW)

/* -- building the preview, on a worker -- */

typedef struct {
  FcDocument *document;
  GFile      *file;
  char       *home;             /* NULL: keep paths */
  gboolean    otlp;             /* one OTLP request rather than envelopes */
} Build;

typedef struct {
  FcSendPlan *plan;             /* Sentry: the core's plan */
  GBytes     *request;          /* OTLP: the one request */
  char       *invalid;          /* OTLP: why it cannot be written */
} Built;

static void
build_free (Build *build)
{
  g_clear_object (&build->document);
  g_clear_object (&build->file);
  g_free (build->home);
  g_free (build);
}

static void
built_free (Built *built)
{
  g_clear_pointer (&built->plan, fc_send_plan_free);
  g_clear_pointer (&built->request, g_bytes_unref);
  g_free (built->invalid);
  g_free (built);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Built, built_free)

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Build *build = task_data;
  g_autoptr(Built) built = g_new0 (Built, 1);
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GError) error = NULL;

  /* OTLP: ProfilesData and ExportProfilesServiceRequest share their fields,
   * so the written profile is the request body */
  if (build->otlp)
    {
      built->request = fc_otlp_write (build->document, &error);
      if (built->request == NULL)
        built->invalid = g_strdup (error->message);
      g_task_return_pointer (task, g_steal_pointer (&built), (GDestroyNotify) built_free);
      return;
    }

  /* An envelope file goes as it is (the sender checks it is one). */
  if (fc_document_get_kind (build->document) == FC_DOCUMENT_ENVELOPE && build->file != NULL)
    original = g_file_load_bytes (build->file, cancellable, NULL, NULL);

  built->plan = fc_send_plan_new (build->document, original, build->home, cancellable, &error);
  if (built->plan == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_steal_pointer (&built), (GDestroyNotify) built_free);
}

/* The first warnings, one "warning: LOCATION: MESSAGE" a line. */
static char *
describe_warnings (GPtrArray *warnings)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (warnings->len == 0)
    return NULL;
  for (guint i = 0; i < warnings->len && i < MAX_WARNINGS; i++)
    {
      g_autofree char *line = fc_problem_to_string (g_ptr_array_index (warnings, i));

      g_string_append_printf (text, "%s%s", i ? "\n" : "", line);
    }
  if (warnings->len > MAX_WARNINGS)
    g_string_append_printf (text, _("\n… and %u more (flamecast-cli validate lists them all)"),
                            warnings->len - MAX_WARNINGS);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Relay's limits are binary (50 MiB): sizes are shown in the same units. */
static char *
format_size (guint64 size)
{
  return g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
}

static GtkWidget *
info_row (const char *title,
          const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  return row;
}

static char *
join_limited (GPtrArray *strings,
              guint      max)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < strings->len && i < max; i++)
    g_string_append_printf (text, "%s%s", i ? ", " : "", (char *) g_ptr_array_index (strings, i));
  if (strings->len > max)
    g_string_append_printf (text, _(", … and %u more"), strings->len - max);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static GtkWidget *
envelope_group (const FcEnvelopeSummary *summary,
                guint                    index,
                guint                    n_envelopes)
{
  GtkWidget *group = adw_preferences_group_new ();
  g_autofree char *title = NULL;
  g_autofree char *size = format_size (summary->size);
  g_autofree char *limit = format_size (FC_VALIDATE_MAX_ENVELOPE_SIZE);
  g_autofree char *description = NULL;
  g_autofree char *threads = NULL;
  GtkWidget *paths;

  title = g_strdup_printf (_("Envelope %u of %u"), index + 1, n_envelopes);
  /* TRANSLATORS: sizes: "1.2 MB of Relay's 100 MB limit" */
  description = g_strdup_printf (_("%s of Relay's %s limit"), size, limit);
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);

  for (guint i = 0; i < summary->items->len; i++)
    {
      const FcItemSummary *item = g_ptr_array_index (summary->items, i);
      g_autofree char *item_size = format_size (item->size);
      g_autofree char *subtitle = NULL;
      GtkWidget *row;

      if (item->limit != 0)
        {
          g_autofree char *item_limit = format_size (item->limit);

          subtitle = g_strdup_printf (_("%s of Relay's %s limit"), item_size, item_limit);
        }
      else
        subtitle = g_strdup (item_size);

      row = info_row (item->type, subtitle);
      if (item->limit != 0 && item->size > item->limit)
        gtk_widget_add_css_class (row, "error");
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }

  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             info_row (_("Release"), summary->release ? summary->release : _("none")));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             info_row (_("Environment"), summary->environment ? summary->environment : _("none")));
  if (summary->platform != NULL)
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), info_row (_("Platform"), summary->platform));

  threads = summary->thread_names->len ? join_limited (summary->thread_names, MAX_THREAD_NAMES)
                                       : g_strdup (_("no names"));
  {
    g_autofree char *threads_title = g_strdup_printf (ngettext ("%u Thread Name", "%u Thread Names",
                                                                summary->thread_names->len),
                                                      summary->thread_names->len);
    GtkWidget *row = info_row (threads_title, threads);

    gtk_widget_set_name (row, "threads");
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  }

  paths = adw_expander_row_new ();
  gtk_widget_set_name (paths, "paths");
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (paths), FALSE);
  {
    g_autofree char *paths_title = g_strdup_printf (ngettext ("%u File Path", "%u File Paths", summary->paths->len),
                                                    summary->paths->len);

    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (paths), paths_title);
  }
  if (summary->paths->len > 0)
    {
      g_autofree char *first = g_strdup (g_ptr_array_index (summary->paths, 0));

      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (paths), first);
    }
  for (guint i = 0; i < summary->paths->len && i < MAX_PATH_ROWS; i++)
    {
      GtkWidget *row = info_row (g_ptr_array_index (summary->paths, i), NULL);

      gtk_widget_add_css_class (row, "monospace");
      adw_expander_row_add_row (ADW_EXPANDER_ROW (paths), row);
    }
  if (summary->paths->len > MAX_PATH_ROWS)
    {
      g_autofree char *more = g_strdup_printf (_("… and %u more"), summary->paths->len - MAX_PATH_ROWS);

      adw_expander_row_add_row (ADW_EXPANDER_ROW (paths), info_row (more, NULL));
    }
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), paths);

  return group;
}

static gboolean
target_is_otlp (FcSendDialog *self)
{
  return self->otlp_url != NULL && adw_combo_row_get_selected (self->target_row) == 1;
}

/* what the OTLP request holds: where it goes, its size, the profiles */
static GtkWidget *
otlp_group (FcSendDialog *self,
            GBytes       *request)
{
  GtkWidget *group = adw_preferences_group_new ();
  g_autofree char *size = format_size (g_bytes_get_size (request));
  g_autofree char *profiles = NULL;
  guint n_profiles = fc_document_get_n_profiles (self->document);

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("ExportProfilesServiceRequest"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("File paths, thread names, release and environment go as they are."));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), info_row (_("Endpoint"), self->otlp_masked));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), info_row (_("Size"), size));
  profiles = g_strdup_printf (ngettext ("%u profile", "%u profiles", n_profiles), n_profiles);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), info_row (_("Profiles"), profiles));
  return group;
}

static void
clear_envelopes_box (FcSendDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->envelopes_box))) != NULL)
    gtk_box_remove (self->envelopes_box, child);
}

static void
build_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  FcSendDialog *self = FC_SEND_DIALOG (object);
  g_autoptr(Built) built = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *warnings = NULL;
  const char *invalid = NULL;

  /* A newer build (the strip option changed) owns the dialog now. */
  if (g_task_get_cancellable (G_TASK (result)) != self->build_cancellable)
    return;

  built = g_task_propagate_pointer (G_TASK (result), &error);
  g_clear_object (&self->build_cancellable);
  gtk_spinner_stop (self->building_spinner);
  /* Cancelled: the dialog is going away. */
  if (built == NULL)
    return;

  clear_envelopes_box (self);
  g_clear_pointer (&self->plan, fc_send_plan_free);
  g_clear_pointer (&self->envelopes, g_ptr_array_unref);
  self->envelopes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  if (built->plan != NULL)
    {
      FcSendPlan *plan = built->plan;

      for (guint i = 0; i < plan->envelopes->len; i++)
        g_ptr_array_add (self->envelopes, g_bytes_ref (g_ptr_array_index (plan->envelopes, i)));
      for (guint i = 0; i < plan->summaries->len; i++)
        gtk_box_append (self->envelopes_box,
                        envelope_group (g_ptr_array_index (plan->summaries, i), i, plan->summaries->len));
      invalid = plan->invalid;
      warnings = describe_warnings (plan->warnings);
      self->plan = g_steal_pointer (&built->plan);
    }
  else if (built->request != NULL)
    {
      g_ptr_array_add (self->envelopes, g_bytes_ref (built->request));
      gtk_box_append (self->envelopes_box, otlp_group (self, built->request));
    }
  else
    invalid = built->invalid;

  gtk_widget_remove_css_class (GTK_WIDGET (self->validation_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->validation_label), "success");
  gtk_label_set_text (self->warnings_label, warnings ? warnings : "");
  gtk_widget_set_visible (GTK_WIDGET (self->warnings_label), warnings != NULL && invalid == NULL);
  if (invalid != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Not sendable: %s"), invalid);

      gtk_label_set_text (self->validation_label, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->validation_label), "error");
    }
  else if (built->request != NULL)
    {
      gtk_label_set_text (self->validation_label, _("Valid: one OTLP request, as the endpoint receives it."));
      gtk_widget_add_css_class (GTK_WIDGET (self->validation_label), "success");
    }
  else
    {
      g_autofree char *text = NULL;
      guint n_warnings = self->plan->warnings->len;

      if (n_warnings == 0)
        text = g_strdup_printf (ngettext ("Valid: Relay accepts this envelope as it is.",
                                          "Valid: Relay accepts these %u envelopes as they are.",
                                          self->envelopes->len),
                                self->envelopes->len);
      else
        text = g_strdup_printf (ngettext ("Valid, with %u warning: Relay accepts it, but recommends otherwise:",
                                          "Valid, with %u warnings: Relay accepts it, but recommends otherwise:",
                                          n_warnings),
                                n_warnings);
      gtk_label_set_text (self->validation_label, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->validation_label), "success");
    }

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "send.send", self->envelopes->len > 0);
  gtk_stack_set_visible_child_name (self->stack, "preview");
  if (self->envelopes->len > 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->send_button));
}

static void
fc_send_dialog_build (FcSendDialog *self)
{
  g_autoptr(GTask) task = NULL;
  Build *build = g_new0 (Build, 1);

  if (self->build_cancellable != NULL)
    g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);
  self->build_cancellable = g_cancellable_new ();

  build->document = g_object_ref (self->document);
  build->file = self->file ? g_object_ref (self->file) : NULL;
  build->otlp = target_is_otlp (self);
  if (gtk_check_button_get_active (self->strip_home_check) && !build->otlp)
    build->home = g_strdup (g_get_home_dir ());
  /* stripping rewrites envelopes; an OTLP request goes as written */
  gtk_widget_set_visible (GTK_WIDGET (self->strip_home_check), !build->otlp);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "send.send", FALSE);
  gtk_spinner_start (self->building_spinner);
  gtk_stack_set_visible_child_name (self->stack, "building");

  task = g_task_new (self, self->build_cancellable, build_ready_cb, NULL);
  g_task_set_source_tag (task, fc_send_dialog_build);
  g_task_set_task_data (task, build, (GDestroyNotify) build_free);
  g_task_run_in_thread (task, build_thread);
}

static void
strip_home_toggled_cb (FcSendDialog *self)
{
  if (!self->sending && self->document != NULL && self->transport == NULL)
    fc_send_dialog_build (self);
}

/* -- the DSN -- */

static FcDsn *
dup_dsn (FcSendDialog *self)
{
  g_autofree char *text = g_settings_get_string (self->settings, "dsn");

  if (text[0] == '\0')
    return NULL;
  return fc_dsn_parse (text, NULL);
}

static void
open_preferences_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  FcSendDialog *self = FC_SEND_DIALOG (widget);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  FcPreferencesWindow *preferences = fc_preferences_window_new (parent);

  fc_preferences_window_show_dsn (preferences);
  gtk_window_present (GTK_WINDOW (preferences));
  gtk_window_close (GTK_WINDOW (self));
}

/* The target decides the title, what is built and whether a DSN is missing. */
static void
target_changed_cb (FcSendDialog *self)
{
  g_autoptr(FcDsn) dsn = NULL;

  if (self->sending)
    return;
  if (target_is_otlp (self))
    {
      gtk_window_set_title (GTK_WINDOW (self), _("Send to OpenTelemetry"));
      adw_window_title_set_title (self->window_title, _("Send to OpenTelemetry"));
      adw_window_title_set_subtitle (self->window_title, self->otlp_masked);
      fc_send_dialog_build (self);
      return;
    }

  gtk_window_set_title (GTK_WINDOW (self), _("Send to Sentry"));
  adw_window_title_set_title (self->window_title, _("Send to Sentry"));
  dsn = dup_dsn (self);
  if (dsn == NULL)
    {
      adw_window_title_set_subtitle (self->window_title, NULL);
      if (self->build_cancellable != NULL)
        g_cancellable_cancel (self->build_cancellable);
      g_clear_object (&self->build_cancellable);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "send.send", FALSE);
      if (self->otlp_url == NULL)
        {
          gtk_stack_set_visible_child_name (self->stack, "no-dsn");
          return;
        }
      /* stay on the preview, where the other target can be chosen again */
      clear_envelopes_box (self);
      g_clear_pointer (&self->plan, fc_send_plan_free);
      g_clear_pointer (&self->envelopes, g_ptr_array_unref);
      gtk_label_set_text (self->validation_label,
                          _("No Sentry project set: set its DSN in the preferences, or send to the OpenTelemetry endpoint."));
      gtk_widget_remove_css_class (GTK_WIDGET (self->validation_label), "success");
      gtk_widget_add_css_class (GTK_WIDGET (self->validation_label), "error");
      gtk_stack_set_visible_child_name (self->stack, "preview");
      return;
    }
  {
    g_autofree char *masked = fc_dsn_dup_masked (dsn);

    adw_window_title_set_subtitle (self->window_title, masked);
  }
  fc_send_dialog_build (self);
}

/* -- sending -- */

static gboolean
pulse_cb (gpointer user_data)
{
  FcSendDialog *self = user_data;

  gtk_progress_bar_pulse (self->sending_progress);
  return G_SOURCE_CONTINUE;
}

static void
fc_send_dialog_finish (FcSendDialog *self,
                       const char   *outcome,
                       gboolean      to_outbox)
{
  AdwToast *toast;

  g_clear_handle_id (&self->pulse_source, g_source_remove);
  self->sending = FALSE;
  g_free (self->outcome);
  self->outcome = g_strdup (outcome);

  toast = adw_toast_new (outcome);
  adw_toast_set_timeout (toast, to_outbox ? 0 : 8);
  if (to_outbox)
    {
      adw_toast_set_button_label (toast, _("_Outbox"));
      adw_toast_set_action_name (toast, "win.show-outbox");
    }
  if (self->toasts != NULL)
    adw_toast_overlay_add_toast (self->toasts, toast);
  else
    g_object_unref (g_object_ref_sink (toast));

  gtk_window_destroy (GTK_WINDOW (self));
}

/* What became of the envelopes this dialog put into the outbox, by the
 * flush report's outcome for each: the first rejection or wait is told. */
static void
tell_outcome (FcSendDialog        *self,
              const FcFlushReport *report)
{
  gboolean otlp = fc_transport_get_otlp_url (self->transport) != NULL;
  const FcEnvelopeOutcome *rejected = NULL;
  const FcEnvelopeOutcome *waiting = NULL;
  guint n_delivered = 0;
  g_autofree char *outcome = NULL;

  for (guint i = 0; i < self->sent_ids->len; i++)
    {
      const FcEnvelopeOutcome *o = fc_flush_report_find_outcome (report, g_ptr_array_index (self->sent_ids, i));

      if (o == NULL || o->fate == FC_ENVELOPE_WAITING || o->fate == FC_ENVELOPE_BUSY)
        waiting = waiting ? waiting : o;
      else if (o->fate == FC_ENVELOPE_REJECTED)
        rejected = rejected ? rejected : o;
      else
        n_delivered++;
    }

  if (rejected != NULL)
    outcome = g_strdup_printf (otlp ? _("The OpenTelemetry endpoint rejected the profile: %s")
                                    : _("Sentry rejected the profile: %s"),
                               rejected->why ? rejected->why : _("no reason given"));
  else if (n_delivered < self->sent_ids->len)
    outcome = g_strdup_printf (_("Not sent yet, waiting in the outbox: %s"),
                               waiting != NULL && waiting->why != NULL ? waiting->why : _("not tried yet"));
  else if (otlp)
    outcome = g_strdup (_("Sent to the OpenTelemetry endpoint: the request was accepted"));
  else
    outcome = g_strdup_printf (ngettext ("Sent to Sentry: %u envelope accepted",
                                         "Sent to Sentry: %u envelopes accepted",
                                         n_delivered),
                               n_delivered);

  fc_send_dialog_finish (self, outcome, rejected != NULL || n_delivered < self->sent_ids->len);
}

static void
flush_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(FcSendDialog) self = user_data;
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = fc_transport_flush_finish (FC_TRANSPORT (object), result, &error);
  if (report == NULL)
    {
      g_autofree char *outcome = g_strdup_printf (_("Could not send, the envelopes wait in the outbox: %s"),
                                                  error->message);

      fc_send_dialog_finish (self, outcome, TRUE);
      return;
    }
  tell_outcome (self, report);
}

static void
enqueue_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  FcSendDialog *self = source_object;
  GError *error = NULL;
  GPtrArray *ids = NULL;

  if (self->plan != NULL)
    ids = fc_send_plan_enqueue (self->plan, self->transport, &error);
  else
    {
      char *id = fc_transport_enqueue (self->transport, g_ptr_array_index (self->envelopes, 0), &error);

      if (id != NULL)
        {
          ids = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (ids, id);
        }
    }
  if (ids == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, ids, (GDestroyNotify) g_ptr_array_unref);
}

static void
enqueue_ready_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  FcSendDialog *self = FC_SEND_DIALOG (object);
  g_autoptr(GError) error = NULL;
  GPtrArray *ids = g_task_propagate_pointer (G_TASK (result), &error);

  if (ids == NULL)
    {
      g_autofree char *outcome = g_strdup_printf (_("Could not store the envelopes to send: %s"), error->message);

      fc_send_dialog_finish (self, outcome, FALSE);
      return;
    }

  self->sent_ids = ids;
  /* In the outbox now: from here on, quitting loses nothing. */
  fc_transport_flush_async (self->transport, NULL, flush_ready_cb, g_object_ref (self));
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  FcSendDialog *self = FC_SEND_DIALOG (widget);
  g_autoptr(FcDsn) dsn = NULL;
  g_autoptr(GTask) task = NULL;
  g_autofree char *label = NULL;

  if (self->sending || self->envelopes == NULL || self->envelopes->len == 0)
    return;

  if (target_is_otlp (self))
    {
      self->transport = fc_transport_new_otlp (self->otlp_url, (const char * const *) self->otlp_headers, NULL);
      label = g_strdup_printf (_("Sending to %s…"), self->otlp_masked);
    }
  else if ((dsn = dup_dsn (self)) != NULL)
    {
      self->transport = fc_transport_new (dsn, NULL, NULL);
      label = g_strdup_printf (ngettext ("Sending %u envelope to %s…", "Sending %u envelopes to %s…",
                                         self->envelopes->len),
                               self->envelopes->len, fc_dsn_get_host (dsn));
    }

  if (self->transport == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "no-dsn");
      return;
    }

  self->sending = TRUE;
  gtk_widget_action_set_enabled (widget, "send.send", FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->strip_home_check), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->target_box), FALSE);

  gtk_label_set_text (self->sending_label, label);
  gtk_stack_set_visible_child_name (self->stack, "sending");
  self->pulse_source = g_timeout_add (100, pulse_cb, self);

  task = g_task_new (self, NULL, enqueue_ready_cb, NULL);
  g_task_set_source_tag (task, send_action);
  g_task_run_in_thread (task, enqueue_thread);
}

/* -- the object -- */

static gboolean
fc_send_dialog_close_request (GtkWindow *window)
{
  FcSendDialog *self = FC_SEND_DIALOG (window);

  /* Closed while sending: out of sight, but alive until the outcome's toast. */
  if (self->sending)
    {
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return TRUE;
    }

  return GTK_WINDOW_CLASS (fc_send_dialog_parent_class)->close_request (window);
}

gboolean
fc_send_dialog_is_busy (FcSendDialog *self)
{
  g_return_val_if_fail (FC_IS_SEND_DIALOG (self), FALSE);

  return self->build_cancellable != NULL || self->sending;
}

const char *
fc_send_dialog_get_page (FcSendDialog *self)
{
  g_return_val_if_fail (FC_IS_SEND_DIALOG (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

/**
 * fc_send_dialog_get_envelopes:
 * @self: a send dialog
 *
 * Returns: (transfer none) (nullable): the envelopes shown, GBytes*
 */
GPtrArray *
fc_send_dialog_get_envelopes (FcSendDialog *self)
{
  g_return_val_if_fail (FC_IS_SEND_DIALOG (self), NULL);

  return self->envelopes;
}

const char *
fc_send_dialog_get_outcome (FcSendDialog *self)
{
  g_return_val_if_fail (FC_IS_SEND_DIALOG (self), NULL);

  return self->outcome;
}

static void
fc_send_dialog_dispose (GObject *object)
{
  FcSendDialog *self = (FcSendDialog *)object;

  if (self->build_cancellable != NULL)
    g_cancellable_cancel (self->build_cancellable);
  g_clear_handle_id (&self->pulse_source, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_SEND_DIALOG);

  g_clear_object (&self->settings);
  g_clear_object (&self->document);
  g_clear_object (&self->file);
  g_clear_object (&self->toasts);
  g_clear_object (&self->build_cancellable);
  g_clear_object (&self->transport);
  g_clear_pointer (&self->plan, fc_send_plan_free);
  g_clear_pointer (&self->envelopes, g_ptr_array_unref);
  g_clear_pointer (&self->sent_ids, g_ptr_array_unref);

  G_OBJECT_CLASS (fc_send_dialog_parent_class)->dispose (object);
}

static void
fc_send_dialog_finalize (GObject *object)
{
  FcSendDialog *self = (FcSendDialog *)object;

  g_free (self->outcome);
  g_free (self->otlp_url);
  g_free (self->otlp_masked);
  g_strfreev (self->otlp_headers);

  G_OBJECT_CLASS (fc_send_dialog_parent_class)->finalize (object);
}

static void
fc_send_dialog_class_init (FcSendDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_send_dialog_dispose;
  object_class->finalize = fc_send_dialog_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = fc_send_dialog_close_request;

  /* Referencing the resource links it (and its constructor) from the static library. */
  (void) fc_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-send-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, send_button);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, building_spinner);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, target_box);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, target_row);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, validation_label);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, warnings_label);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, strip_home_check);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, envelopes_box);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, sending_label);
  gtk_widget_class_bind_template_child (widget_class, FcSendDialog, sending_progress);

  gtk_widget_class_install_action (widget_class, "send.send", NULL, send_action);
  gtk_widget_class_install_action (widget_class, "send.open-preferences", NULL, open_preferences_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
fc_send_dialog_init (FcSendDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = fc_app_settings_new ();
  g_settings_bind (self->settings, "strip-home-directory", self->strip_home_check, "active", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->strip_home_check, "notify::active",
                           G_CALLBACK (strip_home_toggled_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "send.send", FALSE);
}

/**
 * fc_send_dialog_new:
 * @parent: the window whose profile is sent
 * @toasts: (nullable): where the outcome is told
 * @document: what to send
 * @file: (nullable): where @document was read from
 *
 * Opens on the preview (built on a worker), or on "no DSN set" with a
 * button to the preference.
 *
 * Returns: (transfer full): a new dialog, not yet shown
 */
FcSendDialog *
fc_send_dialog_new (GtkWindow       *parent,
                    AdwToastOverlay *toasts,
                    FcDocument      *document,
                    GFile           *file)
{
  FcSendDialog *self;
  g_autoptr(FcDsn) dsn = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (toasts == NULL || ADW_IS_TOAST_OVERLAY (toasts), NULL);
  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);

  self = g_object_new (FC_TYPE_SEND_DIALOG, "transient-for", parent, NULL);
  self->document = g_object_ref (document);
  self->file = file ? g_object_ref (file) : NULL;
  self->toasts = toasts ? g_object_ref (toasts) : NULL;

  /* an OTLP endpoint in the preferences is offered as the other target;
   * without a DSN it is the only one */
  {
    g_autofree char *endpoint = g_settings_get_string (self->settings, "otlp-endpoint");

    if (*endpoint != '\0')
      self->otlp_url = fc_otlp_endpoint_resolve (endpoint, &self->otlp_headers, NULL);
    if (self->otlp_url != NULL)
      self->otlp_masked = fc_otlp_endpoint_dup_masked (self->otlp_url);
  }
  dsn = dup_dsn (self);
  if (self->otlp_url != NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->target_box), TRUE);
      adw_combo_row_set_selected (self->target_row, dsn == NULL ? 1 : 0);
      g_signal_connect_object (self->target_row, "notify::selected",
                               G_CALLBACK (target_changed_cb), self, G_CONNECT_SWAPPED);
    }
  target_changed_cb (self);
  return self;
}
