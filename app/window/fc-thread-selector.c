/* fc-thread-selector.c - a searchable drop-down of the profile's threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>

#include "fc-resources.h"

#include "fc-thread-list.h"
#include "fc-thread-selector.h"
#include "fc-view-util.h"
#include "fc-session-view.h"

struct _FcThreadSelector
{
  GtkWidget           parent_instance;

  /* template widgets */
  GtkMenuButton      *button;
  GtkLabel           *button_label;
  GtkPopover         *popover;
  GtkSearchEntry     *search_entry;
  GtkListView        *list_view;
  GtkLabel           *no_match_label;

  /* owned */
  FcSession          *session;
  GSignalGroup       *session_signals;
  GtkFilterListModel *filter_model;
  GtkSingleSelection *selection;
  GtkCustomFilter    *filter;
  char               *filter_text;   /* casefolded */
  GListModel         *list;          /* the threads of listed_profile, unfiltered */
  FcProfile          *listed_profile;
  gboolean            list_stale;    /* a live profile grew while the popover was closed */
};

G_DEFINE_FINAL_TYPE_WITH_CODE (FcThreadSelector, fc_thread_selector, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (FC_TYPE_SESSION_VIEW, NULL))

enum {
  PROP_0,
  PROP_SESSION,
};

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  FcThreadSelector *self = user_data;

  return fc_thread_item_matches (item, self->filter_text);
}

static FcThreadItem *
find_item (FcThreadSelector *self,
           gint              thread,
           guint            *position)
{
  GListModel *model = G_LIST_MODEL (self->filter_model);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(FcThreadItem) item = g_list_model_get_item (model, i);

      if (fc_thread_item_get_index (item) == thread)
        {
          if (position != NULL)
            *position = i;
          return g_steal_pointer (&item);
        }
    }

  return NULL;
}

static void
fc_thread_selector_sync_selection (FcThreadSelector *self)
{
  gint thread = self->session ? fc_session_get_thread (self->session) : FC_SESSION_ALL_THREADS;
  guint position = GTK_INVALID_LIST_POSITION;
  g_autoptr(FcThreadItem) item = find_item (self, thread, &position);

  gtk_single_selection_set_selected (self->selection, position);
  gtk_widget_set_visible (GTK_WIDGET (self->no_match_label),
                          g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 0);
}

static void
fc_thread_selector_sync_label (FcThreadSelector *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;
  gint thread = self->session ? fc_session_get_thread (self->session) : FC_SESSION_ALL_THREADS;
  GListModel *lookup = self->list;
  g_autofree char *details = NULL;
  const char *name = _("All threads");

  /* The button names the session's thread even when a search hides it. */
  for (guint i = 0; profile != NULL && lookup != NULL && i < g_list_model_get_n_items (lookup); i++)
    {
      g_autoptr(FcThreadItem) item = g_list_model_get_item (lookup, i);

      if (fc_thread_item_get_index (item) == thread)
        {
          gtk_label_set_text (self->button_label, fc_thread_item_get_name (item));
          details = fc_thread_item_dup_details (item);
          gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), details);
          return;
        }
    }

  gtk_label_set_text (self->button_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), _("Choose a Thread"));
}

static void
rebuild_list (FcThreadSelector *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;
  gint default_thread = self->session ? fc_session_get_default_thread (self->session) : FC_SESSION_ALL_THREADS;

  /* a growing profile's busiest thread changes as it grows */
  if (profile != NULL && !fc_profile_is_finished (profile))
    default_thread = fc_view_threads_pick_default (profile);
  g_clear_object (&self->list);
  self->list = fc_thread_list_new (profile, default_thread);
  g_set_object (&self->listed_profile, profile);
  self->list_stale = FALSE;
  gtk_filter_list_model_set_model (self->filter_model, self->list);
  fc_thread_selector_sync_selection (self);
}

static void
session_profile_cb (FcThreadSelector *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;

  /* A live profile grew (several times a second): counts are brought up to
   * date in place; the rows, which show them, are rebuilt only while the
   * popover shows them, or once it opens. New or renamed threads rebuild. */
  if (profile != NULL && profile == self->listed_profile && self->list != NULL &&
      fc_thread_list_refresh (self->list, profile))
    {
      if (gtk_widget_get_visible (GTK_WIDGET (self->popover)))
        rebuild_list (self);
      else
        self->list_stale = TRUE;
    }
  else
    rebuild_list (self);
  fc_thread_selector_sync_label (self);
}

static void
session_thread_cb (FcThreadSelector *self)
{
  fc_thread_selector_sync_selection (self);
  fc_thread_selector_sync_label (self);
}

static void
fc_thread_selector_set_filter (FcThreadSelector *self,
                               const char       *text)
{
  g_autofree char *folded = g_utf8_casefold (text ? text : "", -1);

  if (g_strcmp0 (folded, self->filter_text) == 0)
    return;

  g_free (self->filter_text);
  self->filter_text = g_steal_pointer (&folded);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  fc_thread_selector_sync_selection (self);
}

static void
fc_thread_selector_choose (FcThreadSelector *self,
                           gint              thread)
{
  if (self->session != NULL)
    fc_session_set_thread (self->session, thread);
  gtk_popover_popdown (self->popover);
}

static void
list_activate_cb (FcThreadSelector *self,
                  guint             position)
{
  g_autoptr(FcThreadItem) item = g_list_model_get_item (G_LIST_MODEL (self->filter_model), position);

  if (item != NULL)
    fc_thread_selector_choose (self, fc_thread_item_get_index (item));
}

static void
search_changed_cb (FcThreadSelector *self,
                   GtkSearchEntry   *entry)
{
  fc_thread_selector_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
search_activate_cb (FcThreadSelector *self)
{
  /* Enter picks the first match, so typing a name and Enter is enough. */
  fc_thread_selector_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  if (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) > 0)
    list_activate_cb (self, 0);
}

static void
search_stop_cb (FcThreadSelector *self)
{
  gtk_popover_popdown (self->popover);
}

static void
popover_show_cb (FcThreadSelector *self)
{
  guint selected;

  if (self->list_stale)
    rebuild_list (self);
  selected = gtk_single_selection_get_selected (self->selection);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  if (selected != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", selected);
}

static void
select_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  fc_thread_selector_choose (FC_THREAD_SELECTOR (widget), g_variant_get_int32 (param));
}

static void
filter_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  FcThreadSelector *self = FC_THREAD_SELECTOR (widget);
  const char *text = g_variant_get_string (param, NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  /* Now, not after the entry's search delay. */
  fc_thread_selector_set_filter (self, text);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *heading = gtk_label_new (NULL);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *badge = gtk_label_new (NULL);
  GtkWidget *details = gtk_label_new (NULL);

  gtk_widget_add_css_class (box, "thread-row");
  gtk_widget_add_css_class (heading, "thread-heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (name, "thread-name");
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_add_css_class (badge, "dim-label");
  gtk_widget_add_css_class (badge, "caption");
  gtk_widget_add_css_class (details, "thread-meta");
  gtk_widget_add_css_class (details, "dim-label");
  gtk_widget_add_css_class (details, "caption");
  gtk_label_set_xalign (GTK_LABEL (details), 0);

  gtk_box_append (GTK_BOX (line), name);
  gtk_box_append (GTK_BOX (line), badge);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), line);
  gtk_box_append (GTK_BOX (box), details);
  gtk_list_item_set_child (list_item, box);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  FcThreadItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *heading = gtk_widget_get_first_child (box);
  GtkWidget *line = gtk_widget_get_next_sibling (heading);
  GtkWidget *name = gtk_widget_get_first_child (line);
  GtkWidget *badge = gtk_widget_get_next_sibling (name);
  GtkWidget *details = gtk_widget_get_next_sibling (line);
  g_autofree char *text = fc_thread_item_dup_details (item);

  gtk_label_set_text (GTK_LABEL (heading), fc_thread_item_get_heading (item));
  gtk_widget_set_visible (heading, fc_thread_item_get_heading (item) != NULL);
  gtk_label_set_text (GTK_LABEL (name), fc_thread_item_get_name (item));
  gtk_label_set_text (GTK_LABEL (badge),
                      fc_thread_item_get_is_active (item) ? _("active") :
                      fc_thread_item_get_is_default (item) ? _("busiest") : NULL);
  gtk_widget_set_visible (badge, fc_thread_item_get_is_default (item));
  gtk_label_set_text (GTK_LABEL (details), text);
}

static void
fc_thread_selector_dispose (GObject *object)
{
  FcThreadSelector *self = (FcThreadSelector *)object;

  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_THREAD_SELECTOR);

  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  g_clear_object (&self->list);
  g_clear_object (&self->listed_profile);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);

  G_OBJECT_CLASS (fc_thread_selector_parent_class)->dispose (object);
}

static void
fc_thread_selector_finalize (GObject *object)
{
  FcThreadSelector *self = (FcThreadSelector *)object;

  g_clear_pointer (&self->filter_text, g_free);

  G_OBJECT_CLASS (fc_thread_selector_parent_class)->finalize (object);
}

static void
fc_thread_selector_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  FcThreadSelector *self = FC_THREAD_SELECTOR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_thread_selector_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  FcThreadSelector *self = FC_THREAD_SELECTOR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_thread_selector_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_thread_selector_class_init (FcThreadSelectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_thread_selector_dispose;
  object_class->finalize = fc_thread_selector_finalize;
  object_class->get_property = fc_thread_selector_get_property;
  object_class->set_property = fc_thread_selector_set_property;


  fc_session_view_class_override (object_class, PROP_SESSION);

  /* Referencing the resource links it (and its constructor) from the static library. */
  (void) fc_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-thread-selector.ui");
  gtk_widget_class_bind_template_child (widget_class, FcThreadSelector, button);
  gtk_widget_class_bind_template_child (widget_class, FcThreadSelector, button_label);
  gtk_widget_class_bind_template_child (widget_class, FcThreadSelector, popover);
  gtk_widget_class_bind_template_child (widget_class, FcThreadSelector, search_entry);
  gtk_widget_class_bind_template_child (widget_class, FcThreadSelector, list_view);
  gtk_widget_class_bind_template_child (widget_class, FcThreadSelector, no_match_label);
  gtk_widget_class_bind_template_callback (widget_class, list_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, popover_show_cb);

  gtk_widget_class_install_action (widget_class, "thread-selector.select", "i", select_action);
  gtk_widget_class_install_action (widget_class, "thread-selector.filter", "s", filter_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "threadselector");
}

static void
fc_thread_selector_init (FcThreadSelector *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->filter_text = g_strdup ("");
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "notify::profile",
                                 G_CALLBACK (session_profile_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::thread",
                                 G_CALLBACK (session_thread_cb), self, G_CONNECT_SWAPPED);

  fc_thread_selector_sync_label (self);
}

GtkWidget *
fc_thread_selector_new (void)
{
  return g_object_new (FC_TYPE_THREAD_SELECTOR, NULL);
}

/**
 * fc_thread_selector_get_session:
 * @self: a thread selector
 *
 * Returns: (transfer none) (nullable): the session whose "thread" it sets
 */
FcSession *
fc_thread_selector_get_session (FcThreadSelector *self)
{
  g_return_val_if_fail (FC_IS_THREAD_SELECTOR (self), NULL);

  return self->session;
}

void
fc_thread_selector_set_session (FcThreadSelector *self,
                                FcSession        *session)
{
  g_return_if_fail (FC_IS_THREAD_SELECTOR (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  session_profile_cb (self);
  fc_session_view_notify (FC_SESSION_VIEW (self));
}

/**
 * fc_thread_selector_get_model:
 * @self: a thread selector
 *
 * Returns: (transfer none): the #FcThreadItem entries the search lets through, in order
 */
GListModel *
fc_thread_selector_get_model (FcThreadSelector *self)
{
  g_return_val_if_fail (FC_IS_THREAD_SELECTOR (self), NULL);

  return G_LIST_MODEL (self->filter_model);
}

/**
 * fc_thread_selector_get_label:
 * @self: a thread selector
 *
 * Returns: what the button shows: the session thread's name
 */
const char *
fc_thread_selector_get_label (FcThreadSelector *self)
{
  g_return_val_if_fail (FC_IS_THREAD_SELECTOR (self), NULL);

  return gtk_label_get_text (self->button_label);
}

/**
 * fc_thread_selector_keep_room:
 * @self: a thread selector
 * @max_chars: how many characters of the thread's name keep their room, or -1
 *
 * The header keeps "All threads" or the thread's name readable at the
 * default width rather than cutting it to "All threa…".
 */
void
fc_thread_selector_keep_room (FcThreadSelector *self,
                              int               max_chars)
{
  g_return_if_fail (FC_IS_THREAD_SELECTOR (self));

  fc_label_keep_room (self->button_label, max_chars, PANGO_ELLIPSIZE_END);
}

void
fc_thread_selector_popup (FcThreadSelector *self)
{
  g_return_if_fail (FC_IS_THREAD_SELECTOR (self));

  gtk_menu_button_popup (self->button);
}

void
fc_thread_selector_popdown (FcThreadSelector *self)
{
  g_return_if_fail (FC_IS_THREAD_SELECTOR (self));

  gtk_menu_button_popdown (self->button);
}
