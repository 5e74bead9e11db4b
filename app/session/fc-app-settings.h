/* fc-app-settings.h - the app's GSettings, found installed or in the build tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "flamecast.h"

G_BEGIN_DECLS

GSettings     *fc_app_settings_new      (void);
/* the "mode" preference, as the sampler takes it */
FcSamplerMode  fc_app_settings_get_mode (void);

G_END_DECLS
