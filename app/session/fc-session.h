/* fc-session.h - what the user is looking at: document, thread, time ranges, search, colours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "flamecast.h"
#include "fc-time-axis.h"

G_BEGIN_DECLS

typedef enum {
  FC_COLOR_MODE_IN_APP,     /* application vs system frames */
  FC_COLOR_MODE_PACKAGE,    /* by package / module */
  FC_COLOR_MODE_FUNCTION,   /* by function name, stable hash */
} FcColorMode;

#define FC_SESSION_ALL_THREADS FC_VIEW_ALL_THREADS
#define FC_SESSION_NO_FRAME    G_MAXUINT

#define FC_TYPE_COLOR_MODE   (fc_color_mode_get_type ())
GType fc_color_mode_get_type   (void) G_GNUC_CONST;

#define FC_TYPE_SESSION (fc_session_get_type ())
G_DECLARE_FINAL_TYPE (FcSession, fc_session, FC, SESSION, GObject)

/* what the session derives from its profile and owns (fc-layout-cache.h, fc-session-tree.h) */
typedef struct _FcLayoutCache FcLayoutCache;
typedef struct _FcSessionTree FcSessionTree;

FcSession     *fc_session_new                   (void);

FcDocument    *fc_session_get_document          (FcSession     *self);
void           fc_session_set_document          (FcSession     *self,
                                                 FcDocument    *document);
void           fc_session_set_document_full     (FcSession     *self,
                                                 FcDocument    *document,
                                                 FcProfile     *merged_profile,
                                                 const FcViewStart *start);
void           fc_session_set_document_keep_thread (FcSession  *self,
                                                 FcDocument    *document,
                                                 FcProfile     *merged_profile);
FcProfile     *fc_session_get_profile           (FcSession     *self);

GPtrArray     *fc_session_get_spans             (FcSession     *self);
void           fc_session_set_spans             (FcSession     *self,
                                                 GPtrArray     *spans);

gint           fc_session_get_default_thread    (FcSession     *self);
gint           fc_session_get_thread            (FcSession     *self);
void           fc_session_set_thread            (FcSession     *self,
                                                 gint           thread);

gint64         fc_session_get_visible_begin_ns  (FcSession     *self);
gint64         fc_session_get_visible_end_ns    (FcSession     *self);
void           fc_session_set_visible_range     (FcSession     *self,
                                                 gint64         begin_ns,
                                                 gint64         end_ns);
void           fc_session_zoom_to               (FcSession     *self,
                                                 gint64         begin_ns,
                                                 gint64         end_ns);
void           fc_session_reset_view            (FcSession     *self);
FcTimeAxis    *fc_session_get_time_axis         (FcSession     *self);
void           fc_session_get_thread_range      (FcSession     *self,
                                                 gint64        *begin_ns,
                                                 gint64        *end_ns);

gint64         fc_session_get_selection_begin_ns (FcSession    *self);
gint64         fc_session_get_selection_end_ns  (FcSession     *self);
void           fc_session_set_selection         (FcSession     *self,
                                                 gint64         begin_ns,
                                                 gint64         end_ns);
gboolean       fc_session_has_selection         (FcSession     *self);

const char    *fc_session_get_search_text       (FcSession     *self);
void           fc_session_set_search_text       (FcSession     *self,
                                                 const char    *search_text);

FcColorMode    fc_session_get_color_mode        (FcSession     *self);
void           fc_session_set_color_mode        (FcSession     *self,
                                                 FcColorMode    color_mode);

FcFrameFilter  fc_session_get_frame_filter      (FcSession     *self);
void           fc_session_set_frame_filter      (FcSession     *self,
                                                 FcFrameFilter  frame_filter);

guint          fc_session_get_selected_frame    (FcSession     *self);
void           fc_session_set_selected_frame    (FcSession     *self,
                                                 guint          frame);

FcSessionTree *fc_session_get_call_tree         (FcSession     *self);
FcLayoutCache *fc_session_get_layouts           (FcSession     *self);

/* how much of a live recording a following view shows */
#define FC_SESSION_LIVE_WINDOW_NS (10 * G_GINT64_CONSTANT (1000000000))
void           fc_session_profile_grew          (FcSession     *self,
                                                 gboolean       follow);

G_END_DECLS
