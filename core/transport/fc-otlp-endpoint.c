/* fc-otlp-endpoint.c - where OTLP profiles go: --endpoint or the OTEL_EXPORTER_OTLP_* variables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-transport-error.h"
#include "fc-dsn.h"
#include "fc-otlp-endpoint.h"

static const char *
get_env (const char *name)
{
  const char *value = g_getenv (name);

  return value != NULL && value[0] != '\0' ? value : NULL;
}

static gboolean
check_url (const char  *url,
           const char  *source,
           GError     **error)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                      g_strcmp0 (g_uri_get_scheme (uri), "https") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_set_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN,
                   _("%s: “%s” is not an http:// or https:// URL"), source, url);
      return FALSE;
    }
  return TRUE;
}

static char *
with_signal_path (const char *base)
{
  gsize len = strlen (base);

  if (g_str_has_suffix (base, FC_OTLP_PROFILES_PATH))
    return g_strdup (base);
  while (len > 0 && base[len - 1] == '/')
    len--;
  return g_strdup_printf ("%.*s%s", (int) len, base, FC_OTLP_PROFILES_PATH);
}

/* "k=v,k2=v2" into @names/@values, later keys replacing earlier ones */
static gboolean
parse_headers (const char  *text,
               const char  *source,
               GPtrArray   *pairs,
               GError     **error)
{
  g_auto(GStrv) items = g_strsplit (text, ",", -1);

  for (guint i = 0; items[i] != NULL; i++)
    {
      char *item = g_strstrip (items[i]);
      char *eq = strchr (item, '=');
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (item[0] == '\0')
        continue;
      if (eq == NULL || eq == item)
        {
          g_set_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN,
                       _("%s: “%s” is not a name=value pair"), source, item);
          return FALSE;
        }
      *eq = '\0';
      name = g_strdup (g_strstrip (item));
      value = g_uri_unescape_string (g_strstrip (eq + 1), NULL);
      if (value == NULL)
        {
          g_set_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN,
                       _("%s: the value of “%s” is not valid percent-encoding"), source, name);
          return FALSE;
        }
      for (guint j = 0; j + 1 < pairs->len; j += 2)
        if (g_ascii_strcasecmp (g_ptr_array_index (pairs, j), name) == 0)
          {
            g_ptr_array_remove_index (pairs, j + 1);
            g_ptr_array_remove_index (pairs, j);
            break;
          }
      g_ptr_array_add (pairs, g_steal_pointer (&name));
      g_ptr_array_add (pairs, g_steal_pointer (&value));
    }
  return TRUE;
}

char *
fc_otlp_endpoint_resolve (const char  *endpoint_option,
                          GStrv       *headers,
                          GError     **error)
{
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);
  const char *generic_headers = get_env ("OTEL_EXPORTER_OTLP_HEADERS");
  const char *signal_headers = get_env ("OTEL_EXPORTER_OTLP_PROFILES_HEADERS");
  const char *signal = get_env ("OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT");
  const char *generic = get_env ("OTEL_EXPORTER_OTLP_ENDPOINT");
  g_autofree char *url = NULL;

  g_return_val_if_fail (headers != NULL, NULL);

  if (endpoint_option != NULL)
    {
      if (!check_url (endpoint_option, "--endpoint", error))
        return NULL;
      url = with_signal_path (endpoint_option);
    }
  else if (signal != NULL)
    {
      if (!check_url (signal, "OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT", error))
        return NULL;
      url = g_strdup (signal);
    }
  else if (generic != NULL)
    {
      if (!check_url (generic, "OTEL_EXPORTER_OTLP_ENDPOINT", error))
        return NULL;
      url = with_signal_path (generic);
    }
  else
    {
      g_set_error_literal (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN,
                           _("No OTLP endpoint: pass --endpoint URL, or set OTEL_EXPORTER_OTLP_ENDPOINT "
                           "or OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT"));
      return NULL;
    }

  if ((generic_headers != NULL && !parse_headers (generic_headers, "OTEL_EXPORTER_OTLP_HEADERS", pairs, error)) ||
      (signal_headers != NULL && !parse_headers (signal_headers, "OTEL_EXPORTER_OTLP_PROFILES_HEADERS", pairs, error)))
    return NULL;
  g_ptr_array_add (pairs, NULL);
  *headers = (GStrv) g_ptr_array_steal (pairs, NULL);
  return g_steal_pointer (&url);
}

char *
fc_otlp_endpoint_dup_destination (const char *url)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (url != NULL, NULL);

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL)
    return fc_dsn_mask_text (url);
  return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO);
}

char *
fc_otlp_endpoint_dup_masked (const char *url)
{
  g_return_val_if_fail (url != NULL, NULL);

  return fc_dsn_mask_text (url);
}
