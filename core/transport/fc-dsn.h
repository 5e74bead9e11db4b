/* fc-dsn.h - a Sentry DSN: where envelopes go and how they authenticate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* {scheme}://{public_key}[:{secret}]@{host}[:{port}][/{path}]/{project_id} */
typedef struct _FcDsn FcDsn;

#define FC_TYPE_DSN (fc_dsn_get_type ())

GType       fc_dsn_get_type             (void) G_GNUC_CONST;
FcDsn      *fc_dsn_parse                (const char  *text,
                                         GError     **error);
FcDsn      *fc_dsn_ref                  (FcDsn       *self);
void        fc_dsn_unref                (FcDsn       *self);

const char *fc_dsn_get_scheme           (const FcDsn *self);   /* "http" or "https" */
const char *fc_dsn_get_public_key       (const FcDsn *self);
const char *fc_dsn_get_secret_key       (const FcDsn *self);   /* NULL when absent */
const char *fc_dsn_get_host             (const FcDsn *self);
int         fc_dsn_get_port             (const FcDsn *self);   /* -1 when not given */
const char *fc_dsn_get_path             (const FcDsn *self);   /* "" or "/prefix" */
const char *fc_dsn_get_project_id       (const FcDsn *self);

/* {scheme}://{host}[:{port}]{path}/api/{project_id}/envelope/ */
char       *fc_dsn_dup_envelope_url     (const FcDsn *self);
/* "Sentry sentry_key=..., sentry_version=7, sentry_client=flamecast/VERSION[, sentry_secret=...]" */
char       *fc_dsn_dup_auth_header      (const FcDsn *self);
/* Where the DSN sends, without its keys: "https://o1.ingest.sentry.io/42",
 * what the outbox records of each envelope */
char       *fc_dsn_dup_destination      (const FcDsn *self);
/* The DSN with its keys masked, safe for logs: "https://ab12***@o1.ingest.sentry.io/42" */
char       *fc_dsn_dup_masked           (const FcDsn *self);
/* Mask a DSN-looking string that may not parse (for error messages), or
 * any URL's user info (an OTLP endpoint's "user:password@" as asterisks) */
char       *fc_dsn_mask_text            (const char  *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcDsn, fc_dsn_unref)

G_END_DECLS
