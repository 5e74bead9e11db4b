/* fc-file-load.h - opening a file off the main loop, started before its window exists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "flamecast.h"

G_BEGIN_DECLS

#define FC_TYPE_FILE_LOAD (fc_file_load_get_type ())

G_DECLARE_FINAL_TYPE (FcFileLoad, fc_file_load, FC, FILE_LOAD, GObject)

gboolean      fc_file_load_run             (GFile               *file,
                                            const char * const  *in_app_prefixes,
                                            GCancellable        *cancellable,
                                            FcDocument         **document,
                                            FcProfile          **profile,
                                            FcViewStart         *start,
                                            GError             **error);

FcFileLoad   *fc_file_load_new             (GFile               *file,
                                            const char * const  *in_app_prefixes);
GFile        *fc_file_load_get_file        (FcFileLoad          *self);
GCancellable *fc_file_load_get_cancellable (FcFileLoad          *self);
void          fc_file_load_wait_async      (FcFileLoad          *self,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean      fc_file_load_wait_finish     (FcFileLoad          *self,
                                            GAsyncResult        *result,
                                            GError             **error);
FcDocument   *fc_file_load_get_document    (FcFileLoad          *self);
FcProfile    *fc_file_load_get_profile     (FcFileLoad          *self);
const FcViewStart *fc_file_load_get_start (FcFileLoad          *self);

G_END_DECLS
