/* fc-locale.h - where the program's message catalogs are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *fc_locale_dir (void);

G_END_DECLS
