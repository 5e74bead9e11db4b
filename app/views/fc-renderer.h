/* fc-renderer.h - choosing GTK's renderer where GL is only emulated
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean fc_renderer_has_gpu                     (const char *dev_dir);
gboolean fc_renderer_skip_gl_without_gpu         (void);
gboolean fc_renderer_prefer_cairo_on_software_gl (void);

G_END_DECLS
