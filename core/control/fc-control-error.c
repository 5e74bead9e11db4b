/* fc-control-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-control-error.h"

G_DEFINE_QUARK (fc-settings-error-quark, fc_settings_error)
