/* fc-window-send.c - the window's actions for sending, the outbox, saving and exporting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kept apart from fc-window-actions.c: the dialogs they open live in their
 * own files, and the window only hands them its document and toast overlay.
 */

#include <string.h>

#include <glib/gi18n.h>

#include "fc-export.h"
#include "fc-outbox-window.h"
#include "fc-send-dialog.h"
#include "fc-window-private.h"

static void
send_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  FcWindow *self = user_data;
  FcDocument *document = fc_session_get_document (self->session);
  FcSendDialog *dialog;

  if (document == NULL)
    return;

  dialog = fc_send_dialog_new (GTK_WINDOW (self), self->toast_overlay, document, self->file);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_outbox_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  FcWindow *self = user_data;

  gtk_window_present (GTK_WINDOW (fc_outbox_window_new (GTK_WINDOW (self), NULL)));
}

/* -- save and export: a file chooser, then the work on a worker, then a toast -- */

typedef enum {
  JOB_SAVE_V2,
  JOB_SAVE_V1,
  JOB_SAVE_OTHER,   /* the FcSaveFormat in JobData */
  JOB_EXPORT_PNG,
  JOB_EXPORT_SVG,
} Job;

static void
toast (FcWindow   *self,
       const char *text)
{
  AdwToast *t = adw_toast_new (text);

  adw_toast_set_timeout (t, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, t);
}

static void
job_done (FcWindow *self,
          GFile    *file,
          guint     n_files,
          GError   *error)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = NULL;

  if (error != NULL)
    text = g_strdup_printf (_("Could not write “%s”: %s"), name, error->message);
  else if (n_files > 1)
    text = g_strdup_printf (ngettext ("Saved “%s” and %u more file", "Saved “%s” and %u more files", n_files - 1),
                            name, n_files - 1);
  else
    text = g_strdup_printf (_("Saved “%s”"), name);
  toast (self, text);
}

typedef struct {
  FcWindow *window;
  GFile    *file;
} JobData;

static void
job_data_free (JobData *data)
{
  g_clear_object (&data->window);
  g_clear_object (&data->file);
  g_free (data);
}

static void
save_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  JobData *data = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = fc_export_save_finish (result, &error);

  job_done (data->window, data->file, files ? files->len : 0, error);
  job_data_free (data);
}

static void
png_ready_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  JobData *data = user_data;
  g_autoptr(GError) error = NULL;

  fc_export_png_finish (result, &error);
  job_done (data->window, data->file, 1, error);
  job_data_free (data);
}

static void
svg_ready_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  JobData *data = user_data;
  g_autoptr(GError) error = NULL;

  fc_export_svg_finish (result, &error);
  job_done (data->window, data->file, 1, error);
  job_data_free (data);
}

/* The view on screen: the flamechart or the flamegraph (the call tree is
 * text; its PNG is what it shows, but it has no boxes for an SVG). */
static GtkWidget *
current_view (FcWindow     *self,
              FcExportView *view)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  *view = FC_EXPORT_FLAMECHART;
  if (g_strcmp0 (page, "flamegraph") == 0)
    {
      *view = FC_EXPORT_FLAMEGRAPH;
      return GTK_WIDGET (self->flame_graph);
    }
  if (g_strcmp0 (page, "call-tree") == 0)
    return GTK_WIDGET (self->call_tree_view);
  return GTK_WIDGET (self->flame_chart);
}

static void
run_job (FcWindow     *self,
         Job           job,
         FcSaveFormat  save_format,
         GFile        *file)
{
  JobData *data = g_new0 (JobData, 1);
  FcDocument *document = fc_session_get_document (self->session);
  FcExportView view;
  GtkWidget *widget = current_view (self, &view);

  data->window = g_object_ref (self);
  data->file = g_object_ref (file);

  switch (job)
    {
    case JOB_SAVE_V2:
    case JOB_SAVE_V1:
      fc_export_save_async (document, file, job == JOB_SAVE_V2 ? FC_SAVE_V2_CHUNKS : FC_SAVE_V1_ENVELOPES,
                            NULL, save_ready_cb, data);
      break;

    case JOB_SAVE_OTHER:
      fc_export_save_async (document, file, save_format, NULL, save_ready_cb, data);
      break;

    case JOB_EXPORT_PNG:
      fc_export_png_async (widget, file, NULL, png_ready_cb, data);
      break;

    case JOB_EXPORT_SVG:
    default:
      fc_export_svg_async (self->session, view, MAX (gtk_widget_get_width (widget), 800), file,
                           NULL, svg_ready_cb, data);
      break;
    }
}

static void
chooser_response_cb (GtkFileChooserNative *chooser,
                     int                   response,
                     FcWindow             *self)
{
  Job job = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "fc-job"));
  FcSaveFormat save_format = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "fc-save-format"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL && fc_session_get_document (self->session) != NULL)
        run_job (self, job, save_format, file);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  g_object_unref (chooser);
}

/* @save_format: for JOB_SAVE_OTHER */
static void
choose_file (FcWindow     *self,
             Job           job,
             FcSaveFormat  save_format,
             const char   *title,
             const char   *suffix)
{
  GtkFileChooserNative *chooser;
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;

  if (fc_session_get_document (self->session) == NULL)
    return;

  if (self->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (self->file);
      char *dot = strchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      stem = g_strdup (base);
    }
  name = g_strconcat (stem ? stem : "profile", suffix, NULL);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  if (self->file != NULL)
    {
      g_autoptr(GFile) folder = g_file_get_parent (self->file);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  g_object_set_data (G_OBJECT (chooser), "fc-job", GINT_TO_POINTER (job));
  g_object_set_data (G_OBJECT (chooser), "fc-save-format", GINT_TO_POINTER (save_format));
  g_signal_connect_object (chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
save_v2_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  choose_file (user_data, JOB_SAVE_V2, FC_SAVE_V2_CHUNKS, _("Save as V2 Chunks"), ".chunk.json");
}

static void
save_v1_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  choose_file (user_data, JOB_SAVE_V1, FC_SAVE_V2_CHUNKS, _("Save as V1 Envelopes"), ".envelope");
}

static void
export_png_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  choose_file (user_data, JOB_EXPORT_PNG, FC_SAVE_V2_CHUNKS, _("Export the View as PNG"), ".png");
}

static void
export_svg_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  choose_file (user_data, JOB_EXPORT_SVG, FC_SAVE_V2_CHUNKS, _("Export the View as SVG"), ".svg");
}

/* "win.save-other::pprof": the formats of other tools (fc-export.c) */
static void
save_other_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  static const struct {
    const char  *name;
    FcSaveFormat format;
    const char  *title;
    const char  *suffix;
  } formats[] = {
    { "otlp",       FC_SAVE_OTLP,       N_("Save as OpenTelemetry Profiles"),         ".otlp.pb" },
    { "otlp-json",  FC_SAVE_OTLP_JSON,  N_("Save as OpenTelemetry Profiles (JSON)"),  ".otlp.json" },
    { "pprof",      FC_SAVE_PPROF,      N_("Save as pprof"),                          ".pb.gz" },
    { "speedscope", FC_SAVE_SPEEDSCOPE, N_("Save as speedscope"),                     ".speedscope.json" },
    { "collapsed",  FC_SAVE_COLLAPSED,  N_("Save as Folded Stacks"),                  ".folded" },
  };
  FcWindow *self = user_data;
  const char *name = g_variant_get_string (param, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_str_equal (name, formats[i].name))
      {
        choose_file (self, JOB_SAVE_OTHER, formats[i].format, _(formats[i].title), formats[i].suffix);
        return;
      }
}

static const GActionEntry send_entries[] = {
  { .name = "send", .activate = send_action },
  { .name = "show-outbox", .activate = show_outbox_action },
  { .name = "save-v2", .activate = save_v2_action },
  { .name = "save-v1", .activate = save_v1_action },
  { .name = "save-other", .activate = save_other_action, .parameter_type = "s" },
  { .name = "export-png", .activate = export_png_action },
  { .name = "export-svg", .activate = export_svg_action },
};

static void
session_document_cb (FcWindow   *self,
                     GParamSpec *pspec,
                     FcSession  *session)
{
  FcDocument *document = fc_session_get_document (session);
  gboolean has_document = document != NULL;
  /* a recording holds its chunks once they are written: not the live view's */
  gboolean has_profiles = has_document && fc_document_get_n_profiles (document) > 0;

  fc_window_set_action_enabled (self, "send", has_profiles);
  fc_window_set_action_enabled (self, "save-v2", has_profiles);
  fc_window_set_action_enabled (self, "save-v1", has_profiles);
  fc_window_set_action_enabled (self, "save-other", has_profiles);
  fc_window_set_action_enabled (self, "export-png", has_document);
  fc_window_set_action_enabled (self, "export-svg", has_document);
}

void
fc_window_init_send_actions (FcWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), send_entries, G_N_ELEMENTS (send_entries), self);
  g_signal_connect_object (self->session, "notify::document",
                           G_CALLBACK (session_document_cb), self, G_CONNECT_SWAPPED);
  session_document_cb (self, NULL, self->session);
}
