/* fc-minimap.c - overview of a thread's whole time range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "fc-colors.h"
#include "fc-layout-cache.h"
#include "fc-minimap-private.h"
#include "fc-view-util.h"

#define MAX_ROW_HEIGHT 4
#define CLICK_SLOP     3.0
#define HANDLE_WIDTH   6.0

typedef enum {
  DRAG_NONE,
  DRAG_WINDOW,
  DRAG_SELECTION,
} DragMode;

struct _FcMinimap
{
  GtkWidget       parent_instance;

  /* owned */
  FcSession      *session;
  GSignalGroup   *session_signals;
  GCancellable   *cancellable;
  FcFlameLayout  *layout;
  GdkRGBA        *colors;
  guint           n_colors;
  GskRenderNode  *scene;

  int             scene_width;
  int             scene_height;
  guint           n_drawn_rects;

  /* the drag under way */
  DragMode        drag_mode;
  double          drag_x;
  gint64          drag_begin_ns;
  gint64          drag_end_ns;
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_LAYOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (FcMinimap, fc_minimap, GTK_TYPE_WIDGET)

void
fc_minimap_get_range (FcMinimap *self,
                      gint64    *begin_ns,
                      gint64    *end_ns)
{
  gint64 b = 0, e = 1;

  g_return_if_fail (FC_IS_MINIMAP (self));

  if (self->session != NULL)
    fc_session_get_thread_range (self->session, &b, &e);
  if (e <= b)
    e = b + 1;

  *begin_ns = b;
  *end_ns = e;
}

static double
x_for_time (FcMinimap *self,
            gint64     t)
{
  gint64 b, e;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  fc_minimap_get_range (self, &b, &e);
  return (double) (t - b) * width / (double) (e - b);
}

static gint64
time_at (FcMinimap *self,
         double     x)
{
  gint64 b, e;
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  fc_minimap_get_range (self, &b, &e);
  return b + (gint64) ((double) (e - b) * x / width);
}

static void
invalidate_scene (FcMinimap *self)
{
  g_clear_pointer (&self->scene, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_colors (FcMinimap *self)
{
  FcProfile *profile = self->session ? fc_session_get_profile (self->session) : NULL;

  g_clear_pointer (&self->colors, g_free);
  self->n_colors = 0;
  if (profile != NULL)
    self->colors = fc_colors_for_profile (profile, fc_session_get_color_mode (self->session),
                                          &self->n_colors);
  invalidate_scene (self);
}

static void
set_layout (FcMinimap     *self,
            FcFlameLayout *layout)
{
  if (layout == self->layout)
    return;

  g_clear_pointer (&self->layout, fc_flame_layout_unref);
  if (layout != NULL)
    self->layout = fc_flame_layout_ref (layout);
  invalidate_scene (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAYOUT]);
}

static void
layout_ready_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(FcMinimap) self = g_weak_ref_get (weak);
  g_autoptr(FcFlameLayout) layout = NULL;
  g_autoptr(GError) error = NULL;

  g_weak_ref_clear (weak);
  g_free (weak);

  layout = fc_layout_cache_request_finish (result, &error);
  if (self == NULL)
    return;
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not lay out the minimap: %s", error->message);
      return;
    }
  if (source != G_OBJECT (self->session) || g_cancellable_is_cancelled (self->cancellable))
    return;

  set_layout (self, layout);
}

static void
reload_cb (FcMinimap *self)
{
  GWeakRef *weak;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  set_layout (self, NULL);
  update_colors (self);

  if (self->session == NULL || fc_session_get_profile (self->session) == NULL)
    return;

  self->cancellable = g_cancellable_new ();
  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  fc_layout_cache_request (self->session, self->cancellable, layout_ready_cb, weak);
}

static void
overlay_changed_cb (FcMinimap *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- pointer ---- */

void
fc_minimap_pointer_down (FcMinimap *self,
                         double     x)
{
  double x0, x1;

  g_return_if_fail (FC_IS_MINIMAP (self));

  self->drag_mode = DRAG_NONE;
  if (self->session == NULL)
    return;

  self->drag_x = x;
  self->drag_begin_ns = fc_session_get_visible_begin_ns (self->session);
  self->drag_end_ns = fc_session_get_visible_end_ns (self->session);
  x0 = x_for_time (self, self->drag_begin_ns);
  x1 = x_for_time (self, self->drag_end_ns);

  /* a window thinner than a finger still gets a grabbable width */
  if (x >= x0 - HANDLE_WIDTH / 2 && x <= MAX (x1, x0 + HANDLE_WIDTH / 2))
    self->drag_mode = DRAG_WINDOW;
  else
    self->drag_mode = DRAG_SELECTION;
}

void
fc_minimap_pointer_move (FcMinimap *self,
                         double     offset_x)
{
  int width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));
  gint64 b, e;

  g_return_if_fail (FC_IS_MINIMAP (self));

  if (self->session == NULL)
    return;

  fc_minimap_get_range (self, &b, &e);

  switch (self->drag_mode)
    {
    case DRAG_WINDOW:
      {
        gint64 delta = (gint64) (offset_x * (double) (e - b) / width);

        fc_session_zoom_to (self->session, self->drag_begin_ns + delta, self->drag_end_ns + delta);
      }
      break;

    case DRAG_SELECTION:
      if (fabs (offset_x) >= CLICK_SLOP)
        fc_session_set_selection (self->session,
                                  time_at (self, CLAMP (self->drag_x, 0, width)),
                                  time_at (self, CLAMP (self->drag_x + offset_x, 0, width)));
      break;

    case DRAG_NONE:
    default:
      break;
    }
}

void
fc_minimap_pointer_up (FcMinimap *self,
                       double     offset_x)
{
  g_return_if_fail (FC_IS_MINIMAP (self));

  if (self->session == NULL)
    return;

  fc_minimap_pointer_move (self, offset_x);

  /* a click outside the window jumps there */
  if (self->drag_mode == DRAG_SELECTION && fabs (offset_x) < CLICK_SLOP)
    {
      gint64 span = self->drag_end_ns - self->drag_begin_ns;
      gint64 center = time_at (self, self->drag_x);

      fc_session_zoom_to (self->session, center - span / 2, center - span / 2 + span);
    }

  self->drag_mode = DRAG_NONE;
}

static void
drag_begin_cb (FcMinimap      *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  fc_minimap_pointer_down (self, x);
}

static void
drag_update_cb (FcMinimap      *self,
                double          offset_x,
                double          offset_y,
                GtkGestureDrag *gesture)
{
  fc_minimap_pointer_move (self, offset_x);
}

static void
drag_end_cb (FcMinimap      *self,
             double          offset_x,
             double          offset_y,
             GtkGestureDrag *gesture)
{
  fc_minimap_pointer_up (self, offset_x);
}

/* ---- drawing ---- */

static void
draw_rows (FcMinimap   *self,
           GtkSnapshot *snapshot,
           int          width,
           int          height)
{
  guint n_rows = fc_flame_layout_get_n_rows (self->layout);
  g_autoptr(GdkTexture) texture = NULL;
  FcRaster raster;
  double row_height;
  gint64 b, e;
  double ns_per_px;
  guint drawn = 0;

  if (n_rows == 0)
    return;

  fc_minimap_get_range (self, &b, &e);
  ns_per_px = (double) (e - b) / width;
  row_height = CLAMP (floor ((double) height / n_rows), 1.0, MAX_ROW_HEIGHT);
  n_rows = MIN (n_rows, (guint) (height / row_height));
  fc_raster_init (&raster, width, height, gtk_widget_get_scale_factor (GTK_WIDGET (self)));

  /* One look-up per pixel column and row, runs of one colour merged: the
   * cost depends on the widget's size, never on the profile's. */
  for (guint row = 0; row < n_rows; row++)
    {
      guint n = 0;
      const FcFlameBox *boxes = fc_flame_layout_get_row (self->layout, row, &n);
      const GdkRGBA *span_color = NULL;
      int span_start = 0;

      if (n == 0)
        continue;

      for (int x = 0; x <= width; x++)
        {
          const GdkRGBA *color = NULL;

          if (x < width)
            {
              gint64 t = b + (gint64) ((x + 0.5) * ns_per_px);
              gint64 t_end = b + (gint64) ((x + 1) * ns_per_px);
              guint i = fc_flame_layout_row_lower_bound (self->layout, row, b + (gint64) (x * ns_per_px));

              /* any box touching this column paints it, preferring the one
               * under its middle */
              if (i < n && boxes[i].begin_ns < t_end)
                {
                  const FcFlameBox *box = &boxes[i];

                  if (box->end_ns <= t && i + 1 < n && boxes[i + 1].begin_ns <= t)
                    box = &boxes[i + 1];
                  if (box->frame < self->n_colors)
                    color = &self->colors[box->frame];
                }
            }

          if (color != span_color && (color == NULL || span_color == NULL || !gdk_rgba_equal (color, span_color)))
            {
              if (span_color != NULL)
                {
                  fc_raster_fill (&raster, fc_raster_pack (span_color),
                                  span_start, row * row_height, x, (row + 1) * row_height);
                  drawn++;
                }
              span_color = color;
              span_start = x;
            }
        }
    }

  texture = fc_raster_to_texture_for_widget (&raster, GTK_WIDGET (self));
  gtk_snapshot_append_texture (snapshot, texture, &GRAPHENE_RECT_INIT (0, 0, width, height));
  self->n_drawn_rects = drawn;
}

GskRenderNode *
fc_minimap_render_scene (FcMinimap *self,
                         int        width,
                         int        height)
{
  g_autoptr(GtkSnapshot) snapshot = NULL;
  gboolean dark;
  GdkRGBA background;

  g_return_val_if_fail (FC_IS_MINIMAP (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  dark = fc_view_is_dark (GTK_WIDGET (self));
  background = dark ? (GdkRGBA) { 1, 1, 1, 0.04f } : (GdkRGBA) { 0, 0, 0, 0.03f };

  snapshot = gtk_snapshot_new ();
  self->n_drawn_rects = 0;
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->layout != NULL && self->colors != NULL)
    draw_rows (self, snapshot, width, height);
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

guint
fc_minimap_get_n_drawn_rects (FcMinimap *self)
{
  g_return_val_if_fail (FC_IS_MINIMAP (self), 0);
  return self->n_drawn_rects;
}

static void
fc_minimap_snapshot (GtkWidget   *widget,
                     GtkSnapshot *snapshot)
{
  FcMinimap *self = FC_MINIMAP (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA shade = fc_view_is_dark (widget) ? (GdkRGBA) { 0, 0, 0, 0.45f } : (GdkRGBA) { 0, 0, 0, 0.18f };
  GdkRGBA frame = { 0.21f, 0.52f, 0.89f, 1.0f };
  GdkRGBA selection = { 0.21f, 0.52f, 0.89f, 0.3f };
  double x0, x1;

  if (width <= 0 || height <= 0)
    return;

  if (self->scene == NULL || self->scene_width != width || self->scene_height != height)
    {
      g_clear_pointer (&self->scene, gsk_render_node_unref);
      self->scene = fc_minimap_render_scene (self, width, height);
      self->scene_width = width;
      self->scene_height = height;
    }
  gtk_snapshot_append_node (snapshot, self->scene);

  if (self->session == NULL || fc_session_get_profile (self->session) == NULL)
    return;

  if (fc_session_has_selection (self->session))
    {
      x0 = x_for_time (self, fc_session_get_selection_begin_ns (self->session));
      x1 = x_for_time (self, fc_session_get_selection_end_ns (self->session));
      gtk_snapshot_append_color (snapshot, &selection, &GRAPHENE_RECT_INIT (x0, 0, MAX (x1 - x0, 1), height));
    }

  /* everything outside the visible window is shaded */
  x0 = CLAMP (x_for_time (self, fc_session_get_visible_begin_ns (self->session)), 0, width);
  x1 = CLAMP (x_for_time (self, fc_session_get_visible_end_ns (self->session)), 0, width);
  x1 = MAX (x1, x0 + 1);
  gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (0, 0, x0, height));
  gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (x1, 0, width - x1, height));
  {
    GskRoundedRect outline;
    const float widths[4] = { 1, 1, 1, 1 };
    const GdkRGBA colors[4] = { frame, frame, frame, frame };

    gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, height), 0);
    gtk_snapshot_append_border (snapshot, &outline, widths, colors);
  }
}

static void
fc_minimap_measure (GtkWidget      *widget,
                    GtkOrientation  orientation,
                    int             for_size,
                    int            *minimum,
                    int            *natural,
                    int            *minimum_baseline,
                    int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 50;
      *natural = 800;
    }
  else
    {
      *minimum = 24;
      *natural = 64;
    }
}

static void
fc_minimap_css_changed (GtkWidget         *widget,
                        GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (fc_minimap_parent_class)->css_changed (widget, change);
  invalidate_scene (FC_MINIMAP (widget));
}

/* ---- GObject ---- */

GtkWidget *
fc_minimap_new (void)
{
  return g_object_new (FC_TYPE_MINIMAP, NULL);
}

FcSession *
fc_minimap_get_session (FcMinimap *self)
{
  g_return_val_if_fail (FC_IS_MINIMAP (self), NULL);
  return self->session;
}

void
fc_minimap_set_session (FcMinimap *self,
                        FcSession *session)
{
  g_return_if_fail (FC_IS_MINIMAP (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  reload_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

FcFlameLayout *
fc_minimap_get_layout (FcMinimap *self)
{
  g_return_val_if_fail (FC_IS_MINIMAP (self), NULL);
  return self->layout;
}

static void
fc_minimap_dispose (GObject *object)
{
  FcMinimap *self = FC_MINIMAP (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  g_clear_pointer (&self->layout, fc_flame_layout_unref);
  g_clear_pointer (&self->scene, gsk_render_node_unref);
  g_clear_pointer (&self->colors, g_free);

  G_OBJECT_CLASS (fc_minimap_parent_class)->dispose (object);
}

static void
fc_minimap_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  FcMinimap *self = FC_MINIMAP (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_LAYOUT:
      g_value_set_boxed (value, self->layout);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_minimap_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  FcMinimap *self = FC_MINIMAP (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_minimap_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_minimap_class_init (FcMinimapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_minimap_dispose;
  object_class->get_property = fc_minimap_get_property;
  object_class->set_property = fc_minimap_set_property;

  widget_class->snapshot = fc_minimap_snapshot;
  widget_class->measure = fc_minimap_measure;
  widget_class->css_changed = fc_minimap_css_changed;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         FC_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_LAYOUT] =
    g_param_spec_boxed ("layout", NULL, NULL,
                        FC_TYPE_FLAME_LAYOUT,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "minimap");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
fc_minimap_init (FcMinimap *self)
{
  GtkGesture *gesture;

  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::profile", G_CALLBACK (reload_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::thread", G_CALLBACK (reload_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::color-mode", G_CALLBACK (update_colors), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::visible-begin-ns", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::visible-end-ns", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-begin-ns", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-end-ns", G_CALLBACK (overlay_changed_cb), self);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_swapped (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect_swapped (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
