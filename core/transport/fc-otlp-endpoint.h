/* fc-otlp-endpoint.h - where OTLP profiles go: --endpoint or the OTEL_EXPORTER_OTLP_* variables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The signal path, appended to a base endpoint (not /v1/profiles until the signal is stable). */
#define FC_OTLP_PROFILES_PATH "/v1development/profiles"

/*
 * The URL to post ExportProfilesServiceRequest to, by the OTel exporter
 * rules: @endpoint_option (--endpoint) or OTEL_EXPORTER_OTLP_ENDPOINT are
 * base URLs that get FC_OTLP_PROFILES_PATH appended (unless they end with
 * it already); OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT is used as is (and wins
 * over the generic one, --endpoint over both). @headers receives name,
 * value, ... from OTEL_EXPORTER_OTLP_HEADERS then
 * OTEL_EXPORTER_OTLP_PROFILES_HEADERS ("k=v,k2=v2", values percent-decoded;
 * the signal's own win). NULL with FC_TRANSPORT_ERROR_INVALID_DSN naming
 * the variable when none is set or a value is not an http(s) URL or a header
 * list.
 */
char *fc_otlp_endpoint_resolve (const char   *endpoint_option,
                                GStrv        *headers,
                                GError      **error);

/* @url without its user info (credentials): what the outbox records of
 * each request; the query is kept (it may name a tenant). */
char *fc_otlp_endpoint_dup_destination (const char *url);
/* @url with its user info ("user:password@") masked, for messages */
char *fc_otlp_endpoint_dup_masked      (const char *url);

G_END_DECLS
