/* fc-preferences-window.h - the preferences, bound to the app's GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FC_TYPE_PREFERENCES_WINDOW (fc_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (FcPreferencesWindow, fc_preferences_window, FC, PREFERENCES_WINDOW, AdwPreferencesWindow)

FcPreferencesWindow *fc_preferences_window_new      (GtkWindow           *parent);
/* Shows the Sending page with the DSN row focused (for "no DSN set yet"). */
void                 fc_preferences_window_show_dsn (FcPreferencesWindow *self);

G_END_DECLS
