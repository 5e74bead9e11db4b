/* fc-search-bar.c - the header's frame search: entry, "n/m" matches, previous and next
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-search-bar.h"

struct _FcSearchBar
{
  GtkBox          parent_instance;

  /* template widgets */
  GtkSearchEntry *search_entry;
  GtkLabel       *search_matches_label;

  /* borrowed: the window's, which outlive the bar's use of them */
  FcSession      *session;
  FcFlameChart   *chart;

  gboolean        syncing;
};

G_DEFINE_FINAL_TYPE (FcSearchBar, fc_search_bar, GTK_TYPE_BOX)

enum {
  STOP_SEARCH,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
search_changed_cb (FcSearchBar *self)
{
  /* Setting the entry from the session passes through "" on the way. */
  if (!self->syncing && self->session != NULL)
    fc_session_set_search_text (self->session, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
search_next_cb (FcSearchBar *self)
{
  if (self->chart != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self->chart), "flamechart.search-next", NULL);
}

static void
search_previous_cb (FcSearchBar *self)
{
  if (self->chart != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self->chart), "flamechart.search-previous", NULL);
}

/* Shift+Enter goes back, as in browsers */
static gboolean
search_key_pressed_cb (FcSearchBar     *self,
                       guint            keyval,
                       guint            keycode,
                       GdkModifierType  state)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) &&
      (state & GDK_SHIFT_MASK) != 0)
    {
      search_previous_cb (self);
      return TRUE;
    }
  return FALSE;
}

/* Escape leaves the search: the keys after it (+, -, 0, arrows) are the
 * view's again, not more text for the entry; the window says which view. */
static void
search_stop_cb (FcSearchBar *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  g_signal_emit (self, signals[STOP_SEARCH], 0);
}

static void
session_search_text_cb (FcSearchBar *self)
{
  /* A copy: clearing the entry first reports an empty search to the session,
   * which frees the string the session handed out. */
  g_autofree char *text = g_strdup (fc_session_get_search_text (self->session));

  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (self->search_entry))) != 0)
    {
      self->syncing = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
      self->syncing = FALSE;
    }
}

static void
matches_cb (FcSearchBar *self)
{
  g_autofree char *text = NULL;

  if (fc_session_get_search_text (self->session)[0] == '\0')
    {
      gtk_widget_set_visible (GTK_WIDGET (self->search_matches_label), FALSE);
      return;
    }
  /* "n/m" as in Sentry (current is 0 before the first next/previous) */
  text = g_strdup_printf ("%u/%u", fc_flame_chart_get_current_match (self->chart),
                          fc_flame_chart_get_n_matches (self->chart));
  gtk_label_set_text (self->search_matches_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->search_matches_label), TRUE);
}

void
fc_search_bar_bind (FcSearchBar  *self,
                    FcSession    *session,
                    FcFlameChart *chart)
{
  g_return_if_fail (FC_IS_SEARCH_BAR (self));
  g_return_if_fail (FC_IS_SESSION (session));
  g_return_if_fail (FC_IS_FLAME_CHART (chart));
  g_return_if_fail (self->session == NULL);

  self->session = session;
  self->chart = chart;
  g_signal_connect_object (chart, "notify::n-matches", G_CALLBACK (matches_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (chart, "notify::current-match", G_CALLBACK (matches_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::search-text", G_CALLBACK (matches_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::search-text", G_CALLBACK (session_search_text_cb), self,
                           G_CONNECT_SWAPPED);
}

void
fc_search_bar_focus (FcSearchBar *self)
{
  g_return_if_fail (FC_IS_SEARCH_BAR (self));

  if (gtk_widget_get_visible (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

GtkWidget *
fc_search_bar_get_part (FcSearchBar *self,
                        const char  *id)
{
  g_return_val_if_fail (FC_IS_SEARCH_BAR (self), NULL);

  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), FC_TYPE_SEARCH_BAR, id));
}

static void
fc_search_bar_dispose (GObject *object)
{
  FcSearchBar *self = FC_SEARCH_BAR (object);

  self->session = NULL;
  self->chart = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_SEARCH_BAR);

  G_OBJECT_CLASS (fc_search_bar_parent_class)->dispose (object);
}

static void
fc_search_bar_class_init (FcSearchBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_search_bar_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-search-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, FcSearchBar, search_entry);
  gtk_widget_class_bind_template_child (widget_class, FcSearchBar, search_matches_label);
  gtk_widget_class_bind_template_child_full (widget_class, "search_previous_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "search_next_button", FALSE, 0);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_previous_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_key_pressed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);

  /* Escape in the entry: the search is cleared, the keys go back to a view */
  signals[STOP_SEARCH] = g_signal_new ("stop-search", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
fc_search_bar_init (FcSearchBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
