/* fc-dwfl-callbacks.h - how libdwfl finds a module's debug info: for a process's modules, and
 * for a debug file read alone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <elfutils/libdwfl.h>
#include <glib.h>

G_BEGIN_DECLS

const Dwfl_Callbacks *fc_dwfl_callbacks_for_modules    (void);
const Dwfl_Callbacks *fc_dwfl_callbacks_for_debug_file (void);

void                  fc_dwfl_wait_for_debuginfod_until (gint64 *deadline);
void                  fc_dwfl_forget_deadline           (gint64 *deadline);

G_END_DECLS
