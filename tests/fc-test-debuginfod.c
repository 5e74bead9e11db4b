/* fc-test-debuginfod.c - Debian's debuginfod on 127.0.0.1 serving the stripped target's debug file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "fc-chunk-meta.h"
#include "fc-test-debuginfod.h"
#include "fc-test-util.h"

char *
fc_test_read_build_id (const char *path)
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
function_clear (FcTestFunction *f)
{
  g_free (f->name);
}

GArray *
fc_test_read_functions (const char *path)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (FcTestFunction));
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  Elf_Scn *scn = NULL;

  g_array_set_clear_func (ranges, (GDestroyNotify) function_clear);
  g_assert_cmpint (fd, >=, 0);
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      Elf_Data *data;

      if (gelf_getshdr (scn, &shdr) == NULL || shdr.sh_type != SHT_SYMTAB || shdr.sh_entsize == 0)
        continue;
      data = elf_getdata (scn, NULL);
      for (gsize i = 0; data != NULL && i < shdr.sh_size / shdr.sh_entsize; i++)
        {
          GElf_Sym sym;

          if (gelf_getsym (data, i, &sym) != NULL && GELF_ST_TYPE (sym.st_info) == STT_FUNC && sym.st_size > 0)
            g_array_append_val (ranges, ((FcTestFunction) { sym.st_value, sym.st_value + sym.st_size,
                                                            g_strdup (elf_strptr (elf, shdr.sh_link, sym.st_name)) }));
        }
    }
  elf_end (elf);
  close (fd);
  g_assert_cmpuint (ranges->len, >, 0);
  return ranges;
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
server_serves (SoupSession *session,
               const char  *url,
               const char  *build_id)
{
  g_autofree char *uri = g_strdup_printf ("%s/buildid/%s/debuginfo", url, build_id);
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", uri);
  g_autoptr(GBytes) body = soup_session_send_and_read (session, msg, NULL, NULL);

  return body != NULL && soup_message_get_status (msg) == SOUP_STATUS_OK;
}

static void
server_exited_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  gboolean *exited = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *exited = TRUE;
  g_rc_box_release (exited);
}

FcTestDebuginfod *
fc_test_debuginfod_start (const char *dir,
                          const char *debug_file,
                          const char *build_id)
{
  FcTestDebuginfod *server = g_new0 (FcTestDebuginfod, 1);
  g_autofree char *srv = g_build_filename (dir, "server", NULL);
  g_autofree char *db = g_build_filename (dir, "debuginfod.sqlite", NULL);
  g_autofree char *base = g_path_get_basename (debug_file);
  g_autofree char *debug_dst = g_build_filename (srv, base, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  gsize len;

  g_assert_cmpint (g_mkdir_with_parents (srv, 0755), ==, 0);
  g_assert_true (g_file_get_contents (debug_file, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (debug_dst, contents, len, NULL));
  server->dir = g_strdup (dir);

  /* a port free a moment ago: if another program takes it first, the server exits and the next
   * one is tried */
  for (int attempt = 0; attempt < 10 && server->server == NULL; attempt++)
    {
      g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                                            G_SUBPROCESS_FLAGS_STDERR_SILENCE);
      g_autofree char *port = g_strdup_printf ("%d", free_port ());
      g_autoptr(GError) error = NULL;
      /* shared with the wait, which ends when the server does, here or at the stop */
      gboolean *exited = g_rc_box_new0 (gboolean);
      GSubprocess *proc;

      g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
      proc = g_subprocess_launcher_spawn (launcher, &error, "debuginfod", "-F", srv, "-p", port, "-d", db,
                                          "-t", "0", "-g", "0", NULL);
      g_assert_no_error (error);
      g_free (server->url);
      server->url = g_strdup_printf ("http://127.0.0.1:%s", port);
      g_subprocess_wait_async (proc, NULL, server_exited_cb, g_rc_box_acquire (exited));
      fc_test_poll_until (*exited || server_serves (session, server->url, build_id));
      if (*exited)
        {
          g_object_unref (proc);
          g_rc_box_release (exited);
        }
      else
        {
          server->server = proc;
          server->exited = exited;
        }
    }
  g_assert_nonnull (server->server);
  return server;
}

void
fc_test_debuginfod_stop (FcTestDebuginfod *server)
{
  if (server == NULL)
    return;
  g_subprocess_force_exit (server->server);
  fc_test_spin_until (*server->exited);
  g_rc_box_release (server->exited);
  g_clear_object (&server->server);
  g_free (server->url);
  g_free (server->dir);
  g_free (server);
}

FcDocument *
fc_test_unnamed_document (const char *program,
                          const char *build_id,
                          GArray     *functions)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autofree char *base = g_path_get_basename (program);
  FcDocument *document = fc_document_new (FC_DOCUMENT_V2);
  guint32 thread = fc_profile_ensure_thread (profile, "1");

  fc_profile_set_meta_string (profile, "version", "2");
  fc_profile_set_meta_string (profile, "profiler_id", "0bb30217f77d483f84364302006732bc");
  fc_profile_set_meta_string (profile, "chunk_id", "5e7d1e0b6a3c4f3e9a1b2c3d4e5f6a7b");
  fc_profile_set_meta_string (profile, "platform", "native");
  fc_profile_add_image (profile, fc_chunk_meta_new_elf_image (program, build_id, FC_TEST_LOAD_ADDRESS, 0x10000,
                                                             FC_DEBUG_IMAGE_UNKNOWN));
  for (guint i = 0; i < functions->len; i++)
    {
      const FcTestFunction *f = &g_array_index (functions, FcTestFunction, i);
      g_autofree char *name = g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", base, f->start);
      FcFrame frame;
      guint32 stack;

      fc_frame_init (&frame);
      frame.function = fc_profile_intern (profile, name);
      frame.module = frame.package = fc_profile_intern (profile, program);
      frame.in_app = FC_IN_APP_YES;
      frame.has_instruction_addr = TRUE;
      frame.instruction_addr = FC_TEST_LOAD_ADDRESS + f->start;
      stack = fc_profile_intern_stack (profile, FC_STACK_EMPTY, fc_profile_intern_frame (profile, &frame));
      /* 10 ms each, a second apart from the first */
      fc_profile_append_sample (profile, G_GINT64_CONSTANT (1700000000000000000) + i * 10000000, thread, stack,
                                FC_STRING_NONE);
    }
  fc_profile_finish (profile);
  fc_document_add_profile (document, profile);
  return document;
}
