/* fc-control-error.h - the control layer's error domain: settings we cannot take
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Messages name the file, the key and what the key allows:
 * "settings.ini: “chunk-duration = 7200” is invalid: expected an integer from 1 to 3600". */

#define FC_SETTINGS_ERROR (fc_settings_error_quark ())

typedef enum {
  FC_SETTINGS_ERROR_INVALID,
} FcSettingsError;

GQuark fc_settings_error_quark (void);

G_END_DECLS
