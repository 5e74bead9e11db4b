/* fc-window-symbols.c - the window's document named anew as debug info arrives from debuginfod
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The header shows the fetches under way (a spinner and "Fetching debug info:
 * 1 of 2 modules"); when one ends with a debug file, the document shown is
 * copied with its frames named (fc-resymbolize.h, in a worker thread) and the
 * views get the copy, thread and visible range kept. A live recording names
 * its own frames as it goes; its document is named again when it stops.
 */

#include <glib/gi18n.h>

#include "flamecast.h"
#include "fc-live-recording.h"
#include "fc-session.h"
#include "fc-window-private.h"

/* the header's progress (template children) and the re-naming under way */
struct _FcWindowSymbols
{
  GtkWidget    *status;
  GtkSpinner   *spinner;
  GtkLabel     *label;
  GCancellable *cancellable;
  FcDocument   *resymbolizing;
  gboolean      again;
  gboolean      applying;
};

static void resymbolize (FcWindow *self);

static void
progress_cb (FcWindow     *self,
             GParamSpec   *pspec,
             FcDebuginfod *debuginfod)
{
  guint n_asked, n_pending, n_found, n_failed;
  g_autofree char *text = NULL;

  g_object_get (debuginfod, "n-asked", &n_asked, "n-pending", &n_pending, "n-found", &n_found,
                "n-failed", &n_failed, NULL);
  gtk_widget_set_visible (self->symbols->status, n_pending > 0);
  gtk_spinner_set_spinning (self->symbols->spinner, n_pending > 0);
  if (n_pending == 0)
    return;
  text = g_strdup_printf (ngettext ("Fetching debug info: %u of %u module",
                                    "Fetching debug info: %u of %u modules", n_asked),
                          n_asked - n_pending, n_asked);
  gtk_label_set_text (self->symbols->label, text);
  gtk_widget_set_tooltip_text (self->symbols->status,
                               n_failed > 0 ? _("Some modules have no debug info on the debuginfod servers")
                                            : _("Names for frames without one, from the debuginfod servers"));
}

static void
resymbolized_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(FcWindow) self = user_data;
  g_autoptr(FcProfile) merged = NULL;
  g_autoptr(FcDocument) document = fc_resymbolize_document_finish (result, &merged, NULL);
  g_autoptr(FcDocument) from = g_steal_pointer (&self->symbols->resymbolizing);
  gint64 begin, end;

  g_clear_object (&self->symbols->cancellable);
  if (document != NULL && self->session != NULL && fc_session_get_document (self->session) == from)
    {
      begin = fc_session_get_visible_begin_ns (self->session);
      end = fc_session_get_visible_end_ns (self->session);
      self->symbols->again = FALSE;
      /* named already with what there is: no second look from document_cb */
      self->symbols->applying = TRUE;
      fc_session_set_document_keep_thread (self->session, document, merged);
      fc_session_set_visible_range (self->session, begin, end);
      self->symbols->applying = FALSE;
    }
  if (self->symbols->again && self->session != NULL)
    resymbolize (self);
}

/* the document shown, named with what has arrived; once at a time, again after it when asked */
static void
resymbolize (FcWindow *self)
{
  FcDocument *document = fc_session_get_document (self->session);

  self->symbols->again = FALSE;
  if (document == NULL || !fc_debuginfod_enabled () ||
      (self->live != NULL && fc_live_recording_is_active (self->live)))
    return;
  if (self->symbols->cancellable != NULL)
    {
      self->symbols->again = TRUE;
      return;
    }
  self->symbols->resymbolizing = g_object_ref (document);
  self->symbols->cancellable = g_cancellable_new ();
  fc_resymbolize_document_async (document, self->symbols->cancellable, resymbolized_cb, g_object_ref (self));
}

static void
document_cb (FcWindow   *self,
             GParamSpec *pspec,
             FcSession  *session)
{
  if (!self->symbols->applying)
    resymbolize (self);
}

static void
found_cb (FcWindow     *self,
          GParamSpec   *pspec,
          FcDebuginfod *debuginfod)
{
  resymbolize (self);
}

void
fc_window_symbols_init (FcWindow *self)
{
  FcDebuginfod *debuginfod = fc_debuginfod_get_default ();
  GtkWidget *widget = GTK_WIDGET (self);

  self->symbols = g_new0 (FcWindowSymbols, 1);
  self->symbols->status = GTK_WIDGET (gtk_widget_get_template_child (widget, FC_TYPE_WINDOW, "symbols_status"));
  self->symbols->spinner = GTK_SPINNER (gtk_widget_get_template_child (widget, FC_TYPE_WINDOW, "symbols_spinner"));
  self->symbols->label = GTK_LABEL (gtk_widget_get_template_child (widget, FC_TYPE_WINDOW, "symbols_label"));

  g_signal_connect_object (debuginfod, "notify", G_CALLBACK (progress_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (debuginfod, "notify::n-found", G_CALLBACK (found_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::document", G_CALLBACK (document_cb), self, G_CONNECT_SWAPPED);
  progress_cb (self, NULL, debuginfod);
}

void
fc_window_symbols_dispose (FcWindow *self)
{
  if (self->symbols->cancellable != NULL)
    g_cancellable_cancel (self->symbols->cancellable);
  g_clear_object (&self->symbols->resymbolizing);
}

/* after the last re-naming's callback, which holds the window */
void
fc_window_symbols_finalize (FcWindow *self)
{
  g_clear_object (&self->symbols->cancellable);
  g_clear_pointer (&self->symbols, g_free);
}
