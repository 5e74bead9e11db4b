/* fc-lifecycle.c - when to profile: Sentry's manual and trace lifecycles, session sampling
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "flamecast-lifecycle"

#include <math.h>

#include "fc-lifecycle.h"

struct _FcLifecycle
{
  GObject             parent_instance;

  FcProfileLifecycle  mode;
  double              session_rate;
  double              traces_rate;
  FcRandomFunc        random_func;
  gpointer            random_data;

  gboolean            session_sampled;
  gboolean            running;
  guint               next_span_id;
  guint               n_sampled_active;
  GPtrArray          *active;          /* FcRootSpan*, in begin order */
};

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_SESSION_SAMPLED,
  N_PROPS
};

enum {
  START_PROFILING,
  STOP_PROFILING,
  ROOT_SPAN_ENDED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (FcLifecycle, fc_lifecycle, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static double
default_random (gpointer user_data)
{
  return g_random_double ();
}

static void
fc_lifecycle_finalize (GObject *object)
{
  FcLifecycle *self = (FcLifecycle *)object;

  g_clear_pointer (&self->active, g_ptr_array_unref);

  G_OBJECT_CLASS (fc_lifecycle_parent_class)->finalize (object);
}

static void
fc_lifecycle_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  FcLifecycle *self = FC_LIFECYCLE (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_SESSION_SAMPLED:
      g_value_set_boolean (value, self->session_sampled);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_lifecycle_class_init (FcLifecycleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = fc_lifecycle_finalize;
  object_class->get_property = fc_lifecycle_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SESSION_SAMPLED] =
    g_param_spec_boolean ("session-sampled", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[START_PROFILING] =
    g_signal_new ("start-profiling", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[STOP_PROFILING] =
    g_signal_new ("stop-profiling", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ROOT_SPAN_ENDED] =
    g_signal_new ("root-span-ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  FC_TYPE_ROOT_SPAN | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
fc_lifecycle_init (FcLifecycle *self)
{
  self->active = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_root_span_free);
  self->next_span_id = 1;
}

static double
sanitize_rate (double rate)
{
  return isnan (rate) ? 0.0 : CLAMP (rate, 0.0, 1.0);
}

static gboolean
roll (FcLifecycle *self,
      double       rate)
{
  /* random() < rate: 0 never samples, 1 always does. */
  return self->random_func (self->random_data) < rate;
}

FcLifecycle *
fc_lifecycle_new_full (FcProfileLifecycle mode,
                       double             profile_session_sample_rate,
                       double             traces_sample_rate,
                       FcRandomFunc       random_func,
                       gpointer           random_data)
{
  FcLifecycle *self = g_object_new (FC_TYPE_LIFECYCLE, NULL);

  self->mode = mode;
  self->session_rate = sanitize_rate (profile_session_sample_rate);
  self->traces_rate = sanitize_rate (traces_sample_rate);
  self->random_func = random_func ? random_func : default_random;
  self->random_data = random_func ? random_data : NULL;
  self->session_sampled = roll (self, self->session_rate);

  if (mode == FC_PROFILE_LIFECYCLE_TRACE && self->traces_rate <= 0.0)
    g_warning ("The trace profile lifecycle needs tracing, but traces_sample_rate is 0: nothing will be profiled");

  return self;
}

FcLifecycle *
fc_lifecycle_new (FcProfileLifecycle mode,
                  double             profile_session_sample_rate,
                  double             traces_sample_rate)
{
  return fc_lifecycle_new_full (mode, profile_session_sample_rate, traces_sample_rate, NULL, NULL);
}

FcLifecycle *
fc_lifecycle_new_for_settings (FcSettings *settings)
{
  g_return_val_if_fail (FC_IS_SETTINGS (settings), NULL);

  return fc_lifecycle_new (fc_settings_get_profile_lifecycle (settings),
                           fc_settings_get_profile_session_sample_rate (settings),
                           fc_settings_get_traces_sample_rate (settings));
}

FcProfileLifecycle
fc_lifecycle_get_mode (FcLifecycle *self)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE (self), FC_PROFILE_LIFECYCLE_MANUAL);
  return self->mode;
}

gboolean
fc_lifecycle_get_session_sampled (FcLifecycle *self)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE (self), FALSE);
  return self->session_sampled;
}

gboolean
fc_lifecycle_get_running (FcLifecycle *self)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE (self), FALSE);
  return self->running;
}

guint
fc_lifecycle_get_n_active_spans (FcLifecycle *self)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE (self), 0);
  return self->active->len;
}

static void
set_running (FcLifecycle *self,
             gboolean     running)
{
  g_assert (self->running != running);

  self->running = running;

  if (running)
    {
      /* Spans already active are now (partly) covered by the profile. */
      for (guint i = 0; i < self->active->len; i++)
        ((FcRootSpan *) g_ptr_array_index (self->active, i))->profiled = TRUE;
    }

  g_signal_emit (self, signals[running ? START_PROFILING : STOP_PROFILING], 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

gboolean
fc_lifecycle_start_profiler (FcLifecycle *self)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE (self), FALSE);

  if (self->mode == FC_PROFILE_LIFECYCLE_TRACE)
    {
      g_warning ("start_profiler() ignored: with the trace lifecycle, profiling follows root spans");
      return FALSE;
    }

  if (!self->session_sampled)
    {
      g_warning ("start_profiler() ignored: this profiling session was not sampled "
                 "(profile_session_sample_rate %g)", self->session_rate);
      return FALSE;
    }

  if (self->running)
    {
      g_warning ("start_profiler() ignored: the profiler is already running");
      return FALSE;
    }

  set_running (self, TRUE);
  return TRUE;
}

gboolean
fc_lifecycle_stop_profiler (FcLifecycle *self)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE (self), FALSE);

  if (self->mode == FC_PROFILE_LIFECYCLE_TRACE)
    {
      g_warning ("stop_profiler() ignored: with the trace lifecycle, profiling stops when the last root span ends");
      return FALSE;
    }

  if (!self->running)
    {
      g_debug ("stop_profiler() ignored: the profiler is not running");
      return FALSE;
    }

  set_running (self, FALSE);
  return TRUE;
}

static void
random_hex (char  *out,
            guint  n_chars)
{
  static const char digits[] = "0123456789abcdef";

  for (guint i = 0; i < n_chars; i++)
    out[i] = digits[g_random_int_range (0, 16)];
  out[n_chars] = '\0';
}

guint
fc_lifecycle_begin_root_span (FcLifecycle *self,
                              const char  *name)
{
  FcRootSpan *span;

  g_return_val_if_fail (FC_IS_LIFECYCLE (self), 0);
  g_return_val_if_fail (name != NULL, 0);

  span = g_new0 (FcRootSpan, 1);
  span->id = self->next_span_id++;
  span->name = g_strdup (name);
  random_hex (span->trace_id, 32);
  random_hex (span->span_id, 16);
  span->start_ns = g_get_real_time () * 1000;
  /* Each root span is sampled on its own; an unsampled session profiles nothing. */
  span->sampled = roll (self, self->traces_rate);
  g_ptr_array_add (self->active, span);

  if (self->mode == FC_PROFILE_LIFECYCLE_TRACE && span->sampled && self->session_sampled)
    {
      self->n_sampled_active++;
      if (!self->running)
        set_running (self, TRUE);
      else
        span->profiled = TRUE;
    }
  else if (self->running)
    span->profiled = TRUE;

  return span->id;
}

static gboolean
find_index (FcLifecycle *self,
            guint        span_id,
            guint       *index)
{
  for (guint i = 0; i < self->active->len; i++)
    {
      FcRootSpan *span = g_ptr_array_index (self->active, i);

      if (span->id == span_id)
        {
          *index = i;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
fc_lifecycle_end_root_span (FcLifecycle *self,
                            guint        span_id)
{
  g_autoptr(FcRootSpan) span = NULL;
  guint index;

  g_return_val_if_fail (FC_IS_LIFECYCLE (self), FALSE);

  if (!find_index (self, span_id, &index))
    {
      g_warning ("Root span %u is not active", span_id);
      return FALSE;
    }

  span = g_ptr_array_steal_index (self->active, index);
  span->end_ns = MAX (g_get_real_time () * 1000, span->start_ns);

  if (self->mode == FC_PROFILE_LIFECYCLE_TRACE && span->sampled && self->session_sampled)
    {
      g_assert (self->n_sampled_active > 0);
      /* The last sampled span stops the profiler; the chunk in progress finishes. */
      if (--self->n_sampled_active == 0)
        set_running (self, FALSE);
    }

  g_signal_emit (self, signals[ROOT_SPAN_ENDED], 0, span);

  return TRUE;
}

guint
fc_lifecycle_find_root_span (FcLifecycle *self,
                             const char  *name)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE (self), 0);

  for (guint i = self->active->len; i > 0; i--)
    {
      FcRootSpan *span = g_ptr_array_index (self->active, i - 1);

      if (g_strcmp0 (span->name, name) == 0)
        return span->id;
    }
  return 0;
}

const FcRootSpan *
fc_lifecycle_get_root_span (FcLifecycle *self,
                            guint        span_id)
{
  guint index;

  g_return_val_if_fail (FC_IS_LIFECYCLE (self), NULL);

  if (!find_index (self, span_id, &index))
    return NULL;
  return g_ptr_array_index (self->active, index);
}

void
fc_lifecycle_end_all (FcLifecycle *self)
{
  g_return_if_fail (FC_IS_LIFECYCLE (self));

  while (self->active->len > 0)
    {
      FcRootSpan *span = g_ptr_array_index (self->active, self->active->len - 1);
      fc_lifecycle_end_root_span (self, span->id);
    }
}
