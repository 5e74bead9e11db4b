/* fc-preferences-window.c - the preferences, bound to the app's GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every widget is bound to its key with g_settings_bind(), so a change is
 * stored at once and whoever reads the same settings (the recorder, the send
 * dialog, the CLI through the keyfile backend) sees it. The DSN is the one
 * exception: it is stored on Apply and only when it parses; the row says
 * what is wrong with it otherwise, in fc-dsn's words, as it is typed.
 */

#include <glib/gi18n.h>

#include "fc-resources.h"

#include "fc-app-settings.h"
#include "fc-dsn.h"
#include "fc-preferences-window.h"

struct _FcPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  /* template widgets */
  AdwPreferencesPage   *sending_page;
  GtkSpinButton        *frequency_spin;
  GtkAdjustment        *frequency_adjustment;
  AdwComboRow          *mode_row;
  AdwComboRow          *stacks_row;
  GtkAdjustment        *stack_bytes_adjustment;
  GtkAdjustment        *chunk_adjustment;
  AdwComboRow          *lifecycle_row;
  GtkAdjustment        *session_rate_adjustment;
  GtkAdjustment        *traces_rate_adjustment;
  AdwEntryRow          *in_app_row;
  AdwPasswordEntryRow  *dsn_row;
  GtkLabel             *dsn_status_label;
  GtkSwitch            *send_while_recording_switch;
  AdwEntryRow          *otlp_endpoint_row;
  AdwEntryRow          *debuginfod_urls_row;
  AdwEntryRow          *release_row;
  AdwEntryRow          *environment_row;
  AdwEntryRow          *platform_row;
  GtkSwitch            *strip_home_switch;

  /* owned */
  GSettings            *settings;
  gboolean              syncing_dsn;
};

G_DEFINE_FINAL_TYPE (FcPreferencesWindow, fc_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* -- choice keys <-> combo row positions, in the order of the .ui's string lists -- */

static const char * const mode_choices[] = { "wall", "cpu", NULL };
static const char * const stacks_choices[] = { "auto", "python", "mixed", "native", NULL };
static const char * const lifecycle_choices[] = { "manual", "trace", NULL };

static gboolean
choice_get_mapping (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char * const *choices = user_data;
  const char *text = g_variant_get_string (variant, NULL);

  for (guint i = 0; choices[i] != NULL; i++)
    if (g_str_equal (choices[i], text))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
choice_set_mapping (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  const char * const *choices = user_data;
  guint index = g_value_get_uint (value);

  if (index >= g_strv_length ((char **) choices))
    return NULL;
  return g_variant_new_string (choices[index]);
}

/* -- in-app prefixes: a string array <-> "a, b, c" -- */

static gboolean
prefixes_get_mapping (GValue   *value,
                      GVariant *variant,
                      gpointer  user_data)
{
  g_autofree const char **prefixes = g_variant_get_strv (variant, NULL);

  g_value_take_string (value, g_strjoinv (", ", (char **) prefixes));
  return TRUE;
}

static GVariant *
prefixes_set_mapping (const GValue       *value,
                      const GVariantType *expected_type,
                      gpointer            user_data)
{
  g_auto(GStrv) parts = g_strsplit (g_value_get_string (value) ? g_value_get_string (value) : "", ",", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) prefixes = NULL;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *prefix = g_strstrip (parts[i]);

      if (*prefix != '\0')
        g_strv_builder_add (builder, prefix);
    }
  prefixes = g_strv_builder_end (builder);
  return g_variant_new_strv ((const char * const *) prefixes, -1);
}

/* -- the DSN: stored only when it parses -- */

static void
show_dsn_status (FcPreferencesWindow *self,
                 const char          *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDsn) dsn = NULL;
  g_autofree char *message = NULL;

  if (text == NULL || *text == '\0')
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->dsn_row), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->dsn_status_label), "error");
      gtk_label_set_text (self->dsn_status_label, _("No DSN: profiles are saved and viewed, but not sent."));
      return;
    }

  dsn = fc_dsn_parse (text, &error);
  if (dsn == NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->dsn_row), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->dsn_status_label), "error");
      gtk_label_set_text (self->dsn_status_label, error->message);
      return;
    }

  gtk_widget_remove_css_class (GTK_WIDGET (self->dsn_row), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->dsn_status_label), "error");
  /* TRANSLATORS: %s is a host name, %s a Sentry project id */
  message = g_strdup_printf (_("Profiles go to project %s on %s."),
                             fc_dsn_get_project_id (dsn), fc_dsn_get_host (dsn));
  gtk_label_set_text (self->dsn_status_label, message);
}

static void
dsn_changed_cb (FcPreferencesWindow *self,
                GtkEditable         *editable)
{
  g_autofree char *text = NULL;

  if (self->syncing_dsn)
    return;

  text = g_strstrip (g_strdup (gtk_editable_get_text (editable)));
  show_dsn_status (self, text);
}

/* Stored on Apply (or Enter), not on every keystroke: half a pasted DSN is
 * never stored, and an invalid one is not either, so the last good one (or
 * none) stays in use. */
static void
dsn_apply_cb (FcPreferencesWindow *self,
              AdwEntryRow         *row)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
  g_autofree char *stored = g_settings_get_string (self->settings, "dsn");
  g_autoptr(FcDsn) dsn = NULL;

  if (*text != '\0' && (dsn = fc_dsn_parse (text, NULL)) == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (row));
      return;
    }

  if (g_strcmp0 (text, stored) != 0)
    g_settings_set_string (self->settings, "dsn", text);
}

static void
settings_dsn_changed_cb (FcPreferencesWindow *self,
                         const char          *key,
                         GSettings           *settings)
{
  g_autofree char *stored = g_settings_get_string (settings, "dsn");
  g_autofree char *shown = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->dsn_row))));

  /* The entry may hold an invalid DSN the user is still typing: leave it
   * alone unless the stored one really changed elsewhere. */
  if (g_strcmp0 (stored, shown) == 0)
    return;

  self->syncing_dsn = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->dsn_row), stored);
  self->syncing_dsn = FALSE;
  show_dsn_status (self, stored);
}

/**
 * fc_preferences_window_show_dsn:
 * @self: the preferences
 *
 * Shows the Sending page and puts the focus into the DSN row.
 */
void
fc_preferences_window_show_dsn (FcPreferencesWindow *self)
{
  g_return_if_fail (FC_IS_PREFERENCES_WINDOW (self));

  adw_preferences_window_set_visible_page (ADW_PREFERENCES_WINDOW (self), self->sending_page);
  gtk_widget_grab_focus (GTK_WIDGET (self->dsn_row));
}

static void
fc_preferences_window_dispose (GObject *object)
{
  FcPreferencesWindow *self = (FcPreferencesWindow *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (fc_preferences_window_parent_class)->dispose (object);
}

static void
fc_preferences_window_class_init (FcPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_preferences_window_dispose;

  /* Referencing the resource links it (and its constructor) from the static library. */
  (void) fc_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, sending_page);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, frequency_spin);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, frequency_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, mode_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, stacks_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, stack_bytes_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, chunk_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, lifecycle_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, session_rate_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, traces_rate_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, in_app_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, dsn_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, dsn_status_label);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, send_while_recording_switch);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, otlp_endpoint_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, debuginfod_urls_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, release_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, environment_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, platform_row);
  gtk_widget_class_bind_template_child (widget_class, FcPreferencesWindow, strip_home_switch);
  gtk_widget_class_bind_template_callback (widget_class, dsn_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, dsn_apply_cb);
}

static void
fc_preferences_window_init (FcPreferencesWindow *self)
{
  g_autofree char *dsn = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = fc_app_settings_new ();

  g_settings_bind (self->settings, "frequency", self->frequency_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "stack-bytes", self->stack_bytes_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "chunk-duration", self->chunk_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "profile-session-sample-rate", self->session_rate_adjustment, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "traces-sample-rate", self->traces_rate_adjustment, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "mode", self->mode_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                choice_get_mapping, choice_set_mapping, (gpointer) mode_choices, NULL);
  g_settings_bind_with_mapping (self->settings, "stacks", self->stacks_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                choice_get_mapping, choice_set_mapping, (gpointer) stacks_choices, NULL);
  g_settings_bind_with_mapping (self->settings, "profile-lifecycle", self->lifecycle_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                choice_get_mapping, choice_set_mapping, (gpointer) lifecycle_choices, NULL);
  g_settings_bind_with_mapping (self->settings, "in-app-prefixes", self->in_app_row, "text", G_SETTINGS_BIND_DEFAULT,
                                prefixes_get_mapping, prefixes_set_mapping, NULL, NULL);
  g_settings_bind (self->settings, "release", self->release_row, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "environment", self->environment_row, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "platform", self->platform_row, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "strip-home-directory", self->strip_home_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "send-while-recording", self->send_while_recording_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "otlp-endpoint", self->otlp_endpoint_row, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "debuginfod-urls", self->debuginfod_urls_row, "text", G_SETTINGS_BIND_DEFAULT);

  dsn = g_settings_get_string (self->settings, "dsn");
  self->syncing_dsn = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->dsn_row), dsn);
  self->syncing_dsn = FALSE;
  show_dsn_status (self, dsn);
  g_signal_connect_object (self->settings, "changed::dsn", G_CALLBACK (settings_dsn_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

/**
 * fc_preferences_window_new:
 * @parent: (nullable): the window it belongs to
 *
 * Returns: (transfer full): new preferences
 */
FcPreferencesWindow *
fc_preferences_window_new (GtkWindow *parent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (FC_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", FALSE,
                       NULL);
}
