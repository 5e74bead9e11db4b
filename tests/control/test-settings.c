/* test-settings.c - the settings object, its keyfile and the DSN precedence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>
#include <sys/stat.h>

#include <gio/gio.h>

#include "fc-control-error.h"
#include "fc-settings.h"
#include "fc-settings-schema.h"

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_settings_defaults (void)
{
  g_autoptr(FcSettings) settings = fc_settings_new ();

  g_assert_cmpint (fc_settings_get_frequency (settings), ==, 101);
  g_assert_cmpfloat (fc_settings_get_profile_session_sample_rate (settings), ==, 1.0);
  g_assert_cmpint (fc_settings_get_profile_lifecycle (settings), ==, FC_PROFILE_LIFECYCLE_MANUAL);
  g_assert_cmpfloat (fc_settings_get_traces_sample_rate (settings), ==, 1.0);
  g_assert_cmpint (fc_settings_get_chunk_duration (settings), ==, 60);
  g_assert_cmpstr (fc_settings_get_dsn (settings), ==, "");
  g_assert_cmpstr (fc_settings_get_release (settings), ==, "");
  g_assert_cmpstr (fc_settings_get_environment (settings), ==, "production");
  g_assert_cmpint (fc_settings_get_mode (settings), ==, FC_SAMPLER_MODE_WALL);
  g_assert_cmpint (fc_settings_get_stack_bytes (settings), ==, 32768);
  g_assert_cmpstr (fc_settings_get_platform (settings), ==, "native");
}

static void
test_settings_setters (void)
{
  g_autoptr(FcSettings) settings = fc_settings_new ();
  guint notified = 0;

  g_signal_connect (settings, "notify", G_CALLBACK (count_notify_cb), &notified);

  fc_settings_set_frequency (settings, 101);
  g_assert_cmpuint (notified, ==, 0);
  fc_settings_set_frequency (settings, 250);
  g_assert_cmpuint (notified, ==, 1);
  fc_settings_set_frequency (settings, 5000);
  g_assert_cmpint (fc_settings_get_frequency (settings), ==, 1000);
  fc_settings_set_profile_session_sample_rate (settings, 1.5);
  g_assert_cmpfloat (fc_settings_get_profile_session_sample_rate (settings), ==, 1.0);
  fc_settings_set_traces_sample_rate (settings, -2);
  g_assert_cmpfloat (fc_settings_get_traces_sample_rate (settings), ==, 0.0);
  fc_settings_set_stack_bytes (settings, 100);
  g_assert_cmpint (fc_settings_get_stack_bytes (settings), ==, 1024);
  fc_settings_set_platform (settings, "");
  g_assert_cmpstr (fc_settings_get_platform (settings), ==, "native");
  /* every property reads back its own value through GObject */
  {
    g_autofree char *endpoint = NULL;
    g_autofree char *platform = NULL;
    int stack_bytes = 0;

    g_object_set (settings, "otlp-endpoint", "http://collector:4318", "platform", "c", "stack-bytes", 2048, NULL);
    g_object_get (settings, "otlp-endpoint", &endpoint, "platform", &platform, "stack-bytes", &stack_bytes, NULL);
    g_assert_cmpstr (endpoint, ==, "http://collector:4318");
    g_assert_cmpstr (platform, ==, "c");
    g_assert_cmpint (stack_bytes, ==, 2048);
  }
  fc_settings_set_dsn (settings, "  https://k@h/1\n");
  g_assert_cmpstr (fc_settings_get_dsn (settings), ==, "https://k@h/1");
  notified = 0;
  fc_settings_set_dsn (settings, "https://k@h/1");
  g_assert_cmpuint (notified, ==, 0);

  /* The enum maps to the GSettings strings by nick. */
  g_object_set (settings, "profile-lifecycle", FC_PROFILE_LIFECYCLE_TRACE, NULL);
  g_assert_cmpint (fc_settings_get_profile_lifecycle (settings), ==, FC_PROFILE_LIFECYCLE_TRACE);
  {
    GEnumClass *klass = g_type_class_ref (FC_TYPE_PROFILE_LIFECYCLE);
    g_assert_cmpint (g_enum_get_value_by_nick (klass, "trace")->value, ==, FC_PROFILE_LIFECYCLE_TRACE);
    g_assert_cmpint (g_enum_get_value_by_nick (klass, "manual")->value, ==, FC_PROFILE_LIFECYCLE_MANUAL);
    g_type_class_unref (klass);
  }
}

static void
test_settings_round_trip (void)
{
  g_autoptr(FcSettings) a = fc_settings_new ();
  g_autoptr(FcSettings) b = fc_settings_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = fc_settings_dup_default_path ();
  struct stat st;

  g_assert_true (g_str_has_prefix (path, g_get_user_config_dir ()));
  g_assert_true (g_str_has_suffix (path, "/flamecast/settings.ini"));

  /* No file yet: defaults, no error. */
  g_assert_true (fc_settings_load (b, NULL, &error));
  g_assert_no_error (error);

  g_object_set (a,
                "frequency", 997,
                "profile-session-sample-rate", 0.25,
                "profile-lifecycle", FC_PROFILE_LIFECYCLE_TRACE,
                "traces-sample-rate", 0.5,
                "chunk-duration", 30,
                "dsn", "https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/42",
                "release", "app@1.2.3",
                "environment", "staging",
                "mode", FC_SAMPLER_MODE_CPU,
                "stack-bytes", 8192,
                "platform", "c",
                "follow-children", TRUE,
                NULL);
  g_assert_true (fc_settings_save (a, NULL, &error));
  g_assert_no_error (error);

  /* The file holds the DSN: only the user may read it. */
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  g_assert_true (fc_settings_load (b, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (fc_settings_get_frequency (b), ==, 997);
  g_assert_cmpfloat (fc_settings_get_profile_session_sample_rate (b), ==, 0.25);
  g_assert_cmpint (fc_settings_get_profile_lifecycle (b), ==, FC_PROFILE_LIFECYCLE_TRACE);
  g_assert_cmpfloat (fc_settings_get_traces_sample_rate (b), ==, 0.5);
  g_assert_cmpint (fc_settings_get_chunk_duration (b), ==, 30);
  g_assert_cmpstr (fc_settings_get_dsn (b), ==, fc_settings_get_dsn (a));
  g_assert_cmpstr (fc_settings_get_release (b), ==, "app@1.2.3");
  g_assert_cmpstr (fc_settings_get_environment (b), ==, "staging");
  g_assert_cmpint (fc_settings_get_mode (b), ==, FC_SAMPLER_MODE_CPU);
  g_assert_cmpint (fc_settings_get_stack_bytes (b), ==, 8192);
  g_assert_cmpstr (fc_settings_get_platform (b), ==, "c");
  g_assert_true (fc_settings_get_follow_children (b));
}

static void
test_settings_invalid_file (void)
{
  const char *bad[] = {
    "[flamecast]\nfrequency=5000\n", "frequency",
    "[flamecast]\nprofile-session-sample-rate=1.5\n", "profile-session-sample-rate",
    "[flamecast]\ntraces-sample-rate=often\n", "traces-sample-rate",
    "[flamecast]\nprofile-lifecycle=always\n", "profile-lifecycle",
    "[flamecast]\nchunk-duration=0\n", "chunk-duration",
    "[flamecast]\nmode=fast\n", "“wall” or “cpu”",
    "[flamecast]\nstack-bytes=100000\n", "stack-bytes",
    "[flamecast]\nfollow-children=yes\n", "follow-children",
    "[flamecast]\nfollow-children=1\n", "true or false",
  };
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "bad.ini", NULL);

  g_assert_cmpint (g_mkdir_with_parents (g_get_user_config_dir (), 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i += 2)
    {
      g_autoptr(FcSettings) settings = fc_settings_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *contents = g_strconcat (bad[i], "release=kept-out\n", NULL);

      g_assert_true (g_file_set_contents (path, contents, -1, NULL));
      g_assert_false (fc_settings_load (settings, path, &error));
      g_assert_error (error, FC_SETTINGS_ERROR, FC_SETTINGS_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, bad[i + 1]));
      g_assert_nonnull (strstr (error->message, path));
      /* A bad file changes nothing, not even its valid keys. */
      g_assert_cmpstr (fc_settings_get_release (settings), ==, "");
      g_assert_cmpint (fc_settings_get_frequency (settings), ==, 101);
    }
}

static void
test_settings_effective_dsn (void)
{
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;

  g_unsetenv ("SENTRY_DSN");
  d = fc_settings_dup_effective_dsn (settings, NULL);
  g_assert_null (d);

  fc_settings_set_dsn (settings, "https://saved@h/1");
  g_setenv ("SENTRY_DSN", "https://env@h/2", TRUE);

  a = fc_settings_dup_effective_dsn (settings, "https://flag@h/3");
  b = fc_settings_dup_effective_dsn (settings, NULL);
  g_unsetenv ("SENTRY_DSN");
  c = fc_settings_dup_effective_dsn (settings, "");

  g_assert_cmpstr (a, ==, "https://flag@h/3");
  g_assert_cmpstr (b, ==, "https://env@h/2");
  g_assert_cmpstr (c, ==, "https://saved@h/1");
}

static void
test_settings_match_gsettings_schema (void)
{
  /* The app binds each property to the key of the same name. */
  g_autofree char *schema_path = g_test_build_filename (G_TEST_DIST, "..", "resources",
                                                        "io.github.flamecast.Flamecast.gschema.xml", NULL);
  g_autofree char *schema = NULL;
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_autofree GParamSpec **pspecs = NULL;
  guint n_pspecs;

  g_assert_true (g_file_get_contents (schema_path, &schema, NULL, NULL));

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (settings), &n_pspecs);
  g_assert_cmpuint (n_pspecs, ==, 14);
  for (guint i = 0; i < n_pspecs; i++)
    {
      g_autofree char *needle = g_strdup_printf ("<key name=\"%s\"", pspecs[i]->name);

      if (strstr (schema, needle) == NULL)
        g_error ("property %s has no key in %s", pspecs[i]->name, schema_path);
    }
}

/* What the app's preferences write (the GSettings store; the memory backend
 * of the test environment, shared in-process) is what the CLI's load sees,
 * and settings.ini wins over it key by key. */
static void
test_settings_from_gsettings (void)
{
  GSettingsSchema *schema = fc_settings_schema_get ();
  g_autoptr(GSettings) gsettings = NULL;
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "overlay.ini", NULL);

  g_assert_nonnull (schema);
  gsettings = g_settings_new_full (schema, NULL, NULL);
  g_settings_set_int (gsettings, "frequency", 250);
  g_settings_set_string (gsettings, "dsn", "https://fromgsettings@h/7");
  g_settings_set_string (gsettings, "profile-lifecycle", "trace");
  g_settings_set_double (gsettings, "traces-sample-rate", 0.25);
  g_settings_set_string (gsettings, "environment", "staging");
  g_settings_set_string (gsettings, "mode", "cpu");
  g_settings_set_int (gsettings, "stack-bytes", 16384);
  g_settings_set_string (gsettings, "platform", "c");
  g_settings_set_boolean (gsettings, "follow-children", TRUE);

  g_assert_cmpint (g_mkdir_with_parents (g_get_user_config_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "[flamecast]\nenvironment=from-ini\n", -1, NULL));
  g_assert_true (fc_settings_load (settings, path, &error));
  g_assert_no_error (error);

  g_assert_cmpint (fc_settings_get_frequency (settings), ==, 250);
  g_assert_cmpstr (fc_settings_get_dsn (settings), ==, "https://fromgsettings@h/7");
  g_assert_cmpint (fc_settings_get_profile_lifecycle (settings), ==, FC_PROFILE_LIFECYCLE_TRACE);
  g_assert_cmpfloat (fc_settings_get_traces_sample_rate (settings), ==, 0.25);
  g_assert_cmpstr (fc_settings_get_environment (settings), ==, "from-ini");
  g_assert_cmpint (fc_settings_get_chunk_duration (settings), ==, 60);
  g_assert_cmpint (fc_settings_get_mode (settings), ==, FC_SAMPLER_MODE_CPU);
  g_assert_cmpint (fc_settings_get_stack_bytes (settings), ==, 16384);
  g_assert_cmpstr (fc_settings_get_platform (settings), ==, "c");
  g_assert_true (fc_settings_get_follow_children (settings));

  /* an out-of-range keyfile value: located, with the schema's range */
  g_assert_true (g_file_set_contents (path, "[flamecast]\nchunk-duration=7200\n", -1, NULL));
  g_assert_false (fc_settings_load (settings, path, &error));
  g_assert_error (error, FC_SETTINGS_ERROR, FC_SETTINGS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "chunk-duration"));
  g_assert_nonnull (strstr (error->message, "3600"));

  for (const char *key = "frequency\0dsn\0profile-lifecycle\0traces-sample-rate\0environment\0mode\0stack-bytes\0platform\0follow-children\0";
       *key != '\0'; key += strlen (key) + 1)
    g_settings_reset (gsettings, key);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/settings/defaults", test_settings_defaults);
  g_test_add_func ("/core/settings/setters", test_settings_setters);
  g_test_add_func ("/core/settings/round-trip", test_settings_round_trip);
  g_test_add_func ("/core/settings/invalid-file", test_settings_invalid_file);
  g_test_add_func ("/core/settings/effective-dsn", test_settings_effective_dsn);
  g_test_add_func ("/core/settings/match-gsettings-schema", test_settings_match_gsettings_schema);
  g_test_add_func ("/core/settings/from-gsettings", test_settings_from_gsettings);

  return g_test_run ();
}
