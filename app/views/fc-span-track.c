/* fc-span-track.c - transactions and spans over the flamechart, on its time axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <math.h>

#include "fc-colors.h"
#include "fc-format.h"
#include "fc-span-track.h"
#include "fc-session-view.h"

/* a span narrower than this still gets a sliver, so that it can be found */
#define MIN_BAR_WIDTH  2.0
#define LABEL_PADDING  4.0
/* as the flamechart below: the same wheel does the same thing over both */
#define ZOOM_STEP      1.25
#define WHEEL_PIXELS   50.0

typedef struct
{
  const FcSpan    *span;     /* borrowed from the session's spans */
  graphene_rect_t  rect;
} Bar;

struct _FcSpanTrack
{
  GtkWidget     parent_instance;

  /* owned */
  FcSession    *session;
  GSignalGroup *session_signals;
  GSignalGroup *axis_signals;     /* the session's FcTimeAxis */
  GPtrArray    *spans;       /* the session's, kept alive while bars point into it */
  GArray       *bars;        /* Bar, as last drawn */
  PangoLayout  *pango;

  const FcSpan *hover;
  double        pointer_x;
};

enum {
  PROP_0,
  PROP_SESSION,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (FcSpanTrack, fc_span_track, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (FC_TYPE_SESSION_VIEW, NULL))

static guint
n_rows (FcSpanTrack *self)
{
  guint rows = 0;

  if (self->spans == NULL)
    return 0;
  for (guint i = 0; i < self->spans->len; i++)
    rows = MAX (rows, ((FcSpan *) g_ptr_array_index (self->spans, i))->depth + 1);
  return MIN (rows, FC_SPAN_TRACK_MAX_ROWS);
}

static void
span_color (const FcSpan *span,
            gboolean      dark,
            GdkRGBA      *color)
{
  /* transactions in Sentry's purple; spans by operation, stable between runs */
  static const GdkRGBA palette[] = {
    { 0.25f, 0.55f, 0.85f, 1 }, { 0.20f, 0.65f, 0.55f, 1 }, { 0.85f, 0.55f, 0.20f, 1 },
    { 0.80f, 0.35f, 0.45f, 1 }, { 0.55f, 0.60f, 0.25f, 1 }, { 0.35f, 0.45f, 0.75f, 1 },
    { 0.70f, 0.45f, 0.70f, 1 }, { 0.30f, 0.60f, 0.75f, 1 },
  };

  if (span->parent_span_id == NULL)
    *color = (GdkRGBA) { 0.42f, 0.31f, 0.73f, 1 };
  else
    *color = palette[fc_colors_stable_hash (span->op ? span->op : "") % G_N_ELEMENTS (palette)];
  if (span->open)
    color->alpha = 0.75f;
  if (dark)
    {
      color->red *= 0.85f;
      color->green *= 0.85f;
      color->blue *= 0.85f;
    }
}

static char *
span_label (const FcSpan *span)
{
  if (span->op != NULL && span->description != NULL)
    return g_strdup_printf ("%s — %s", span->op, span->description);
  return g_strdup (span->description ? span->description : span->op ? span->op : _("span"));
}

static void
fc_span_track_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  FcSpanTrack *self = FC_SPAN_TRACK (widget);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GdkRGBA background = dark ? (GdkRGBA) { 0.14f, 0.14f, 0.14f, 1 } : (GdkRGBA) { 0.98f, 0.98f, 0.98f, 1 };
  GdkRGBA outline = dark ? (GdkRGBA) { 1, 1, 1, 0.9f } : (GdkRGBA) { 0, 0, 0, 0.8f };
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  guint rows = n_rows (self);
  gint64 begin, end;
  double px_per_ns;

  g_array_set_size (self->bars, 0);
  if (width <= 0 || height <= 0 || self->session == NULL || rows == 0)
    return;
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));

  begin = fc_session_get_visible_begin_ns (self->session);
  end = fc_session_get_visible_end_ns (self->session);
  if (end <= begin)
    return;
  px_per_ns = (double) width / (double) (end - begin);

  if (self->pango == NULL)
    {
      self->pango = gtk_widget_create_pango_layout (widget, NULL);
      pango_layout_set_ellipsize (self->pango, PANGO_ELLIPSIZE_END);
      pango_layout_set_single_paragraph_mode (self->pango, TRUE);
    }

  for (guint i = 0; i < self->spans->len; i++)
    {
      const FcSpan *span = g_ptr_array_index (self->spans, i);
      double x0 = (double) (span->start_ns - begin) * px_per_ns;
      double x1 = (double) (span->end_ns - begin) * px_per_ns;
      guint row = MIN (span->depth, rows - 1);
      Bar bar = { span };
      GdkRGBA color, text;
      int text_height;

      if (x1 < 0 || x0 > width)
        continue;
      /* far off-screen ends would lose precision as floats */
      x0 = MAX (x0, -1.0);
      x1 = MIN (x1, width + 1.0);
      if (x1 - x0 < MIN_BAR_WIDTH)
        x1 = x0 + MIN_BAR_WIDTH;
      bar.rect = GRAPHENE_RECT_INIT (x0, row * FC_SPAN_TRACK_ROW_HEIGHT + 1, x1 - x0, FC_SPAN_TRACK_ROW_HEIGHT - 2);
      g_array_append_val (self->bars, bar);

      span_color (span, dark, &color);
      gtk_snapshot_append_color (snapshot, &color, &bar.rect);

      /* the name where it fits, from the visible start of the bar */
      if (bar.rect.size.width > 24)
        {
          g_autofree char *label = span_label (span);
          double visible_x0 = MAX (x0, 0);
          double room = MIN (x1, width) - visible_x0 - 2 * LABEL_PADDING;

          if (room > 12)
            {
              fc_colors_text_for (&color, &text);
              pango_layout_set_text (self->pango, label, -1);
              pango_layout_set_width (self->pango, (int) (room * PANGO_SCALE));
              pango_layout_get_pixel_size (self->pango, NULL, &text_height);
              gtk_snapshot_save (snapshot);
              gtk_snapshot_push_clip (snapshot, &bar.rect);
              gtk_snapshot_translate (snapshot,
                                      &GRAPHENE_POINT_INIT (visible_x0 + LABEL_PADDING,
                                                            bar.rect.origin.y + (bar.rect.size.height - text_height) / 2));
              gtk_snapshot_append_layout (snapshot, self->pango, &text);
              gtk_snapshot_pop (snapshot);
              gtk_snapshot_restore (snapshot);
            }
        }
    }

  /* the flamechart's selection, across the track too */
  if (fc_session_has_selection (self->session))
    {
      double x0 = CLAMP ((fc_session_get_selection_begin_ns (self->session) - begin) * px_per_ns, 0, width);
      double x1 = CLAMP ((fc_session_get_selection_end_ns (self->session) - begin) * px_per_ns, 0, width);
      GdkRGBA band = { 0.21f, 0.52f, 0.89f, 0.18f };

      gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (x0, 0, MAX (x1 - x0, 1), height));
    }

  if (self->hover != NULL)
    for (guint i = 0; i < self->bars->len; i++)
      {
        const Bar *bar = &g_array_index (self->bars, Bar, i);

        if (bar->span == self->hover)
          {
            GskRoundedRect border;
            const float widths[4] = { 1, 1, 1, 1 };
            const GdkRGBA colors[4] = { outline, outline, outline, outline };

            gsk_rounded_rect_init_from_rect (&border, &bar->rect, 0);
            gtk_snapshot_append_border (snapshot, &border, widths, colors);
          }
      }
}

static void
fc_span_track_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  FcSpanTrack *self = FC_SPAN_TRACK (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 50;
  else
    *minimum = *natural = (int) n_rows (self) * FC_SPAN_TRACK_ROW_HEIGHT;
}

const FcSpan *
fc_span_track_span_at (FcSpanTrack *self,
                       double       x,
                       double       y)
{
  g_return_val_if_fail (FC_IS_SPAN_TRACK (self), NULL);

  /* later bars are drawn over earlier ones: children over their parents */
  for (guint i = self->bars->len; i > 0; i--)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i - 1);

      if (y >= bar->rect.origin.y - 1 && y < bar->rect.origin.y + bar->rect.size.height + 1 &&
          x >= bar->rect.origin.x && x < bar->rect.origin.x + bar->rect.size.width)
        return bar->span;
    }
  return NULL;
}

guint
fc_span_track_get_n_bars (FcSpanTrack *self)
{
  g_return_val_if_fail (FC_IS_SPAN_TRACK (self), 0);

  return self->bars->len;
}

const FcSpan *
fc_span_track_get_bar (FcSpanTrack     *self,
                       guint            index,
                       graphene_rect_t *rect)
{
  const Bar *bar;

  g_return_val_if_fail (FC_IS_SPAN_TRACK (self), NULL);
  g_return_val_if_fail (index < self->bars->len, NULL);

  bar = &g_array_index (self->bars, Bar, index);
  if (rect != NULL)
    *rect = bar->rect;
  return bar->span;
}

gboolean
fc_span_track_click (FcSpanTrack *self,
                     double       x,
                     double       y,
                     int          n_press)
{
  const FcSpan *span;
  gint64 end_ns;

  g_return_val_if_fail (FC_IS_SPAN_TRACK (self), FALSE);

  span = fc_span_track_span_at (self, x, y);
  if (span == NULL || self->session == NULL)
    return FALSE;

  /* a zero-length span still selects something one can see */
  end_ns = MAX (span->end_ns, span->start_ns + 1);
  if (n_press >= 2)
    fc_session_zoom_to (self->session, span->start_ns, end_ns);
  else
    fc_session_set_selection (self->session, span->start_ns, end_ns);
  return TRUE;
}

void
fc_span_track_scroll (FcSpanTrack *self,
                      double       x,
                      double       dx,
                      double       dy,
                      gboolean     zoom)
{
  gint64 begin, end;
  double span_ns, width;

  g_return_if_fail (FC_IS_SPAN_TRACK (self));

  if (self->session == NULL || fc_session_get_profile (self->session) == NULL)
    return;
  begin = fc_session_get_visible_begin_ns (self->session);
  end = fc_session_get_visible_end_ns (self->session);
  span_ns = (double) (end - begin);
  width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  if (zoom)
    {
      /* around the pointer: the time under it stays under it */
      double fraction = CLAMP (x / width, 0.0, 1.0);
      double new_span = span_ns * pow (ZOOM_STEP, dy);
      gint64 new_begin = begin + (gint64) (fraction * (span_ns - new_span));

      fc_session_zoom_to (self->session, new_begin, new_begin + (gint64) new_span);
    }
  else
    {
      /* a track has no depth to scroll: both directions pan through time */
      gint64 delta = (gint64) ((dx + dy) * span_ns / width);

      fc_session_zoom_to (self->session, begin + delta, end + delta);
    }
}

static gboolean
scroll_cb (FcSpanTrack              *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;

  if (state & GDK_CONTROL_MASK)
    fc_span_track_scroll (self, self->pointer_x, 0, wheel ? dy : dy / 20.0, TRUE);
  else
    fc_span_track_scroll (self, self->pointer_x, dx * (wheel ? WHEEL_PIXELS : 1.0),
                          dy * (wheel ? WHEEL_PIXELS : 1.0), FALSE);
  return TRUE;
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            FcSpanTrack     *self)
{
  if (fc_span_track_click (self, x, y, n_press))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
set_hover (FcSpanTrack  *self,
           const FcSpan *span)
{
  if (span == self->hover)
    return;
  self->hover = span;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), span != NULL ? "pointer" : NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           FcSpanTrack              *self)
{
  self->pointer_x = x;
  set_hover (self, fc_span_track_span_at (self, x, y));
}

static void
leave_cb (GtkEventControllerMotion *motion,
          FcSpanTrack              *self)
{
  set_hover (self, NULL);
}

char *
fc_span_track_dup_tooltip_markup (FcSpanTrack *self,
                                  double       x,
                                  double       y)
{
  const FcSpan *span;
  g_autofree char *duration = NULL;
  g_autofree char *name = NULL;
  g_autofree char *op = NULL;
  g_autofree char *trace = NULL;

  g_return_val_if_fail (FC_IS_SPAN_TRACK (self), NULL);

  span = fc_span_track_span_at (self, x, y);
  if (span == NULL)
    return NULL;

  duration = fc_format_duration (span->end_ns - span->start_ns);
  name = g_markup_escape_text (span->description ? span->description : "", -1);
  op = g_markup_escape_text (span->op ? span->op : (span->parent_span_id ? _("span") : _("transaction")), -1);
  trace = span->trace_id != NULL ? g_markup_printf_escaped ("\n%s %s", _("Trace"), span->trace_id) : g_strdup ("");
  return g_strdup_printf ("<b>%s</b>\n%s · %s%s%s", name, op, duration, span->open ? _(" so far") : "", trace);
}

static gboolean
fc_span_track_query_tooltip (GtkWidget  *widget,
                             int         x,
                             int         y,
                             gboolean    keyboard,
                             GtkTooltip *tooltip)
{
  g_autofree char *markup = fc_span_track_dup_tooltip_markup (FC_SPAN_TRACK (widget), x, y);

  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
spans_changed_cb (FcSpanTrack *self)
{
  GPtrArray *spans = self->session != NULL ? fc_session_get_spans (self->session) : NULL;

  /* bars point into the old array until the next snapshot */
  g_array_set_size (self->bars, 0);
  self->hover = NULL;
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  if (spans != NULL)
    self->spans = g_ptr_array_ref (spans);
  /* nothing to show: out of the way */
  gtk_widget_set_visible (GTK_WIDGET (self), self->spans != NULL && self->spans->len > 0);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

GtkWidget *
fc_span_track_new (void)
{
  return g_object_new (FC_TYPE_SPAN_TRACK, NULL);
}

FcSession *
fc_span_track_get_session (FcSpanTrack *self)
{
  g_return_val_if_fail (FC_IS_SPAN_TRACK (self), NULL);

  return self->session;
}

void
fc_span_track_set_session (FcSpanTrack *self,
                           FcSession   *session)
{
  g_return_if_fail (FC_IS_SPAN_TRACK (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  g_signal_group_set_target (self->axis_signals, session != NULL ? fc_session_get_time_axis (session) : NULL);
  spans_changed_cb (self);
  fc_session_view_notify (FC_SESSION_VIEW (self));
}

static void
fc_span_track_css_changed (GtkWidget         *widget,
                           GtkCssStyleChange *change)
{
  FcSpanTrack *self = FC_SPAN_TRACK (widget);

  GTK_WIDGET_CLASS (fc_span_track_parent_class)->css_changed (widget, change);
  g_clear_object (&self->pango);
}

static void
fc_span_track_dispose (GObject *object)
{
  FcSpanTrack *self = FC_SPAN_TRACK (object);

  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  if (self->axis_signals != NULL)
    g_signal_group_set_target (self->axis_signals, NULL);
  g_clear_object (&self->axis_signals);
  g_clear_object (&self->session);
  g_clear_object (&self->pango);
  g_array_set_size (self->bars, 0);
  self->hover = NULL;
  g_clear_pointer (&self->spans, g_ptr_array_unref);

  G_OBJECT_CLASS (fc_span_track_parent_class)->dispose (object);
}

static void
fc_span_track_finalize (GObject *object)
{
  FcSpanTrack *self = FC_SPAN_TRACK (object);

  g_clear_pointer (&self->bars, g_array_unref);

  G_OBJECT_CLASS (fc_span_track_parent_class)->finalize (object);
}

static void
fc_span_track_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  FcSpanTrack *self = FC_SPAN_TRACK (object);

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
fc_span_track_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  FcSpanTrack *self = FC_SPAN_TRACK (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_span_track_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_span_track_class_init (FcSpanTrackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_span_track_dispose;
  object_class->finalize = fc_span_track_finalize;
  object_class->get_property = fc_span_track_get_property;
  object_class->set_property = fc_span_track_set_property;

  widget_class->snapshot = fc_span_track_snapshot;
  widget_class->measure = fc_span_track_measure;
  widget_class->css_changed = fc_span_track_css_changed;
  widget_class->query_tooltip = fc_span_track_query_tooltip;

  fc_session_view_class_override (object_class, PROP_SESSION);

  gtk_widget_class_set_css_name (widget_class, "spantrack");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
fc_span_track_init (FcSpanTrack *self)
{
  static const char * const redraw_on[] = {
    "notify::selection-begin-ns", "notify::selection-end-ns",
  };
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *scroll;

  self->bars = g_array_new (FALSE, FALSE, sizeof (Bar));
  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  self->axis_signals = g_signal_group_new (FC_TYPE_TIME_AXIS);
  g_signal_group_connect_swapped (self->axis_signals, "changed::visible", G_CALLBACK (gtk_widget_queue_draw), self);
  for (guint i = 0; i < G_N_ELEMENTS (redraw_on); i++)
    g_signal_group_connect_swapped (self->session_signals, redraw_on[i], G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::spans", G_CALLBACK (spans_changed_cb), self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);

  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_swapped (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}
