/* flamecast.h - umbrella header of libflamecast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#define FLAMECAST_INSIDE
#include "fc-error.h"
#include "fc-problem.h"
#include "fc-profile.h"
#include "fc-document.h"
#undef FLAMECAST_INSIDE
