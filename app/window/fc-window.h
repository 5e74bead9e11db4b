/* fc-window.h - a window showing one profile document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "fc-file-load.h"
#include "fc-live-recording.h"
#include "fc-session.h"

G_BEGIN_DECLS

#define FC_TYPE_WINDOW (fc_window_get_type ())
G_DECLARE_FINAL_TYPE (FcWindow, fc_window, FC, WINDOW, AdwApplicationWindow)

FcWindow   *fc_window_new          (GtkApplication *application);
void        fc_window_open_file    (FcWindow       *self,
                                    GFile          *file);
void        fc_window_open_load    (FcWindow       *self,
                                    FcFileLoad     *load);
void        fc_window_compare_file (FcWindow       *self,
                                    GFile          *file);
gboolean    fc_window_is_loading   (FcWindow       *self);
gboolean    fc_window_is_empty     (FcWindow       *self);
FcSession  *fc_window_get_session  (FcWindow       *self);
GFile      *fc_window_get_file     (FcWindow       *self);
/* why the last file did not open, or NULL */
const char *fc_window_get_load_error    (FcWindow       *self);
/* the problems the last file's reader reported (fc_reader's lenient mode) */
guint       fc_window_get_n_load_problems (FcWindow     *self);
/* a child of the window's template by its id ("flame_chart",
 * "compare_page"...), as fc_search_bar_get_part(): for tests */
gpointer    fc_window_get_part          (FcWindow       *self,
                                         const char     *id);
/* the Open Recent menu's label for @uri */
char       *fc_window_recent_label      (const char     *uri);

/* recording (fc-window-record.c) */
gboolean     fc_window_record_attach   (FcWindow           *self,
                                        GPid                pid,
                                        GError            **error);
void         fc_window_record_attach_async  (FcWindow           *self,
                                             GPid                pid,
                                             GCancellable       *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer            user_data);
gboolean     fc_window_record_attach_finish (FcWindow           *self,
                                             GAsyncResult       *result,
                                             GError            **error);
gboolean     fc_window_record_spawn    (FcWindow           *self,
                                        const char * const *argv,
                                        const char         *cwd,
                                        GError            **error);
void         fc_window_stop_recording  (FcWindow           *self,
                                        gboolean            end_program);
gboolean     fc_window_is_recording    (FcWindow           *self);
FcRecording *fc_window_get_recording   (FcWindow           *self);
void         fc_window_show_recording  (FcWindow           *self,
                                        FcLiveRecording    *live);
FcLiveRecording *fc_window_get_live_recording (FcWindow    *self);

G_END_DECLS
