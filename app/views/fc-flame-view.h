/* fc-flame-view.h - what the flamechart, flamegraph and minimap share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-flame-layout.h"
#include "fc-session.h"

G_BEGIN_DECLS

/*
 * An abstract widget bound to an FcSession. It follows the session's
 * profile, thread, colour mode and search text; keeps the per-frame colours
 * (dimmed where the search does not match, for light or dark style from
 * AdwStyleManager) and the accent colour from CSS; requests the thread's
 * FcFlameLayout on a worker when the class asks for one; and caches the
 * scene a subclass records in render_scene() until it is invalidated or the
 * size changes, drawing only snapshot_overlay() (hover, selection) on top
 * each frame. Children (the flamechart's time ruler) are drawn last.
 */

#define FC_TYPE_FLAME_VIEW (fc_flame_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (FcFlameView, fc_flame_view, FC, FLAME_VIEW, GtkWidget)

struct _FcFlameViewClass
{
  GtkWidgetClass parent_class;

  /* records the cached scene; called only when there is none */
  void (*render_scene)     (FcFlameView *self,
                            GtkSnapshot *snapshot,
                            int          width,
                            int          height);
  /* drawn over the cached scene every frame */
  void (*snapshot_overlay) (FcFlameView *self,
                            GtkSnapshot *snapshot,
                            int          width,
                            int          height);
  /* the session, its profile or its thread changed; the layout is dropped */
  void (*reload)           (FcFlameView *self);
  /* a layout arrived, or was dropped */
  void (*layout_changed)   (FcFlameView *self);
  /* the search text changed (the dimmed colours are already updated) */
  void (*search_changed)   (FcFlameView *self);
  /* the widget's font (family, size, resolution, options) changed: text
   * measured with the old one is wrong */
  void (*font_changed)     (FcFlameView *self);
  /* the zoom actions (fc_flame_view_class_add_zoom_actions()): @step 1
   * zooms in, -1 out, 0 back to the whole */
  void (*zoom)             (FcFlameView *self,
                            int          step);

  /* request the session thread's FcFlameLayout */
  gboolean uses_layout;
};

FcSession      *fc_flame_view_get_session         (FcFlameView   *self);
void            fc_flame_view_set_session         (FcFlameView   *self,
                                                   FcSession     *session);
/* the session's profile, or NULL */
FcProfile      *fc_flame_view_get_profile         (FcFlameView   *self);
FcFlameLayout  *fc_flame_view_get_layout          (FcFlameView   *self);
/* for fc_flame_row_iter_init(): kept across rows and frames, one per view */
FcFlameFrameCache *fc_flame_view_get_frame_cache  (FcFlameView   *self);
/* per frame id, by colour mode; NULL without a profile */
const GdkRGBA  *fc_flame_view_get_colors          (FcFlameView   *self,
                                                   guint         *n_colors);
/* the same, dimmed where the search does not match, and packed for FcRaster */
const GdkRGBA  *fc_flame_view_get_draw_colors     (FcFlameView   *self);
const guint32  *fc_flame_view_get_draw_pixels     (FcFlameView   *self);
/* one byte per frame, 1 where it matches the search; NULL without search */
const guint8   *fc_flame_view_get_search_match    (FcFlameView   *self);
gboolean        fc_flame_view_is_dark             (FcFlameView   *self);
/* the selection colour */
const GdkRGBA  *fc_flame_view_get_accent          (FcFlameView   *self);
/* hover outlines: light on dark, dark on light */
void            fc_flame_view_get_hover_color     (FcFlameView   *self,
                                                   GdkRGBA       *color);
void            fc_flame_view_invalidate_scene    (FcFlameView   *self);
/* records a new scene of @width x @height and returns it (for tests and
 * benchmarks; the widget keeps its own) */
GskRenderNode  *fc_flame_view_render_scene        (FcFlameView   *self,
                                                   int            width,
                                                   int            height);
/* how many scenes the widget recorded for itself: a count for tests and
 * benchmarks of when it draws everything again */
guint           fc_flame_view_get_n_scenes        (FcFlameView   *self);
/* the layout labels are written with: the widget's font, one line,
 * ellipsized at the end; made again after a style change. @text_height
 * (nullable): the height of its line in pixels */
PangoLayout    *fc_flame_view_get_label_layout    (FcFlameView   *self,
                                                   int           *text_height);
/* @text in the label layout, cut to @width, its top left at (@x, @y) */
void            fc_flame_view_draw_label          (FcFlameView   *self,
                                                   GtkSnapshot   *snapshot,
                                                   const char    *text,
                                                   double         x,
                                                   double         y,
                                                   double         width,
                                                   const GdkRGBA *color);
/* For subclasses: installs PREFIX.zoom-in, PREFIX.zoom-out and
 * PREFIX.zoom-reset, which call the class's zoom(), on the keys every
 * flame view zooms with: + = and keypad +, - and keypad -, 0 and keypad 0. */
void            fc_flame_view_class_add_zoom_actions (FcFlameViewClass *klass,
                                                      const char       *prefix);
/* for subclasses: connect more session signals here */
GSignalGroup   *fc_flame_view_get_session_signals (FcFlameView   *self);
/* for subclasses: connect to the session's FcTimeAxis ("changed") here */
GSignalGroup   *fc_flame_view_get_axis_signals    (FcFlameView   *self);

void            fc_flame_view_draw_outline        (GtkSnapshot           *snapshot,
                                                   const graphene_rect_t *bounds,
                                                   const GdkRGBA         *color,
                                                   float                  thickness);

G_END_DECLS
