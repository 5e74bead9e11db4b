/* fc-loading-page.c - what the window shows while a file is read: what, a spinner, Cancel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-loading-page.h"

struct _FcLoadingPage
{
  GtkBox          parent_instance;

  /* template widgets */
  GtkSpinner     *loading_spinner;
  GtkLabel       *loading_label;
  GtkProgressBar *loading_progress;

  guint           pulse_source;
};

G_DEFINE_FINAL_TYPE (FcLoadingPage, fc_loading_page, GTK_TYPE_BOX)

static gboolean
pulse_cb (gpointer user_data)
{
  FcLoadingPage *self = user_data;

  gtk_progress_bar_pulse (self->loading_progress);
  return G_SOURCE_CONTINUE;
}

void
fc_loading_page_start (FcLoadingPage *self,
                       const char    *label)
{
  g_return_if_fail (FC_IS_LOADING_PAGE (self));

  gtk_label_set_text (self->loading_label, label);
  gtk_progress_bar_set_fraction (self->loading_progress, 0);
  gtk_spinner_start (self->loading_spinner);
  g_clear_handle_id (&self->pulse_source, g_source_remove);
  self->pulse_source = g_timeout_add (100, pulse_cb, self);
}

void
fc_loading_page_stop (FcLoadingPage *self)
{
  g_return_if_fail (FC_IS_LOADING_PAGE (self));

  g_clear_handle_id (&self->pulse_source, g_source_remove);
  gtk_spinner_stop (self->loading_spinner);
}

static void
fc_loading_page_dispose (GObject *object)
{
  FcLoadingPage *self = FC_LOADING_PAGE (object);

  g_clear_handle_id (&self->pulse_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_LOADING_PAGE);

  G_OBJECT_CLASS (fc_loading_page_parent_class)->dispose (object);
}

static void
fc_loading_page_class_init (FcLoadingPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_loading_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-loading-page.ui");
  gtk_widget_class_bind_template_child (widget_class, FcLoadingPage, loading_spinner);
  gtk_widget_class_bind_template_child (widget_class, FcLoadingPage, loading_label);
  gtk_widget_class_bind_template_child (widget_class, FcLoadingPage, loading_progress);
}

static void
fc_loading_page_init (FcLoadingPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
