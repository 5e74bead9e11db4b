/* fc-application.c - the Flamecast application: windows, files from the command line, about
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <glib-unix.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "fc-app-settings.h"
#include "fc-application.h"
#include "fc-preferences-window.h"
#include "fc-renderer.h"
#include "fc-window.h"

struct _FcApplication
{
  AdwApplication parent_instance;

  /* what to record at launch: --pid PID or -- COMMAND [ARGS...] */
  GPid           record_pid;
  char         **record_argv;

  /* files of the command line, loading since before GTK started */
  GPtrArray     *preloads;      /* FcFileLoad */
};

G_DEFINE_FINAL_TYPE (FcApplication, fc_application, ADW_TYPE_APPLICATION)

static FcWindow *
fc_application_new_window (FcApplication *self)
{
  return fc_window_new (GTK_APPLICATION (self));
}

/* Records @pid or @argv (in @cwd) in the active window if it is empty, in a
 * new one otherwise; a failure is shown in the window. */
static void
fc_application_record (FcApplication      *self,
                       GPid                pid,
                       const char * const *argv,
                       const char         *cwd)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL || ((pid > 0 || argv != NULL) && !fc_window_is_empty (FC_WINDOW (window))))
    window = GTK_WINDOW (fc_application_new_window (self));

  gtk_window_present (window);

  if (pid > 0)
    fc_window_record_attach_async (FC_WINDOW (window), pid, NULL, NULL, NULL);
  else if (argv != NULL)
    fc_window_record_spawn (FC_WINDOW (window), argv, cwd, NULL);
}

static void
fc_application_activate (GApplication *app)
{
  FcApplication *self = FC_APPLICATION (app);
  g_auto(GStrv) argv = g_steal_pointer (&self->record_argv);
  GPid pid = self->record_pid;

  /* as the CLI does: recording starts at launch */
  self->record_pid = 0;
  fc_application_record (self, pid, (const char * const *) argv, NULL);
}

/* app.record-pid (i): `flamecast --pid PID` while an instance runs */
static void
record_pid_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  gint32 pid = g_variant_get_int32 (param);

  if (pid > 0)
    fc_application_record (user_data, pid, NULL, NULL);
}

/* app.record-command ((ass)): `flamecast -- COMMAND [ARGS...]` while an
 * instance runs, with the directory it was typed in */
static void
record_command_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  g_autofree const char **argv = NULL;
  const char *cwd = NULL;

  g_variant_get (param, "(^a&s&s)", &argv, &cwd);
  if (argv != NULL && argv[0] != NULL)
    fc_application_record (user_data, 0, argv, cwd);
}

/* Another instance runs: it records, in a new window, what this command
 * line asks for (GApplication would otherwise only activate it). */
static gboolean
forward_recording (FcApplication *self)
{
  GApplication *app = G_APPLICATION (self);
  g_autoptr(GError) error = NULL;

  if (self->record_pid <= 0 && self->record_argv == NULL)
    return FALSE;
  if (!g_application_register (app, NULL, &error))
    {
      g_printerr ("flamecast: %s\n", error->message);
      return FALSE;
    }
  if (!g_application_get_is_remote (app))
    return FALSE;

  if (self->record_pid > 0)
    g_action_group_activate_action (G_ACTION_GROUP (app), "record-pid", g_variant_new_int32 (self->record_pid));
  else
    {
      g_autofree char *cwd = g_get_current_dir ();

      g_action_group_activate_action (G_ACTION_GROUP (app), "record-command",
                                      g_variant_new ("(^ass)", self->record_argv, cwd));
    }
  return TRUE;
}

static int
fc_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  FcApplication *self = FC_APPLICATION (app);
  gint32 pid = 0;

  if (g_variant_dict_lookup (options, "pid", "i", &pid))
    {
      if (pid <= 0)
        {
          g_printerr ("flamecast: %s\n", _("--pid needs a process id"));
          return 2;
        }
      if (self->record_argv != NULL)
        {
          g_printerr ("flamecast: %s\n", _("give either --pid PID or -- COMMAND [ARGS...]"));
          return 2;
        }
      self->record_pid = pid;
    }
  /* the actions go over D-Bus; this process is done once they are sent */
  if (forward_recording (self))
    return 0;
  return -1;
}

/**
 * fc_application_set_command:
 * @self: the application
 * @argv: (nullable): the command after `--` on the command line
 *
 * Records @argv, launched, when the application activates.
 */
void
fc_application_set_command (FcApplication      *self,
                            const char * const *argv)
{
  g_return_if_fail (FC_IS_APPLICATION (self));

  g_strfreev (self->record_argv);
  self->record_argv = argv != NULL && argv[0] != NULL ? g_strdupv ((char **) argv) : NULL;
}

/* SIGTERM and SIGINT close the windows as Quit does: recordings release
 * their targets first. */
static gboolean
quit_signal_cb (gpointer user_data)
{
  g_action_group_activate_action (G_ACTION_GROUP (user_data), "quit", NULL);
  return G_SOURCE_CONTINUE;
}

/**
 * fc_application_preload:
 * @self: the application
 * @file: a file of the command line
 *
 * Starts loading @file before the application runs, so that it loads while
 * GTK starts and the window is built: main() calls it for `flamecast FILE`.
 * The window that "open" makes for @file then waits for this load. Should
 * another instance open the file instead, the load is cancelled and dropped.
 *
 * Returns: (transfer none): the load
 */
FcFileLoad *
fc_application_preload (FcApplication *self,
                        GFile         *file)
{
  g_autoptr(GSettings) settings = NULL;
  g_auto(GStrv) in_app_prefixes = NULL;

  g_return_val_if_fail (FC_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  settings = fc_app_settings_new ();
  in_app_prefixes = g_settings_get_strv (settings, "in-app-prefixes");
  if (self->preloads == NULL)
    self->preloads = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->preloads, fc_file_load_new (file, (const char * const *) in_app_prefixes));
  return g_ptr_array_index (self->preloads, self->preloads->len - 1);
}

static void
fc_application_drop_preloads (FcApplication *self)
{
  for (guint i = 0; self->preloads != NULL && i < self->preloads->len; i++)
    g_cancellable_cancel (fc_file_load_get_cancellable (g_ptr_array_index (self->preloads, i)));
  g_clear_pointer (&self->preloads, g_ptr_array_unref);
}

static gboolean
open_preloaded (FcApplication *self,
                FcWindow      *window,
                GFile         *file)
{
  for (guint i = 0; self->preloads != NULL && i < self->preloads->len; i++)
    {
      FcFileLoad *load = g_ptr_array_index (self->preloads, i);

      if (g_file_equal (fc_file_load_get_file (load), file))
        {
          fc_window_open_load (window, load);
          g_ptr_array_remove_index (self->preloads, i);
          return TRUE;
        }
    }
  return FALSE;
}

static void
fc_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));
      FcWindow *window;

      /* Reuse an empty window; a shown profile stays where it is. */
      if (FC_IS_WINDOW (active) && fc_window_is_empty (FC_WINDOW (active)))
        window = FC_WINDOW (active);
      else
        window = fc_application_new_window (FC_APPLICATION (app));

      if (!open_preloaded (FC_APPLICATION (app), window, files[i]))
        fc_window_open_file (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
  /* a preload the command line did not open after all */
  fc_application_drop_preloads (FC_APPLICATION (app));
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  FcApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  const char *developers[] = { _("The Flamecast developers"), NULL };

  adw_show_about_window (parent,
                         "application-name", "Flamecast",
                         "application-icon", FC_APP_ID,
                         "version", FC_VERSION,
                         "developer-name", "The Flamecast developers",
                         "developers", developers,
                         "comments", _("Record programs and explore Sentry profiles live: flamecharts, flamegraphs and call trees, without a server."),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "copyright", "© 2026 The Flamecast developers",
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  FcApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (fc_preferences_window_new (parent)));
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  FcApplication *self = user_data;

  gtk_window_present (GTK_WINDOW (fc_application_new_window (self)));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  FcApplication *self = user_data;
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  /* Close each window, so each saves its size, instead of g_application_quit(). */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static const GActionEntry app_entries[] = {
  { .name = "about", .activate = about_action },
  { .name = "new-window", .activate = new_window_action },
  { .name = "preferences", .activate = preferences_action },
  { .name = "quit", .activate = quit_action },
  { .name = "record-pid", .activate = record_pid_action, .parameter_type = "i" },
  { .name = "record-command", .activate = record_command_action, .parameter_type = "(ass)" },
};

/**
 * fc_application_tune_allocator:
 *
 * Layouts, call trees and scene buffers of a big profile are arrays of tens
 * to hundreds of MB, made and dropped as the user switches threads and
 * views. glibc raises its mmap threshold after each such block is freed
 * (up to 32 MB), so the next ones come from the heap, and what a dropped
 * layout freed stays in the process's RSS. A fixed threshold keeps every
 * block over 1 MB in its own mapping, handed back to the system when freed.
 */
void
fc_application_tune_allocator (void)
{
#ifdef __GLIBC__
  mallopt (M_MMAP_THRESHOLD, 1024 * 1024);
#endif
}

/**
 * fc_application_add_accels:
 * @app: the application (or a test's)
 *
 * The keyboard shortcuts of the application's and windows' actions.
 */
void
fc_application_add_accels (GtkApplication *app)
{
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.send", { "<Control><Shift>s", NULL } },
    { "win.save-v2", { "<Control>s", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.choose-thread", { "<Control>t", NULL } },
    { "win.show-details", { "F9", NULL } },
    { "win.show-page::flamechart", { "<Alt>1", NULL } },
    { "win.show-page::flamegraph", { "<Alt>2", NULL } },
    { "win.show-page::call-tree", { "<Alt>3", NULL } },
    { "win.record", { "<Control>r", NULL } },
    { "win.stop-recording", { "<Control>period", NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (app, accels[i].action, accels[i].accels);
}

static void
fc_application_startup (GApplication *app)
{
  G_APPLICATION_CLASS (fc_application_parent_class)->startup (app);

  fc_renderer_prefer_cairo_on_software_gl ();
  fc_application_tune_allocator ();
  /* another user's process: flamecast-helper opens it once polkit says yes */
  fc_access_set_use_helper (TRUE);

  g_set_application_name ("Flamecast");
  gtk_window_set_default_icon_name (FC_APP_ID);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  fc_application_add_accels (GTK_APPLICATION (app));

  g_unix_signal_add (SIGTERM, quit_signal_cb, app);
  g_unix_signal_add (SIGINT, quit_signal_cb, app);
}

static void
fc_application_finalize (GObject *object)
{
  FcApplication *self = FC_APPLICATION (object);

  g_strfreev (self->record_argv);
  fc_application_drop_preloads (self);
  G_OBJECT_CLASS (fc_application_parent_class)->finalize (object);
}

static void
fc_application_class_init (FcApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = fc_application_finalize;
  app_class->activate = fc_application_activate;
  app_class->handle_local_options = fc_application_handle_local_options;
  app_class->open = fc_application_open;
  app_class->startup = fc_application_startup;
}

static void
fc_application_init (FcApplication *self)
{
  const GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_INT, NULL, N_("Record the running process PID"), "PID" },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self),
                                                     _("[FILE...] [-- COMMAND [ARGS...]]"));
  /* also the man page's text (docs/fc-help.py reads --help) */
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Opens each FILE (Sentry V2 chunks, V1 profiles, envelopes, pprof,\n"
                                              "OTLP, speedscope, folded stacks, perf script text) in a flamechart,\n"
                                              "flamegraph and call tree, records the running process PID (--pid) or\n"
                                              "the COMMAND after --, and sends profiles to Sentry. When Flamecast\n"
                                              "already runs, that instance opens the files and records in new windows."));
  g_application_set_option_context_description (G_APPLICATION (self),
                                                _("Exit status: 0 when the last window closed or the running instance\n"
                                                  "took the request, 1 on an unknown option, 2 when --pid or -- COMMAND\n"
                                                  "are given wrongly."));
}

FcApplication *
fc_application_new (void)
{
  return g_object_new (FC_TYPE_APPLICATION,
                       "application-id", FC_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/flamecast/Flamecast",
                       NULL);
}
