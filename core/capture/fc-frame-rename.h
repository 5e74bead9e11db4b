/* fc-frame-rename.h - a chunk again with some frames named anew (JIT code named at exit)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"
#include "fc-symbolizer.h"

G_BEGIN_DECLS

FcProfile *fc_frame_rename_copy (FcProfile  *src,
                                 GHashTable *renamed);

G_END_DECLS
