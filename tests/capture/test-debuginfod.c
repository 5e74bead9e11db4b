/* test-debuginfod.c - a stripped program's names fetched from a local debuginfod server, then cached
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fc-target-stripped is the burner with no symbol table and no DWARF; its
 * debug file (objcopy --only-keep-debug) is served by Debian's debuginfod on
 * 127.0.0.1 from a folder of its own. flamecast-cli records the program three
 * times: without DEBUGINFOD_URLS (nearly every leaf unnamed), with the server
 * (none), and with the server gone, from the client's cache (none).
 */

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "flamecast.h"
#include "fc-test-util.h"

typedef struct {
  char        *dir;
  char        *program;   /* the stripped program, away from its debug file: elfutils would find
                           * NAME.debug beside it */
  char        *cache;
  char        *url;
  char        *build_id;
  GSubprocess *server;
  gboolean     server_exited;
} Fixture;

static Fixture fx;

static char *
read_build_id (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  const void *bits = NULL;
  ssize_t len;
  GString *s = g_string_new (NULL);

  g_assert_cmpint (fd, >=, 0);
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  len = dwelf_elf_gnu_build_id (elf, &bits);
  g_assert_cmpint (len, >, 0);
  for (ssize_t i = 0; i < len; i++)
    g_string_append_printf (s, "%02x", ((const guint8 *) bits)[i]);
  elf_end (elf);
  close (fd);
  return g_string_free (s, FALSE);
}

static void
die_with_test (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static int
free_port (void)
{
  g_autoptr(GSocket) sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_true (g_socket_bind (sock, any, TRUE, NULL));
  bound = g_socket_get_local_address (sock, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* 200 for the debug file: the server is up and has scanned its folder */
static gboolean
server_serves (SoupSession *session)
{
  g_autofree char *uri = g_strdup_printf ("%s/buildid/%s/debuginfo", fx.url, fx.build_id);
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", uri);
  g_autoptr(GBytes) body = soup_session_send_and_read (session, msg, NULL, NULL);

  return body != NULL && soup_message_get_status (msg) == SOUP_STATUS_OK;
}

static void
server_exited_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  fx.server_exited = TRUE;
}

static void
server_start (void)
{
  g_autofree char *srv = g_build_filename (fx.dir, "server", NULL);
  g_autofree char *db = g_build_filename (fx.dir, "debuginfod.sqlite", NULL);
  g_autofree char *debug_src = fc_test_target_path ("stripped.debug");
  g_autofree char *debug_dst = g_build_filename (srv, "fc-target-stripped.debug", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  gsize len;

  g_assert_cmpint (g_mkdir_with_parents (srv, 0755), ==, 0);
  g_assert_true (g_file_get_contents (debug_src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (debug_dst, contents, len, NULL));

  /* a port free a moment ago: if another program takes it first, the server exits and the next
   * one is tried */
  for (int attempt = 0; attempt < 10 && fx.server == NULL; attempt++)
    {
      g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                                            G_SUBPROCESS_FLAGS_STDERR_SILENCE);
      g_autofree char *port = g_strdup_printf ("%d", free_port ());
      g_autoptr(GError) error = NULL;
      GSubprocess *server;

      g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
      server = g_subprocess_launcher_spawn (launcher, &error, "debuginfod", "-F", srv, "-p", port, "-d", db,
                                            "-t", "0", "-g", "0", NULL);
      g_assert_no_error (error);
      g_free (fx.url);
      fx.url = g_strdup_printf ("http://127.0.0.1:%s", port);
      fx.server_exited = FALSE;
      g_subprocess_wait_async (server, NULL, server_exited_cb, NULL);
      fc_test_poll_until (fx.server_exited || server_serves (session));
      if (fx.server_exited)
        g_object_unref (server);
      else
        fx.server = server;
    }
  g_assert_nonnull (fx.server);
}

static void
server_stop (void)
{
  if (fx.server == NULL)
    return;
  g_subprocess_force_exit (fx.server);
  fc_test_spin_until (fx.server_exited);
  g_clear_object (&fx.server);
}

/* flamecast-cli records the stripped program for 2 s; its stderr, and the leaf-unnamed percentage */
static double
record (const char *name,
        const char *urls,
        char      **err)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = g_build_filename (fx.dir, name, NULL);
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
  return unnamed;
}

static void
test_names (void)
{
  g_autofree char *err = NULL;
  double unnamed;

  /* without a server: the burner's leaves are in its own code, which has no names */
  unnamed = record ("no-server", NULL, &err);
  g_assert_cmpfloat (unnamed, >=, 50.0);
  g_assert_null (strstr (err, "debuginfod:"));
  g_clear_pointer (&err, g_free);

  /* the debug file from the server: every leaf named, and the summary says where from */
  server_start ();
  unnamed = record ("server", fx.url, &err);
  g_assert_cmpfloat (unnamed, ==, 0.0);
  g_assert_nonnull (strstr (err, "debuginfod: debug info for"));
  g_assert_nonnull (strstr (err, "1 downloaded"));
  g_clear_pointer (&err, g_free);

  /* the server gone: the client's cache has it */
  server_stop ();
  unnamed = record ("cache", fx.url, &err);
  g_assert_cmpfloat (unnamed, ==, 0.0);
  g_assert_nonnull (strstr (err, "0 downloaded, 1 from the cache"));
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
  fx.build_id = read_build_id (debug);
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
  status = g_test_run ();
  server_stop ();
  fc_test_remove_tree (fx.dir);
  g_free (fx.dir);
  g_free (fx.cache);
  g_free (fx.program);
  g_free (fx.url);
  g_free (fx.build_id);
  return status;
}
