/* fc-format-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-format-error.h"

G_DEFINE_QUARK (fc-format-error-quark, fc_format_error)
