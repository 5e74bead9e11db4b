/* fc-test-keys.h - real key presses for widget tests: XTest into the Xvfb server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The keys go where a user's would: the X server delivers them to the window
 * with the input focus, GDK turns them into key events, and GTK's shortcuts,
 * key controllers and focus handling take them from there. Nothing is
 * emitted by hand. Needs GDK's X11 backend (Xvfb); the tests that use it are
 * run under xvfb-run.
 */

#pragma once

#include <gtk/gtk.h>
#include <gdk/x11/gdkx.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>

#include "fc-test-util.h"

static inline Display *
fc_test_keys_display (void)
{
  GdkDisplay *display = gdk_display_get_default ();

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  return gdk_x11_display_get_xdisplay (display);
}

static inline gboolean
fc_test_keys_wake_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Iterates for @ms milliseconds: the X server's events reach GDK through the
 * main loop. */
static inline void
fc_test_keys_iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  guint wake = g_timeout_add (10, fc_test_keys_wake_cb, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake);
}

/* Gives @window the X input focus (there is no window manager under Xvfb)
 * and waits until GTK knows it is the active window (at most
 * FC_TEST_DEADLINE_SECONDS: a loaded machine under a sanitizer is slow). */
static inline void
fc_test_keys_focus (GtkWindow *window)
{
  Display *dpy = fc_test_keys_display ();
  GdkSurface *surface;
  gint64 deadline = g_get_monotonic_time () + FC_TEST_DEADLINE_SECONDS * G_USEC_PER_SEC;

  gtk_window_present (window);
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_assert_nonnull (surface);
  /* mapped for GTK may not be viewable for the server yet (BadMatch): again until it takes */
  while (!gtk_window_is_active (window) && g_get_monotonic_time () < deadline)
    {
      gdk_x11_display_error_trap_push (gdk_display_get_default ());
      XRaiseWindow (dpy, gdk_x11_surface_get_xid (surface));
      XSetInputFocus (dpy, gdk_x11_surface_get_xid (surface), RevertToParent, CurrentTime);
      XSync (dpy, False);
      gdk_x11_display_error_trap_pop_ignored (gdk_display_get_default ());
      fc_test_keys_iterate (100);
    }
  g_assert_true (gtk_window_is_active (window));
}

static inline void
fc_test_keys_send_code (Display *dpy,
                        KeySym   keysym,
                        gboolean press)
{
  KeyCode code = XKeysymToKeycode (dpy, keysym);

  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (dpy, code, press, CurrentTime);
}

/* Presses and releases @accel ("<Control><Shift>s", "Escape", "plus",
 * "Return") on the focused window, with the modifiers it names (and Shift
 * where the keyboard needs it for the key, as for "plus"), then lets GTK
 * handle it. */
static inline void
fc_test_keys_press (const char *accel)
{
  Display *dpy = fc_test_keys_display ();
  guint keyval = 0;
  GdkModifierType mods = 0;
  KeyCode code;
  gboolean shift;

  g_assert_true (gtk_accelerator_parse (accel, &keyval, &mods));
  code = XKeysymToKeycode (dpy, keyval);
  g_assert_cmpuint (code, !=, 0);
  /* "plus" sits on the "=" key: shifted */
  shift = (mods & GDK_SHIFT_MASK) != 0 || XkbKeycodeToKeysym (dpy, code, 0, 0) != keyval;

  if (mods & GDK_CONTROL_MASK)
    fc_test_keys_send_code (dpy, XK_Control_L, TRUE);
  if (mods & GDK_ALT_MASK)
    fc_test_keys_send_code (dpy, XK_Alt_L, TRUE);
  if (shift)
    fc_test_keys_send_code (dpy, XK_Shift_L, TRUE);
  XTestFakeKeyEvent (dpy, code, True, CurrentTime);
  XTestFakeKeyEvent (dpy, code, False, CurrentTime);
  if (shift)
    fc_test_keys_send_code (dpy, XK_Shift_L, FALSE);
  if (mods & GDK_ALT_MASK)
    fc_test_keys_send_code (dpy, XK_Alt_L, FALSE);
  if (mods & GDK_CONTROL_MASK)
    fc_test_keys_send_code (dpy, XK_Control_L, FALSE);
  XSync (dpy, False);
  fc_test_keys_iterate (100);
}

/* Types @text (ASCII letters, digits, '-', '.', '/', ' ') key by key. */
static inline void
fc_test_keys_type (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      char name[2] = { *p, '\0' };
      const char *accel = name;

      switch (*p)
        {
        case '-': accel = "minus"; break;
        case '.': accel = "period"; break;
        case '/': accel = "slash"; break;
        case ' ': accel = "space"; break;
        default: break;
        }
      fc_test_keys_press (accel);
    }
}
