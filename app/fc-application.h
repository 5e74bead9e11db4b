/* fc-application.h - the Flamecast application: windows, files from the command line, about
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "fc-file-load.h"

G_BEGIN_DECLS

#define FC_TYPE_APPLICATION (fc_application_get_type ())
G_DECLARE_FINAL_TYPE (FcApplication, fc_application, FC, APPLICATION, AdwApplication)

FcApplication *fc_application_new (void);

void           fc_application_set_command (FcApplication      *self,
                                           const char * const *argv);
FcFileLoad    *fc_application_preload     (FcApplication      *self,
                                           GFile              *file);
/* called at startup; for benchmarks that build windows without the application */
void           fc_application_tune_allocator (void);
void           fc_application_add_accels  (GtkApplication     *app);

G_END_DECLS
