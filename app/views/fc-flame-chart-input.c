/* fc-flame-chart-input.c - the flamechart's actions, pointer, gestures and tooltips
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <math.h>

#include "fc-flame-chart-private.h"
#include "fc-view-util.h"

#define ZOOM_STEP    1.25
#define PAN_FRACTION 0.1
#define WHEEL_PIXELS 50.0

static void
zoom_around (FcFlameChart *self,
             double        fraction,
             double        factor)
{
  gint64 b, e, begin;
  double width, new_width;

  if (fc_flame_chart_session (self) == NULL)
    return;

  /* Offsets from the window's start: absolute nanoseconds (~1.7e18) only
   * have 256 ns steps as doubles, a quarter of the narrowest window. */
  fc_flame_chart_get_visible (self, &b, &e);
  width = (double) (e - b);
  new_width = width * factor;
  begin = b + (gint64) (fraction * (width - new_width));
  fc_session_zoom_to (fc_flame_chart_session (self), begin, begin + (gint64) new_width);
}

static void
pan_by_ns (FcFlameChart *self,
           gint64        delta)
{
  gint64 b, e;

  if (fc_flame_chart_session (self) == NULL)
    return;
  fc_flame_chart_get_visible (self, &b, &e);
  fc_session_zoom_to (fc_flame_chart_session (self), b + delta, e + delta);
}

static void
pan_by_pixels (FcFlameChart *self,
               double        dx)
{
  gint64 b, e;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  fc_flame_chart_get_visible (self, &b, &e);
  pan_by_ns (self, (gint64) (dx * (double) (e - b) / width));
}

static gboolean
same_box (const FcFlameBox *a,
          const FcFlameBox *b)
{
  return a->row == b->row && a->first == b->first;
}

void
fc_flame_chart_zoom_to_box (FcFlameChart     *self,
                            const FcFlameBox *box)
{
  gint64 begin_ns = fc_flame_layout_box_begin_ns (fc_flame_chart_layout (self), box);
  gint64 end_ns = fc_flame_layout_box_end_ns (fc_flame_chart_layout (self), box);
  gint64 pad = MAX ((end_ns - begin_ns) / 20, 1);

  fc_session_zoom_to (fc_flame_chart_session (self), begin_ns - pad, end_ns + pad);
  fc_flame_chart_reveal_row (self, box->row);
}

void
fc_flame_chart_select_box (FcFlameChart     *self,
                           const FcFlameBox *box)
{
  self->has_selected = box != NULL;
  if (box != NULL)
    self->selected_box = *box;
  if (fc_flame_chart_session (self) != NULL)
    fc_session_set_selected_frame (fc_flame_chart_session (self), box ? box->frame : FC_SESSION_NO_FRAME);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom (FcFlameView *view,
      int          step)
{
  FcFlameChart *self = FC_FLAME_CHART (view);

  if (fc_flame_chart_session (self) == NULL)
    return;
  if (step > 0)
    zoom_around (self, 0.5, 1.0 / ZOOM_STEP);
  else if (step < 0)
    zoom_around (self, 0.5, ZOOM_STEP);
  else
    {
      fc_session_reset_view (fc_flame_chart_session (self));
      fc_flame_chart_set_scroll_y (self, 0);
    }
}

static void
action_cb (GtkWidget  *widget,
           const char *action_name,
           GVariant   *parameter)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);
  gint64 b, e;

  if (fc_flame_chart_session (self) == NULL)
    return;

  fc_flame_chart_get_visible (self, &b, &e);

  if (g_str_equal (action_name, "flamechart.pan-left"))
    pan_by_ns (self, -(gint64) ((e - b) * PAN_FRACTION));
  else if (g_str_equal (action_name, "flamechart.pan-right"))
    pan_by_ns (self, (gint64) ((e - b) * PAN_FRACTION));
  else if (g_str_equal (action_name, "flamechart.pan-up"))
    fc_flame_chart_set_scroll_y (self, self->scroll_y - ROW_HEIGHT * 3);
  else if (g_str_equal (action_name, "flamechart.pan-down"))
    fc_flame_chart_set_scroll_y (self, self->scroll_y + ROW_HEIGHT * 3);
  else if (g_str_equal (action_name, "flamechart.search-next"))
    fc_flame_chart_go_to_match (self, 1);
  else if (g_str_equal (action_name, "flamechart.search-previous"))
    fc_flame_chart_go_to_match (self, -1);
  else if (g_str_equal (action_name, "flamechart.clear-selection"))
    fc_session_set_selection (fc_flame_chart_session (self), 0, 0);
}

/* ---- input ---- */

static gboolean
scroll_cb (FcFlameChart             *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double unit = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL ? WHEEL_PIXELS : 1.0;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  if (state & GDK_CONTROL_MASK)
    {
      double steps = unit == 1.0 ? dy / 20.0 : dy;

      zoom_around (self, CLAMP (self->pointer_x / width, 0.0, 1.0), pow (ZOOM_STEP, steps));
      return TRUE;
    }

  if (state & GDK_SHIFT_MASK)
    {
      pan_by_pixels (self, (dx + dy) * unit);
      return TRUE;
    }

  if (dx != 0)
    pan_by_pixels (self, dx * unit);
  if (dy != 0)
    fc_flame_chart_set_scroll_y (self, self->scroll_y + dy * unit);
  return TRUE;
}

static void
motion_cb (FcFlameChart *self,
           double        x,
           double        y)
{
  FcFlameBox hover;
  gboolean has_hover;

  self->pointer_x = x;
  has_hover = fc_flame_chart_box_at (self, x, y, &hover);
  if (has_hover != self->has_hover || (has_hover && !same_box (&hover, &self->hover_box)))
    {
      self->has_hover = has_hover;
      self->hover_box = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (FcFlameChart *self)
{
  if (self->has_hover)
    {
      self->has_hover = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
pressed_cb (FcFlameChart    *self,
            int              n_press,
            double           x,
            double           y,
            GtkGestureClick *gesture)
{
  FcFlameBox box;

  gtk_widget_grab_focus (GTK_WIDGET (self));

  if (n_press == 2 && fc_flame_chart_box_at (self, x, y, &box))
    fc_flame_chart_zoom_to_box (self, &box);
}

/* Selecting on release: a press that turns into a drag pans instead. */
static void
released_cb (FcFlameChart    *self,
             int              n_press,
             double           x,
             double           y,
             GtkGestureClick *gesture)
{
  gint lane = fc_flame_chart_header_at (self, y);

  /* a lane's header folds and unfolds it */
  if (lane >= 0)
    {
      if (n_press == 1)
        fc_flame_chart_set_lane_expanded (self, (guint) lane, !fc_flame_chart_get_lane_expanded (self, (guint) lane));
      return;
    }
  if (n_press == 1)
    {
      FcFlameBox box;

      fc_flame_chart_select_box (self, fc_flame_chart_box_at (self, x, y, &box) ? &box : NULL);
    }
}

void
fc_flame_chart_drag_begin (FcFlameChart *self,
                           double        x,
                           double        y,
                           gboolean      select_range)
{
  g_return_if_fail (FC_IS_FLAME_CHART (self));

  fc_flame_chart_get_visible (self, &self->drag_begin_ns, &self->drag_end_ns);
  self->drag_scroll_y = self->scroll_y;
  self->drag_start_x = x;
  self->drag_selecting = select_range;
}

void
fc_flame_chart_drag_update (FcFlameChart *self,
                            double        offset_x,
                            double        offset_y)
{
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));
  double ns_per_px = (double) (self->drag_end_ns - self->drag_begin_ns) / width;

  g_return_if_fail (FC_IS_FLAME_CHART (self));

  if (fc_flame_chart_session (self) == NULL)
    return;

  if (self->drag_selecting)
    {
      gint64 a = self->drag_begin_ns + (gint64) (self->drag_start_x * ns_per_px);
      gint64 b = self->drag_begin_ns + (gint64) ((self->drag_start_x + offset_x) * ns_per_px);

      fc_session_set_selection (fc_flame_chart_session (self), a, b);
      return;
    }

  if (offset_x != 0)
    {
      gint64 delta = (gint64) (-offset_x * ns_per_px);

      fc_session_zoom_to (fc_flame_chart_session (self), self->drag_begin_ns + delta, self->drag_end_ns + delta);
    }
  fc_flame_chart_set_scroll_y (self, self->drag_scroll_y - offset_y);
}

static void
drag_begin_cb (FcFlameChart   *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  fc_flame_chart_drag_begin (self, x, y, (state & GDK_SHIFT_MASK) != 0);
}

static void
drag_update_cb (FcFlameChart   *self,
                double          offset_x,
                double          offset_y,
                GtkGestureDrag *gesture)
{
  fc_flame_chart_drag_update (self, offset_x, offset_y);
}

static void
pinch_begin_cb (FcFlameChart *self,
                GdkEventSequence *sequence,
                GtkGesture   *gesture)
{
  fc_flame_chart_get_visible (self, &self->pinch_begin_ns, &self->pinch_end_ns);
}

static void
pinch_scale_cb (FcFlameChart   *self,
                double          scale,
                GtkGestureZoom *gesture)
{
  double cx = 0, cy = 0;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));
  double fraction, old_width, new_width, anchor;

  if (fc_flame_chart_session (self) == NULL || scale <= 0)
    return;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    cx = width / 2.0;
  fraction = CLAMP (cx / width, 0.0, 1.0);
  old_width = (double) (self->pinch_end_ns - self->pinch_begin_ns);
  anchor = self->pinch_begin_ns + fraction * old_width;
  new_width = old_width / scale;
  fc_session_zoom_to (fc_flame_chart_session (self),
                      (gint64) (anchor - fraction * new_width),
                      (gint64) (anchor - fraction * new_width + new_width));
}

static gboolean
fc_flame_chart_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard,
                              GtkTooltip *tooltip)
{
  FcFlameChart *self = FC_FLAME_CHART (widget);
  FcFlameBox box;
  g_autofree char *markup = NULL;
  gint64 b, e;

  if (!fc_flame_chart_box_at (self, x, y, &box))
    return FALSE;

  fc_flame_chart_get_visible (self, &b, &e);
  markup = fc_view_frame_tooltip_at (fc_flame_layout_get_profile (fc_flame_chart_layout (self)), box.frame,
                                     fc_flame_layout_box_stack (fc_flame_chart_layout (self), &box),
                                     fc_flame_layout_box_sampled_ns (fc_flame_chart_layout (self), &box),
                                     e - b, _("of the visible range"));
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

void
fc_flame_chart_class_init_input (GtkWidgetClass *widget_class)
{
  static const char * const actions[] = {
    "flamechart.pan-left", "flamechart.pan-right", "flamechart.pan-up", "flamechart.pan-down",
    "flamechart.search-next", "flamechart.search-previous", "flamechart.clear-selection",
  };

  widget_class->query_tooltip = fc_flame_chart_query_tooltip;
  FC_FLAME_VIEW_CLASS (widget_class)->zoom = zoom;
  fc_flame_view_class_add_zoom_actions (FC_FLAME_VIEW_CLASS (widget_class), "flamechart");
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], NULL, action_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "flamechart.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "flamechart.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "flamechart.pan-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "flamechart.pan-down", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flamechart.clear-selection", NULL);
}

void
fc_flame_chart_init_input (FcFlameChart *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_swapped (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_click_new ();
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (pressed_cb), self);
  g_signal_connect_swapped (gesture, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_swapped (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect_swapped (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect_swapped (gesture, "scale-changed", G_CALLBACK (pinch_scale_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
