/* fc-flame-chart.c - time on x, stack depth on y
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-flame-chart-private.h"
#include "fc-time-ruler.h"

static GParamSpec *properties[FC_FLAME_CHART_N_PROPS];

G_DEFINE_FINAL_TYPE (FcFlameChart, fc_flame_chart, FC_TYPE_FLAME_VIEW)

void
fc_flame_chart_notify (FcFlameChart *self,
                       guint         prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

/* ---- geometry ---- */

void
fc_flame_chart_get_visible (FcFlameChart *self,
                            gint64       *begin_ns,
                            gint64       *end_ns)
{
  gint64 b = 0, e = 0;

  if (fc_flame_chart_session (self) != NULL)
    fc_time_axis_get_visible (fc_session_get_time_axis (fc_flame_chart_session (self)), &b, &e);
  if (e <= b && fc_flame_chart_layout (self) != NULL)
    fc_flame_layout_get_extent (fc_flame_chart_layout (self), &b, &e);
  if (e <= b)
    e = b + 1;

  *begin_ns = b;
  *end_ns = e;
}

gint64
fc_flame_chart_time_at (FcFlameChart *self,
                        double        x)
{
  if (fc_flame_chart_session (self) == NULL)
    return 0;
  return fc_time_axis_time_at (fc_session_get_time_axis (fc_flame_chart_session (self)), x,
                               gtk_widget_get_width (GTK_WIDGET (self)));
}

static void
fc_flame_chart_layout_changed (FcFlameView *view)
{
  FcFlameChart *self = FC_FLAME_CHART (view);
  int natural = fc_flame_chart_natural_height (self);

  self->has_hover = FALSE;
  self->has_selected = FALSE;
  self->scroll_y = 0;
  fc_flame_chart_update_geometry (self);
  fc_flame_chart_update_lane_list (self);
  fc_flame_chart_update_search (self);
  /* A live update brings a new layout several times a second, seldom with
   * another height: then the scrollbar's range is all that changes, and
   * allocating the chart again is enough, without measuring the window. */
  if (fc_flame_chart_natural_height (self) != natural)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
fc_flame_chart_search_changed (FcFlameView *view)
{
  fc_flame_chart_update_search (FC_FLAME_CHART (view));
}

static void
fc_flame_chart_font_changed (FcFlameView *view)
{
  fc_flame_chart_forget_text (FC_FLAME_CHART (view));
}

static void
fc_flame_chart_reload (FcFlameView *view)
{
  FcFlameChart *self = FC_FLAME_CHART (view);

  fc_time_ruler_set_session (FC_TIME_RULER (self->ruler), fc_flame_chart_session (self));
  g_hash_table_remove_all (self->labels);
}

static void
visible_changed_cb (FcFlameChart *self)
{
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
}

static void
overlay_changed_cb (FcFlameChart *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
selected_frame_changed_cb (FcFlameChart *self)
{
  /* Someone else (the call tree, the details panel) picked another frame:
   * our box no longer stands for the selection. */
  if (self->has_selected && self->selected_box.frame != fc_session_get_selected_frame (fc_flame_chart_session (self)))
    self->has_selected = FALSE;
  fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
}

static void
fc_flame_chart_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 800;
    }
  else
    {
      *minimum = RULER_HEIGHT + 3 * ROW_HEIGHT;
      *natural = MAX (fc_flame_chart_natural_height (self), *minimum);
    }
}

static void
fc_flame_chart_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);
  double scroll_y = CLAMP (self->scroll_y, 0.0, fc_flame_chart_max_scroll (self));
  int bar_width = 0, button_width = 0;

  if (scroll_y != self->scroll_y)
    {
      self->scroll_y = scroll_y;
      fc_flame_view_invalidate_scene (FC_FLAME_VIEW (self));
    }
  fc_flame_chart_update_adjustment (self);
  gtk_widget_allocate (self->ruler, width, RULER_HEIGHT, -1, NULL);

  /* the scrollbar along the right edge under the ruler, the lane list's
   * button at the ruler's right end */
  if (gtk_widget_get_visible (self->scrollbar))
    {
      gtk_widget_measure (self->scrollbar, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &bar_width, NULL, NULL);
      gtk_widget_allocate (self->scrollbar, bar_width, MAX (0, height - RULER_HEIGHT), -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (width - bar_width, RULER_HEIGHT)));
    }
  if (gtk_widget_get_visible (self->lanes_button))
    {
      gtk_widget_measure (self->lanes_button, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &button_width, NULL, NULL);
      gtk_widget_allocate (self->lanes_button, button_width, RULER_HEIGHT, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (width - button_width, 0)));
    }
  fc_time_ruler_set_end_inset (FC_TIME_RULER (self->ruler),
                               gtk_widget_get_visible (self->lanes_button) ? button_width : 0);
}

/* ---- GObject ---- */

GtkWidget *
fc_flame_chart_new (void)
{
  return g_object_new (FC_TYPE_FLAME_CHART, NULL);
}

static void
fc_flame_chart_dispose (GObject *object)
{
  FcFlameChart *self = FC_FLAME_CHART (object);

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_object (&self->ellipsis);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (fc_flame_chart_parent_class)->dispose (object);
}

static void
fc_flame_chart_finalize (GObject *object)
{
  FcFlameChart *self = FC_FLAME_CHART (object);

  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_pointer (&self->row_tops, g_free);
  g_clear_pointer (&self->lane_tops, g_free);
  g_clear_pointer (&self->lane_shown, g_free);
  g_clear_pointer (&self->expanded, g_hash_table_unref);

  G_OBJECT_CLASS (fc_flame_chart_parent_class)->finalize (object);
}

static void
fc_flame_chart_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  FcFlameChart *self = FC_FLAME_CHART (object);

  switch (prop_id)
    {
    case FC_FLAME_CHART_PROP_N_MATCHES:
      g_value_set_uint (value, self->matches->len);
      break;
    case FC_FLAME_CHART_PROP_CURRENT_MATCH:
      g_value_set_uint (value, self->current_match);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_flame_chart_class_init (FcFlameChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  FcFlameViewClass *view_class = FC_FLAME_VIEW_CLASS (klass);

  object_class->dispose = fc_flame_chart_dispose;
  object_class->finalize = fc_flame_chart_finalize;
  object_class->get_property = fc_flame_chart_get_property;

  widget_class->measure = fc_flame_chart_measure;
  widget_class->size_allocate = fc_flame_chart_size_allocate;

  view_class->render_scene = fc_flame_chart_render_scene;
  view_class->snapshot_overlay = fc_flame_chart_snapshot_overlay;
  view_class->reload = fc_flame_chart_reload;
  view_class->layout_changed = fc_flame_chart_layout_changed;
  view_class->search_changed = fc_flame_chart_search_changed;
  view_class->font_changed = fc_flame_chart_font_changed;
  view_class->uses_layout = TRUE;
  properties[FC_FLAME_CHART_PROP_N_MATCHES] =
    g_param_spec_uint ("n-matches", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[FC_FLAME_CHART_PROP_CURRENT_MATCH] =
    g_param_spec_uint ("current-match", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, FC_FLAME_CHART_N_PROPS, properties);

  fc_flame_chart_class_init_input (widget_class);
  gtk_widget_class_set_css_name (widget_class, "flamechart");
}

static void
fc_flame_chart_init (FcFlameChart *self)
{
  GSignalGroup *signals;

  self->matches = g_array_new (FALSE, FALSE, sizeof (FcFlameBoxStart));
  self->labels = fc_flame_chart_label_cache_new ();

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "default");

  signals = fc_flame_view_get_session_signals (FC_FLAME_VIEW (self));
  g_signal_group_connect_swapped (signals, "notify::selection-begin-ns", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::selection-end-ns", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::selected-frame", G_CALLBACK (selected_frame_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::frame-filter", G_CALLBACK (visible_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::color-mode", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (fc_flame_view_get_axis_signals (FC_FLAME_VIEW (self)), "changed::visible",
                                  G_CALLBACK (visible_changed_cb), self);

  self->ruler = fc_time_ruler_new ();
  gtk_widget_set_parent (self->ruler, GTK_WIDGET (self));
  fc_flame_chart_init_lanes (self);
  fc_flame_chart_init_input (self);
}
