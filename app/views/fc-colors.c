/* fc-colors.c - frame colours for the flame views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>

#include "fc-colors.h"

/* Soft, distinct hues that keep black labels readable. */
static const char * const palette[] = {
  "#8fb4f0", "#f5b27d", "#9ad99a", "#e99ac0", "#c7a8f0", "#f0d77c",
  "#7fd3d0", "#f09a8f", "#b5d67f", "#a9b9d6", "#e3b6e8", "#d6c3a1",
};

/* Application frames blue-violet, system frames sand, like Sentry's split. */
static const char * const app_palette[] = { "#7ea6f2", "#92b3f4", "#a49ef0", "#89c0ee" };
static const char * const system_palette[] = { "#e9c58f", "#e1b98a", "#edcf9e", "#d9bf95" };
static const char * const unknown_color = "#c9c9c9";

/* parsed once: a profile has tens of thousands of frames */
static GdkRGBA parsed_palette[G_N_ELEMENTS (palette)];
static GdkRGBA parsed_app[G_N_ELEMENTS (app_palette)];
static GdkRGBA parsed_system[G_N_ELEMENTS (system_palette)];
static GdkRGBA parsed_unknown;

static void
ensure_parsed (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    gdk_rgba_parse (&parsed_palette[i], palette[i]);
  for (guint i = 0; i < G_N_ELEMENTS (app_palette); i++)
    gdk_rgba_parse (&parsed_app[i], app_palette[i]);
  for (guint i = 0; i < G_N_ELEMENTS (system_palette); i++)
    gdk_rgba_parse (&parsed_system[i], system_palette[i]);
  gdk_rgba_parse (&parsed_unknown, unknown_color);

  g_once_init_leave (&done, 1);
}

guint32
fc_colors_stable_hash (const char *str)
{
  /* FNV-1a */
  guint32 hash = 2166136261u;

  if (str == NULL)
    return 0;
  for (const guchar *p = (const guchar *) str; *p != '\0'; p++)
    {
      hash ^= *p;
      hash *= 16777619u;
    }
  return hash;
}

static const char *
non_empty (const char *str)
{
  return str != NULL && str[0] != '\0' ? str : NULL;
}

guint
fc_colors_legend (FcColorMode   mode,
                  const char  **names,
                  GdkRGBA      *colors)
{
  g_return_val_if_fail (names != NULL && colors != NULL, 0);

  ensure_parsed ();
  if (mode != FC_COLOR_MODE_IN_APP)
    return 0;

  names[0] = _("Application");
  colors[0] = parsed_app[0];
  /* frames that do not say they are the application's are drawn as system */
  names[1] = _("System");
  colors[1] = parsed_system[0];
  return 2;
}

void
fc_colors_for_frame (FcProfile   *profile,
                     guint32      frame_id,
                     FcColorMode  mode,
                     GdkRGBA     *color)
{
  const FcFrame *frame;
  const char *key = NULL;
  char buf[64];

  g_return_if_fail (FC_IS_PROFILE (profile));
  g_return_if_fail (color != NULL);

  ensure_parsed ();

  frame = frame_id < fc_profile_get_n_frames (profile) ? fc_profile_get_frame (profile, frame_id) : NULL;
  if (frame == NULL)
    {
      *color = parsed_unknown;
      return;
    }

  switch (mode)
    {
    case FC_COLOR_MODE_PACKAGE:
      key = non_empty (fc_profile_string (profile, frame->package));
      if (key == NULL)
        key = non_empty (fc_profile_string (profile, frame->module));
      if (key == NULL)
        key = non_empty (fc_profile_string (profile, frame->filename));
      *color = key != NULL ? parsed_palette[fc_colors_stable_hash (key) % G_N_ELEMENTS (palette)] : parsed_unknown;
      break;

    case FC_COLOR_MODE_FUNCTION:
      key = fc_profile_frame_label (profile, frame_id, buf, sizeof buf);
      *color = parsed_palette[fc_colors_stable_hash (key) % G_N_ELEMENTS (palette)];
      break;

    case FC_COLOR_MODE_IN_APP:
    default:
      key = fc_profile_frame_label (profile, frame_id, buf, sizeof buf);
      /* like Sentry, a frame that does not say it is the application's is
       * a system frame */
      if (frame->in_app == FC_IN_APP_YES)
        *color = parsed_app[fc_colors_stable_hash (key) % G_N_ELEMENTS (app_palette)];
      else
        *color = parsed_system[fc_colors_stable_hash (key) % G_N_ELEMENTS (system_palette)];
      break;
    }
}

GdkRGBA *
fc_colors_for_profile (FcProfile   *profile,
                       FcColorMode  mode,
                       guint       *n_colors)
{
  guint n;
  GdkRGBA *colors;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  n = fc_profile_get_n_frames (profile);
  colors = g_new (GdkRGBA, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    fc_colors_for_frame (profile, i, mode, &colors[i]);

  if (n_colors != NULL)
    *n_colors = n;
  return colors;
}

void
fc_colors_dim (const GdkRGBA *color,
               gboolean       dark,
               GdkRGBA       *dimmed)
{
  float grey = 0.3f * color->red + 0.59f * color->green + 0.11f * color->blue;
  float toward = dark ? 0.25f : 0.92f;

  dimmed->red = toward + (grey - toward) * 0.25f;
  dimmed->green = dimmed->red;
  dimmed->blue = dimmed->red;
  dimmed->alpha = 1.0f;
}

void
fc_colors_text_for (const GdkRGBA *background,
                    GdkRGBA       *text)
{
  float luma = 0.299f * background->red + 0.587f * background->green + 0.114f * background->blue;

  if (luma > 0.5f)
    *text = (GdkRGBA) { 0.1f, 0.1f, 0.12f, 1.0f };
  else
    *text = (GdkRGBA) { 1.0f, 1.0f, 1.0f, 1.0f };
}
