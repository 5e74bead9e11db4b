/* test-dsn.c - DSN parsing, URL and auth header, masking
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-dsn.h"
#include "fc-transport-error.h"

#define KEY    "0123456789abcdef0123456789abcdef"
#define SECRET "fedcba9876543210fedcba9876543210"

typedef struct {
  const char *text;
  const char *scheme;
  const char *host;
  int         port;
  const char *path;
  const char *project;
  const char *secret;
  const char *url;
} ValidCase;

static const ValidCase valid_cases[] = {
  { "https://" KEY "@o1.ingest.sentry.io/42",
    "https", "o1.ingest.sentry.io", -1, "", "42", NULL,
    "https://o1.ingest.sentry.io/api/42/envelope/" },
  { "http://" KEY ":" SECRET "@localhost:9000/sub/path/7",
    "http", "localhost", 9000, "/sub/path", "7", SECRET,
    "http://localhost:9000/sub/path/api/7/envelope/" },
  { "  HTTPS://" KEY "@sentry.example.com/123/  ",
    "https", "sentry.example.com", -1, "", "123", NULL,
    "https://sentry.example.com/api/123/envelope/" },
  { "http://" KEY "@[::1]:8080/3",
    "http", "[::1]", 8080, "", "3", NULL,
    "http://[::1]:8080/api/3/envelope/" },
  /* GUri's pieces stay as written: an IPv6 zone and escapes in the path */
  { "http://" KEY "@[fe80::1%25eth0]:9/1",
    "http", "[fe80::1%25eth0]", 9, "", "1", NULL,
    "http://[fe80::1%25eth0]:9/api/1/envelope/" },
  { "https://" KEY "@h.example/a%20b/5",
    "https", "h.example", -1, "/a%20b", "5", NULL,
    "https://h.example/a%20b/api/5/envelope/" },
  { "https://" KEY ":@h.example/prefix/9",
    "https", "h.example", -1, "/prefix", "9", NULL,
    "https://h.example/prefix/api/9/envelope/" },
};

static void
test_dsn_valid (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (valid_cases); i++)
    {
      const ValidCase *c = &valid_cases[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(FcDsn) dsn = fc_dsn_parse (c->text, &error);
      g_autofree char *url = NULL;
      g_autofree char *masked = NULL;

      g_test_message ("DSN %u: %s", i, c->text);
      g_assert_no_error (error);
      g_assert_nonnull (dsn);
      g_assert_cmpstr (fc_dsn_get_scheme (dsn), ==, c->scheme);
      g_assert_cmpstr (fc_dsn_get_public_key (dsn), ==, KEY);
      g_assert_cmpstr (fc_dsn_get_secret_key (dsn), ==, c->secret);
      g_assert_cmpstr (fc_dsn_get_host (dsn), ==, c->host);
      g_assert_cmpint (fc_dsn_get_port (dsn), ==, c->port);
      g_assert_cmpstr (fc_dsn_get_path (dsn), ==, c->path);
      g_assert_cmpstr (fc_dsn_get_project_id (dsn), ==, c->project);

      url = fc_dsn_dup_envelope_url (dsn);
      g_assert_cmpstr (url, ==, c->url);

      masked = fc_dsn_dup_masked (dsn);
      g_assert_null (strstr (masked, KEY));
      g_assert_null (strstr (masked, SECRET));
      g_assert_nonnull (strstr (masked, c->host));
      g_assert_true (g_str_has_suffix (masked, c->project));
    }
}

static void
test_dsn_auth_header (void)
{
  g_autoptr(FcDsn) plain = fc_dsn_parse ("https://" KEY "@o1.ingest.sentry.io/42", NULL);
  g_autoptr(FcDsn) with_secret = fc_dsn_parse ("https://" KEY ":" SECRET "@o1.ingest.sentry.io/42", NULL);
  g_autofree char *a = fc_dsn_dup_auth_header (plain);
  g_autofree char *b = fc_dsn_dup_auth_header (with_secret);

  g_assert_cmpstr (a, ==, "Sentry sentry_key=" KEY ", sentry_version=7, sentry_client=flamecast/" FC_VERSION);
  g_assert_cmpstr (b, ==, "Sentry sentry_key=" KEY ", sentry_version=7, sentry_client=flamecast/" FC_VERSION
                          ", sentry_secret=" SECRET);
}

typedef struct {
  const char *text;
  const char *expect;   /* a piece of the message */
} InvalidCase;

static const InvalidCase invalid_cases[] = {
  { "", "No DSN" },
  { "not a dsn", "white space" },
  { "o1.ingest.sentry.io/42", "no scheme" },
  { "ftp://" KEY "@h/1", "scheme “ftp”" },
  { "https://o1.ingest.sentry.io/42", "no public key" },
  { "https://@o1.ingest.sentry.io/42", "public key is empty" },
  { "https://:" SECRET "@o1.ingest.sentry.io/42", "public key is empty" },
  { "https://" KEY "@/42", "no host" },
  { "https://" KEY "@h", "no project id" },
  { "https://" KEY "@h/", "no project id" },
  { "https://" KEY ":" SECRET "@h/abc", "project id “abc” is not a number" },
  { "https://" KEY "@h:0/1", "port “0”" },
  { "https://" KEY "@h:99999/1", "port “99999”" },
  { "https://" KEY "@h:http/1", "port “http”" },
  { "https://" KEY "@[::1/1", "IPv6" },
  /* Found by fuzz/fuzz-dsn: bracketed like IPv6, but no address, so no URL. */
  { "https://" KEY "@[ftp::1]:18443/1", "IPv6" },
  { "https://" KEY "@y@[.io/42", "not a valid host" },
  { "https://" KEY "@h/4 2", "white space" },
  { "https://" KEY "@h/a%zz/1", "broken %-escape" },
  { "https://" KEY "@h%zz/1", "not a valid host" },
};

static void
test_dsn_invalid (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (invalid_cases); i++)
    {
      const InvalidCase *c = &invalid_cases[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(FcDsn) dsn = fc_dsn_parse (c->text, &error);

      g_test_message ("invalid DSN %u: %s", i, c->text);
      g_assert_null (dsn);
      g_assert_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN);
      if (strstr (error->message, c->expect) == NULL)
        g_error ("“%s” does not say “%s”", error->message, c->expect);
      /* Secrets never appear in errors. */
      g_assert_null (strstr (error->message, KEY));
      g_assert_null (strstr (error->message, SECRET));
    }
}

static void
test_dsn_mask_text (void)
{
  g_autofree char *a = fc_dsn_mask_text ("https://" KEY ":" SECRET "@h/abc");
  g_autofree char *b = fc_dsn_mask_text ("https://host.example/42");
  g_autofree char *c = fc_dsn_mask_text (KEY);

  g_assert_cmpstr (a, ==, "https://0123***:***@h/abc");
  g_assert_cmpstr (b, ==, "https://host.example/42");
  g_assert_cmpstr (c, ==, "***");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/dsn/valid", test_dsn_valid);
  g_test_add_func ("/core/dsn/auth-header", test_dsn_auth_header);
  g_test_add_func ("/core/dsn/invalid", test_dsn_invalid);
  g_test_add_func ("/core/dsn/mask-text", test_dsn_mask_text);

  return g_test_run ();
}
