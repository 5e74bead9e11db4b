/* fc-view-util.c - text and search helpers shared by the flame views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "fc-view-util.h"

char *
fc_view_format_duration (gint64 ns)
{
  double v = (double) ns;

  if (ns < 0)
    v = -v;
  if (v < 1e3)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  if (v < 1e6)
    return g_strdup_printf ("%.1f µs", ns / 1e3);
  if (v < 1e9)
    return g_strdup_printf ("%.2f ms", ns / 1e6);
  if (v < 60e9)
    return g_strdup_printf ("%.2f s", ns / 1e9);
  return g_strdup_printf ("%d min %.1f s", (int) (ns / 60000000000), (ns % 60000000000) / 1e9);
}

static const char *
non_empty (const char *str)
{
  return str != NULL && str[0] != '\0' ? str : NULL;
}

char *
fc_view_frame_tooltip (FcProfile  *profile,
                       guint32     frame_id,
                       gint64      duration_ns,
                       gint64      reference_ns,
                       const char *reference_label)
{
  g_autoptr(GString) str = g_string_new (NULL);
  g_autofree char *duration = NULL;
  g_autofree char *escaped = NULL;
  const FcFrame *frame;
  const char *where;
  const char *file;
  char buf[64];

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  if (frame_id >= fc_profile_get_n_frames (profile))
    return NULL;

  frame = fc_profile_get_frame (profile, frame_id);
  escaped = g_markup_escape_text (fc_profile_frame_label (profile, frame_id, buf, sizeof buf), -1);
  g_string_append_printf (str, "<b>%s</b>", escaped);
  g_clear_pointer (&escaped, g_free);

  where = non_empty (fc_profile_string (profile, frame->module));
  if (where == NULL)
    where = non_empty (fc_profile_string (profile, frame->package));
  if (where != NULL)
    {
      escaped = g_markup_escape_text (where, -1);
      g_string_append_printf (str, "\n%s", escaped);
      g_clear_pointer (&escaped, g_free);
    }

  file = non_empty (fc_profile_string (profile, frame->filename));
  if (file == NULL)
    file = non_empty (fc_profile_string (profile, frame->abs_path));
  if (file != NULL)
    {
      escaped = g_markup_escape_text (file, -1);
      if (frame->lineno != FC_LINE_NONE)
        g_string_append_printf (str, "\n%s:%d", escaped, frame->lineno);
      else
        g_string_append_printf (str, "\n%s", escaped);
      g_clear_pointer (&escaped, g_free);
    }
  else if (frame->has_instruction_addr)
    g_string_append_printf (str, "\n0x%" G_GINT64_MODIFIER "x", frame->instruction_addr);

  g_string_append_printf (str, "\n%s", frame->in_app == FC_IN_APP_YES ? _("Application frame")
                                       : frame->in_app == FC_IN_APP_NO ? _("System frame")
                                       : _("Frame of unknown origin"));

  duration = fc_view_format_duration (duration_ns);
  if (reference_ns > 0)
    /* Translators: "12.5 ms (25.0% of the visible range)" */
    g_string_append_printf (str, "\n%s (%.1f%% %s)", duration,
                            100.0 * (double) duration_ns / (double) reference_ns,
                            reference_label ? reference_label : "");
  else
    g_string_append_printf (str, "\n%s", duration);

  return g_string_free (g_steal_pointer (&str), FALSE);
}

static gboolean
contains (FcProfile  *profile,
          guint32     id,
          const char *needle)
{
  const char *s = fc_profile_string (profile, id);
  g_autofree char *folded = NULL;

  if (s == NULL || s[0] == '\0')
    return FALSE;
  folded = g_utf8_casefold (s, -1);
  return strstr (folded, needle) != NULL;
}

guint8 *
fc_view_search_frames (FcProfile  *profile,
                       const char *text,
                       guint      *n_matching)
{
  g_autofree char *needle = NULL;
  guint8 *match;
  guint n;
  guint count = 0;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  if (n_matching != NULL)
    *n_matching = 0;
  if (text == NULL || text[0] == '\0')
    return NULL;

  needle = g_utf8_casefold (text, -1);
  n = fc_profile_get_n_frames (profile);
  match = g_new0 (guint8, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const FcFrame *frame = fc_profile_get_frame (profile, i);
      char buf[64];
      g_autofree char *label = g_utf8_casefold (fc_profile_frame_label (profile, i, buf, sizeof buf), -1);

      match[i] = strstr (label, needle) != NULL ||
                 contains (profile, frame->module, needle) ||
                 contains (profile, frame->package, needle) ||
                 contains (profile, frame->filename, needle);
      count += match[i];
    }

  if (n_matching != NULL)
    *n_matching = count;
  return match;
}

gboolean
fc_view_is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
G_GNUC_END_IGNORE_DEPRECATIONS

  /* light text means a dark background */
  return 0.299f * fg.red + 0.587f * fg.green + 0.114f * fg.blue > 0.5f;
}

void
fc_raster_init (FcRaster *raster,
                double    width,
                double    height,
                double    scale)
{
  raster->scale = MAX (1.0, scale);
  raster->width = MAX (1, (int) ceil (width * raster->scale));
  raster->height = MAX (1, (int) ceil (height * raster->scale));
  raster->pixels = g_malloc0 ((gsize) raster->width * raster->height * sizeof (guint32));
}

guint32
fc_raster_pack (const GdkRGBA *color)
{
  guint a = (guint) (CLAMP (color->alpha, 0.f, 1.f) * 255 + 0.5f);
  guint r = (guint) (CLAMP (color->red, 0.f, 1.f) * a + 0.5f);
  guint g = (guint) (CLAMP (color->green, 0.f, 1.f) * a + 0.5f);
  guint b = (guint) (CLAMP (color->blue, 0.f, 1.f) * a + 0.5f);

  return GUINT32_TO_LE ((a << 24) | (r << 16) | (g << 8) | b);
}

void
fc_raster_fill (FcRaster *raster,
                guint32   pixel,
                double    x0,
                double    y0,
                double    x1,
                double    y1)
{
  int px0 = (int) floor (x0 * raster->scale + 0.5);
  int px1 = (int) floor (x1 * raster->scale + 0.5);
  int py0 = (int) floor (y0 * raster->scale + 0.5);
  int py1 = (int) floor (y1 * raster->scale + 0.5);
  guint32 *first;

  if (px1 <= px0)
    px1 = px0 + 1;
  if (py1 <= py0)
    py1 = py0 + 1;
  px0 = MAX (px0, 0);
  px1 = MIN (px1, raster->width);
  py0 = MAX (py0, 0);
  py1 = MIN (py1, raster->height);
  if (px0 >= px1 || py0 >= py1)
    return;

  first = &raster->pixels[(gsize) py0 * raster->width];
  for (int x = px0; x < px1; x++)
    first[x] = pixel;
  for (int y = py0 + 1; y < py1; y++)
    memcpy (&raster->pixels[(gsize) y * raster->width + px0], &first[px0], sizeof (guint32) * (px1 - px0));
}

GdkTexture *
fc_raster_to_texture (FcRaster *raster)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize stride = (gsize) raster->width * sizeof (guint32);

  bytes = g_bytes_new_take (g_steal_pointer (&raster->pixels), stride * raster->height);
  return gdk_memory_texture_new (raster->width, raster->height, GDK_MEMORY_DEFAULT, bytes, stride);
}
