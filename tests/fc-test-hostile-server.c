/* fc-test-hostile-server.c - an HTTP server on 127.0.0.1 that misbehaves on purpose, bounded in time and bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fc-test-hostile-server.h"
#include "fc-test-util.h"

/* a drip of this many bytes at 100 ms each: about 65 s */
#define DRIP_PAD 600

typedef struct {
  char   *line;
  GBytes *body;
} Request;

struct _HostileServer {
  int          listen_fd;
  guint        port;
  GThread     *thread;

  GMutex       mutex;
  GCond        cond;
  gboolean     stop;
  HostileMode  mode;
  GPtrArray   *requests;   /* Request* */
  guint        answered;
  guint64      bytes_sent;
};

static void
request_free (Request *r)
{
  g_free (r->line);
  g_bytes_unref (r->body);
  g_free (r);
}

static gboolean
stopping (HostileServer *server)
{
  gboolean stop;

  g_mutex_lock (&server->mutex);
  stop = server->stop;
  g_mutex_unlock (&server->mutex);
  return stop;
}

/* waits up to @ms for @fd to be readable; FALSE on timeout or stop */
static gboolean
wait_readable (HostileServer *server,
               int            fd,
               int            ms)
{
  for (int waited = 0; waited < ms && !stopping (server); waited += 100)
    {
      struct pollfd p = { fd, POLLIN, 0 };

      if (poll (&p, 1, 100) > 0)
        return TRUE;
    }
  return FALSE;
}

static gboolean
send_all (int         fd,
          const void *data,
          gsize       len)
{
  const char *p = data;

  while (len > 0)
    {
      ssize_t n = send (fd, p, len, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= n;
    }
  return TRUE;
}

/* one request, headers and a Content-Length body; FALSE when the client went */
static gboolean
read_request (HostileServer *server,
              int            fd,
              GByteArray    *buf,
              Request      **out)
{
  char *end = NULL;
  gsize header_len, body_len = 0;
  g_autofree char *headers = NULL;
  char *cl;

  while (buf->len == 0 || (end = g_strstr_len ((const char *) buf->data, buf->len, "\r\n\r\n")) == NULL)
    {
      guint8 chunk[4096];
      ssize_t n;

      if (buf->len > 65536 || !wait_readable (server, fd, 60000))
        return FALSE;
      n = recv (fd, chunk, sizeof chunk, 0);
      if (n <= 0)
        return FALSE;
      g_byte_array_append (buf, chunk, n);
    }
  header_len = end + 4 - (const char *) buf->data;
  headers = g_ascii_strdown ((const char *) buf->data, header_len);
  if ((cl = strstr (headers, "\r\ncontent-length:")) != NULL)
    body_len = g_ascii_strtoull (cl + strlen ("\r\ncontent-length:"), NULL, 10);
  while (buf->len < header_len + body_len)
    {
      guint8 chunk[65536];
      ssize_t n;

      if (!wait_readable (server, fd, 60000))
        return FALSE;
      n = recv (fd, chunk, sizeof chunk, 0);
      if (n <= 0)
        return FALSE;
      g_byte_array_append (buf, chunk, n);
    }

  *out = g_new0 (Request, 1);
  (*out)->line = g_strndup ((const char *) buf->data, strcspn ((const char *) buf->data, "\r\n"));
  (*out)->body = g_bytes_new (buf->data + header_len, body_len);
  g_byte_array_remove_range (buf, 0, header_len + body_len);
  return TRUE;
}

static void
answer_plain (int         fd,
              int         status)
{
  g_autofree char *text = g_strdup_printf ("HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
                                           "Content-Length: 2\r\n\r\n{}", status, status == 200 ? "OK" : "Error");

  send_all (fd, text, strlen (text));
}

static void
answer_deep (int fd)
{
  g_autofree char *brackets = g_strnfill (60000, '[');
  g_autofree char *head = g_strdup_printf ("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
                                           "Content-Length: %zu\r\n\r\n", strlen (brackets));

  if (send_all (fd, head, strlen (head)))
    send_all (fd, brackets, strlen (brackets));
}

static void
answer_drip (HostileServer *server,
             int            fd)
{
  g_autofree char *pad = g_strnfill (DRIP_PAD, 'a');
  g_autofree char *text = g_strdup_printf ("HTTP/1.1 200 OK\r\nX-Pad: %s\r\nContent-Length: 2\r\n\r\n{}", pad);

  for (gsize i = 0; text[i] != '\0' && !stopping (server); i++)
    {
      if (!send_all (fd, text + i, 1))
        return;
      g_usleep (100 * 1000);
    }
}

static void
answer_huge (HostileServer *server,
             int            fd)
{
  static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nContent-Length: 3221225472\r\n\r\n";
  static guint8 zeros[65536];
  guint64 sent = 0;

  if (send_all (fd, head, sizeof head - 1))
    while (sent < HOSTILE_HUGE_MAX && !stopping (server) && send_all (fd, zeros, sizeof zeros))
      sent += sizeof zeros;
  g_mutex_lock (&server->mutex);
  server->bytes_sent = sent;
  g_mutex_unlock (&server->mutex);
}

static void
answer_silence (HostileServer *server,
                int            fd)
{
  guint8 byte;

  /* until the client goes away (or two minutes) */
  if (wait_readable (server, fd, 120000))
    while (recv (fd, &byte, 1, 0) > 0 && wait_readable (server, fd, 120000))
      ;
}

static void
note_answered (HostileServer *server)
{
  g_mutex_lock (&server->mutex);
  server->answered++;
  g_cond_broadcast (&server->cond);
  g_mutex_unlock (&server->mutex);
}

static void
serve (HostileServer *server,
       int            fd)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();

  for (;;)
    {
      Request *r = NULL;
      HostileMode mode;

      if (!read_request (server, fd, buf, &r))
        return;
      g_mutex_lock (&server->mutex);
      g_ptr_array_add (server->requests, r);
      mode = server->mode;
      g_cond_broadcast (&server->cond);
      g_mutex_unlock (&server->mutex);

      switch (mode)
        {
        case HOSTILE_OK:
          answer_plain (fd, 200);
          note_answered (server);
          break;
        case HOSTILE_500:
          answer_plain (fd, 500);
          note_answered (server);
          break;
        case HOSTILE_DEEP_400:
          answer_deep (fd);
          note_answered (server);
          break;
        case HOSTILE_DRIP:
          answer_drip (server, fd);
          note_answered (server);
          return;
        case HOSTILE_HUGE:
          answer_huge (server, fd);
          note_answered (server);
          return;
        case HOSTILE_SILENT:
        default:
          answer_silence (server, fd);
          note_answered (server);
          return;
        }
    }
}

static gpointer
server_thread (gpointer data)
{
  HostileServer *server = data;

  while (!stopping (server))
    {
      int fd;

      if (!wait_readable (server, server->listen_fd, 100))
        continue;
      fd = accept (server->listen_fd, NULL, NULL);
      if (fd < 0)
        continue;
      serve (server, fd);
      close (fd);
    }
  return NULL;
}

HostileServer *
hostile_server_new (HostileMode mode)
{
  HostileServer *server = g_new0 (HostileServer, 1);
  struct sockaddr_in addr = { 0 };
  socklen_t len = sizeof addr;

  g_mutex_init (&server->mutex);
  g_cond_init (&server->cond);
  server->mode = mode;
  server->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  server->listen_fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (server->listen_fd, >=, 0);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (server->listen_fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (server->listen_fd, 8), ==, 0);
  g_assert_cmpint (getsockname (server->listen_fd, (struct sockaddr *) &addr, &len), ==, 0);
  server->port = ntohs (addr.sin_port);
  server->thread = g_thread_new ("hostile-server", server_thread, server);
  return server;
}

void
hostile_server_free (HostileServer *server)
{
  g_mutex_lock (&server->mutex);
  server->stop = TRUE;
  g_mutex_unlock (&server->mutex);
  g_thread_join (server->thread);
  close (server->listen_fd);
  g_ptr_array_unref (server->requests);
  g_mutex_clear (&server->mutex);
  g_cond_clear (&server->cond);
  g_free (server);
}

guint
hostile_server_get_port (HostileServer *server)
{
  return server->port;
}

void
hostile_server_set_mode (HostileServer *server,
                         HostileMode    mode)
{
  g_mutex_lock (&server->mutex);
  server->mode = mode;
  g_mutex_unlock (&server->mutex);
}

guint
hostile_server_n_requests (HostileServer *server)
{
  guint n;

  g_mutex_lock (&server->mutex);
  n = server->requests->len;
  g_mutex_unlock (&server->mutex);
  return n;
}

char *
hostile_server_dup_request (HostileServer  *server,
                            guint           i,
                            GBytes        **body)
{
  Request *r;
  char *line;

  g_mutex_lock (&server->mutex);
  g_assert_cmpuint (i, <, server->requests->len);
  r = g_ptr_array_index (server->requests, i);
  line = g_strdup (r->line);
  if (body != NULL)
    *body = g_bytes_ref (r->body);
  g_mutex_unlock (&server->mutex);
  return line;
}

void
hostile_server_wait (HostileServer *server,
                     guint          n)
{
  g_mutex_lock (&server->mutex);
  fc_test_cond_wait_until (&server->cond, &server->mutex, server->requests->len >= n);
  g_mutex_unlock (&server->mutex);
}

void
hostile_server_wait_answered (HostileServer *server,
                              guint          n)
{
  g_mutex_lock (&server->mutex);
  fc_test_cond_wait_until (&server->cond, &server->mutex, server->answered >= n);
  g_mutex_unlock (&server->mutex);
}

guint64
hostile_server_bytes_sent (HostileServer *server)
{
  guint64 n;

  g_mutex_lock (&server->mutex);
  n = server->bytes_sent;
  g_mutex_unlock (&server->mutex);
  return n;
}
