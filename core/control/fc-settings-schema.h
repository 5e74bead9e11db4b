/* fc-settings-schema.h - the io.github.flamecast.Flamecast GSettings schema, wherever it is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GSettingsSchema *fc_settings_schema_get (void);

G_END_DECLS
