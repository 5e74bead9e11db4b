/* fc-screenshot-send.c - README screenshots of the send preview, the preferences and the outbox
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run after fc-screenshot.c's views, in the same hidden mode
 * (FLAMECAST_SCREENSHOT_DIR, tools/screenshots.sh): each window is rendered
 * with its own GskRenderer. The DSN is a made-up one set in the settings
 * the script runs with (memory backend), and the outbox shown is a private
 * one in the screenshot directory, seeded with a rate-limited and a
 * rejected envelope: nothing is sent and the user's outbox is not touched.
 */

#include <glib/gi18n.h>
#include <string.h>

#include "fc-app-settings.h"
#include "fc-outbox-window.h"
#include "fc-preferences-window.h"
#include "fc-screenshot.h"
#include "fc-send-dialog.h"
#include "fc-window-private.h"

#define STEP_MS 1000
#define DEMO_DSN "https://4f1c2b7e9d0a4c3b8e6f5a1d2c3b4a59@o450123.ingest.sentry.io/4505371"

typedef struct {
  FcWindow  *window;      /* owned */
  GtkWindow *current;     /* owned */
  char      *directory;
  char      *outbox_dir;
  guint      step;
} Shooter;

static void
shooter_free (Shooter *shooter)
{
  if (shooter->current != NULL)
    gtk_window_destroy (shooter->current);
  g_clear_object (&shooter->current);
  g_clear_object (&shooter->window);
  g_free (shooter->directory);
  g_free (shooter->outbox_dir);
  g_free (shooter);
}

static void
save_window_png (GtkWindow  *window,
                 const char *directory,
                 const char *name)
{
  GtkWidget *content = adw_window_get_content (ADW_WINDOW (window));
  int width = gtk_widget_get_width (content);
  int height = gtk_widget_get_height (content);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (content);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_build_filename (directory, name, NULL);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_to_node (snapshot);
  if (node == NULL)
    {
      g_printerr ("screenshot %s: nothing drawn\n", path);
      return;
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    g_printerr ("screenshot %s: could not save\n", path);
  else
    g_print ("%s\n", path);
}

static void
show (Shooter   *shooter,
      GtkWindow *window,
      int        width,
      int        height)
{
  if (shooter->current != NULL)
    gtk_window_destroy (shooter->current);
  g_clear_object (&shooter->current);
  shooter->current = g_object_ref (window);
  gtk_window_set_default_size (window, width, height);
  gtk_window_present (window);
}

/* Only their item types and sizes show. */
#define SEED_CHUNK "{}\n{\"type\":\"profile_chunk\",\"platform\":\"native\"}\n{}\n"
#define SEED_V1    "{}\n{\"type\":\"transaction\"}\n{}\n{\"type\":\"profile\"}\n{}\n"

static FcOutbox *
seed_outbox (const char *dir)
{
  FcOutbox *outbox = fc_outbox_new (dir);
  g_autoptr(GBytes) chunk = NULL;
  g_autoptr(GBytes) v1 = NULL;
  g_autofree char *waiting = NULL;
  g_autofree char *rejected = NULL;
  g_autofree char *note = NULL;
  g_autoptr(GDateTime) later = g_date_time_new_now_local ();
  g_autoptr(GDateTime) until = g_date_time_add_seconds (later, 47);
  g_autofree char *at = g_date_time_format (until, "%H:%M:%S");

  chunk = g_bytes_new_static (SEED_CHUNK, strlen (SEED_CHUNK));
  v1 = g_bytes_new_static (SEED_V1, strlen (SEED_V1));
  /* for DEMO_DSN's project, where the Outbox page flushes */
  waiting = fc_outbox_add (outbox, chunk, "https://o450123.ingest.sentry.io/4505371", NULL);
  note = g_strdup_printf ("rate limited by Sentry for “profile_chunk” until %s", at);
  if (waiting != NULL)
    fc_outbox_set_note (outbox, waiting, note);
  rejected = fc_outbox_add (outbox, v1, "https://o450123.ingest.sentry.io/4505371", NULL);
  if (rejected != NULL)
    fc_outbox_reject (outbox, rejected,
                      "rejected by Sentry (HTTP 400: invalid transaction: the transaction has no trace context)", NULL);
  return outbox;
}

static gboolean
step_cb (gpointer user_data)
{
  Shooter *shooter = user_data;
  FcWindow *window = shooter->window;

  switch (shooter->step++)
    {
    case 0:
      {
        g_autoptr(GSettings) settings = fc_app_settings_new ();

        g_settings_set_string (settings, "dsn", DEMO_DSN);
        g_settings_set_string (settings, "release", "bench-write@0.1.0");
        g_settings_set_string (settings, "environment", "staging");
        show (shooter, GTK_WINDOW (fc_send_dialog_new (GTK_WINDOW (window), window->toast_overlay,
                                                       fc_session_get_document (window->session), window->file)),
              720, 820);
      }
      return G_SOURCE_CONTINUE;

    case 1:
      /* built: one more step for the page's transition to end */
      if (fc_send_dialog_is_busy (FC_SEND_DIALOG (shooter->current)))
        shooter->step--;
      return G_SOURCE_CONTINUE;

    case 2:
      save_window_png (shooter->current, shooter->directory, "send-preview.png");
      show (shooter, GTK_WINDOW (fc_preferences_window_new (GTK_WINDOW (window))), 720, 820);
      return G_SOURCE_CONTINUE;

    case 3:
      save_window_png (shooter->current, shooter->directory, "preferences.png");
      fc_preferences_window_show_dsn (FC_PREFERENCES_WINDOW (shooter->current));
      return G_SOURCE_CONTINUE;

    case 4:
      save_window_png (shooter->current, shooter->directory, "preferences-sending.png");
      {
        g_autoptr(FcOutbox) outbox = seed_outbox (shooter->outbox_dir);

        show (shooter, GTK_WINDOW (fc_outbox_window_new (GTK_WINDOW (window), outbox)), 760, 480);
      }
      return G_SOURCE_CONTINUE;

    case 5:
      if (fc_outbox_window_is_busy (FC_OUTBOX_WINDOW (shooter->current)))
        shooter->step--;
      return G_SOURCE_CONTINUE;

    case 6:
      save_window_png (shooter->current, shooter->directory, "outbox.png");
      return G_SOURCE_CONTINUE;

    default:
      g_application_quit (g_application_get_default ());
      return G_SOURCE_REMOVE;
    }
}

/**
 * fc_screenshot_send_windows:
 * @window: a window showing a document
 * @directory: where to write send-preview.png, preferences.png,
 *   preferences-sending.png and outbox.png
 *
 * Takes those screenshots one after the other, then quits.
 */
void
fc_screenshot_send_windows (FcWindow   *window,
                            const char *directory)
{
  Shooter *shooter = g_new0 (Shooter, 1);

  shooter->window = g_object_ref (window);
  shooter->directory = g_strdup (directory);
  shooter->outbox_dir = g_build_filename (directory, "outbox", NULL);
  g_timeout_add_full (G_PRIORITY_DEFAULT, STEP_MS, step_cb, shooter, (GDestroyNotify) shooter_free);
}
