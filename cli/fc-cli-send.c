/* fc-cli-send.c - flamecast-cli send
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>

#include "fc-cli.h"
#include "fc-dsn.h"
#include "fc-transport-error.h"
#include "fc-otlp-endpoint.h"
#include "fc-otlp.h"
#include "fc-outbox-entries.h"
#include "fc-reader.h"
#include "fc-send-plan.h"
#include "fc-settings.h"
#include "fc-transport.h"

/* Settings, then the DSN: --dsn, $SENTRY_DSN, the saved settings. */
static FcTransport *
transport_from_options (const char  *dsn_option,
                        GError     **error)
{
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_autofree char *settings_path = fc_settings_dup_default_path ();
  g_autofree char *text = NULL;
  g_autoptr(FcDsn) dsn = NULL;

  if (!fc_settings_load (settings, NULL, error))
    return NULL;

  text = fc_settings_dup_effective_dsn (settings, dsn_option);
  if (text == NULL)
    {
      g_set_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN,
                   _("No DSN: pass --dsn, set SENTRY_DSN, or set “dsn” in %s"), settings_path);
      return NULL;
    }

  if (!(dsn = fc_dsn_parse (text, error)))
    return NULL;

  return fc_transport_new (dsn, NULL, NULL);
}

/* --otlp: the OTLP target from --endpoint, the OTEL_EXPORTER_OTLP_*
 * variables, then "otlp-endpoint" in the settings (the app's preference) */
static FcTransport *
otlp_transport_from_options (const char  *endpoint_option,
                             GError     **error)
{
  g_autoptr(FcSettings) settings = fc_settings_new ();
  g_auto(GStrv) headers = NULL;
  g_autofree char *url = NULL;

  if (endpoint_option == NULL &&
      g_getenv ("OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT") == NULL && g_getenv ("OTEL_EXPORTER_OTLP_ENDPOINT") == NULL)
    {
      if (!fc_settings_load (settings, NULL, error))
        return NULL;
      if (*fc_settings_get_otlp_endpoint (settings) != '\0')
        endpoint_option = fc_settings_get_otlp_endpoint (settings);
    }
  url = fc_otlp_endpoint_resolve (endpoint_option, &headers, error);

  if (url == NULL)
    return NULL;
  return fc_transport_new_otlp (url, (const char * const *) headers, NULL);
}

/* --list: what waits and what was rejected, by destination, each with why */
static int
list_outbox (FcOutbox *outbox)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(FcRateLimits) rate_limits = fc_rate_limits_new (NULL);
  g_autoptr(GError) error = NULL;
  guint n_rejected = 0;

  if (!fc_outbox_check_folder (outbox, &error))
    {
      fprintf (stderr, "flamecast-cli send: %s\n", error->message);
      return 2;
    }
  entries = fc_outbox_list_entries (outbox, rate_limits, g_get_real_time ());
  for (guint i = 0; i < entries->len; i++)
    n_rejected += ((FcOutboxEntry *) g_ptr_array_index (entries, i))->rejected;
  printf (_("Outbox %s: %u waiting, %u rejected\n"), fc_outbox_get_dir (outbox), entries->len - n_rejected, n_rejected);
  for (guint r = 0; r < 2; r++)
    {
      g_autoptr(GHashTable) by = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) g_ptr_array_unref);
      g_autoptr(GList) keys = NULL;

      for (guint i = 0; i < entries->len; i++)
        {
          FcOutboxEntry *entry = g_ptr_array_index (entries, i);
          const char *key = entry->destination != NULL ? entry->destination : "";
          GPtrArray *list;

          if (entry->rejected != (r == 1))
            continue;
          list = g_hash_table_lookup (by, key);
          if (list == NULL)
            {
              list = g_ptr_array_new ();
              g_hash_table_insert (by, g_strdup (key), list);
            }
          g_ptr_array_add (list, entry);
        }
      keys = g_list_sort (g_hash_table_get_keys (by), (GCompareFunc) g_strcmp0);
      for (GList *l = keys; l != NULL; l = l->next)
        {
          GPtrArray *list = g_hash_table_lookup (by, l->data);
          const char *destination = l->data;

          if (destination[0] == '\0')
            /* TRANSLATORS: waiting or rejected, then a count */
            printf (_("%s, no destination recorded (an older Flamecast's; sent only with --unaddressed): %u\n"),
                    r == 0 ? _("waiting") : _("rejected"), list->len);
          else
            printf (_("%s for %s: %u\n"), r == 0 ? _("waiting") : _("rejected"), destination, list->len);
          for (guint i = 0; i < list->len; i++)
            {
              const FcOutboxEntry *entry = g_ptr_array_index (list, i);

              if (entry->why != NULL)
                printf ("  %s: %s\n", entry->id, entry->why);
              else
                printf ("  %s\n", entry->id);
            }
        }
    }
  return 0;
}

/* 0: everything delivered; 1: something invalid, rejected or still waiting; 2: usage, DSN or I/O error */
int
fc_cli_send (int    argc,
             char **argv)
{
  g_autofree char *dsn_option = NULL;
  g_autofree char *endpoint_option = NULL;
  gboolean otlp = FALSE;
  gboolean flush = FALSE;
  gboolean list = FALSE;
  gboolean unaddressed = FALSE;
  gboolean strip_home = FALSE;
  int retries = 3;
  int timeout = 30;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "dsn", 0, 0, G_OPTION_ARG_STRING, &dsn_option,
      N_("Sentry DSN (default: $SENTRY_DSN, then the saved settings)"), "DSN" },
    { "otlp", 0, 0, G_OPTION_ARG_NONE, &otlp,
      N_("Send to an OpenTelemetry endpoint (OTLP/HTTP, profiles v1development) instead of Sentry"), NULL },
    { "endpoint", 0, 0, G_OPTION_ARG_STRING, &endpoint_option,
      N_("OTLP base URL (default: $OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT, $OTEL_EXPORTER_OTLP_ENDPOINT, then the saved settings)"), "URL" },
    { "flush", 0, 0, G_OPTION_ARG_NONE, &flush,
      N_("Deliver what is waiting in the outbox for this DSN's project (or this endpoint)"), NULL },
    { "unaddressed", 0, 0, G_OPTION_ARG_NONE, &unaddressed,
      N_("Also deliver the entries an older Flamecast left without a destination, to this DSN's project"), NULL },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, N_("List what waits in the outbox and what was rejected, by destination"),
      NULL },
    { "strip-home", 0, 0, G_OPTION_ARG_NONE, &strip_home,
      N_("Write paths under your home directory as “~/…” in what is sent, as the app's send dialog offers"), NULL },
    { "attempts", 0, 0, G_OPTION_ARG_INT, &retries,
      N_("Requests per envelope when Sentry is unavailable (default 3)"), "N" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout, N_("Seconds to wait for an answer (default 30)"), "S" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("[FILE...]") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("- send profiles to Sentry"));
  g_autoptr(GError) error = NULL;
  g_autoptr(FcTransport) transport = NULL;
  g_autoptr(FcFlushReport) report = NULL;
  gboolean invalid = FALSE;

  g_option_context_set_summary (context,
                                _("Sends V2 chunks, V1 profiles and envelopes to Sentry. A bare chunk or\n"
                                  "V1 profile is wrapped into the right envelope, an envelope goes as it\n"
                                  "is. Everything is validated first; what Relay would reject (sizes\n"
                                  "included) is not sent. --strip-home writes paths under your home\n"
                                  "directory as “~/…”, as the app's send dialog does.\n"
                                  "Envelopes go through an outbox in $XDG_STATE_HOME/flamecast/outbox:\n"
                                  "what cannot be delivered now (network, server, rate limits) waits there\n"
                                  "for the next send or for --flush, which sends each envelope only to the\n"
                                  "project it was queued for (--list shows them by destination). Delivery\n"
                                  "is at least once: an envelope whose answer was lost goes again, with the\n"
                                  "same event_id. The DSN comes from --dsn, then\n"
                                  "SENTRY_DSN, then “dsn=” in the [flamecast] group of\n"
                                  "$XDG_CONFIG_HOME/flamecast/settings.ini.\n"
                                  "\n"
                                  "--otlp sends any profile the reader opens as an OTLP\n"
                                  "ExportProfilesServiceRequest (protobuf) to ENDPOINT/v1development/profiles,\n"
                                  "through $XDG_STATE_HOME/flamecast/otlp-outbox with the same retries. The\n"
                                  "endpoint comes from --endpoint, OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT (as\n"
                                  "is), OTEL_EXPORTER_OTLP_ENDPOINT or “otlp-endpoint=” in settings.ini (the\n"
                                  "app's preference); headers from OTEL_EXPORTER_OTLP_HEADERS\n"
                                  "and OTEL_EXPORTER_OTLP_PROFILES_HEADERS (k=v,k2=v2).\n"
                                  "\n"
                                  "Exit status: 0 when everything was delivered, 1 when something was\n"
                                  "invalid, rejected or is still waiting, 2 on usage or DSN errors."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "flamecast-cli send: %s\n", error->message);
      return 2;
    }
  if (list)
    {
      g_autofree char *dir = otlp ? g_build_filename (g_get_user_state_dir (), "flamecast", "otlp-outbox", NULL)
                                  : NULL;
      g_autoptr(FcOutbox) outbox = fc_outbox_new (dir);

      return list_outbox (outbox);
    }
  if ((files == NULL || files[0] == NULL) && !flush)
    {
      fprintf (stderr, "flamecast-cli send: %s\n", _("expected FILE... or --flush (see --help)"));
      return 2;
    }
  if (retries < 1 || timeout < 1)
    {
      fprintf (stderr, "flamecast-cli send: %s\n", _("--attempts and --timeout must be at least 1"));
      return 2;
    }

  if (!otlp && endpoint_option != NULL)
    {
      fprintf (stderr, "flamecast-cli send: %s\n", _("--endpoint needs --otlp"));
      return 2;
    }
  if (otlp && strip_home)
    {
      fprintf (stderr, "flamecast-cli send: %s\n", _("--strip-home rewrites Sentry envelopes; it does not apply to --otlp"));
      return 2;
    }
  transport = otlp ? otlp_transport_from_options (endpoint_option, &error)
                   : transport_from_options (dsn_option, &error);
  if (transport == NULL)
    {
      fprintf (stderr, "flamecast-cli send: %s\n", error->message);
      return 2;
    }
  fc_transport_set_retry_policy (transport, retries, 1000);
  fc_transport_set_timeout (transport, timeout);
  fc_transport_set_send_unaddressed (transport, unaddressed);

  printf (_("Sending to %s\n"), fc_transport_get_masked_target (transport));

  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (files[i]);
      g_autoptr(GError) local_error = NULL;
      g_autoptr(FcDocument) document = NULL;
      g_autoptr(GBytes) original = NULL;
      g_autoptr(FcSendPlan) plan = NULL;
      g_autoptr(GPtrArray) ids = NULL;

      original = g_file_load_bytes (file, NULL, NULL, &local_error);
      if (original != NULL)
        document = fc_reader_load_bytes (original, FC_READ_LENIENT, &local_error);
      if (document == NULL)
        {
          printf ("%s: %s: %s\n", files[i], _("cannot read"), local_error->message);
          invalid = TRUE;
          continue;
        }

      if (otlp)
        {
          /* ProfilesData and ExportProfilesServiceRequest share their fields: the same bytes */
          g_autoptr(GBytes) request = fc_otlp_write (document, &local_error);
          g_autofree char *id = request ? fc_transport_enqueue (transport, request, &local_error) : NULL;

          if (id == NULL)
            {
              fprintf (stderr, "flamecast-cli send: %s\n", local_error->message);
              return 2;
            }
          printf (ngettext ("%s: 1 OTLP request queued (%u profile)\n", "%s: 1 OTLP request queued (%u profiles)\n",
                            fc_document_get_n_profiles (document)),
                  files[i], fc_document_get_n_profiles (document));
          continue;
        }

      plan = fc_send_plan_new (document, original, strip_home ? g_get_home_dir () : NULL, NULL, &local_error);
      if (plan->invalid != NULL)
        {
          printf ("%s: %s\n", files[i], plan->invalid);
          invalid = TRUE;
          continue;
        }

      ids = fc_send_plan_enqueue (plan, transport, &local_error);
      if (ids == NULL)
        {
          fprintf (stderr, "flamecast-cli send: %s\n", local_error->message);
          return 2;
        }
      printf (ngettext ("%s: %u envelope queued\n", "%s: %u envelopes queued\n", ids->len),
              files[i], ids->len);
    }

  report = fc_transport_flush (transport, NULL, &error);
  if (report == NULL)
    {
      fprintf (stderr, "flamecast-cli send: %s\n", error->message);
      return 2;
    }

  {
    g_autofree char *text = fc_transport_describe_report (transport, report);
    fputs (text, stdout);
  }

  if (!fc_flush_report_all_delivered (report) || invalid)
    return 1;

  return 0;
}
