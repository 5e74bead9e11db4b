/* fc-capture-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-capture-error.h"

G_DEFINE_QUARK (fc-sampler-error-quark, fc_sampler_error)
