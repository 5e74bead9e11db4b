/* fc-dsn.c - parse a Sentry DSN, derive the envelope URL and the auth header
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-dsn.h"
#include "fc-transport-error.h"

#ifndef FC_VERSION
# define FC_VERSION "0"
#endif

struct _FcDsn
{
  char *scheme;
  char *public_key;
  char *secret_key;
  char *host;
  int   port;
  char *path;
  char *project_id;
};

static void
fc_dsn_clear (gpointer data)
{
  FcDsn *self = data;

  g_free (self->scheme);
  g_free (self->public_key);
  g_free (self->secret_key);
  g_free (self->host);
  g_free (self->path);
  g_free (self->project_id);
}

FcDsn *
fc_dsn_ref (FcDsn *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
fc_dsn_unref (FcDsn *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, fc_dsn_clear);
}

G_DEFINE_BOXED_TYPE (FcDsn, fc_dsn, fc_dsn_ref, fc_dsn_unref)

static gboolean
is_all_digits (const char *s)
{
  if (s == NULL || *s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

static gboolean
invalid (GError     **error,
         const char  *text,
         const char  *problem)
{
  g_autofree char *masked = fc_dsn_mask_text (text);

  g_set_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN,
               _("Invalid DSN “%s”: %s (expected https://KEY@HOST/PROJECT_ID)"), masked, problem);
  return FALSE;
}

/* The host[:port] text of @text, for messages about it. */
static char *
dup_hostport_text (const char *text)
{
  const char *start = strstr (text, "://");
  g_autofree char *authority = NULL;
  const char *at;

  start = start ? start + 3 : text;
  authority = g_strndup (start, strcspn (start, "/?#"));
  at = strrchr (authority, '@');
  return g_strdup (at ? at + 1 : authority);
}

/* Names what GUri refused in words a user can act on. */
static char *
describe_uri_error (const char   *text,
                    const GError *uri_error)
{
  g_autofree char *hostport = dup_hostport_text (text);

  if (g_error_matches (uri_error, G_URI_ERROR, G_URI_ERROR_BAD_PORT) ||
      (g_error_matches (uri_error, G_URI_ERROR, G_URI_ERROR_BAD_HOST) && hostport[0] != '['))
    {
      const char *close = strchr (hostport, ']');
      const char *colon = strchr (close ? close : hostport, ':');

      if (g_error_matches (uri_error, G_URI_ERROR, G_URI_ERROR_BAD_PORT) && colon != NULL)
        return g_strdup_printf (_("port “%s” is not a number from 1 to 65535"), colon + 1);
      return g_strdup (_("the host is not a valid host name or address"));
    }
  if (g_error_matches (uri_error, G_URI_ERROR, G_URI_ERROR_BAD_HOST))
    return g_strdup (strchr (hostport, ']') == NULL ? _("unterminated IPv6 address")
                                                    : _("unexpected characters after the IPv6 address"));
  if (g_error_matches (uri_error, G_URI_ERROR, G_URI_ERROR_BAD_USER) ||
      g_error_matches (uri_error, G_URI_ERROR, G_URI_ERROR_BAD_PASSWORD))
    /* xgettext:no-c-format */
    return g_strdup (_("the key has a broken %-escape"));
  if (g_error_matches (uri_error, G_URI_ERROR, G_URI_ERROR_BAD_PATH))
    /* xgettext:no-c-format */
    return g_strdup (_("the path has a broken %-escape"));
  return g_strdup (_("it is not a URL"));
}

/**
 * fc_dsn_parse:
 * @text: a DSN such as `https://KEY@o1.ingest.sentry.io/42`
 * @error: return location for an %FC_TRANSPORT_ERROR_INVALID_DSN error
 *
 * Returns: (transfer full): the parsed DSN, or %NULL. Error messages show
 *   the DSN with its keys masked.
 */
FcDsn *
fc_dsn_parse (const char  *text,
              GError     **error)
{
  g_autoptr(GError) uri_error = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *scheme = NULL;
  g_autofree char *user = NULL;
  g_autofree char *password = NULL;
  g_autofree char *host = NULL;
  g_autofree char *path = NULL;
  g_autoptr(FcDsn) self = NULL;
  const char *last_slash;
  int port = -1;

  if (text == NULL || *text == '\0')
    {
      g_set_error_literal (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN,
                           _("No DSN given (expected https://KEY@HOST/PROJECT_ID)"));
      return NULL;
    }

  copy = g_strstrip (g_strdup (text));

  for (const char *p = copy; *p; p++)
    if (g_ascii_isspace (*p) || g_ascii_iscntrl (*p))
      return invalid (error, copy, _("it contains white space or control characters")), NULL;

  /* GUri takes "host/42" as a relative reference; a DSN needs a scheme */
  if (strstr (copy, "://") == NULL)
    return invalid (error, copy, _("no scheme")), NULL;

  /* the secret key, when there is one, is the userinfo's password; a query
   * or fragment has no meaning for the envelope endpoint and is dropped */
  if (!g_uri_split_with_user (copy, G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED, &scheme, &user, &password, NULL,
                              &host, &port, &path, NULL, NULL, &uri_error))
    {
      g_autofree char *msg = describe_uri_error (copy, uri_error);

      return invalid (error, copy, msg), NULL;
    }

  if (scheme == NULL || (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      g_autofree char *msg = g_strdup_printf (_("scheme “%s” is not http or https"), scheme ? scheme : "");

      return invalid (error, copy, msg), NULL;
    }

  if (user == NULL)
    return invalid (error, copy, _("no public key (KEY@ before the host)")), NULL;
  if (user[0] == '\0')
    return invalid (error, copy, _("the public key is empty")), NULL;
  if (host == NULL || host[0] == '\0')
    return invalid (error, copy, _("no host")), NULL;
  if (port == 0)
    return invalid (error, copy, _("port “0” is not a number from 1 to 65535")), NULL;

  self = g_atomic_rc_box_new0 (FcDsn);
  self->scheme = g_ascii_strdown (scheme, -1);
  self->public_key = g_steal_pointer (&user);
  if (password != NULL && password[0] != '\0')
    self->secret_key = g_steal_pointer (&password);
  /* GUri strips the brackets of an IPv6 literal and decodes its zone
   * ("%25eth0" -> "%eth0"); URLs need both back as they were */
  if (strchr (host, ':') != NULL)
    {
      g_autoptr(GString) literal = g_string_new (host);

      g_string_replace (literal, "%", "%25", 0);
      self->host = g_strdup_printf ("[%s]", literal->str);
    }
  else
    self->host = g_steal_pointer (&host);
  self->port = port;

  /* Trailing slashes are common when DSNs are pasted from URLs. */
  while (path[0] != '\0' && path[strlen (path) - 1] == '/')
    path[strlen (path) - 1] = '\0';

  last_slash = strrchr (path, '/');
  if (last_slash == NULL || last_slash[1] == '\0')
    return invalid (error, copy, _("no project id after the host")), NULL;

  if (!is_all_digits (last_slash + 1))
    {
      g_autofree char *msg = g_strdup_printf (_("project id “%s” is not a number"), last_slash + 1);

      return invalid (error, copy, msg), NULL;
    }

  self->project_id = g_strdup (last_slash + 1);
  self->path = g_strndup (path, last_slash - path);

  /* GUri splits leniently ("KEY@y@[.io" gives the host "y@[.io"): the URL the
   * pieces make must parse too, or every send fails later and less clearly
   * (found by fuzz/fuzz-dsn). */
  {
    g_autofree char *url = fc_dsn_dup_envelope_url (self);

    if (!g_uri_is_valid (url, G_URI_FLAGS_NONE, NULL))
      return invalid (error, copy, _("the host is not a valid host name or address")), NULL;
  }

  return g_steal_pointer (&self);
}

const char *
fc_dsn_get_scheme (const FcDsn *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->scheme;
}

const char *
fc_dsn_get_public_key (const FcDsn *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->public_key;
}

const char *
fc_dsn_get_secret_key (const FcDsn *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->secret_key;
}

const char *
fc_dsn_get_host (const FcDsn *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->host;
}

int
fc_dsn_get_port (const FcDsn *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->port;
}

const char *
fc_dsn_get_path (const FcDsn *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

const char *
fc_dsn_get_project_id (const FcDsn *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->project_id;
}

static char *
dup_base (const FcDsn *self,
          const char  *userinfo)
{
  GString *s = g_string_new (self->scheme);

  g_string_append (s, "://");
  if (userinfo != NULL)
    {
      g_string_append (s, userinfo);
      g_string_append_c (s, '@');
    }
  g_string_append (s, self->host);
  if (self->port > 0)
    g_string_append_printf (s, ":%d", self->port);
  g_string_append (s, self->path);
  return g_string_free (s, FALSE);
}

char *
fc_dsn_dup_envelope_url (const FcDsn *self)
{
  g_autofree char *base = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  base = dup_base (self, NULL);
  return g_strdup_printf ("%s/api/%s/envelope/", base, self->project_id);
}

char *
fc_dsn_dup_destination (const FcDsn *self)
{
  g_autofree char *base = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  base = dup_base (self, NULL);
  return g_strdup_printf ("%s/%s", base, self->project_id);
}

char *
fc_dsn_dup_auth_header (const FcDsn *self)
{
  GString *s;

  g_return_val_if_fail (self != NULL, NULL);

  s = g_string_new ("Sentry sentry_key=");
  g_string_append (s, self->public_key);
  g_string_append (s, ", sentry_version=7, sentry_client=flamecast/" FC_VERSION);
  if (self->secret_key != NULL)
    g_string_append_printf (s, ", sentry_secret=%s", self->secret_key);
  return g_string_free (s, FALSE);
}

static char *
mask_key (const char *key)
{
  /* Real keys are 32 hex digits; a short prefix lets users tell DSNs apart
   * without making the key usable. */
  if (strlen (key) >= 16)
    return g_strdup_printf ("%.4s***", key);
  return g_strdup ("***");
}

char *
fc_dsn_dup_masked (const FcDsn *self)
{
  g_autofree char *key = NULL;
  g_autofree char *userinfo = NULL;
  g_autofree char *base = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  key = mask_key (self->public_key);
  userinfo = self->secret_key ? g_strdup_printf ("%s:***", key) : g_strdup (key);
  base = dup_base (self, userinfo);
  return g_strdup_printf ("%s/%s", base, self->project_id);
}

char *
fc_dsn_mask_text (const char *text)
{
  const char *sep;
  const char *start;
  const char *auth_end;
  const char *at = NULL;
  g_autofree char *key = NULL;
  GString *s;

  if (text == NULL)
    return g_strdup ("");

  sep = strstr (text, "://");
  start = sep ? sep + 3 : text;
  auth_end = start + strcspn (start, "/?#");
  for (const char *p = start; p < auth_end; p++)
    if (*p == '@')
      at = p;

  if (at == NULL)
    {
      /* Without '@' there is no key to hide, unless the whole text is one. */
      if (sep == NULL && strchr (text, '/') == NULL)
        return g_strdup ("***");
      return g_strdup (text);
    }

  {
    g_autofree char *userinfo = g_strndup (start, at - start);
    char *colon = strchr (userinfo, ':');

    if (colon != NULL)
      *colon = '\0';
    key = mask_key (userinfo);
    s = g_string_new_len (text, start - text);
    g_string_append (s, key);
    if (colon != NULL)
      g_string_append (s, ":***");
    g_string_append (s, at);
  }

  return g_string_free (s, FALSE);
}
