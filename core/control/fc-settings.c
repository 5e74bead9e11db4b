/* fc-settings.c - what the user chose: sampling, lifecycle, where and how to send
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "fc-atomic-file.h"
#include "fc-control-error.h"
#include "fc-sampler.h"
#include "fc-settings.h"
#include "fc-settings-schema.h"

#define GROUP "flamecast"

struct _FcSettings
{
  GObject             parent_instance;

  int                 frequency;
  FcSamplerMode       mode;
  int                 stack_bytes;
  double              profile_session_sample_rate;
  FcProfileLifecycle  profile_lifecycle;
  double              traces_sample_rate;
  int                 chunk_duration;
  char               *dsn;
  char               *release;
  char               *environment;
  char               *otlp_endpoint;
  char               *platform;
  gboolean            follow_children;
  FcStacksMode        stacks;
};

enum {
  PROP_0,
  PROP_FREQUENCY,
  PROP_MODE,
  PROP_STACK_BYTES,
  PROP_PROFILE_SESSION_SAMPLE_RATE,
  PROP_PROFILE_LIFECYCLE,
  PROP_TRACES_SAMPLE_RATE,
  PROP_CHUNK_DURATION,
  PROP_DSN,
  PROP_RELEASE,
  PROP_ENVIRONMENT,
  PROP_OTLP_ENDPOINT,
  PROP_PLATFORM,
  PROP_FOLLOW_CHILDREN,
  PROP_STACKS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ENUM_TYPE (FcProfileLifecycle, fc_profile_lifecycle,
                    G_DEFINE_ENUM_VALUE (FC_PROFILE_LIFECYCLE_MANUAL, "manual"),
                    G_DEFINE_ENUM_VALUE (FC_PROFILE_LIFECYCLE_TRACE, "trace"))

G_DEFINE_FINAL_TYPE (FcSettings, fc_settings, G_TYPE_OBJECT)

const char *
fc_profile_lifecycle_to_string (FcProfileLifecycle lifecycle)
{
  switch (lifecycle)
    {
    case FC_PROFILE_LIFECYCLE_MANUAL: return "manual";
    case FC_PROFILE_LIFECYCLE_TRACE: return "trace";
    default: g_return_val_if_reached ("manual");
    }
}

gboolean
fc_profile_lifecycle_from_string (const char          *text,
                                  FcProfileLifecycle  *lifecycle,
                                  GError             **error)
{
  g_return_val_if_fail (lifecycle != NULL, FALSE);

  if (g_strcmp0 (text, "manual") == 0)
    *lifecycle = FC_PROFILE_LIFECYCLE_MANUAL;
  else if (g_strcmp0 (text, "trace") == 0)
    *lifecycle = FC_PROFILE_LIFECYCLE_TRACE;
  else
    {
      g_set_error (error, FC_SETTINGS_ERROR, FC_SETTINGS_ERROR_INVALID,
                   _("Profile lifecycle “%s” is neither “manual” nor “trace”"), text ? text : "");
      return FALSE;
    }

  return TRUE;
}

static void
fc_settings_finalize (GObject *object)
{
  FcSettings *self = (FcSettings *)object;

  g_clear_pointer (&self->dsn, g_free);
  g_clear_pointer (&self->release, g_free);
  g_clear_pointer (&self->environment, g_free);
  g_clear_pointer (&self->otlp_endpoint, g_free);
  g_clear_pointer (&self->platform, g_free);

  G_OBJECT_CLASS (fc_settings_parent_class)->finalize (object);
}

static void
fc_settings_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  FcSettings *self = FC_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_FREQUENCY:
      g_value_set_int (value, self->frequency);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_STACK_BYTES:
      g_value_set_int (value, self->stack_bytes);
      break;
    case PROP_PROFILE_SESSION_SAMPLE_RATE:
      g_value_set_double (value, self->profile_session_sample_rate);
      break;
    case PROP_PROFILE_LIFECYCLE:
      g_value_set_enum (value, self->profile_lifecycle);
      break;
    case PROP_TRACES_SAMPLE_RATE:
      g_value_set_double (value, self->traces_sample_rate);
      break;
    case PROP_CHUNK_DURATION:
      g_value_set_int (value, self->chunk_duration);
      break;
    case PROP_DSN:
      g_value_set_string (value, self->dsn);
      break;
    case PROP_RELEASE:
      g_value_set_string (value, self->release);
      break;
    case PROP_ENVIRONMENT:
      g_value_set_string (value, self->environment);
      break;
    case PROP_OTLP_ENDPOINT:
      g_value_set_string (value, self->otlp_endpoint);
      break;
    case PROP_PLATFORM:
      g_value_set_string (value, self->platform);
      break;
    case PROP_FOLLOW_CHILDREN:
      g_value_set_boolean (value, self->follow_children);
      break;
    case PROP_STACKS:
      g_value_set_enum (value, self->stacks);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_settings_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  FcSettings *self = FC_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_FREQUENCY:
      fc_settings_set_frequency (self, g_value_get_int (value));
      break;
    case PROP_MODE:
      fc_settings_set_mode (self, g_value_get_enum (value));
      break;
    case PROP_STACK_BYTES:
      fc_settings_set_stack_bytes (self, g_value_get_int (value));
      break;
    case PROP_PROFILE_SESSION_SAMPLE_RATE:
      fc_settings_set_profile_session_sample_rate (self, g_value_get_double (value));
      break;
    case PROP_PROFILE_LIFECYCLE:
      fc_settings_set_profile_lifecycle (self, g_value_get_enum (value));
      break;
    case PROP_TRACES_SAMPLE_RATE:
      fc_settings_set_traces_sample_rate (self, g_value_get_double (value));
      break;
    case PROP_CHUNK_DURATION:
      fc_settings_set_chunk_duration (self, g_value_get_int (value));
      break;
    case PROP_DSN:
      fc_settings_set_dsn (self, g_value_get_string (value));
      break;
    case PROP_RELEASE:
      fc_settings_set_release (self, g_value_get_string (value));
      break;
    case PROP_ENVIRONMENT:
      fc_settings_set_environment (self, g_value_get_string (value));
      break;
    case PROP_OTLP_ENDPOINT:
      fc_settings_set_otlp_endpoint (self, g_value_get_string (value));
      break;
    case PROP_PLATFORM:
      fc_settings_set_platform (self, g_value_get_string (value));
      break;
    case PROP_FOLLOW_CHILDREN:
      fc_settings_set_follow_children (self, g_value_get_boolean (value));
      break;
    case PROP_STACKS:
      fc_settings_set_stacks (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_settings_class_init (FcSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = fc_settings_finalize;
  object_class->get_property = fc_settings_get_property;
  object_class->set_property = fc_settings_set_property;

  properties[PROP_FREQUENCY] = fc_record_option_setting_spec (FC_RECORD_OPTION_FREQUENCY, flags);
  properties[PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL, FC_TYPE_SAMPLER_MODE, FC_RECORD_DEFAULT_MODE, flags);
  properties[PROP_STACK_BYTES] = fc_record_option_setting_spec (FC_RECORD_OPTION_STACK_BYTES, flags);
  properties[PROP_PROFILE_SESSION_SAMPLE_RATE] =
    g_param_spec_double ("profile-session-sample-rate", NULL, NULL, 0.0, 1.0, 1.0, flags);
  properties[PROP_PROFILE_LIFECYCLE] =
    g_param_spec_enum ("profile-lifecycle", NULL, NULL,
                       FC_TYPE_PROFILE_LIFECYCLE, FC_PROFILE_LIFECYCLE_MANUAL, flags);
  properties[PROP_TRACES_SAMPLE_RATE] =
    g_param_spec_double ("traces-sample-rate", NULL, NULL, 0.0, 1.0, 1.0, flags);
  properties[PROP_CHUNK_DURATION] = fc_record_option_setting_spec (FC_RECORD_OPTION_CHUNK_DURATION, flags);
  properties[PROP_DSN] = g_param_spec_string ("dsn", NULL, NULL, "", flags);
  properties[PROP_RELEASE] = g_param_spec_string ("release", NULL, NULL, "", flags);
  properties[PROP_ENVIRONMENT] = g_param_spec_string ("environment", NULL, NULL, "production", flags);
  properties[PROP_OTLP_ENDPOINT] = g_param_spec_string ("otlp-endpoint", NULL, NULL, "", flags);
  properties[PROP_PLATFORM] = g_param_spec_string ("platform", NULL, NULL, FC_RECORD_DEFAULT_PLATFORM, flags);
  properties[PROP_FOLLOW_CHILDREN] =
    g_param_spec_boolean ("follow-children", NULL, NULL, FC_RECORD_DEFAULT_FOLLOW_CHILDREN, flags);
  properties[PROP_STACKS] = g_param_spec_enum ("stacks", NULL, NULL, FC_TYPE_STACKS_MODE, FC_RECORD_DEFAULT_STACKS, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fc_settings_init (FcSettings *self)
{
  self->frequency = fc_record_option_get (FC_RECORD_OPTION_FREQUENCY)->default_value;
  self->mode = FC_RECORD_DEFAULT_MODE;
  self->stack_bytes = fc_record_option_get (FC_RECORD_OPTION_STACK_BYTES)->default_value;
  self->profile_session_sample_rate = 1.0;
  self->profile_lifecycle = FC_PROFILE_LIFECYCLE_MANUAL;
  self->traces_sample_rate = 1.0;
  self->chunk_duration = fc_record_option_get (FC_RECORD_OPTION_CHUNK_DURATION)->default_value;
  self->dsn = g_strdup ("");
  self->release = g_strdup ("");
  self->environment = g_strdup ("production");
  self->otlp_endpoint = g_strdup ("");
  self->platform = g_strdup (FC_RECORD_DEFAULT_PLATFORM);
  self->stacks = FC_RECORD_DEFAULT_STACKS;
  self->follow_children = FC_RECORD_DEFAULT_FOLLOW_CHILDREN;
}

FcSettings *
fc_settings_new (void)
{
  return g_object_new (FC_TYPE_SETTINGS, NULL);
}

int
fc_settings_get_frequency (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), 0);
  return self->frequency;
}

void
fc_settings_set_frequency (FcSettings *self,
                           int         frequency)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  frequency = fc_record_option_clamp (FC_RECORD_OPTION_FREQUENCY, frequency);
  if (self->frequency == frequency)
    return;
  self->frequency = frequency;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FREQUENCY]);
}

FcSamplerMode
fc_settings_get_mode (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), FC_SAMPLER_MODE_WALL);
  return self->mode;
}

void
fc_settings_set_mode (FcSettings    *self,
                      FcSamplerMode  mode)
{
  g_return_if_fail (FC_IS_SETTINGS (self));
  g_return_if_fail (mode == FC_SAMPLER_MODE_WALL || mode == FC_SAMPLER_MODE_CPU);

  if (self->mode == mode)
    return;
  self->mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

int
fc_settings_get_stack_bytes (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), 0);
  return self->stack_bytes;
}

void
fc_settings_set_stack_bytes (FcSettings *self,
                             int         bytes)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  bytes = fc_record_option_clamp (FC_RECORD_OPTION_STACK_BYTES, bytes);
  if (self->stack_bytes == bytes)
    return;
  self->stack_bytes = bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STACK_BYTES]);
}

double
fc_settings_get_profile_session_sample_rate (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), 0.0);
  return self->profile_session_sample_rate;
}

static double
normalize_rate (double rate)
{
  return isnan (rate) ? 0.0 : CLAMP (rate, 0.0, 1.0);
}

void
fc_settings_set_profile_session_sample_rate (FcSettings *self,
                                             double      rate)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  rate = normalize_rate (rate);
  if (self->profile_session_sample_rate == rate)
    return;
  self->profile_session_sample_rate = rate;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE_SESSION_SAMPLE_RATE]);
}

FcProfileLifecycle
fc_settings_get_profile_lifecycle (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), FC_PROFILE_LIFECYCLE_MANUAL);
  return self->profile_lifecycle;
}

void
fc_settings_set_profile_lifecycle (FcSettings         *self,
                                   FcProfileLifecycle  lifecycle)
{
  g_return_if_fail (FC_IS_SETTINGS (self));
  g_return_if_fail (lifecycle == FC_PROFILE_LIFECYCLE_MANUAL || lifecycle == FC_PROFILE_LIFECYCLE_TRACE);

  if (self->profile_lifecycle == lifecycle)
    return;
  self->profile_lifecycle = lifecycle;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE_LIFECYCLE]);
}

double
fc_settings_get_traces_sample_rate (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), 0.0);
  return self->traces_sample_rate;
}

void
fc_settings_set_traces_sample_rate (FcSettings *self,
                                    double      rate)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  rate = normalize_rate (rate);
  if (self->traces_sample_rate == rate)
    return;
  self->traces_sample_rate = rate;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACES_SAMPLE_RATE]);
}

int
fc_settings_get_chunk_duration (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), 0);
  return self->chunk_duration;
}

void
fc_settings_set_chunk_duration (FcSettings *self,
                                int         seconds)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  seconds = fc_record_option_clamp (FC_RECORD_OPTION_CHUNK_DURATION, seconds);
  if (self->chunk_duration == seconds)
    return;
  self->chunk_duration = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHUNK_DURATION]);
}

static gboolean
set_string (char       **field,
            const char  *value)
{
  if (value == NULL)
    value = "";
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

const char *
fc_settings_get_dsn (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), NULL);
  return self->dsn;
}

void
fc_settings_set_dsn (FcSettings *self,
                     const char *dsn)
{
  g_autofree char *stripped = NULL;

  g_return_if_fail (FC_IS_SETTINGS (self));

  /* DSNs are pasted; stray white space would make them invalid. */
  stripped = g_strstrip (g_strdup (dsn ? dsn : ""));
  if (set_string (&self->dsn, stripped))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DSN]);
}

const char *
fc_settings_get_release (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), NULL);
  return self->release;
}

void
fc_settings_set_release (FcSettings *self,
                         const char *release)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  if (set_string (&self->release, release))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RELEASE]);
}

const char *
fc_settings_get_environment (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), NULL);
  return self->environment;
}

void
fc_settings_set_environment (FcSettings *self,
                             const char *environment)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  if (set_string (&self->environment, environment))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENVIRONMENT]);
}

const char *
fc_settings_get_otlp_endpoint (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), NULL);
  return self->otlp_endpoint;
}

void
fc_settings_set_otlp_endpoint (FcSettings *self,
                               const char *otlp_endpoint)
{
  g_autofree char *stripped = NULL;

  g_return_if_fail (FC_IS_SETTINGS (self));

  /* pasted, like DSNs */
  stripped = g_strstrip (g_strdup (otlp_endpoint ? otlp_endpoint : ""));
  if (set_string (&self->otlp_endpoint, stripped))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OTLP_ENDPOINT]);
}

const char *
fc_settings_get_platform (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), NULL);
  return self->platform;
}

void
fc_settings_set_platform (FcSettings *self,
                          const char *platform)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  /* Empty means the default, as the recording treats a NULL platform. */
  if (platform == NULL || *platform == '\0')
    platform = "native";
  if (set_string (&self->platform, platform))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLATFORM]);
}

char *
fc_settings_dup_default_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "flamecast", "settings.ini", NULL);
}

static gboolean
invalid_value (GError     **error,
               const char  *path,
               const char  *key,
               const char  *value,
               const char  *expected)
{
  g_set_error (error, FC_SETTINGS_ERROR, FC_SETTINGS_ERROR_INVALID,
               _("%s: “%s = %s” is invalid: expected %s"), path, key, value, expected);
  return FALSE;
}

/* “a” or “b”: the nicks of an enum property, which are the schema's choices. */
static char *
describe_enum (GEnumClass *enum_class)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < enum_class->n_values; i++)
    g_string_append_printf (text, "%s“%s”", i == 0 ? "" : i + 1 == enum_class->n_values ? " or " : ", ",
                            enum_class->values[i].value_nick);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Parses one key into @value (initialized to the property's type). The
 * DSN's value is never echoed in errors. */
static gboolean
parse_key (GParamSpec  *pspec,
           const char  *text,
           GValue      *value,
           const char  *path,
           GError     **error)
{
  const char *key = pspec->name;
  const char *shown = strcmp (key, "dsn") == 0 ? "***" : text;

  if (G_IS_PARAM_SPEC_INT (pspec))
    {
      GParamSpecInt *ispec = G_PARAM_SPEC_INT (pspec);
      gint64 v;
      g_autofree char *expected = g_strdup_printf (_("an integer from %d to %d"), ispec->minimum, ispec->maximum);

      if (!g_ascii_string_to_signed (text, 10, ispec->minimum, ispec->maximum, &v, NULL))
        return invalid_value (error, path, key, shown, expected);
      g_value_set_int (value, (int) v);
    }
  else if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    {
      char *end = NULL;
      double v = g_ascii_strtod (text, &end);

      if (end == text || *end != '\0' || isnan (v) || v < 0.0 || v > 1.0)
        return invalid_value (error, path, key, shown, _("a number from 0.0 to 1.0"));
      g_value_set_double (value, v);
    }
  else if (G_IS_PARAM_SPEC_ENUM (pspec))
    {
      GEnumValue *nick = g_enum_get_value_by_nick (G_PARAM_SPEC_ENUM (pspec)->enum_class, text);

      if (nick == NULL)
        {
          g_autofree char *expected = describe_enum (G_PARAM_SPEC_ENUM (pspec)->enum_class);
          return invalid_value (error, path, key, shown, expected);
        }
      g_value_set_enum (value, nick->value);
    }
  else if (G_IS_PARAM_SPEC_STRING (pspec))
    g_value_set_string (value, text);
  else if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    {
      if (strcmp (text, "true") == 0)
        g_value_set_boolean (value, TRUE);
      else if (strcmp (text, "false") == 0)
        g_value_set_boolean (value, FALSE);
      else
        return invalid_value (error, path, key, shown, _("true or false"));
    }
  else
    g_assert_not_reached ();

  return TRUE;
}

/* What the schema allows for @key, for error messages. */
static char *
describe_schema_range (GSettingsSchemaKey *key)
{
  g_autoptr(GVariant) range = g_settings_schema_key_get_range (key);
  const char *kind = NULL;
  g_autoptr(GVariant) detail = NULL;

  g_variant_get (range, "(&sv)", &kind, &detail);
  if (g_strcmp0 (kind, "range") == 0)
    {
      g_autoptr(GVariant) min = g_variant_get_child_value (detail, 0);
      g_autoptr(GVariant) max = g_variant_get_child_value (detail, 1);
      g_autofree char *min_text = g_variant_print (min, FALSE);
      g_autofree char *max_text = g_variant_print (max, FALSE);

      return g_strdup_printf (_("a value from %s to %s"), min_text, max_text);
    }
  if (g_strcmp0 (kind, "enum") == 0)
    {
      g_autoptr(GString) choices = g_string_new ("one of");
      GVariantIter iter;
      const char *choice;

      g_variant_iter_init (&iter, detail);
      while (g_variant_iter_next (&iter, "&s", &choice))
        g_string_append_printf (choices, " “%s”", choice);
      return g_string_free (g_steal_pointer (&choices), FALSE);
    }
  return g_strdup (_("a value the schema allows"));
}

/* @value as the schema key's GVariant type. */
static GVariant *
value_to_variant (const GValue       *value,
                  GSettingsSchemaKey *key)
{
  const GVariantType *type = g_settings_schema_key_get_value_type (key);

  if (G_VALUE_HOLDS_INT (value) && g_variant_type_equal (type, G_VARIANT_TYPE_INT32))
    return g_variant_ref_sink (g_variant_new_int32 (g_value_get_int (value)));
  if (G_VALUE_HOLDS_DOUBLE (value) && g_variant_type_equal (type, G_VARIANT_TYPE_DOUBLE))
    return g_variant_ref_sink (g_variant_new_double (g_value_get_double (value)));
  if (G_VALUE_HOLDS_ENUM (value) && g_variant_type_equal (type, G_VARIANT_TYPE_STRING))
    {
      g_autoptr(GEnumClass) enum_class = g_type_class_ref (G_VALUE_TYPE (value));
      GEnumValue *nick = g_enum_get_value (enum_class, g_value_get_enum (value));

      return nick != NULL ? g_variant_ref_sink (g_variant_new_string (nick->value_nick)) : NULL;
    }
  if (G_VALUE_HOLDS_STRING (value) && g_variant_type_equal (type, G_VARIANT_TYPE_STRING))
    return g_variant_ref_sink (g_variant_new_string (g_value_get_string (value)));
  if (G_VALUE_HOLDS_BOOLEAN (value) && g_variant_type_equal (type, G_VARIANT_TYPE_BOOLEAN))
    return g_variant_ref_sink (g_variant_new_boolean (g_value_get_boolean (value)));
  return NULL;
}

/* @variant (a GSettings value) into @value, initialized to the property's type. */
static gboolean
variant_to_value (GVariant *variant,
                  GValue   *value)
{
  if (G_VALUE_HOLDS_INT (value) && g_variant_is_of_type (variant, G_VARIANT_TYPE_INT32))
    g_value_set_int (value, g_variant_get_int32 (variant));
  else if (G_VALUE_HOLDS_DOUBLE (value) && g_variant_is_of_type (variant, G_VARIANT_TYPE_DOUBLE))
    g_value_set_double (value, g_variant_get_double (variant));
  else if (G_VALUE_HOLDS_ENUM (value) && g_variant_is_of_type (variant, G_VARIANT_TYPE_STRING))
    {
      g_autoptr(GEnumClass) enum_class = g_type_class_ref (G_VALUE_TYPE (value));
      GEnumValue *nick = g_enum_get_value_by_nick (enum_class, g_variant_get_string (variant, NULL));

      if (nick == NULL)
        return FALSE;
      g_value_set_enum (value, nick->value);
    }
  else if (G_VALUE_HOLDS_STRING (value) && g_variant_is_of_type (variant, G_VARIANT_TYPE_STRING))
    g_value_set_string (value, g_variant_get_string (variant, NULL));
  else if (G_VALUE_HOLDS_BOOLEAN (value) && g_variant_is_of_type (variant, G_VARIANT_TYPE_BOOLEAN))
    g_value_set_boolean (value, g_variant_get_boolean (variant));
  else
    return FALSE;
  return TRUE;
}

/* The keys the user set in the GSettings store (what the app's preferences
 * write); keys left at their default keep ours, which equal the schema's. */
static void
load_gsettings (FcSettings      *self,
                GSettingsSchema *schema)
{
  g_autoptr(GSettings) gsettings = g_settings_new_full (schema, NULL, NULL);

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 1; i < N_PROPS; i++)
    {
      g_autoptr(GVariant) variant = NULL;
      GValue value = G_VALUE_INIT;

      if (!g_settings_schema_has_key (schema, properties[i]->name))
        continue;
      variant = g_settings_get_user_value (gsettings, properties[i]->name);
      if (variant == NULL)
        continue;
      g_value_init (&value, properties[i]->value_type);
      if (variant_to_value (variant, &value))
        g_object_set_property (G_OBJECT (self), properties[i]->name, &value);
      g_value_unset (&value);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* The schema has the last word on a keyfile value's range or choices. */
static gboolean
check_schema_range (GSettingsSchema  *schema,
                    GParamSpec       *pspec,
                    const GValue     *value,
                    const char       *text,
                    const char       *path,
                    GError          **error)
{
  g_autoptr(GSettingsSchemaKey) key = NULL;
  g_autoptr(GVariant) variant = NULL;
  g_autofree char *expected = NULL;

  if (schema == NULL || !g_settings_schema_has_key (schema, pspec->name))
    return TRUE;

  key = g_settings_schema_get_key (schema, pspec->name);
  variant = value_to_variant (value, key);
  if (variant != NULL && g_settings_schema_key_range_check (key, variant))
    return TRUE;

  expected = describe_schema_range (key);
  return invalid_value (error, path, pspec->name,
                        strcmp (pspec->name, "dsn") == 0 ? "***" : text, expected);
}

gboolean
fc_settings_load (FcSettings  *self,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *default_path = NULL;
  GSettingsSchema *schema = fc_settings_schema_get ();

  g_return_val_if_fail (FC_IS_SETTINGS (self), FALSE);

  if (path == NULL)
    path = default_path = fc_settings_dup_default_path ();

  /* One source of truth with the app: its GSettings store first, then the
   * keyfile on top (checked against the same schema). */
  if (schema != NULL)
    load_gsettings (self, schema);

  if (!g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, &local_error))
    {
      /* No file (or no config dir at all, e.g. HOME=/dev/null): defaults. */
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT) ||
          g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR))
        return TRUE;
      g_set_error (error, FC_SETTINGS_ERROR, FC_SETTINGS_ERROR_INVALID,
                   _("Cannot read settings from %s: %s"), path, local_error->message);
      return FALSE;
    }

  /* Validate everything before applying anything: a bad file changes nothing. */
  {
    g_autoptr(GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
    g_autoptr(GPtrArray) names = g_ptr_array_new ();

    g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);

    for (guint i = 1; i < N_PROPS; i++)
      {
        g_autofree char *text = NULL;
        GValue value = G_VALUE_INIT;

        text = g_key_file_get_string (keyfile, GROUP, properties[i]->name, NULL);
        if (text == NULL)
          continue;

        g_strstrip (text);
        g_value_init (&value, properties[i]->value_type);
        if (!parse_key (properties[i], text, &value, path, error) ||
            !check_schema_range (schema, properties[i], &value, text, path, error))
          {
            g_value_unset (&value);
            return FALSE;
          }
        g_array_append_val (values, value);
        g_ptr_array_add (names, (gpointer) properties[i]->name);
      }

    g_object_freeze_notify (G_OBJECT (self));
    for (guint i = 0; i < names->len; i++)
      g_object_set_property (G_OBJECT (self), g_ptr_array_index (names, i),
                             &g_array_index (values, GValue, i));
    g_object_thaw_notify (G_OBJECT (self));
  }

  return TRUE;
}

gboolean
fc_settings_save (FcSettings  *self,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *default_path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  gsize len;

  g_return_val_if_fail (FC_IS_SETTINGS (self), FALSE);

  if (path == NULL)
    path = default_path = fc_settings_dup_default_path ();

  /* Keep keys and comments we do not know about. */
  g_key_file_load_from_file (keyfile, path, G_KEY_FILE_KEEP_COMMENTS, NULL);

  g_key_file_set_integer (keyfile, GROUP, "frequency", self->frequency);
  g_key_file_set_value (keyfile, GROUP, "mode", self->mode == FC_SAMPLER_MODE_CPU ? "cpu" : "wall");
  g_key_file_set_integer (keyfile, GROUP, "stack-bytes", self->stack_bytes);
  g_key_file_set_value (keyfile, GROUP, "profile-session-sample-rate",
                        g_ascii_dtostr (buf, sizeof buf, self->profile_session_sample_rate));
  g_key_file_set_value (keyfile, GROUP, "profile-lifecycle",
                        fc_profile_lifecycle_to_string (self->profile_lifecycle));
  g_key_file_set_value (keyfile, GROUP, "traces-sample-rate",
                        g_ascii_dtostr (buf, sizeof buf, self->traces_sample_rate));
  g_key_file_set_integer (keyfile, GROUP, "chunk-duration", self->chunk_duration);
  g_key_file_set_string (keyfile, GROUP, "dsn", self->dsn);
  g_key_file_set_string (keyfile, GROUP, "release", self->release);
  g_key_file_set_string (keyfile, GROUP, "environment", self->environment);
  g_key_file_set_string (keyfile, GROUP, "platform", self->platform);
  g_key_file_set_boolean (keyfile, GROUP, "follow-children", self->follow_children);
  g_key_file_set_value (keyfile, GROUP, "stacks", fc_stacks_mode_to_string (self->stacks));

  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot create %s: %s"), dir, g_strerror (errsv));
      return FALSE;
    }

  data = g_key_file_to_data (keyfile, &len, NULL);
  /* 0600 (the file holds the DSN), whole or not at all. */
  return fc_atomic_file_write (path, data, len, error);
}

char *
fc_settings_dup_effective_dsn (FcSettings *self,
                               const char *explicit_dsn)
{
  const char *env;

  g_return_val_if_fail (self == NULL || FC_IS_SETTINGS (self), NULL);

  if (explicit_dsn != NULL && *explicit_dsn != '\0')
    return g_strdup (explicit_dsn);

  env = g_getenv ("SENTRY_DSN");
  if (env != NULL && *env != '\0')
    return g_strdup (env);

  if (self != NULL && self->dsn[0] != '\0')
    return g_strdup (self->dsn);

  return NULL;
}

gboolean
fc_settings_get_follow_children (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), FALSE);
  return self->follow_children;
}

void
fc_settings_set_follow_children (FcSettings *self,
                                 gboolean    follow)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  follow = !!follow;
  if (self->follow_children == follow)
    return;
  self->follow_children = follow;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW_CHILDREN]);
}

FcStacksMode
fc_settings_get_stacks (FcSettings *self)
{
  g_return_val_if_fail (FC_IS_SETTINGS (self), FC_STACKS_AUTO);
  return self->stacks;
}

void
fc_settings_set_stacks (FcSettings   *self,
                        FcStacksMode  stacks)
{
  g_return_if_fail (FC_IS_SETTINGS (self));

  if (self->stacks == stacks)
    return;
  self->stacks = stacks;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STACKS]);
}
