/* fc-colors.h - frame colours for the flame views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-session.h"

G_BEGIN_DECLS

/* Colours depend only on a frame's content, never on its id or on the order
 * frames were interned, so a function keeps its colour across files. */

/* one colour per frame id of @profile; free with g_free() */
GdkRGBA *fc_colors_for_profile (FcProfile     *profile,
                                FcColorMode    mode,
                                guint         *n_colors);
void     fc_colors_for_frame   (FcProfile     *profile,
                                guint32        frame,
                                FcColorMode    mode,
                                GdkRGBA       *color);
/* What the colours of @mode mean, for a legend: in-app mode gives
 * "Application" and "System" and a colour of each (@names and @colors have
 * room for FC_COLORS_MAX_LEGEND); 0 for the modes giving each package or
 * function a colour of its own. */
#define FC_COLORS_MAX_LEGEND 2
guint    fc_colors_legend      (FcColorMode    mode,
                                const char   **names,
                                GdkRGBA       *colors);
/* what a box not matching the search looks like */
void     fc_colors_dim         (const GdkRGBA *color,
                                gboolean       dark,
                                GdkRGBA       *dimmed);
/* black or white, whichever reads better on @background */
void     fc_colors_text_for    (const GdkRGBA *background,
                                GdkRGBA       *text);
/* a hash that is the same on every run and machine */
guint32  fc_colors_stable_hash (const char    *str);

G_END_DECLS
