/* flamecast-screenshots-record.c - README screenshots of recording: the live window, the picker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: flamecast-screenshots-record DIR LIVE-PROGRAM TRACED-PROGRAM
 *
 * Launches LIVE-PROGRAM and records it through the real window for a few
 * seconds (recording.png, taken while recording), then launches
 * TRACED-PROGRAM traced by a recorder of its own, so that the process picker
 * explains why it cannot be attached (record-picker.png). tools/screenshots.sh
 * drives it under Xvfb; nothing here is shipped.
 */

#include <signal.h>
#include <sys/wait.h>

#include "fc-record-dialog.h"
#include "fc-window-private.h"

static void
iterate_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE), g_usleep (5000);
}

static gboolean
save_png (GtkWidget  *window,
          GtkWidget  *content,
          const char *path)
{
  int width = gtk_widget_get_width (content);
  int height = gtk_widget_get_height (content);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (content);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_to_node (snapshot);
  if (node == NULL)
    return FALSE;   /* not painted yet */
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    g_printerr ("screenshot %s: could not save\n", path);
  else
    g_print ("%s\n", path);
  return TRUE;
}

/* a loaded machine may not have painted the window yet: try for a while */
static void
shoot (GtkWidget  *window,
       GtkWidget  *content,
       const char *path)
{
  for (guint i = 0; i < 20; i++)
    {
      if (save_png (window, content, path))
        return;
      iterate_ms (500);
    }
  g_printerr ("screenshot %s: nothing drawn\n", path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcRecorder) tracer = NULL;
  g_autofree char *live_path = NULL;
  g_autofree char *picker_path = NULL;
  const char *live_argv[] = { NULL, NULL };
  const char *traced_argv[] = { NULL, "60", NULL };
  FcWindow *window;
  FcRecordDialog *dialog;
  GPid traced;

  if (argc != 4)
    {
      g_printerr ("usage: flamecast-screenshots-record DIR LIVE-PROGRAM TRACED-PROGRAM\n");
      return 2;
    }
  live_path = g_build_filename (argv[1], "recording.png", NULL);
  picker_path = g_build_filename (argv[1], "record-picker.png", NULL);
  live_argv[0] = argv[2];
  traced_argv[0] = argv[3];

  gtk_init ();
  adw_init ();

  window = fc_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  gtk_window_present (GTK_WINDOW (window));
  if (!fc_window_record_spawn (window, live_argv, NULL, &error))
    {
      g_printerr ("flamecast-screenshots-record: %s\n", error->message);
      return 1;
    }
  iterate_ms (6000);
  shoot (GTK_WIDGET (window), adw_application_window_get_content (ADW_APPLICATION_WINDOW (window)), live_path);

  /* a process someone else already traces: the picker says who, and the fix */
  tracer = fc_recorder_new ();
  if (!fc_recorder_spawn (tracer, traced_argv, NULL, &error))
    {
      g_printerr ("flamecast-screenshots-record: %s\n", error->message);
      return 1;
    }
  traced = fc_recorder_get_pid (tracer);
  dialog = fc_record_dialog_new (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  iterate_ms (2500);   /* two readings: CPU% */
  if (!fc_record_dialog_select_pid (dialog, traced))
    g_printerr ("flamecast-screenshots-record: process %d is not listed\n", traced);
  iterate_ms (800);
  shoot (GTK_WIDGET (dialog), adw_window_get_content (ADW_WINDOW (dialog)), picker_path);

  gtk_window_destroy (GTK_WINDOW (dialog));
  kill (traced, SIGKILL);
  fc_recorder_detach (tracer);
  fc_window_stop_recording (window, TRUE);
  iterate_ms (1500);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
