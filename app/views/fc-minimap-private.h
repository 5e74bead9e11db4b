/* fc-minimap-private.h - what the minimap's gestures do, for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-minimap.h"

G_BEGIN_DECLS

/* A press at @x inside the visible window grabs it; elsewhere it starts a
 * time selection. Moving by @offset_x drags the window or extends the
 * selection; a release without moving centers the view there. */
void fc_minimap_pointer_down (FcMinimap *self,
                              double     x);
void fc_minimap_pointer_move (FcMinimap *self,
                              double     offset_x);
void fc_minimap_pointer_up   (FcMinimap *self,
                              double     offset_x);

G_END_DECLS
