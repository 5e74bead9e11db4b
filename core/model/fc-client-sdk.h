/* fc-client-sdk.h - the SDK that made a profile, as typed data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What Sentry calls a payload's client_sdk: the model keeps what it
 * understands typed and the keys it does not as opaque JSON text, so a
 * profile an SDK made is sent again as that SDK wrote it. Only
 * core/formats/fc-chunk-meta.c spells it as JSON.
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct
{
  char *name;
  char *version;
} FcSdkPackage;

typedef struct
{
  char       *name;      /* NULL when the payload has none (or not a string) */
  char       *version;
  GArray     *packages;  /* FcSdkPackage, or NULL when the payload lists none */
  char       *extra;     /* keys the model does not interpret, as compact JSON
                          * object text (as frames keep theirs), or NULL */
} FcClientSdk;

#define FC_TYPE_CLIENT_SDK (fc_client_sdk_get_type ())
GType        fc_client_sdk_get_type    (void) G_GNUC_CONST;

FcClientSdk *fc_client_sdk_new         (const char        *name,
                                        const char        *version);
FcClientSdk *fc_client_sdk_copy        (const FcClientSdk *sdk);
void         fc_client_sdk_free        (FcClientSdk       *sdk);
/* @sdk's package list (FcSdkPackage), made empty when it has none */
GArray      *fc_client_sdk_ensure_packages (FcClientSdk   *sdk);
void         fc_client_sdk_add_package (FcClientSdk       *sdk,
                                        const char        *name,
                                        const char        *version);
/* TRUE when @sdk (nullable) names an SDK: a non-empty name and version,
 * which is what Sentry identifies an SDK by */
gboolean     fc_client_sdk_is_named    (const FcClientSdk *sdk);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcClientSdk, fc_client_sdk_free)

G_END_DECLS
