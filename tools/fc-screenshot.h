/* fc-screenshot.h - the window photographs itself for the README (tools/screenshots.sh)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-window.h"

G_BEGIN_DECLS

void fc_screenshot_window_when_loaded (FcWindow   *window,
                                       const char *directory);
/* fc-screenshot-send.c: the send preview, the preferences and the outbox, then quit */
void fc_screenshot_send_windows       (FcWindow   *window,
                                       const char *directory);

G_END_DECLS
