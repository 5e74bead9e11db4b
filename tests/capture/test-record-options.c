/* test-record-options.c - the one table of recording options, and what reads it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "flamecast.h"
#include "fc-settings-schema.h"

/* The GSettings schema is XML the app compiles: it cannot read the table, so
 * the table holds it to the same ranges and defaults. */
static void
test_record_options_schema (void)
{
  GSettingsSchema *schema = fc_settings_schema_get ();
  guint n_keys = 0;

  g_assert_nonnull (schema);
  for (FcRecordOption option = 0; option < FC_N_RECORD_OPTIONS; option++)
    {
      const FcRecordOptionInfo *info = fc_record_option_get (option);
      g_autoptr(GSettingsSchemaKey) key = NULL;
      g_autoptr(GVariant) range = NULL;
      g_autoptr(GVariant) limits = NULL;
      g_autoptr(GVariant) fallback = NULL;
      const char *kind;
      int minimum, maximum;

      if (info->key == NULL)
        continue;
      n_keys++;
      if (!g_settings_schema_has_key (schema, info->key))
        g_error ("the table's %s has no key in the schema", info->key);
      key = g_settings_schema_get_key (schema, info->key);
      range = g_settings_schema_key_get_range (key);
      g_variant_get (range, "(&sv)", &kind, &limits);
      g_assert_cmpstr (kind, ==, "range");
      g_variant_get (limits, "(ii)", &minimum, &maximum);
      fallback = g_settings_schema_key_get_default_value (key);
      if (minimum != info->minimum || maximum != info->maximum || g_variant_get_int32 (fallback) != info->default_value)
        g_error ("schema key %s: %d..%d, default %d; the table: %d..%d, default %d", info->key,
                 minimum, maximum, g_variant_get_int32 (fallback),
                 info->minimum, info->maximum, info->default_value);
    }
  g_assert_cmpuint (n_keys, ==, 3);
}

static void
assert_spec (GObjectClass   *klass,
             const char     *name,
             FcRecordOption  option)
{
  const FcRecordOptionInfo *info = fc_record_option_get (option);
  GParamSpec *pspec = g_object_class_find_property (klass, name);

  g_assert_nonnull (pspec);
  if (G_IS_PARAM_SPEC_UINT (pspec))
    {
      g_assert_cmpuint (G_PARAM_SPEC_UINT (pspec)->minimum, ==, info->minimum);
      g_assert_cmpuint (G_PARAM_SPEC_UINT (pspec)->maximum, ==, info->maximum);
      g_assert_cmpuint (G_PARAM_SPEC_UINT (pspec)->default_value, ==, info->default_value);
    }
  else
    {
      g_assert_cmpint (G_PARAM_SPEC_INT (pspec)->minimum, ==, info->minimum);
      g_assert_cmpint (G_PARAM_SPEC_INT (pspec)->maximum, ==, info->maximum);
      g_assert_cmpint (G_PARAM_SPEC_INT (pspec)->default_value, ==, info->default_value);
    }
}

/* The recorder, the recording that passes options on to it, and the settings
 * the user edits agree with the table; the settings' seconds become the
 * recorder's milliseconds within the recorder's range. */
static void
test_record_options_readers (void)
{
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(FcRecording) recording = fc_recording_new ();
  g_autoptr(FcSettings) settings = fc_settings_new ();
  GObjectClass *recorder_class = G_OBJECT_GET_CLASS (recorder);
  GObjectClass *recording_class = G_OBJECT_GET_CLASS (recording);
  GObjectClass *settings_class = G_OBJECT_GET_CLASS (settings);

  for (GObjectClass **klass = (GObjectClass *[]) { recorder_class, recording_class, NULL }; *klass; klass++)
    {
      assert_spec (*klass, "frequency", FC_RECORD_OPTION_FREQUENCY);
      assert_spec (*klass, "stack-size", FC_RECORD_OPTION_STACK_BYTES);
      assert_spec (*klass, "chunk-duration-ms", FC_RECORD_OPTION_CHUNK_MS);
    }
  assert_spec (settings_class, "frequency", FC_RECORD_OPTION_FREQUENCY);
  assert_spec (settings_class, "stack-bytes", FC_RECORD_OPTION_STACK_BYTES);
  assert_spec (settings_class, "chunk-duration", FC_RECORD_OPTION_CHUNK_DURATION);

  g_assert_cmpuint (fc_recorder_get_frequency (recorder), ==, 101);
  g_assert_cmpint (fc_settings_get_stack_bytes (settings), ==, 32768);

  fc_recorder_set_frequency (recorder, 5000);
  g_assert_cmpuint (fc_recorder_get_frequency (recorder), ==, 1000);
  fc_settings_set_stack_bytes (settings, 12);
  g_assert_cmpint (fc_settings_get_stack_bytes (settings), ==, 1024);

  /* an hour a chunk in the settings is Relay's 66 s at the recorder */
  fc_settings_set_chunk_duration (settings, 3600);
  fc_recording_apply_settings (recording, settings);
  g_assert_cmpuint (fc_record_option_chunk_ms (3600), ==, 66000);
  {
    guint ms = 0;
    g_object_get (recording, "chunk-duration-ms", &ms, NULL);
    g_assert_cmpuint (ms, ==, 66000);
  }
  g_assert_cmpuint (fc_record_option_chunk_ms (1), ==, 1000);
  g_assert_cmpint (fc_record_option_clamp (FC_RECORD_OPTION_FREQUENCY, G_MININT64), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/record-options/schema", test_record_options_schema);
  g_test_add_func ("/core/record-options/readers", test_record_options_readers);

  return g_test_run ();
}
