/* fc-app-settings.c - the app's GSettings, found installed or in the build tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-app-settings.h"
#include "fc-settings-schema.h"

/**
 * fc_app_settings_new:
 *
 * The io.github.flamecast.Flamecast settings, from the schema the CLI reads
 * too (fc_settings_schema_get()). The app cannot run without it.
 *
 * Returns: (transfer full): the settings
 */
GSettings *
fc_app_settings_new (void)
{
  GSettingsSchema *schema = fc_settings_schema_get ();

  if (schema == NULL)
    g_error ("The settings schema %s is neither installed nor in the build tree", FC_APP_ID);

  return g_settings_new_full (schema, NULL, NULL);
}

FcSamplerMode
fc_app_settings_get_mode (void)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *mode = g_settings_get_string (settings, "mode");

  return g_strcmp0 (mode, "cpu") == 0 ? FC_SAMPLER_MODE_CPU : FC_SAMPLER_MODE_WALL;
}
