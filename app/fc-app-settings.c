/* fc-app-settings.c - the app's GSettings, found installed or in the build tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-app-settings.h"

/**
 * fc_app_settings_new:
 *
 * The io.github.flamecast.Flamecast settings. An installed schema (or one
 * named by GSETTINGS_SCHEMA_DIR, as the tests do) wins; otherwise the schema
 * compiled in the build tree is used, so `make run` works without installing.
 *
 * Returns: (transfer full): the settings
 */
GSettings *
fc_app_settings_new (void)
{
  static GSettingsSchema *schema;

  if (g_once_init_enter (&schema))
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      GSettingsSchema *found = NULL;

      if (source != NULL)
        found = g_settings_schema_source_lookup (source, FC_APP_ID, TRUE);

      if (found == NULL)
        {
          g_autoptr(GSettingsSchemaSource) build_source = NULL;
          g_autoptr(GError) error = NULL;

          build_source = g_settings_schema_source_new_from_directory (FC_BUILD_SCHEMA_DIR, source, FALSE, &error);
          if (build_source != NULL)
            found = g_settings_schema_source_lookup (build_source, FC_APP_ID, TRUE);
          if (found == NULL)
            g_error ("The settings schema %s is neither installed nor in %s: %s",
                     FC_APP_ID, FC_BUILD_SCHEMA_DIR, error ? error->message : "not found");
        }

      g_once_init_leave (&schema, found);
    }

  return g_settings_new_full (schema, NULL, NULL);
}
