/* fc-settings-schema.c - the io.github.flamecast.Flamecast GSettings schema, wherever it is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-settings-schema.h"

/**
 * fc_settings_schema_get:
 *
 * The schema the app and the CLI share. An installed schema (or one named by
 * GSETTINGS_SCHEMA_DIR, as the tests do) wins; otherwise the schema compiled
 * in the build tree, so `make run` and the uninstalled CLI work. Looked up
 * once per process.
 *
 * Returns: (transfer none) (nullable): the schema, or %NULL when neither
 *   exists (the CLI then goes by its keyfile alone)
 */
GSettingsSchema *
fc_settings_schema_get (void)
{
  static gsize once;
  static GSettingsSchema *schema;

  if (g_once_init_enter (&once))
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();

      if (source != NULL)
        schema = g_settings_schema_source_lookup (source, FC_APP_ID, TRUE);

#ifdef FC_BUILD_SCHEMA_DIR
      if (schema == NULL)
        {
          g_autoptr(GSettingsSchemaSource) build_source = NULL;

          build_source = g_settings_schema_source_new_from_directory (FC_BUILD_SCHEMA_DIR, source, FALSE, NULL);
          if (build_source != NULL)
            schema = g_settings_schema_source_lookup (build_source, FC_APP_ID, TRUE);
        }
#endif

      g_once_init_leave (&once, 1);
    }

  return schema;
}
