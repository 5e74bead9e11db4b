/* fc-time-axis.c - where a time is drawn and what time is under a pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-time-axis.h"

struct _FcTimeAxis
{
  GObject parent_instance;

  gint64  visible_begin_ns;
  gint64  visible_end_ns;
  gint64  total_begin_ns;
  gint64  total_end_ns;
};

enum {
  PROP_0,
  PROP_VISIBLE_BEGIN_NS,
  PROP_VISIBLE_END_NS,
  PROP_TOTAL_BEGIN_NS,
  PROP_TOTAL_END_NS,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];
static GQuark visible_quark;
static GQuark total_quark;

G_DEFINE_FINAL_TYPE (FcTimeAxis, fc_time_axis, G_TYPE_OBJECT)

/* Offsets from @begin_ns: absolute nanoseconds (~1.7e18) only have 256 ns
 * steps as doubles, finer than a pixel only near the range's start. */
static gint64
time_at (gint64 begin_ns,
         gint64 end_ns,
         double x,
         int    width)
{
  gint64 span = MAX (end_ns - begin_ns, 1);

  return begin_ns + (gint64) ((double) span * x / MAX (width, 1));
}

static double
x_at (gint64 begin_ns,
      gint64 end_ns,
      gint64 time_ns,
      int    width)
{
  gint64 span = MAX (end_ns - begin_ns, 1);

  return (double) (time_ns - begin_ns) * MAX (width, 1) / (double) span;
}

static void
fc_time_axis_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  FcTimeAxis *self = FC_TIME_AXIS (object);

  switch (prop_id)
    {
    case PROP_VISIBLE_BEGIN_NS:
      g_value_set_int64 (value, self->visible_begin_ns);
      break;
    case PROP_VISIBLE_END_NS:
      g_value_set_int64 (value, self->visible_end_ns);
      break;
    case PROP_TOTAL_BEGIN_NS:
      g_value_set_int64 (value, self->total_begin_ns);
      break;
    case PROP_TOTAL_END_NS:
      g_value_set_int64 (value, self->total_end_ns);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_time_axis_class_init (FcTimeAxisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const char *names[N_PROPS] = { NULL, "visible-begin-ns", "visible-end-ns", "total-begin-ns", "total-end-ns" };

  object_class->get_property = fc_time_axis_get_property;

  for (guint i = 1; i < N_PROPS; i++)
    properties[i] = g_param_spec_int64 (names[i], NULL, NULL, G_MININT64, G_MAXINT64, 0,
                                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* detailed: "changed::visible" or "changed::total", so that a view drawn
   * over the visible range is not drawn again when a live profile's thread
   * range grows under it (several times a second) */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
  visible_quark = g_quark_from_static_string ("visible");
  total_quark = g_quark_from_static_string ("total");
}

static void
fc_time_axis_init (FcTimeAxis *self)
{
}

FcTimeAxis *
fc_time_axis_new (void)
{
  return g_object_new (FC_TYPE_TIME_AXIS, NULL);
}

static void
set_range (FcTimeAxis *self,
           gint64     *begin,
           gint64     *end,
           gint64      begin_ns,
           gint64      end_ns,
           guint       begin_prop,
           GQuark      detail)
{
  gboolean begin_changed = begin_ns != *begin;
  gboolean end_changed = end_ns != *end;

  if (!begin_changed && !end_changed)
    return;

  *begin = begin_ns;
  *end = end_ns;
  if (begin_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[begin_prop]);
  if (end_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[begin_prop + 1]);
  g_signal_emit (self, signals[CHANGED], detail);
}

void
fc_time_axis_set_visible (FcTimeAxis *self,
                          gint64      begin_ns,
                          gint64      end_ns)
{
  g_return_if_fail (FC_IS_TIME_AXIS (self));

  set_range (self, &self->visible_begin_ns, &self->visible_end_ns, begin_ns, end_ns, PROP_VISIBLE_BEGIN_NS,
             visible_quark);
}

void
fc_time_axis_set_total (FcTimeAxis *self,
                        gint64      begin_ns,
                        gint64      end_ns)
{
  g_return_if_fail (FC_IS_TIME_AXIS (self));

  set_range (self, &self->total_begin_ns, &self->total_end_ns, begin_ns, end_ns, PROP_TOTAL_BEGIN_NS, total_quark);
}

void
fc_time_axis_get_visible (FcTimeAxis *self,
                          gint64     *begin_ns,
                          gint64     *end_ns)
{
  g_return_if_fail (FC_IS_TIME_AXIS (self));

  *begin_ns = self->visible_begin_ns;
  *end_ns = self->visible_end_ns;
}

void
fc_time_axis_get_total (FcTimeAxis *self,
                        gint64     *begin_ns,
                        gint64     *end_ns)
{
  g_return_if_fail (FC_IS_TIME_AXIS (self));

  *begin_ns = self->total_begin_ns;
  *end_ns = self->total_end_ns;
}

gint64
fc_time_axis_time_at (FcTimeAxis *self,
                      double      x,
                      int         width)
{
  g_return_val_if_fail (FC_IS_TIME_AXIS (self), 0);

  return time_at (self->visible_begin_ns, self->visible_end_ns, x, width);
}

double
fc_time_axis_x_at (FcTimeAxis *self,
                   gint64      time_ns,
                   int         width)
{
  g_return_val_if_fail (FC_IS_TIME_AXIS (self), 0);

  return x_at (self->visible_begin_ns, self->visible_end_ns, time_ns, width);
}

gint64
fc_time_axis_overview_time_at (FcTimeAxis *self,
                               double      x,
                               int         width)
{
  g_return_val_if_fail (FC_IS_TIME_AXIS (self), 0);

  return time_at (self->total_begin_ns, self->total_end_ns, x, width);
}

double
fc_time_axis_overview_x_at (FcTimeAxis *self,
                            gint64      time_ns,
                            int         width)
{
  g_return_val_if_fail (FC_IS_TIME_AXIS (self), 0);

  return x_at (self->total_begin_ns, self->total_end_ns, time_ns, width);
}
