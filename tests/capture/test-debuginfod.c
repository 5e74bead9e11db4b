/* test-debuginfod.c - a stripped program's names fetched from a local debuginfod server, then cached
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fc-target-stripped is the burner with no symbol table and no DWARF; its
 * debug file (objcopy --only-keep-debug) is served by Debian's debuginfod on
 * 127.0.0.1 from a folder of its own. flamecast-cli records the program three
 * times: without DEBUGINFOD_URLS (nearly every leaf unnamed), with the server
 * (none), and with the server gone, from the client's cache (none). "None"
 * counts the leaves in the program that its debug file names: on a loaded
 * machine a few of a 2 s recording's samples fall in the dynamic loader or a
 * PLT stub, which no debug file of the program names.
 */

#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "flamecast.h"
#include "fc-test-debuginfod.h"
#include "fc-test-util.h"

typedef struct {
  char             *dir;
  char             *program;   /* the stripped program, away from its debug file: elfutils would
                                * find NAME.debug beside it */
  char             *cache;
  char             *build_id;
  FcTestDebuginfod *server;
  char             *url;       /* the last server's, also once it is gone */
  GArray           *functions; /* FcTestFunction: what the debug file names */
} Fixture;

static Fixture fx;

static gboolean
debug_file_names (guint64 offset)
{
  for (guint i = 0; i < fx.functions->len; i++)
    {
      const FcTestFunction *r = &g_array_index (fx.functions, FcTestFunction, i);

      if (offset >= r->start && offset < r->end)
        return TRUE;
    }
  return FALSE;
}

/* The samples whose leaf is the program's ("fc-target-stripped+0xOFFSET", the writer's name for an
 * address without one) at an address its debug file names; and all the samples */
static guint
count_unnamed_named (const char *out_dir,
                     guint      *n_samples)
{
  g_autoptr(GDir) dir = g_dir_open (out_dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  *n_samples = 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (out_dir, name, NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonObject *profile;
      JsonArray *samples, *stacks, *frames;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      json_parser_load_from_file (parser, path, &error);
      g_assert_no_error (error);
      profile = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "profile");
      samples = json_object_get_array_member (profile, "samples");
      stacks = json_object_get_array_member (profile, "stacks");
      frames = json_object_get_array_member (profile, "frames");
      for (guint i = 0; i < json_array_get_length (samples); i++)
        {
          JsonObject *sample = json_array_get_object_element (samples, i);
          JsonArray *stack = json_array_get_array_element (stacks, json_object_get_int_member (sample, "stack_id"));
          JsonObject *leaf;
          const char *function;
          const char *plus;

          (*n_samples)++;
          if (json_array_get_length (stack) == 0)
            continue;
          leaf = json_array_get_object_element (frames, json_array_get_int_element (stack, 0));
          function = json_object_get_string_member_with_default (leaf, "function", "");
          plus = g_str_has_prefix (function, "fc-target-stripped+0x") ? strchr (function, '+') : NULL;
          if (plus != NULL && debug_file_names (g_ascii_strtoull (plus + 3, NULL, 16)))
            n++;
        }
    }
  return n;
}

static void
server_start (void)
{
  g_autofree char *debug = fc_test_target_path ("stripped.debug");

  fx.server = fc_test_debuginfod_start (fx.dir, debug, fx.build_id);
  g_free (fx.url);
  fx.url = g_strdup (fx.server->url);
}

static void
server_stop (void)
{
  g_clear_pointer (&fx.server, fc_test_debuginfod_stop);
}

/* flamecast-cli records the stripped program for 2 s; its stderr, the leaf-unnamed percentage of
 * its summary, and how many leaves its debug file names went unnamed */
static double
record (const char *name,
        const char *urls,
        char      **err,
        guint      *unnamed_named)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  /* not fx.cache nor the server's folder, which are named like two of the recordings */
  g_autofree char *out_name = g_strconcat ("recorded-", name, NULL);
  g_autofree char *out = g_build_filename (fx.dir, out_name, NULL);
  const char *line;
  double unnamed = -1;

  if (urls != NULL)
    g_subprocess_launcher_setenv (launcher, "DEBUGINFOD_URLS", urls, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "DEBUGINFOD_URLS");
  g_subprocess_launcher_setenv (launcher, "DEBUGINFOD_CACHE_PATH", fx.cache, TRUE);
  g_subprocess_launcher_setenv (launcher, "DEBUGINFOD_TIMEOUT", "30", TRUE);
  proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("FC_CLI"), "record", "--mode", "cpu", "-o", out,
                                      "--", fx.program, "-s", "2", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, err, &error);
  g_assert_no_error (error);
  g_test_message ("%s:\n%s", name, *err);
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  line = strstr (*err, "leaf without a name: ");
  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line, "leaf without a name: %lf%%", &unnamed), ==, 1);
  {
    guint n_samples = 0;

    *unnamed_named = count_unnamed_named (out, &n_samples);
    g_test_message ("%s: %u of %u samples' leaves unnamed where the debug file has a name", name,
                    *unnamed_named, n_samples);
    g_assert_cmpuint (n_samples, >, 0);
  }
  return unnamed;
}

static void
test_names (void)
{
  g_autofree char *err = NULL;
  guint unnamed_named = 0;
  double unnamed;

  /* without a server: the burner's leaves are in its own code, which has no names */
  unnamed = record ("no-server", NULL, &err, &unnamed_named);
  g_assert_cmpfloat (unnamed, >=, 50.0);
  g_assert_cmpuint (unnamed_named, >, 0);
  g_assert_null (strstr (err, "debuginfod:"));
  g_clear_pointer (&err, g_free);

  /* the debug file from the server: every leaf it names named, and the summary says where from */
  server_start ();
  record ("server", fx.url, &err, &unnamed_named);
  g_assert_cmpuint (unnamed_named, ==, 0);
  g_assert_nonnull (strstr (err, "debuginfod: debug info for"));
  g_assert_nonnull (strstr (err, "1 downloaded"));
  g_clear_pointer (&err, g_free);

  /* the server gone: the client's cache has it */
  server_stop ();
  record ("cache", fx.url, &err, &unnamed_named);
  g_assert_cmpuint (unnamed_named, ==, 0);
  g_assert_nonnull (strstr (err, "0 downloaded, 1 from the cache"));
}

/* a name the debug file gives the function at @start */
static gboolean
names_function_at (guint64     start,
                   const char *name)
{
  for (guint i = 0; i < fx.functions->len; i++)
    {
      const FcTestFunction *r = &g_array_index (fx.functions, FcTestFunction, i);

      if (r->start == start && g_strcmp0 (r->name, name) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
n_found_cb (GObject    *object,
            GParamSpec *pspec,
            gpointer    user_data)
{
  guint n_found, n_pending;

  g_object_get (object, "n-found", &n_found, "n-pending", &n_pending, NULL);
  if (n_found > 0 && n_pending == 0)
    *(gboolean *) user_data = TRUE;
}

/* A document's unnamed frames get their names once the debug file arrives: the fetch is asked for by
 * the first resymbolization, FcDebuginfod says when it is done, and the second names every frame. */
static void
test_resymbolize (void)
{
  g_autoptr(FcDocument) document = fc_test_unnamed_document (fx.program, fx.build_id, fx.functions);
  g_autoptr(FcDocument) renamed = NULL;
  g_autoptr(FcDocument) early = NULL;
  g_autofree char *cache = g_build_filename (fx.dir, "cache-resymbolize", NULL);
  FcDebuginfod *debuginfod = fc_debuginfod_get_default ();
  FcProfile *profile;
  gboolean arrived = FALSE;
  guint n_renamed = 0, n_found = 0;
  gulong handler;

  server_start ();
  g_setenv ("DEBUGINFOD_URLS", fx.url, TRUE);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);
  g_setenv ("DEBUGINFOD_TIMEOUT", "30", TRUE);
  handler = g_signal_connect (debuginfod, "notify", G_CALLBACK (n_found_cb), &arrived);

  /* asks for the debug file; names what is there already (nothing, unless the fetch was quicker) */
  early = fc_resymbolize_document (document, &n_renamed);
  fc_test_spin_until (arrived);
  g_signal_handler_disconnect (debuginfod, handler);
  g_object_get (debuginfod, "n-found", &n_found, NULL);
  g_assert_cmpuint (n_found, ==, 1);

  renamed = fc_resymbolize_document (document, &n_renamed);
  g_assert_nonnull (renamed);
  g_assert_cmpuint (n_renamed, ==, fx.functions->len);
  g_assert_cmpuint (fc_document_get_n_profiles (renamed), ==, 1);
  profile = fc_document_get_profile (renamed, 0);
  g_assert_true (fc_profile_is_finished (profile));
  g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, fx.functions->len);
  for (guint i = 0; i < fc_profile_get_n_frames (profile); i++)
    {
      const FcFrame *f = fc_profile_get_frame (profile, i);
      const char *function = fc_profile_string (profile, f->function);

      g_assert_false (g_str_has_prefix (function, "fc-target-stripped+0x"));
      g_assert_true (names_function_at (f->instruction_addr - FC_TEST_LOAD_ADDRESS, function));
    }
  /* named already: nothing more to name */
  g_assert_null (fc_resymbolize_document (renamed, &n_renamed));
  g_assert_cmpuint (n_renamed, ==, 0);

  g_unsetenv ("DEBUGINFOD_URLS");
  server_stop ();
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *debug = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the server is on 127.0.0.1: no proxy for libsoup here nor for libdebuginfod's curl in the CLI,
   * and no GSettings for finding one */
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  fx.dir = fc_test_make_tmp_dir ("fc-test-debuginfod");
  fx.cache = g_build_filename (fx.dir, "cache", NULL);
  debug = fc_test_target_path ("stripped.debug");
  fx.build_id = fc_test_read_build_id (debug);
  fx.functions = fc_test_read_functions (debug);
  {
    g_autofree char *built = fc_test_target_path ("stripped");
    g_autofree char *contents = NULL;
    gsize len;

    fx.program = g_build_filename (fx.dir, "fc-target-stripped", NULL);
    g_assert_true (g_file_get_contents (built, &contents, &len, NULL));
    g_assert_true (g_file_set_contents (fx.program, contents, len, NULL));
    g_assert_cmpint (g_chmod (fx.program, 0755), ==, 0);
  }
  g_test_add_func ("/debuginfod/names", test_names);
  g_test_add_func ("/debuginfod/resymbolize", test_resymbolize);
  status = g_test_run ();
  server_stop ();
  fc_test_remove_tree (fx.dir);
  g_free (fx.dir);
  g_free (fx.cache);
  g_free (fx.program);
  g_free (fx.url);
  g_free (fx.build_id);
  g_array_unref (fx.functions);
  return status;
}
