/* fc-minimap.c - overview of a thread's whole time range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

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
  FcFlameView     parent_instance;

  guint           n_drawn_rects;

  /* the drag under way */
  DragMode        drag_mode;
  double          drag_x;
  gint64          drag_begin_ns;
  gint64          drag_end_ns;
};

G_DEFINE_FINAL_TYPE (FcMinimap, fc_minimap, FC_TYPE_FLAME_VIEW)

static inline FcSession *
session_of (FcMinimap *self)
{
  return fc_flame_view_get_session (FC_FLAME_VIEW (self));
}

void
fc_minimap_get_range (FcMinimap *self,
                      gint64    *begin_ns,
                      gint64    *end_ns)
{
  gint64 b = 0, e = 1;

  g_return_if_fail (FC_IS_MINIMAP (self));

  if (session_of (self) != NULL)
    fc_session_get_thread_range (session_of (self), &b, &e);
  if (e <= b)
    e = b + 1;

  *begin_ns = b;
  *end_ns = e;
}

/* the minimap shows the session's whole thread range: the axis's overview */
static double
x_for_time (FcMinimap *self,
            gint64     t)
{
  return fc_time_axis_overview_x_at (fc_session_get_time_axis (session_of (self)), t,
                                     gtk_widget_get_width (GTK_WIDGET (self)));
}

static gint64
time_at (FcMinimap *self,
         double     x)
{
  return fc_time_axis_overview_time_at (fc_session_get_time_axis (session_of (self)), x,
                                        gtk_widget_get_width (GTK_WIDGET (self)));
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
  if (session_of (self) == NULL)
    return;

  self->drag_x = x;
  self->drag_begin_ns = fc_session_get_visible_begin_ns (session_of (self));
  self->drag_end_ns = fc_session_get_visible_end_ns (session_of (self));
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

  if (session_of (self) == NULL)
    return;

  fc_minimap_get_range (self, &b, &e);

  switch (self->drag_mode)
    {
    case DRAG_WINDOW:
      {
        gint64 delta = (gint64) (offset_x * (double) (e - b) / width);

        fc_session_zoom_to (session_of (self), self->drag_begin_ns + delta, self->drag_end_ns + delta);
      }
      break;

    case DRAG_SELECTION:
      if (fabs (offset_x) >= CLICK_SLOP)
        fc_session_set_selection (session_of (self),
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

  if (session_of (self) == NULL)
    return;

  fc_minimap_pointer_move (self, offset_x);

  /* a click outside the window jumps there */
  if (self->drag_mode == DRAG_SELECTION && fabs (offset_x) < CLICK_SLOP)
    {
      gint64 span = self->drag_end_ns - self->drag_begin_ns;
      gint64 center = time_at (self, self->drag_x);

      fc_session_zoom_to (session_of (self), center - span / 2, center - span / 2 + span);
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

/* paints columns [x0, x1) of a row, merged with the run before when it
 * goes on in the same colour */
typedef struct {
  FcRaster      *raster;
  const GdkRGBA *color;
  int            x0;
  int            x1;
  double         y0;
  double         y1;
  guint          n_drawn;
} Run;

static void
run_flush (Run *run)
{
  if (run->color != NULL && run->x1 > run->x0)
    {
      fc_raster_fill (run->raster, fc_raster_pack (run->color), run->x0, run->y0, run->x1, run->y1);
      run->n_drawn++;
    }
  run->color = NULL;
}

static void
run_add (Run           *run,
         const GdkRGBA *color,
         int            x0,
         int            x1)
{
  if (run->color != NULL && x0 <= run->x1 && (color == run->color || gdk_rgba_equal (color, run->color)))
    {
      run->x1 = MAX (run->x1, x1);
      return;
    }
  run_flush (run);
  /* a column already painted keeps its colour */
  run->color = color;
  run->x0 = MAX (x0, run->x1);
  run->x1 = MAX (x1, run->x0);
}

static void
draw_rows (FcMinimap     *self,
           GtkSnapshot   *snapshot,
           FcFlameLayout *layout,
           int            width,
           int            height)
{
  guint n_rows = fc_flame_layout_get_n_rows (layout);
  guint n_colors = 0;
  const GdkRGBA *colors = fc_flame_view_get_colors (FC_FLAME_VIEW (self), &n_colors);
  FcFlameFrameCache *cache = fc_flame_view_get_frame_cache (FC_FLAME_VIEW (self));
  FcRaster raster;
  double row_height;
  gint64 b, e;
  double px_per_ns;
  Run run = { &raster };

  if (n_rows == 0)
    return;

  fc_minimap_get_range (self, &b, &e);
  px_per_ns = width / (double) (e - b);
  row_height = CLAMP (floor ((double) height / n_rows), 1.0, MAX_ROW_HEIGHT);
  n_rows = MIN (n_rows, (guint) (height / row_height));
  fc_raster_init (&raster, width, height, gtk_widget_get_scale_factor (GTK_WIDGET (self)));

  /* What each row shows at this width: a column that any box touches is
   * painted, runs of one colour at once. The cost depends on the widget's
   * size, never on the profile's. */
  for (guint row = 0; row < n_rows; row++)
    {
      FcFlameRowIter iter;
      FcFlameSpan span;

      run.y0 = row * row_height;
      run.y1 = (row + 1) * row_height;
      run.x1 = 0;
      fc_flame_row_iter_init (&iter, layout, cache, row, b, e, px_per_ns);
      while (fc_flame_row_iter_next (&iter, &span))
        {
          double x0 = CLAMP ((span.begin_ns - b) * px_per_ns, 0.0, (double) width);
          double x1 = CLAMP ((span.end_ns - b) * px_per_ns, 0.0, (double) width);
          int c0 = (int) floor (x0);

          if (span.box.frame < n_colors && c0 < width)
            run_add (&run, &colors[span.box.frame], c0, MAX (c0 + 1, (int) ceil (x1)));
        }
      run_flush (&run);
    }

  fc_raster_append (&raster, snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height), GTK_WIDGET (self));
  self->n_drawn_rects = run.n_drawn;
}

static void
fc_minimap_render_scene (FcFlameView *view,
                         GtkSnapshot *snapshot,
                         int          width,
                         int          height)
{
  FcMinimap *self = FC_MINIMAP (view);
  FcFlameLayout *layout = fc_flame_view_get_layout (view);
  GdkRGBA background = fc_flame_view_is_dark (view) ? (GdkRGBA) { 1, 1, 1, 0.04f } : (GdkRGBA) { 0, 0, 0, 0.03f };

  self->n_drawn_rects = 0;
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (layout != NULL && fc_flame_view_get_colors (view, NULL) != NULL)
    draw_rows (self, snapshot, layout, width, height);
}

guint
fc_minimap_get_n_drawn_rects (FcMinimap *self)
{
  g_return_val_if_fail (FC_IS_MINIMAP (self), 0);
  return self->n_drawn_rects;
}

static void
fc_minimap_snapshot_overlay (FcFlameView *view,
                             GtkSnapshot *snapshot,
                             int          width,
                             int          height)
{
  FcMinimap *self = FC_MINIMAP (view);
  FcSession *session = session_of (self);
  GdkRGBA shade = fc_flame_view_is_dark (view) ? (GdkRGBA) { 0, 0, 0, 0.45f } : (GdkRGBA) { 0, 0, 0, 0.18f };
  GdkRGBA frame = *fc_flame_view_get_accent (view);
  GdkRGBA selection = frame;
  double x0, x1;

  if (session == NULL || fc_session_get_profile (session) == NULL)
    return;

  selection.alpha = 0.3f;
  if (fc_session_has_selection (session))
    {
      x0 = x_for_time (self, fc_session_get_selection_begin_ns (session));
      x1 = x_for_time (self, fc_session_get_selection_end_ns (session));
      gtk_snapshot_append_color (snapshot, &selection, &GRAPHENE_RECT_INIT (x0, 0, MAX (x1 - x0, 1), height));
    }

  /* everything outside the visible window is shaded */
  x0 = CLAMP (x_for_time (self, fc_session_get_visible_begin_ns (session)), 0, width);
  x1 = CLAMP (x_for_time (self, fc_session_get_visible_end_ns (session)), 0, width);
  x1 = MAX (x1, x0 + 1);
  gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (0, 0, x0, height));
  gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (x1, 0, width - x1, height));
  fc_flame_view_draw_outline (snapshot, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, height), &frame, 1);
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

/* ---- GObject ---- */

GtkWidget *
fc_minimap_new (void)
{
  return g_object_new (FC_TYPE_MINIMAP, NULL);
}

static void
fc_minimap_class_init (FcMinimapClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  FcFlameViewClass *view_class = FC_FLAME_VIEW_CLASS (klass);

  widget_class->measure = fc_minimap_measure;

  view_class->render_scene = fc_minimap_render_scene;
  view_class->snapshot_overlay = fc_minimap_snapshot_overlay;
  view_class->uses_layout = TRUE;

  gtk_widget_class_set_css_name (widget_class, "minimap");
}

static void
fc_minimap_init (FcMinimap *self)
{
  GSignalGroup *signals = fc_flame_view_get_session_signals (FC_FLAME_VIEW (self));
  GtkGesture *gesture;

  g_signal_group_connect_swapped (fc_flame_view_get_axis_signals (FC_FLAME_VIEW (self)), "changed::visible",
                                  G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::selection-begin-ns", G_CALLBACK (overlay_changed_cb), self);
  g_signal_group_connect_swapped (signals, "notify::selection-end-ns", G_CALLBACK (overlay_changed_cb), self);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_swapped (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect_swapped (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
