/* fc-renderer.c - choosing GTK's renderer where GL is only emulated
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <string.h>

#include "fc-renderer.h"

static gboolean
is_software_renderer (const char *name)
{
  static const char * const software[] = { "llvmpipe", "softpipe", "swrast", "SWR", NULL };

  for (guint i = 0; software[i] != NULL; i++)
    if (strstr (name, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

/**
 * fc_renderer_prefer_cairo_on_software_gl:
 *
 * In virtual machines and under Xvfb, GL is Mesa's CPU emulation: GTK 4.8's
 * GL renderer then spends 100-460 ms per frame on a flamechart that the
 * cairo renderer draws in a few milliseconds. Call before the first window
 * is realized (GTK reads GSK_RENDERER once); a GSK_RENDERER the user set is
 * left alone.
 *
 * Returns: %TRUE when it chose the cairo renderer
 */
gboolean
fc_renderer_prefer_cairo_on_software_gl (void)
{
  g_autoptr(GdkGLContext) context = NULL;
  GdkDisplay *display;
  const char *name;
  gboolean software;

  if (g_getenv ("GSK_RENDERER") != NULL)
    return FALSE;

  display = gdk_display_get_default ();
  if (display == NULL)
    return FALSE;

  /* Without GL at all, GTK falls back to cairo by itself. */
  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return FALSE;

  gdk_gl_context_make_current (context);
  name = (const char *) glGetString (GL_RENDERER);
  software = name != NULL && is_software_renderer (name);
  g_debug ("GL renderer: %s%s", name ? name : "(unknown)", software ? ", drawing with cairo" : "");
  gdk_gl_context_clear_current ();

  if (software)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);

  return software;
}
