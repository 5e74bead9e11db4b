/* fc-client-sdk.c - the SDK that made a profile, as typed data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-client-sdk.h"

G_DEFINE_BOXED_TYPE (FcClientSdk, fc_client_sdk, fc_client_sdk_copy, fc_client_sdk_free)

static void
clear_package (gpointer data)
{
  FcSdkPackage *package = data;

  g_free (package->name);
  g_free (package->version);
}

GArray *
fc_client_sdk_ensure_packages (FcClientSdk *sdk)
{
  g_return_val_if_fail (sdk != NULL, NULL);

  if (sdk->packages == NULL)
    {
      sdk->packages = g_array_new (FALSE, FALSE, sizeof (FcSdkPackage));
      g_array_set_clear_func (sdk->packages, clear_package);
    }
  return sdk->packages;
}

FcClientSdk *
fc_client_sdk_new (const char *name,
                   const char *version)
{
  FcClientSdk *sdk = g_new0 (FcClientSdk, 1);

  sdk->name = g_strdup (name);
  sdk->version = g_strdup (version);
  return sdk;
}

void
fc_client_sdk_add_package (FcClientSdk *sdk,
                           const char  *name,
                           const char  *version)
{
  FcSdkPackage package = { g_strdup (name), g_strdup (version) };

  g_array_append_val (fc_client_sdk_ensure_packages (sdk), package);
}

FcClientSdk *
fc_client_sdk_copy (const FcClientSdk *sdk)
{
  FcClientSdk *copy;

  if (sdk == NULL)
    return NULL;
  copy = fc_client_sdk_new (sdk->name, sdk->version);
  if (sdk->packages != NULL)
    fc_client_sdk_ensure_packages (copy);
  for (guint i = 0; sdk->packages != NULL && i < sdk->packages->len; i++)
    {
      const FcSdkPackage *p = &g_array_index (sdk->packages, FcSdkPackage, i);

      fc_client_sdk_add_package (copy, p->name, p->version);
    }
  copy->extra = g_strdup (sdk->extra);
  return copy;
}

void
fc_client_sdk_free (FcClientSdk *sdk)
{
  if (sdk == NULL)
    return;
  g_free (sdk->name);
  g_free (sdk->version);
  g_clear_pointer (&sdk->packages, g_array_unref);
  g_free (sdk->extra);
  g_free (sdk);
}

gboolean
fc_client_sdk_is_named (const FcClientSdk *sdk)
{
  return sdk != NULL && sdk->name != NULL && sdk->name[0] != '\0' &&
         sdk->version != NULL && sdk->version[0] != '\0';
}
