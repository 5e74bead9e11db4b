/* fuzz-dsn.c - the DSN parser and everything derived from a parsed DSN
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "flamecast.h"
#include "fc-fuzz.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *masked_text = fc_dsn_mask_text (text);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDsn) dsn = fc_dsn_parse (text, &error);
  g_autofree char *url = NULL;
  g_autofree char *auth = NULL;
  g_autofree char *masked = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *userinfo;
  const char *at;

  g_assert (masked_text != NULL);
  FC_FUZZ_CHECK_RESULT (dsn != NULL, error, "fc_dsn_parse");
  if (dsn == NULL)
    return 0;

  url = fc_dsn_dup_envelope_url (dsn);
  auth = fc_dsn_dup_auth_header (dsn);
  masked = fc_dsn_dup_masked (dsn);

  /* The envelope URL must be one libsoup takes, and a masked DSN never shows the key. */
  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    {
      fprintf (stderr, "DSN %s gives an envelope URL that does not parse: %s\n", masked, url);
      abort ();
    }
  /* The user info runs from the scheme to the first '@' (a path may hold more). */
  userinfo = masked + strlen (fc_dsn_get_scheme (dsn)) + 3;
  at = strchr (userinfo, '@');
  if (at != NULL && strlen (fc_dsn_get_public_key (dsn)) > 4 &&
      g_strstr_len (userinfo, at - userinfo, fc_dsn_get_public_key (dsn)) != NULL)
    {
      fprintf (stderr, "masked DSN %s shows the whole public key\n", masked);
      abort ();
    }
  return 0;
}
