/* test-quit.c - the application quits while it sends what it recorded, to a server that never
 * takes it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The real application (FC_APP_BINARY) launches a program with "Send While Recording" on, and
 * gets two SIGTERMs (two Quits) while the chunks it queued cannot go: a close already under way
 * stays under way, the program is released, the send has its grace, and the application exits.
 * What was not delivered stays in the outbox. (A second SIGTERM used to destroy the window the
 * first had hidden, and the application stayed held, windowless, forever.)
 */

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fc-outbox.h"
#include "fc-test-relay.h"
#include "fc-test-util.h"

/* A port on 127.0.0.1 that refuses every connection: bound, never listening. The socket is
 * kept open, so that no one else takes the port meanwhile. */
static int
dead_port_new (guint *port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &addr, &len), ==, 0);
  *port = ntohs (addr.sin_port);
  return fd;
}

/* The application's settings: what Preferences would have saved (the keyfile backend, in the
 * private home, for the process the test starts). */
static void
write_settings (guint port)
{
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "glib-2.0", "settings", NULL);
  g_autofree char *path = g_build_filename (dir, "keyfile", NULL);
  g_autofree char *text = g_strdup_printf ("[io/github/flamecast/Flamecast]\n"
                                           "dsn='http://" KEY "@127.0.0.1:%u/" PROJECT "'\n"
                                           "send-while-recording=true\n"
                                           "chunk-duration=1\n", port);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static guint
outbox_n_entries (const char *state_dir)
{
  g_autofree char *dir = g_build_filename (state_dir, "flamecast", "outbox", NULL);
  g_autoptr(FcOutbox) outbox = fc_outbox_new (dir);
  g_autoptr(GPtrArray) entries = fc_outbox_list (outbox);

  return entries->len;
}

static char *
tracer_of (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents (path, &status, NULL, NULL) || (line = strstr (status, "\nTracerPid:\t")) == NULL)
    return NULL;
  line += strlen ("\nTracerPid:\t");
  return g_strndup (line, strcspn (line, "\n"));
}

static gboolean
is_traced (GPid pid)
{
  g_autofree char *tracer = tracer_of (pid);

  return tracer != NULL && strcmp (tracer, "0") != 0;
}

static gboolean
is_released (GPid pid)
{
  g_autofree char *tracer = tracer_of (pid);

  return g_strcmp0 (tracer, "0") == 0;
}

/* the pid the launched program wrote, once it did */
static GPid
read_pid (const char *path)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL) || strchr (text, '\n') == NULL)
    return 0;
  return atoi (text);
}

typedef struct {
  gboolean exited;
  int      status;
} Exit;

static void
app_exited_cb (GPid     pid,
               int      status,
               gpointer user_data)
{
  Exit *quit = user_data;

  quit->exited = TRUE;
  quit->status = status;
  g_spawn_close_pid (pid);
}

/* @name: the case's, for its own outbox; @port: where the DSN points; @relay (nullable): the
 * server there, when one listens */
static void
quit_twice_while_sending (const char *name,
                          guint       port,
                          Relay      *relay)
{
  g_autofree char *threads = fc_test_target_path ("threads");
  g_autofree char *state_dir = g_build_filename (g_get_user_state_dir (), name, NULL);
  g_autofree char *pid_file = g_build_filename (state_dir, "target.pid", NULL);
  g_autofree char *fifo = g_build_filename (state_dir, "target.stdin", NULL);
  /* It outlives the application, which only releases it: it runs until its stdin ends, which
   * is when the test closes the FIFO's other end or dies. */
  g_autofree char *script = g_strdup_printf ("echo $$ > '%s'; exec '%s' - < '%s'", pid_file, threads, fifo);
  const char *argv[] = { g_getenv ("FC_APP_BINARY"), "--", "/bin/sh", "-c", script, NULL };
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  Exit quit = { 0 };
  GPid app, target = 0;
  int fifo_fd;

  g_assert_nonnull (argv[0]);
  g_assert_cmpint (g_mkdir_with_parents (state_dir, 0700), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* read-write: opening it blocks neither the test nor the target's shell */
  fifo_fd = open (fifo, O_RDWR | O_CLOEXEC);
  g_assert_cmpint (fifo_fd, >=, 0);
  write_settings (port);
  /* its settings from the keyfile above, its outbox its own; no session bus: it is its own
   * primary instance */
  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "keyfile", TRUE);
  envp = g_environ_setenv (envp, "XDG_STATE_HOME", state_dir, TRUE);
  envp = g_environ_setenv (envp, "DBUS_SESSION_BUS_ADDRESS", "disabled:", TRUE);
  g_assert_true (g_spawn_async (NULL, (char **) argv, envp, G_SPAWN_DO_NOT_REAP_CHILD, fc_test_die_with_test, NULL,
                                &app, &error));
  g_assert_no_error (error);
  g_child_watch_add (app, app_exited_cb, &quit);

  /* recording, and a chunk queued for Sentry (in the outbox before its first byte goes) */
  fc_test_poll_until (quit.exited || ((target = read_pid (pid_file)) > 0 && is_traced (target)));
  g_assert_false (quit.exited);
  fc_test_poll_until (quit.exited || outbox_n_entries (state_dir) >= 1);
  g_assert_false (quit.exited);
  if (relay != NULL)
    fc_test_poll_until (relay_n_requests (relay) >= 1);

  /* Quit: the program is released first; the second comes while the chunks are sent */
  g_assert_cmpint (kill (app, SIGTERM), ==, 0);
  fc_test_poll_until (quit.exited || is_released (target));
  if (!quit.exited)
    g_assert_cmpint (kill (app, SIGTERM), ==, 0);
  fc_test_poll_until (quit.exited);
  g_test_message ("the application exited, wait status %d", quit.status);
  g_assert_true (WIFEXITED (quit.status));
  g_assert_cmpint (WEXITSTATUS (quit.status), ==, 0);

  /* the program runs on, released; what was not delivered waits for the next flush */
  g_assert_true (is_released (target));
  g_assert_cmpuint (outbox_n_entries (state_dir), >=, 1);
  close (fifo_fd);
}

/* Nothing listens: each attempt is refused at once, and the flush retries with its backoff. */
static void
test_dead_port (void)
{
  guint port;
  int fd = dead_port_new (&port);

  quit_twice_while_sending ("dead-port", port, NULL);
  close (fd);
}

/* A server that takes the connection and never answers: each attempt waits out its deadline
 * (30 s), far longer than the close's grace. */
static void
test_silent_server (void)
{
  Relay *relay = relay_new ();

  relay_script (relay, REPLY_NEVER, -1);
  quit_twice_while_sending ("silent-server", relay->port, relay);
  relay_free (relay);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);

  g_test_add_func ("/app/quit/dead-port", test_dead_port);
  g_test_add_func ("/app/quit/silent-server", test_silent_server);

  return fc_test_run ();
}
