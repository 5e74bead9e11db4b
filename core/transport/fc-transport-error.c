/* fc-transport-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-transport-error.h"

G_DEFINE_QUARK (fc-transport-error-quark, fc_transport_error)
