/* fc-time-ruler.c - time labels over the flamechart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>

#include <adwaita.h>
#include <math.h>

#include "fc-format.h"
#include "fc-time-ruler.h"
#include "fc-session-view.h"

#define LABEL_PADDING 3.0

struct _FcTimeRuler
{
  GtkWidget     parent_instance;

  /* owned */
  FcSession    *session;
  GSignalGroup *session_signals;
  GSignalGroup *axis_signals;     /* the session's FcTimeAxis */
  PangoLayout  *pango;
  GPtrArray    *labels;
  int           end_inset;        /* px at the right end that labels leave free */
};

enum {
  PROP_0,
  PROP_SESSION,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (FcTimeRuler, fc_time_ruler, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (FC_TYPE_SESSION_VIEW, NULL))

gint64
fc_time_ruler_get_origin (FcSession *session)
{
  FcProfile *profile;
  gint64 begin = 0, end = 0;
  gint64 start;

  g_return_val_if_fail (FC_IS_SESSION (session), 0);

  fc_session_get_thread_range (session, &begin, &end);
  profile = fc_session_get_profile (session);
  start = profile != NULL ? fc_profile_get_start_ns (profile) : 0;
  /* a start after the first sample (clock skew) would give negative offsets */
  return start > 0 && start <= begin ? start : begin;
}

gint64
fc_time_ruler_step (double ns_per_px)
{
  /* from a second up, steps a clock reader counts in */
  static const gint64 clock_steps_s[] = {
    1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600,
  };
  double ns_per_tick = FC_TIME_RULER_TICK_SPACING * ns_per_px;
  gint64 step = 1;

  if (ns_per_tick > 1e9)
    {
      for (guint i = 0; i < G_N_ELEMENTS (clock_steps_s); i++)
        if ((double) clock_steps_s[i] * 1e9 >= ns_per_tick)
          return clock_steps_s[i] * G_GINT64_CONSTANT (1000000000);
      return (gint64) (ceil (ns_per_tick / 86400e9) * 86400e9);
    }

  while ((double) step * 10 <= ns_per_tick && step < G_MAXINT64 / 10)
    step *= 10;
  if ((double) step * 2 >= ns_per_tick)
    return step * 2;
  if ((double) step * 5 >= ns_per_tick)
    return step * 5;
  return step * 10;
}

gint64
fc_time_ruler_first_tick (gint64 origin_ns,
                          gint64 begin_ns,
                          gint64 step_ns)
{
  gint64 first;

  g_return_val_if_fail (step_ns > 0, begin_ns);

  first = origin_ns + ((begin_ns - origin_ns) / step_ns) * step_ns;
  if (first < begin_ns)
    first += step_ns;
  return first;
}

/* digits after the point that tell @step apart in @unit */
static int
decimals_for (gint64 unit,
              gint64 step)
{
  int digits = 0;

  while (unit > step && digits < 9)
    {
      unit /= 10;
      digits++;
    }
  return digits;
}

char *
fc_time_ruler_format_tick (gint64 offset_ns,
                           gint64 step_ns)
{
  const char *sign = offset_ns < 0 ? "-" : "";
  gint64 value = ABS (offset_ns);
  const gint64 second = G_GINT64_CONSTANT (1000000000);
  gint64 unit;
  const char *unit_name;

  step_ns = MAX (step_ns, 1);

  if (value >= 60 * second)
    {
      gint64 hours = value / (3600 * second);
      gint64 minutes = value / (60 * second) % 60;
      gint64 rest = value % (60 * second);
      int digits = decimals_for (second, step_ns);
      g_autofree char *seconds = NULL;

      if (rest == 0)
        seconds = NULL;
      else if (digits == 0)
        seconds = g_strdup_printf ("%02" PRId64 " s", rest / second);
      else
        seconds = g_strdup_printf ("%0*.*f s", digits + 3, digits, (double) rest / (double) second);

      if (hours > 0)
        return g_strdup_printf ("%s%" PRId64 " h %02" PRId64 " min%s%s", sign, hours, minutes,
                                seconds ? " " : "", seconds ? seconds : "");
      return g_strdup_printf ("%s%" PRId64 " min%s%s", sign, minutes,
                              seconds ? " " : "", seconds ? seconds : "");
    }

  if (value >= second)
    unit = second, unit_name = "s";
  else if (value >= 1000000)
    unit = 1000000, unit_name = "ms";
  else if (value >= 1000)
    unit = 1000, unit_name = "µs";
  else
    unit = 1, unit_name = "ns";

  return g_strdup_printf ("%s%.*f %s", sign, decimals_for (unit, step_ns), (double) value / (double) unit, unit_name);
}

/* the wall-clock time at the origin: where every offset counts from */
static char *
format_wall_clock (gint64 ns)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (ns / G_GINT64_CONSTANT (1000000000));
  g_autoptr(GDateTime) local = utc ? g_date_time_to_local (utc) : NULL;

  if (local == NULL)
    return g_strdup ("0");
  return g_date_time_format (local, "%H:%M:%S");
}

static void
draw_text (FcTimeRuler   *self,
           GtkSnapshot   *snapshot,
           const char    *text,
           double         x,
           double         y,
           const GdkRGBA *color)
{
  pango_layout_set_text (self->pango, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, self->pango, color);
  gtk_snapshot_restore (snapshot);
}

static void
fc_time_ruler_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  FcTimeRuler *self = FC_TIME_RULER (widget);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GdkRGBA strip = dark ? (GdkRGBA) { 0.17f, 0.17f, 0.17f, 1 } : (GdkRGBA) { 0.96f, 0.96f, 0.96f, 1 };
  GdkRGBA tick = dark ? (GdkRGBA) { 1, 1, 1, 0.35f } : (GdkRGBA) { 0, 0, 0, 0.3f };
  GdkRGBA text = dark ? (GdkRGBA) { 1, 1, 1, 0.8f } : (GdkRGBA) { 0, 0, 0, 0.7f };
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gint64 begin, end, origin, step;
  double px_per_ns;
  int text_height;

  g_ptr_array_set_size (self->labels, 0);
  if (width <= 0 || height <= 0)
    return;

  gtk_snapshot_append_color (snapshot, &strip, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->session == NULL || fc_session_get_profile (self->session) == NULL)
    return;

  begin = fc_session_get_visible_begin_ns (self->session);
  end = fc_session_get_visible_end_ns (self->session);
  if (end <= begin)
    return;

  if (self->pango == NULL)
    self->pango = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_text (self->pango, "0", -1);
  pango_layout_get_pixel_size (self->pango, NULL, &text_height);

  px_per_ns = (double) width / (double) (end - begin);
  origin = fc_time_ruler_get_origin (self->session);
  step = fc_time_ruler_step (1.0 / px_per_ns);

  for (gint64 t = fc_time_ruler_first_tick (origin, begin, step); t < end; t += step)
    {
      double x = floor ((double) (t - begin) * px_per_ns);
      char *label = t == origin ? format_wall_clock (origin) : fc_time_ruler_format_tick (t - origin, step);

      int text_width;

      gtk_snapshot_append_color (snapshot, &tick, &GRAPHENE_RECT_INIT (x, height - 6, 1, 6));
      pango_layout_set_text (self->pango, label, -1);
      pango_layout_get_pixel_size (self->pango, &text_width, NULL);
      /* under what covers the right end (the flamechart's lane button) a
       * label would be cut into "5⊞ ms" */
      if (x + LABEL_PADDING + text_width > width - self->end_inset)
        {
          g_free (label);
          continue;
        }
      draw_text (self, snapshot, label, x + LABEL_PADDING, (height - text_height) / 2.0 - 1, &text);
      g_ptr_array_add (self->labels, label);
    }

  /* the selection's length, over its middle, where the eye already is */
  if (fc_session_has_selection (self->session))
    {
      gint64 sel_begin = fc_session_get_selection_begin_ns (self->session);
      gint64 sel_end = fc_session_get_selection_end_ns (self->session);
      double x0 = CLAMP ((sel_begin - begin) * px_per_ns, 0, width);
      double x1 = CLAMP ((sel_end - begin) * px_per_ns, 0, width);
      g_autofree char *duration = fc_format_duration (sel_end - sel_begin);
      GdkRGBA band = { 0.21f, 0.52f, 0.89f, 1 };
      GdkRGBA white = { 1, 1, 1, 1 };
      int text_width;
      double x;

      pango_layout_set_text (self->pango, duration, -1);
      pango_layout_get_pixel_size (self->pango, &text_width, NULL);
      x = CLAMP ((x0 + x1) / 2 - text_width / 2.0 - 4, 0, MAX (0, width - text_width - 8));
      gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (x, 1, text_width + 8, height - 2));
      draw_text (self, snapshot, duration, x + 4, (height - text_height) / 2.0 - 1, &white);
      g_ptr_array_add (self->labels, g_steal_pointer (&duration));
    }
}

static void
fc_time_ruler_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 50 : 22;
}

static void
fc_time_ruler_css_changed (GtkWidget         *widget,
                           GtkCssStyleChange *change)
{
  FcTimeRuler *self = FC_TIME_RULER (widget);

  GTK_WIDGET_CLASS (fc_time_ruler_parent_class)->css_changed (widget, change);
  /* fonts may have changed */
  g_clear_object (&self->pango);
}

GtkWidget *
fc_time_ruler_new (void)
{
  return g_object_new (FC_TYPE_TIME_RULER, NULL);
}

void
fc_time_ruler_set_session (FcTimeRuler *self,
                           FcSession   *session)
{
  g_return_if_fail (FC_IS_TIME_RULER (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  g_signal_group_set_target (self->axis_signals, session != NULL ? fc_session_get_time_axis (session) : NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  fc_session_view_notify (FC_SESSION_VIEW (self));
}

/**
 * fc_time_ruler_set_end_inset:
 * @self: a time ruler
 * @inset: pixels at the right end that something drawn over the ruler covers
 *
 * Tick labels that would run under @inset pixels at the right end are left
 * out; their ticks stay.
 */
void
fc_time_ruler_set_end_inset (FcTimeRuler *self,
                             int          inset)
{
  g_return_if_fail (FC_IS_TIME_RULER (self));

  inset = MAX (inset, 0);
  if (self->end_inset == inset)
    return;
  self->end_inset = inset;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GPtrArray *
fc_time_ruler_get_labels (FcTimeRuler *self)
{
  g_return_val_if_fail (FC_IS_TIME_RULER (self), NULL);
  return self->labels;
}

static void
fc_time_ruler_dispose (GObject *object)
{
  FcTimeRuler *self = FC_TIME_RULER (object);

  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  if (self->axis_signals != NULL)
    g_signal_group_set_target (self->axis_signals, NULL);
  g_clear_object (&self->axis_signals);
  g_clear_object (&self->session);
  g_clear_object (&self->pango);

  G_OBJECT_CLASS (fc_time_ruler_parent_class)->dispose (object);
}

static void
fc_time_ruler_finalize (GObject *object)
{
  FcTimeRuler *self = FC_TIME_RULER (object);

  g_clear_pointer (&self->labels, g_ptr_array_unref);

  G_OBJECT_CLASS (fc_time_ruler_parent_class)->finalize (object);
}

static void
fc_time_ruler_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  FcTimeRuler *self = FC_TIME_RULER (object);

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
fc_time_ruler_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  FcTimeRuler *self = FC_TIME_RULER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_time_ruler_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_time_ruler_class_init (FcTimeRulerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_time_ruler_dispose;
  object_class->finalize = fc_time_ruler_finalize;
  object_class->get_property = fc_time_ruler_get_property;
  object_class->set_property = fc_time_ruler_set_property;

  widget_class->snapshot = fc_time_ruler_snapshot;
  widget_class->measure = fc_time_ruler_measure;
  widget_class->css_changed = fc_time_ruler_css_changed;

  fc_session_view_class_override (object_class, PROP_SESSION);

  gtk_widget_class_set_css_name (widget_class, "timeruler");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
fc_time_ruler_init (FcTimeRuler *self)
{
  static const char * const redraw_on[] = {
    "notify::profile", "notify::thread",
    "notify::selection-begin-ns", "notify::selection-end-ns",
  };

  self->labels = g_ptr_array_new_with_free_func (g_free);
  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  self->axis_signals = g_signal_group_new (FC_TYPE_TIME_AXIS);
  g_signal_group_connect_swapped (self->axis_signals, "changed::visible", G_CALLBACK (gtk_widget_queue_draw), self);
  for (guint i = 0; i < G_N_ELEMENTS (redraw_on); i++)
    g_signal_group_connect_swapped (self->session_signals, redraw_on[i], G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}
