/* fc-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-error.h"

G_DEFINE_QUARK (fc-format-error-quark, fc_format_error)
G_DEFINE_QUARK (fc-sampler-error-quark, fc_sampler_error)
G_DEFINE_QUARK (fc-transport-error-quark, fc_transport_error)
G_DEFINE_QUARK (fc-settings-error-quark, fc_settings_error)
