/* fc-flame-view.c - what the flamechart, flamegraph and minimap share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>

#include "fc-colors.h"
#include "fc-flame-view.h"
#include "fc-session-view.h"
#include "fc-layout-cache.h"
#include "fc-view-util.h"

typedef struct
{
  /* owned */
  FcSession      *session;
  GSignalGroup   *session_signals;
  GSignalGroup   *axis_signals;    /* the session's FcTimeAxis */
  GCancellable   *layout_cancellable;
  FcFlameLayout  *layout;
  FcFlameFrameCache *frame_cache;  /* the frames of the stacks drawn, across rows and frames */
  GdkRGBA        *colors;          /* per frame, by colour mode */
  GdkRGBA        *draw_colors;     /* per frame, dimmed where the search does not match */
  guint32        *draw_pixels;     /* draw_colors packed for FcRaster */
  guint           n_colors;
  guint8         *search_match;    /* per frame; NULL without search */
  GskRenderNode  *scene;
  PangoLayout    *label_layout;    /* made again when the font changes */
  int             text_height;
  PangoContext   *font_context;    /* the widget's, and its serial, when text was last measured */
  guint           font_serial;
  FcProfile      *shown_profile;   /* to tell a live profile growing from a new one */

  /* what the cached scene was drawn for */
  int             scene_width;
  int             scene_height;
  guint           n_scenes;

  GdkRGBA         accent;
  gboolean        dark;
} FcFlameViewPrivate;

enum {
  PROP_0,
  PROP_LAYOUT,
  N_PROPS,
  /* FcSessionView's */
  PROP_SESSION = N_PROPS,
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (FcFlameView, fc_flame_view, GTK_TYPE_WIDGET,
                                  G_ADD_PRIVATE (FcFlameView)
                                  G_IMPLEMENT_INTERFACE (FC_TYPE_SESSION_VIEW, NULL))

#define PRIV(self) ((FcFlameViewPrivate *) fc_flame_view_get_instance_private (self))

/* ---- colours ---- */

static void
update_draw_colors (FcFlameView *self)
{
  FcFlameViewPrivate *priv = PRIV (self);

  g_clear_pointer (&priv->draw_colors, g_free);
  g_clear_pointer (&priv->draw_pixels, g_free);
  if (priv->colors == NULL)
    return;

  priv->draw_colors = g_memdup2 (priv->colors, sizeof (GdkRGBA) * MAX (priv->n_colors, 1));
  if (priv->search_match != NULL)
    for (guint i = 0; i < priv->n_colors; i++)
      if (!priv->search_match[i])
        fc_colors_dim (&priv->colors[i], priv->dark, &priv->draw_colors[i]);

  /* packed once here rather than for each of tens of thousands of runs per frame */
  priv->draw_pixels = g_new (guint32, MAX (priv->n_colors, 1));
  for (guint i = 0; i < priv->n_colors; i++)
    priv->draw_pixels[i] = fc_raster_pack (&priv->draw_colors[i]);
}

static void
update_colors (FcFlameView *self)
{
  FcFlameViewPrivate *priv = PRIV (self);
  FcProfile *profile = fc_flame_view_get_profile (self);

  g_clear_pointer (&priv->colors, g_free);
  priv->n_colors = 0;
  if (profile != NULL)
    priv->colors = fc_colors_for_profile (profile, fc_session_get_color_mode (priv->session), &priv->n_colors);
  update_draw_colors (self);
  fc_flame_view_invalidate_scene (self);
}

static void
update_search (FcFlameView *self)
{
  FcFlameViewPrivate *priv = PRIV (self);
  FcProfile *profile = fc_flame_view_get_profile (self);

  g_clear_pointer (&priv->search_match, g_free);
  if (profile != NULL)
    priv->search_match = fc_view_search_frames (profile, fc_session_get_search_text (priv->session), NULL);
  update_draw_colors (self);
  fc_flame_view_invalidate_scene (self);

  if (FC_FLAME_VIEW_GET_CLASS (self)->search_changed != NULL)
    FC_FLAME_VIEW_GET_CLASS (self)->search_changed (self);
}

static void
update_dark (FcFlameView *self)
{
  FcFlameViewPrivate *priv = PRIV (self);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  if (dark == priv->dark)
    return;
  priv->dark = dark;
  update_draw_colors (self);
  fc_flame_view_invalidate_scene (self);
}

/* ---- the layout ---- */

static void
set_layout (FcFlameView   *self,
            FcFlameLayout *layout)
{
  FcFlameViewPrivate *priv = PRIV (self);

  if (layout == priv->layout)
    return;

  g_clear_pointer (&priv->layout, fc_flame_layout_unref);
  if (layout != NULL)
    priv->layout = fc_flame_layout_ref (layout);
  /* none: another profile or thread comes, whose frames the cache holds not
   * (a live profile's next layout keeps them) */
  else
    fc_flame_frame_cache_clear (priv->frame_cache);
  fc_flame_view_invalidate_scene (self);
  if (FC_FLAME_VIEW_GET_CLASS (self)->layout_changed != NULL)
    FC_FLAME_VIEW_GET_CLASS (self)->layout_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAYOUT]);
}

static void
layout_ready_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(FcFlameView) self = g_weak_ref_get (weak);
  g_autoptr(FcFlameLayout) layout = NULL;
  g_autoptr(GError) error = NULL;
  FcFlameViewPrivate *priv;

  g_weak_ref_clear (weak);
  g_free (weak);

  layout = fc_layout_cache_request_finish (result, &error);
  /* a widget gone while its layout was computed has nothing to update */
  if (self == NULL)
    return;
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not lay out the %s: %s", gtk_widget_get_css_name (GTK_WIDGET (self)), error->message);
      return;
    }

  /* a newer request replaced this one */
  priv = PRIV (self);
  if (source != G_OBJECT (priv->session) || g_cancellable_is_cancelled (priv->layout_cancellable))
    return;

  set_layout (self, layout);
}

static void
request_layout (FcFlameView *self)
{
  FcFlameViewPrivate *priv = PRIV (self);
  GWeakRef *weak;

  g_cancellable_cancel (priv->layout_cancellable);
  g_clear_object (&priv->layout_cancellable);
  g_clear_object (&priv->label_layout);

  if (!FC_FLAME_VIEW_GET_CLASS (self)->uses_layout || fc_flame_view_get_profile (self) == NULL)
    return;

  weak = g_new0 (GWeakRef, 1);
  priv->layout_cancellable = g_cancellable_new ();
  g_weak_ref_init (weak, self);
  fc_layout_cache_request (priv->session, priv->layout_cancellable, layout_ready_cb, weak);
}

static void
reload (FcFlameView *self,
        gboolean     new_profile)
{
  FcFlameViewPrivate *priv = PRIV (self);

  g_cancellable_cancel (priv->layout_cancellable);
  g_clear_object (&priv->layout_cancellable);

  set_layout (self, NULL);
  if (new_profile)
    {
      g_set_object (&priv->shown_profile, fc_flame_view_get_profile (self));
      update_colors (self);
      g_clear_pointer (&priv->search_match, g_free);
      update_search (self);
    }

  if (FC_FLAME_VIEW_GET_CLASS (self)->reload != NULL)
    FC_FLAME_VIEW_GET_CLASS (self)->reload (self);

  request_layout (self);
}

static void
profile_changed_cb (FcFlameView *self)
{
  FcFlameViewPrivate *priv = PRIV (self);
  FcProfile *profile = fc_flame_view_get_profile (self);

  /* A live profile grew (several times a second): what is shown stays until
   * the layout of the grown profile replaces it, colours and search are
   * redone only for new frames, and the new layout is the worker's. */
  if (profile != NULL && profile == priv->shown_profile)
    {
      if (fc_profile_get_n_frames (profile) != priv->n_colors)
        {
          update_colors (self);
          update_search (self);
        }
      request_layout (self);
      return;
    }
  reload (self, TRUE);
}

static void
thread_changed_cb (FcFlameView *self)
{
  reload (self, FALSE);
}

/* ---- drawing ---- */

void
fc_flame_view_invalidate_scene (FcFlameView *self)
{
  g_return_if_fail (FC_IS_FLAME_VIEW (self));

  g_clear_pointer (&PRIV (self)->scene, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GskRenderNode *
fc_flame_view_render_scene (FcFlameView *self,
                            int          width,
                            int          height)
{
  g_autoptr(GtkSnapshot) snapshot = NULL;

  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  snapshot = gtk_snapshot_new ();
  FC_FLAME_VIEW_GET_CLASS (self)->render_scene (self, snapshot, width, height);
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

guint
fc_flame_view_get_n_scenes (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), 0);
  return PRIV (self)->n_scenes;
}

void
fc_flame_view_draw_outline (GtkSnapshot           *snapshot,
                            const graphene_rect_t *bounds,
                            const GdkRGBA         *color,
                            float                  thickness)
{
  GskRoundedRect outline;
  const float widths[4] = { thickness, thickness, thickness, thickness };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&outline, bounds, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

/* TRUE (once) when the widget's font changed since the text was measured:
 * a new style's font, or the display's resolution or font options. A style
 * change that alters nothing drawn (the window gaining or losing focus
 * toggles :backdrop) must not record the scene again: that is a whole
 * profile's boxes. */
static gboolean
font_changed (FcFlameView *self)
{
  FcFlameViewPrivate *priv = PRIV (self);
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));

  if (context == priv->font_context && pango_context_get_serial (context) == priv->font_serial)
    return FALSE;

  g_set_object (&priv->font_context, context);
  priv->font_serial = pango_context_get_serial (context);
  g_clear_object (&priv->label_layout);
  if (FC_FLAME_VIEW_GET_CLASS (self)->font_changed != NULL)
    FC_FLAME_VIEW_GET_CLASS (self)->font_changed (self);
  return TRUE;
}

static void
fc_flame_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  FcFlameView *self = FC_FLAME_VIEW (widget);
  FcFlameViewPrivate *priv = PRIV (self);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (width <= 0 || height <= 0)
    return;

  if (font_changed (self))
    g_clear_pointer (&priv->scene, gsk_render_node_unref);
  if (priv->scene == NULL || priv->scene_width != width || priv->scene_height != height)
    {
      g_clear_pointer (&priv->scene, gsk_render_node_unref);
      priv->scene = fc_flame_view_render_scene (self, width, height);
      priv->scene_width = width;
      priv->scene_height = height;
      priv->n_scenes++;
    }
  if (priv->scene != NULL)
    gtk_snapshot_append_node (snapshot, priv->scene);

  if (FC_FLAME_VIEW_GET_CLASS (self)->snapshot_overlay != NULL)
    FC_FLAME_VIEW_GET_CLASS (self)->snapshot_overlay (self, snapshot, width, height);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    gtk_widget_snapshot_child (widget, child, snapshot);
}

static void
fc_flame_view_css_changed (GtkWidget         *widget,
                           GtkCssStyleChange *change)
{
  FcFlameView *self = FC_FLAME_VIEW (widget);
  FcFlameViewPrivate *priv = PRIV (self);
  GdkRGBA accent;

  /* first: GTK brings the widget's font up to date */
  GTK_WIDGET_CLASS (fc_flame_view_parent_class)->css_changed (widget, change);

  /* libadwaita's stylesheet names the accent; other themes get its default */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "accent_bg_color", &accent))
    accent = (GdkRGBA) { 0.21f, 0.52f, 0.89f, 1.0f };
G_GNUC_END_IGNORE_DEPRECATIONS
  if (font_changed (self) | !gdk_rgba_equal (&accent, &priv->accent))
    {
      priv->accent = accent;
      fc_flame_view_invalidate_scene (self);
    }
}

/* ---- accessors ---- */

FcSession *
fc_flame_view_get_session (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->session;
}

void
fc_flame_view_set_session (FcFlameView *self,
                           FcSession   *session)
{
  FcFlameViewPrivate *priv;

  g_return_if_fail (FC_IS_FLAME_VIEW (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  priv = PRIV (self);
  if (!g_set_object (&priv->session, session))
    return;

  g_signal_group_set_target (priv->session_signals, session);
  g_signal_group_set_target (priv->axis_signals, session != NULL ? fc_session_get_time_axis (session) : NULL);
  reload (self, TRUE);
  fc_session_view_notify (FC_SESSION_VIEW (self));
}

FcProfile *
fc_flame_view_get_profile (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->session != NULL ? fc_session_get_profile (PRIV (self)->session) : NULL;
}

FcFlameLayout *
fc_flame_view_get_layout (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->layout;
}

FcFlameFrameCache *
fc_flame_view_get_frame_cache (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->frame_cache;
}

const GdkRGBA *
fc_flame_view_get_colors (FcFlameView *self,
                          guint       *n_colors)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);

  if (n_colors != NULL)
    *n_colors = PRIV (self)->n_colors;
  return PRIV (self)->colors;
}

const GdkRGBA *
fc_flame_view_get_draw_colors (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->draw_colors;
}

const guint32 *
fc_flame_view_get_draw_pixels (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->draw_pixels;
}

const guint8 *
fc_flame_view_get_search_match (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->search_match;
}

gboolean
fc_flame_view_is_dark (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), FALSE);
  return PRIV (self)->dark;
}

const GdkRGBA *
fc_flame_view_get_accent (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return &PRIV (self)->accent;
}

void
fc_flame_view_get_hover_color (FcFlameView *self,
                               GdkRGBA     *color)
{
  g_return_if_fail (FC_IS_FLAME_VIEW (self));

  *color = PRIV (self)->dark ? (GdkRGBA) { 1, 1, 1, 0.9f } : (GdkRGBA) { 0, 0, 0, 0.75f };
}

GSignalGroup *
fc_flame_view_get_session_signals (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->session_signals;
}

/* for subclasses: follow the session's time axis here */
GSignalGroup *
fc_flame_view_get_axis_signals (FcFlameView *self)
{
  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);
  return PRIV (self)->axis_signals;
}

/* ---- GObject ---- */

static void
fc_flame_view_dispose (GObject *object)
{
  FcFlameView *self = FC_FLAME_VIEW (object);
  FcFlameViewPrivate *priv = PRIV (self);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_cancellable_cancel (priv->layout_cancellable);
  g_clear_object (&priv->layout_cancellable);
  if (priv->session_signals != NULL)
    g_signal_group_set_target (priv->session_signals, NULL);
  g_clear_object (&priv->session_signals);
  if (priv->axis_signals != NULL)
    g_signal_group_set_target (priv->axis_signals, NULL);
  g_clear_object (&priv->axis_signals);
  g_clear_object (&priv->session);
  g_clear_object (&priv->shown_profile);
  g_clear_pointer (&priv->layout, fc_flame_layout_unref);
  g_clear_pointer (&priv->scene, gsk_render_node_unref);
  g_clear_object (&priv->label_layout);
  g_clear_object (&priv->font_context);

  G_OBJECT_CLASS (fc_flame_view_parent_class)->dispose (object);
}

static void
fc_flame_view_finalize (GObject *object)
{
  FcFlameViewPrivate *priv = PRIV (FC_FLAME_VIEW (object));

  g_clear_pointer (&priv->colors, g_free);
  g_clear_pointer (&priv->draw_colors, g_free);
  g_clear_pointer (&priv->draw_pixels, g_free);
  g_clear_pointer (&priv->search_match, g_free);
  g_clear_pointer (&priv->frame_cache, fc_flame_frame_cache_free);

  G_OBJECT_CLASS (fc_flame_view_parent_class)->finalize (object);
}

static void
fc_flame_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  FcFlameView *self = FC_FLAME_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, PRIV (self)->session);
      break;
    case PROP_LAYOUT:
      g_value_set_boxed (value, PRIV (self)->layout);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_flame_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  FcFlameView *self = FC_FLAME_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_flame_view_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* ---- labels ---- */

PangoLayout *
fc_flame_view_get_label_layout (FcFlameView *self,
                                int         *text_height)
{
  FcFlameViewPrivate *priv;

  g_return_val_if_fail (FC_IS_FLAME_VIEW (self), NULL);

  priv = PRIV (self);
  if (priv->label_layout == NULL)
    {
      priv->label_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "Ag");
      pango_layout_get_pixel_size (priv->label_layout, NULL, &priv->text_height);
      pango_layout_set_ellipsize (priv->label_layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_single_paragraph_mode (priv->label_layout, TRUE);
    }
  if (text_height != NULL)
    *text_height = priv->text_height;
  return priv->label_layout;
}

void
fc_flame_view_draw_label (FcFlameView   *self,
                          GtkSnapshot   *snapshot,
                          const char    *text,
                          double         x,
                          double         y,
                          double         width,
                          const GdkRGBA *color)
{
  PangoLayout *layout = fc_flame_view_get_label_layout (self, NULL);

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/* ---- zoom ---- */

static void
zoom_action_cb (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  FcFlameViewClass *klass = FC_FLAME_VIEW_GET_CLASS (widget);
  int step = g_str_has_suffix (action_name, ".zoom-in") ? 1 : g_str_has_suffix (action_name, ".zoom-out") ? -1 : 0;

  if (klass->zoom != NULL)
    klass->zoom (FC_FLAME_VIEW (widget), step);
}

void
fc_flame_view_class_add_zoom_actions (FcFlameViewClass *klass,
                                      const char       *prefix)
{
  static const struct { const char *action; guint keys[3]; } zoom[] = {
    { "zoom-in", { GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add } },
    { "zoom-out", { GDK_KEY_minus, GDK_KEY_KP_Subtract } },
    { "zoom-reset", { GDK_KEY_0, GDK_KEY_KP_0 } },
  };
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  for (guint i = 0; i < G_N_ELEMENTS (zoom); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.%s", prefix, zoom[i].action);

      gtk_widget_class_install_action (widget_class, name, NULL, zoom_action_cb);
      for (guint k = 0; k < G_N_ELEMENTS (zoom[i].keys) && zoom[i].keys[k] != 0; k++)
        gtk_widget_class_add_binding_action (widget_class, zoom[i].keys[k], 0, name, NULL);
    }
}

static void
fc_flame_view_class_init (FcFlameViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_flame_view_dispose;
  object_class->finalize = fc_flame_view_finalize;
  object_class->get_property = fc_flame_view_get_property;
  object_class->set_property = fc_flame_view_set_property;

  widget_class->snapshot = fc_flame_view_snapshot;
  widget_class->css_changed = fc_flame_view_css_changed;

  properties[PROP_LAYOUT] =
    g_param_spec_boxed ("layout", NULL, NULL,
                        FC_TYPE_FLAME_LAYOUT,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
  fc_session_view_class_override (object_class, PROP_SESSION);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
fc_flame_view_init (FcFlameView *self)
{
  FcFlameViewPrivate *priv = PRIV (self);

  priv->accent = (GdkRGBA) { 0.21f, 0.52f, 0.89f, 1.0f };
  priv->frame_cache = fc_flame_frame_cache_new ();
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  priv->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  priv->axis_signals = g_signal_group_new (FC_TYPE_TIME_AXIS);
  g_signal_group_connect_swapped (priv->session_signals, "notify::profile", G_CALLBACK (profile_changed_cb), self);
  g_signal_group_connect_swapped (priv->session_signals, "notify::thread", G_CALLBACK (thread_changed_cb), self);
  g_signal_group_connect_swapped (priv->session_signals, "notify::color-mode", G_CALLBACK (update_colors), self);
  g_signal_group_connect_swapped (priv->session_signals, "notify::search-text", G_CALLBACK (update_search), self);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_dark), self, G_CONNECT_SWAPPED);
  priv->dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
}
