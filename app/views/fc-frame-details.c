/* fc-frame-details.c - everything about the session's selected frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <glib/gi18n.h>

#include "fc-resources.h"

#include "fc-format.h"
#include "fc-frame-details.h"
#include "fc-session-view.h"
#include "fc-function-details.h"
#include "fc-session.h"
#include "fc-view-util.h"

#define MAX_LINKS 12

struct _FcFrameDetails
{
  GtkWidget      parent_instance;

  /* template widgets */
  GtkStack      *stack;
  GtkLabel      *title_label;
  GtkWidget     *back_button;
  GtkGrid       *time_grid;
  GtkGrid       *fields_grid;
  GtkBox        *callers_box;
  GtkBox        *callees_box;

  /* owned */
  FcSession     *session;
  GSignalGroup  *session_signals;
  GCancellable  *stats_cancellable;
  GArray        *callers;
  GArray        *callees;

  FcFrameStats   stats;
  gboolean       computing;

  /* Back: the frames shown before, most recent last */
  GArray        *history;
  guint          shown_frame;
  gboolean       going_back;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (FcFrameDetails, fc_frame_details, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (FC_TYPE_SESSION_VIEW, NULL))

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS,
  /* FcSessionView's */
  PROP_SESSION = N_PROPS,
};

static GParamSpec *properties[N_PROPS];

static void
clear_container (GtkWidget *container)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (container)) != NULL)
    {
      if (GTK_IS_GRID (container))
        gtk_grid_remove (GTK_GRID (container), child);
      else
        gtk_box_remove (GTK_BOX (container), child);
    }
}

static void
add_field (GtkGrid    *grid,
           int         row,
           const char *name,
           const char *value)
{
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (name_label), 0);
  gtk_label_set_yalign (GTK_LABEL (name_label), 0);
  gtk_widget_add_css_class (name_label, "field-name");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_widget_add_css_class (value_label, "numeric");

  gtk_grid_attach (grid, name_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value_label, 1, row, 1, 1);
}

static void
add_string_field (GtkGrid    *grid,
                  int        *row,
                  FcProfile  *profile,
                  const char *name,
                  guint32     string_id)
{
  const char *value = fc_profile_string (profile, string_id);

  if (value != NULL && value[0] != '\0')
    add_field (grid, (*row)++, name, value);
}

static GArray *
links_from (GArray *function_links)
{
  GArray *links = g_array_sized_new (FALSE, FALSE, sizeof (FcFrameLink), function_links->len);

  for (guint i = 0; i < function_links->len; i++)
    {
      const FcFunctionLink *from = &g_array_index (function_links, FcFunctionLink, i);
      FcFrameLink link = { from->frame, from->total_ns };

      g_array_append_val (links, link);
    }
  return links;
}

static void
link_clicked_cb (GtkButton      *button,
                 FcFrameDetails *self)
{
  FcSession *session = self->session;
  guint frame = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "frame"));

  if (session != NULL)
    fc_session_set_selected_frame (session, frame);
}

static void
fill_links (FcFrameDetails *self,
            GtkBox         *box,
            GArray         *links,
            FcProfile      *profile)
{
  clear_container (GTK_WIDGET (box));

  if (links->len == 0)
    {
      GtkWidget *label = gtk_label_new (_("None"));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (box, label);
      return;
    }

  for (guint i = 0; i < links->len && i < MAX_LINKS; i++)
    {
      const FcFrameLink *link = &g_array_index (links, FcFrameLink, i);
      g_autofree char *duration = fc_format_duration (link->total_ns);
      g_autofree char *percent = fc_format_percent (link->total_ns, self->stats.all_ns);
      GtkWidget *button = gtk_button_new ();
      GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *name = gtk_label_new (NULL);
      g_autofree char *value_text = g_strdup_printf ("%s  %s", duration, percent);
      GtkWidget *value = gtk_label_new (value_text);
      char buf[512];
      const char *label = fc_profile_frame_label (profile, link->frame, buf, sizeof buf);

      gtk_label_set_text (GTK_LABEL (name), label);
      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (name, TRUE);
      gtk_widget_add_css_class (value, "numeric");
      gtk_widget_add_css_class (value, "dim-label");
      gtk_box_append (GTK_BOX (line), name);
      gtk_box_append (GTK_BOX (line), value);
      gtk_button_set_child (GTK_BUTTON (button), line);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, label);
      g_object_set_data (G_OBJECT (button), "frame", GUINT_TO_POINTER (link->frame));
      g_signal_connect_object (button, "clicked", G_CALLBACK (link_clicked_cb), self, 0);
      gtk_box_append (box, button);
    }
}

static void
show_stats (FcFrameDetails *self,
            FcProfile      *profile)
{
  g_autofree char *self_time = NULL;
  g_autofree char *self_percent = NULL;
  g_autofree char *self_text = NULL;
  g_autofree char *total_time = NULL;
  g_autofree char *total_percent = NULL;
  g_autofree char *total_text = NULL;
  g_autofree char *samples = NULL;

  clear_container (GTK_WIDGET (self->time_grid));
  self_time = fc_format_duration (self->stats.self_ns);
  self_percent = fc_format_percent (self->stats.self_ns, self->stats.all_ns);
  self_text = g_strdup_printf ("%s  %s", self_time, self_percent);
  total_time = fc_format_duration (self->stats.total_ns);
  total_percent = fc_format_percent (self->stats.total_ns, self->stats.all_ns);
  total_text = g_strdup_printf ("%s  %s", total_time, total_percent);
  samples = g_strdup_printf ("%'" PRIu64 " / %'" PRIu64,
                             self->stats.self_samples, self->stats.total_samples);
  add_field (self->time_grid, 0, _("Self"), self_text);
  add_field (self->time_grid, 1, _("Total"), total_text);
  add_field (self->time_grid, 2, _("Samples (self / total)"), samples);
  fill_links (self, self->callers_box, self->callers, profile);
  fill_links (self, self->callees_box, self->callees, profile);
}

static void
set_computing (FcFrameDetails *self,
               gboolean        computing)
{
  if (computing == self->computing)
    return;
  self->computing = computing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
stats_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(FcFrameDetails) self = g_weak_ref_get (weak);
  g_autoptr(FcFunctionDetails) details = fc_function_details_new_finish (result, NULL);

  g_weak_ref_clear (weak);
  g_free (weak);

  /* only the newest request shows, in a panel still there */
  if (self != NULL && details != NULL && g_task_get_cancellable (G_TASK (result)) == self->stats_cancellable &&
      self->session != NULL && fc_session_get_profile (self->session) != NULL)
    {
      self->stats = (FcFrameStats) {
        .frame = details->frame,
        .self_ns = details->self_ns,
        .total_ns = details->total_ns,
        .self_samples = details->self_samples,
        .total_samples = details->total_samples,
        .all_ns = details->all_ns,
      };
      g_clear_pointer (&self->callers, g_array_unref);
      g_clear_pointer (&self->callees, g_array_unref);
      self->callers = links_from (details->callers);
      self->callees = links_from (details->callees);
      g_clear_object (&self->stats_cancellable);
      show_stats (self, fc_session_get_profile (self->session));
      set_computing (self, FALSE);
    }
}

/* Every frame picked (in a view, or through a caller or callee link) pushes
 * the one shown before, so Back retraces a walk through the callees. */
static void
selected_frame_changed_cb (FcFrameDetails *self)
{
  guint frame = fc_session_get_selected_frame (self->session);

  if (frame == self->shown_frame)
    return;
  if (!self->going_back && self->shown_frame != FC_SESSION_NO_FRAME && frame != FC_SESSION_NO_FRAME)
    g_array_append_val (self->history, self->shown_frame);
  self->shown_frame = frame;
}

static void
profile_changed_cb (FcFrameDetails *self)
{
  g_array_set_size (self->history, 0);
  self->shown_frame = self->session ? fc_session_get_selected_frame (self->session) : FC_SESSION_NO_FRAME;
}

gboolean
fc_frame_details_can_go_back (FcFrameDetails *self)
{
  g_return_val_if_fail (FC_IS_FRAME_DETAILS (self), FALSE);
  return self->session != NULL && self->history->len > 0;
}

/**
 * fc_frame_details_go_back:
 *
 * Selects the frame shown before the current one.
 *
 * Returns: FALSE when there is none
 */
gboolean
fc_frame_details_go_back (FcFrameDetails *self)
{
  guint frame;

  g_return_val_if_fail (FC_IS_FRAME_DETAILS (self), FALSE);

  if (!fc_frame_details_can_go_back (self))
    return FALSE;

  frame = g_array_index (self->history, guint, self->history->len - 1);
  g_array_set_size (self->history, self->history->len - 1);
  self->going_back = TRUE;
  fc_session_set_selected_frame (self->session, frame);
  self->going_back = FALSE;
  return TRUE;
}

static void
back_clicked_cb (FcFrameDetails *self)
{
  fc_frame_details_go_back (self);
}

static void
fc_frame_details_update (FcFrameDetails *self)
{
  FcSession *session = self->session;
  FcProfile *profile = session ? fc_session_get_profile (session) : NULL;
  guint frame_id = session ? fc_session_get_selected_frame (session) : FC_SESSION_NO_FRAME;
  const FcFrame *frame;
  char buf[512];
  int row = 0;

  g_cancellable_cancel (self->stats_cancellable);
  g_clear_object (&self->stats_cancellable);
  set_computing (self, FALSE);
  gtk_widget_set_visible (self->back_button, fc_frame_details_can_go_back (self));

  if (profile == NULL || frame_id == FC_SESSION_NO_FRAME || frame_id >= fc_profile_get_n_frames (profile))
    {
      memset (&self->stats, 0, sizeof self->stats);
      self->stats.frame = FC_SESSION_NO_FRAME;
      g_array_set_size (self->callers, 0);
      g_array_set_size (self->callees, 0);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  frame = fc_profile_get_frame (profile, frame_id);
  gtk_label_set_text (self->title_label, fc_profile_frame_label (profile, frame_id, buf, sizeof buf));

  /* the frame's own fields, as the payload had them */
  clear_container (GTK_WIDGET (self->fields_grid));
  add_string_field (self->fields_grid, &row, profile, _("Function"), frame->function);
  add_string_field (self->fields_grid, &row, profile, _("Module"), frame->module);
  add_string_field (self->fields_grid, &row, profile, _("Package"), frame->package);
  add_string_field (self->fields_grid, &row, profile, _("File"), frame->filename);
  add_string_field (self->fields_grid, &row, profile, _("Path"), frame->abs_path);
  {
    g_autofree char *location = fc_view_frame_location (profile, frame_id, FC_STACK_EMPTY);

    /* merged by function: the line, column and address when every call
     * site agrees, "several lines" otherwise */
    if (location != NULL)
      add_field (self->fields_grid, row++, _("Location"), location);
  }
  add_string_field (self->fields_grid, &row, profile, _("Platform"), frame->platform);
  add_field (self->fields_grid, row++, _("In app"),
             frame->in_app == FC_IN_APP_YES ? (frame->in_app_inferred ? _("Yes (inferred)") : _("Yes"))
             : frame->in_app == FC_IN_APP_NO ? (frame->in_app_inferred ? _("No (inferred)") : _("No"))
             : _("Unknown"));
  add_string_field (self->fields_grid, &row, profile, _("Other fields"), frame->extra);
  {
    FcFrameLocation where;

    /* the index in the file's frames, not the view's own numbering */
    if (fc_profile_get_frame_location (profile, frame_id, &where))
      {
        g_autofree char *index = g_strdup_printf ("%u", where.source_frame);

        add_field (self->fields_grid, row++, _("Frame index"), index);
      }
  }

  clear_container (GTK_WIDGET (self->time_grid));
  {
    GWeakRef *weak = g_new0 (GWeakRef, 1);

    /* a walk over the samples in range: on a worker, in core */
    g_weak_ref_init (weak, self);
    self->stats_cancellable = g_cancellable_new ();
    set_computing (self, TRUE);
    fc_function_details_new_async (profile, fc_session_get_thread (session),
                                   fc_session_get_selection_begin_ns (session),
                                   fc_session_get_selection_end_ns (session),
                                   fc_session_get_frame_filter (session), frame_id,
                                   self->stats_cancellable, stats_ready_cb, weak);
  }

  gtk_stack_set_visible_child_name (self->stack, "frame");
}

static void
fc_frame_details_dispose (GObject *object)
{
  FcFrameDetails *self = (FcFrameDetails *)object;

  g_cancellable_cancel (self->stats_cancellable);
  g_clear_object (&self->stats_cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_FRAME_DETAILS);

  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  g_clear_pointer (&self->callers, g_array_unref);
  g_clear_pointer (&self->callees, g_array_unref);
  g_clear_pointer (&self->history, g_array_unref);

  G_OBJECT_CLASS (fc_frame_details_parent_class)->dispose (object);
}

static void
fc_frame_details_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  FcFrameDetails *self = FC_FRAME_DETAILS (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, fc_frame_details_get_session (self));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, fc_frame_details_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_frame_details_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  FcFrameDetails *self = FC_FRAME_DETAILS (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_frame_details_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_frame_details_class_init (FcFrameDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_frame_details_dispose;
  object_class->get_property = fc_frame_details_get_property;
  object_class->set_property = fc_frame_details_set_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
  fc_session_view_class_override (object_class, PROP_SESSION);

  /* Referencing the resource links it (and its constructor) from the static library. */
  (void) fc_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-frame-details.ui");
  gtk_widget_class_bind_template_child (widget_class, FcFrameDetails, stack);
  gtk_widget_class_bind_template_child (widget_class, FcFrameDetails, title_label);
  gtk_widget_class_bind_template_child (widget_class, FcFrameDetails, back_button);
  gtk_widget_class_bind_template_callback (widget_class, back_clicked_cb);
  gtk_widget_class_bind_template_child (widget_class, FcFrameDetails, time_grid);
  gtk_widget_class_bind_template_child (widget_class, FcFrameDetails, fields_grid);
  gtk_widget_class_bind_template_child (widget_class, FcFrameDetails, callers_box);
  gtk_widget_class_bind_template_child (widget_class, FcFrameDetails, callees_box);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "framedetails");
}

static void
fc_frame_details_init (FcFrameDetails *self)
{
  static const char * const update_on[] = {
    "notify::selected-frame", "notify::profile", "notify::thread", "notify::frame-filter",
    "notify::selection-begin-ns", "notify::selection-end-ns",
  };

  gtk_widget_init_template (GTK_WIDGET (self));

  self->callers = g_array_new (FALSE, FALSE, sizeof (FcFrameLink));
  self->callees = g_array_new (FALSE, FALSE, sizeof (FcFrameLink));
  self->stats.frame = FC_SESSION_NO_FRAME;
  self->history = g_array_new (FALSE, FALSE, sizeof (guint));
  self->shown_frame = FC_SESSION_NO_FRAME;

  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  /* before the update: it shows the Back button the history allows */
  g_signal_group_connect_object (self->session_signals, "notify::selected-frame",
                                 G_CALLBACK (selected_frame_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::profile",
                                 G_CALLBACK (profile_changed_cb), self, G_CONNECT_SWAPPED);
  for (guint i = 0; i < G_N_ELEMENTS (update_on); i++)
    g_signal_group_connect_object (self->session_signals, update_on[i],
                                   G_CALLBACK (fc_frame_details_update), self, G_CONNECT_SWAPPED);
}

GtkWidget *
fc_frame_details_new (void)
{
  return g_object_new (FC_TYPE_FRAME_DETAILS, NULL);
}

/**
 * fc_frame_details_get_session:
 * @self: a frame details panel
 *
 * Returns: (transfer none) (nullable): the session whose selected frame it shows
 */
FcSession *
fc_frame_details_get_session (FcFrameDetails *self)
{
  g_return_val_if_fail (FC_IS_FRAME_DETAILS (self), NULL);

  return self->session;
}

void
fc_frame_details_set_session (FcFrameDetails *self,
                              FcSession      *session)
{
  g_return_if_fail (FC_IS_FRAME_DETAILS (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_array_set_size (self->history, 0);
  self->shown_frame = session ? fc_session_get_selected_frame (session) : FC_SESSION_NO_FRAME;

  g_signal_group_set_target (self->session_signals, session);
  fc_frame_details_update (self);
  fc_session_view_notify (FC_SESSION_VIEW (self));
}

gboolean
fc_frame_details_get_busy (FcFrameDetails *self)
{
  g_return_val_if_fail (FC_IS_FRAME_DETAILS (self), FALSE);

  return self->computing;
}

/**
 * fc_frame_details_get_stats:
 * @self: a frame details panel
 *
 * Returns: what the panel shows for the selected frame (frame is
 *   %FC_SESSION_NO_FRAME when none)
 */
const FcFrameStats *
fc_frame_details_get_stats (FcFrameDetails *self)
{
  g_return_val_if_fail (FC_IS_FRAME_DETAILS (self), NULL);

  return &self->stats;
}

/**
 * fc_frame_details_get_callers:
 * @self: a frame details panel
 *
 * Returns: (transfer none) (element-type FcFrameLink): the selected frame's callers
 */
GArray *
fc_frame_details_get_callers (FcFrameDetails *self)
{
  g_return_val_if_fail (FC_IS_FRAME_DETAILS (self), NULL);

  return self->callers;
}

/**
 * fc_frame_details_get_callees:
 * @self: a frame details panel
 *
 * Returns: (transfer none) (element-type FcFrameLink): the selected frame's callees
 */
GArray *
fc_frame_details_get_callees (FcFrameDetails *self)
{
  g_return_val_if_fail (FC_IS_FRAME_DETAILS (self), NULL);

  return self->callees;
}
