/* fc-in-app.c - application or system frame, when the SDK did not say
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-in-app.h"

struct _FcInAppRules
{
  GPtrArray *prefixes;   /* char*, "~/" expanded */
};

/**
 * fc_in_app_rules_new:
 * @app_prefixes: (nullable) (array zero-terminated=1): paths, modules or
 *   packages whose frames are the user's application
 */
FcInAppRules *
fc_in_app_rules_new (const char * const *app_prefixes)
{
  FcInAppRules *self = g_new0 (FcInAppRules, 1);

  self->prefixes = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; app_prefixes != NULL && app_prefixes[i] != NULL; i++)
    {
      const char *prefix = app_prefixes[i];

      if (prefix[0] == '\0')
        continue;
      if (g_str_has_prefix (prefix, "~/"))
        g_ptr_array_add (self->prefixes, g_build_filename (g_get_home_dir (), prefix + 2, NULL));
      else
        g_ptr_array_add (self->prefixes, g_strdup (prefix));
    }

  return self;
}

void
fc_in_app_rules_free (FcInAppRules *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->prefixes);
  g_free (self);
}

static gboolean
has_text (const char *s)
{
  return s != NULL && s[0] != '\0';
}

static const char *
first_of (const char *a,
          const char *b)
{
  return has_text (a) ? a : has_text (b) ? b : NULL;
}

static gboolean
starts_with_any (const char         *s,
                 const char * const *prefixes)
{
  for (guint i = 0; prefixes[i] != NULL; i++)
    if (g_str_has_prefix (s, prefixes[i]))
      return TRUE;
  return FALSE;
}

static gboolean
contains_any (const char         *s,
              const char * const *parts)
{
  for (guint i = 0; parts[i] != NULL; i++)
    if (strstr (s, parts[i]) != NULL)
      return TRUE;
  return FALSE;
}

static FcInApp
infer_javascript (const char *path)
{
  static const char * const app_roots[] = { "/", "./", "file://", "app:///", "webpack://", NULL };

  if (path == NULL)
    return FC_IN_APP_NO;            /* "(program)", "(garbage collector)", native code */
  if (strstr (path, "/node_modules/") != NULL || strstr (path, "\\node_modules\\") != NULL)
    return FC_IN_APP_NO;
  if (g_str_has_prefix (path, "node:") || g_str_has_prefix (path, "internal/"))
    return FC_IN_APP_NO;
  /* C:\app\index.js */
  if (g_ascii_isalpha (path[0]) && path[1] == ':' && (path[2] == '\\' || path[2] == '/'))
    return FC_IN_APP_YES;
  /* a bare "events.js" is one of node's own modules */
  return starts_with_any (path, app_roots) ? FC_IN_APP_YES : FC_IN_APP_NO;
}

static gboolean
python_stdlib (const char *path)
{
  const char *p = path;

  if (path[0] == '<')
    return TRUE;                    /* <frozen importlib._bootstrap>, <string> */
  /* .../lib/python3.11/..., .../lib/pypy3.9/..., C:\Python311\Lib\... */
  while ((p = strstr (p, "lib")) != NULL)
    {
      const char *rest = g_str_has_prefix (p + 3, "64/") ? p + 6 : p + 4;

      if ((p == path || p[-1] == '/' || p[-1] == '\\') && (p[3] == '/' || g_str_has_prefix (p + 3, "64/")))
        {
          if (g_str_has_prefix (rest, "python"))
            rest += 6;
          else if (g_str_has_prefix (rest, "pypy"))
            rest += 4;
          else
            rest = NULL;
          if (rest != NULL && g_ascii_isdigit (rest[0]))
            return TRUE;
        }
      p += 3;
    }
  return strstr (path, "\\Lib\\") != NULL;
}

static FcInApp
infer_python (const char *path)
{
  static const char * const packages[] = { "site-packages", "dist-packages", NULL };

  if (path == NULL)
    return FC_IN_APP_UNKNOWN;
  if (contains_any (path, packages) || python_stdlib (path))
    return FC_IN_APP_NO;
  return FC_IN_APP_YES;
}

static FcInApp
infer_native (const char *image)
{
  static const char * const system_dirs[] = {
    "/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libx32/", "/usr/libexec/", "/usr/local/lib/",
    "/lib/", "/lib32/", "/lib64/", "/libx32/", "/usr/share/", "/nix/store/", "/gnu/store/", "/snap/",
    "/System/", "/Library/Apple/", "/apex/", "/system/", "/vendor/lib", "C:\\Windows\\", NULL,
  };

  if (image == NULL)
    return FC_IN_APP_UNKNOWN;
  if (starts_with_any (image, system_dirs) || g_str_has_prefix (image, "[") ||
      g_str_has_prefix (image, "linux-vdso") || g_str_has_prefix (image, "linux-gate"))
    return FC_IN_APP_NO;
  return FC_IN_APP_YES;
}

static FcInApp
infer_java (const char *module)
{
  static const char * const system[] = {
    "java.", "javax.", "jdk.", "sun.", "com.sun.", "android.", "androidx.", "com.android.", "dalvik.",
    "kotlin.", "kotlinx.", "libcore.", "org.apache.harmony.", "io.sentry.", NULL,
  };

  if (module == NULL)
    return FC_IN_APP_UNKNOWN;
  return starts_with_any (module, system) ? FC_IN_APP_NO : FC_IN_APP_UNKNOWN;
}

static FcInApp
infer_script (const char         *path,
              const char * const *library_parts)
{
  if (path == NULL)
    return FC_IN_APP_UNKNOWN;
  return contains_any (path, library_parts) ? FC_IN_APP_NO : FC_IN_APP_YES;
}

static gboolean
platform_is (const char         *platform,
             const char * const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (platform, names[i]) == 0)
      return TRUE;
  return FALSE;
}

/**
 * fc_in_app_rules_infer:
 * @self: (nullable): the user's prefixes, or NULL for the platform rules alone
 *
 * Returns: what Sentry would decide for a frame that has no in_app; see the
 *   header for the rules
 */
FcInApp
fc_in_app_rules_infer (const FcInAppRules *self,
                       const char         *platform,
                       const char         *abs_path,
                       const char         *filename,
                       const char         *module,
                       const char         *package)
{
  static const char * const js[] = { "node", "javascript", NULL };
  static const char * const native[] = { "native", "c", "cpp", "rust", "go", "cocoa", "swift", "objc", NULL };
  static const char * const java[] = { "java", "android", "kotlin", NULL };
  static const char * const php_libraries[] = { "/vendor/", NULL };
  static const char * const ruby_libraries[] = { "/gems/", "/lib/ruby/", NULL };
  const char *path = first_of (abs_path, filename);
  const char *image = first_of (package, module);

  if (self != NULL)
    {
      const char *candidates[] = { abs_path, filename, module, package };

      for (guint i = 0; i < self->prefixes->len; i++)
        for (guint c = 0; c < G_N_ELEMENTS (candidates); c++)
          if (has_text (candidates[c]) && g_str_has_prefix (candidates[c], g_ptr_array_index (self->prefixes, i)))
            return FC_IN_APP_YES;
    }

  if (platform_is (platform, js))
    return infer_javascript (path);
  if (g_strcmp0 (platform, "python") == 0)
    return infer_python (path);
  if (platform_is (platform, native))
    return infer_native (first_of (image, abs_path));
  if (platform_is (platform, java))
    return infer_java (first_of (module, package));
  if (g_strcmp0 (platform, "php") == 0)
    return infer_script (path, php_libraries);
  if (g_strcmp0 (platform, "ruby") == 0)
    return infer_script (path, ruby_libraries);

  /* another platform: only an absolute image path says something */
  if (image != NULL && image[0] == '/')
    return infer_native (image);
  return FC_IN_APP_UNKNOWN;
}

FcInApp
fc_profile_frame_in_app (FcProfile          *profile,
                         guint32             frame_id,
                         const FcInAppRules *rules)
{
  const FcFrame *frame;
  const char *platform;

  g_return_val_if_fail (FC_IS_PROFILE (profile), FC_IN_APP_UNKNOWN);

  frame = fc_profile_get_frame (profile, frame_id);
  if (frame == NULL)
    return FC_IN_APP_UNKNOWN;
  if (frame->in_app != FC_IN_APP_UNKNOWN)
    return frame->in_app;

  platform = fc_profile_string (profile, frame->platform);
  if (!has_text (platform))
    platform = fc_profile_get_platform (profile);

  return fc_in_app_rules_infer (rules, platform,
                                fc_profile_string (profile, frame->abs_path),
                                fc_profile_string (profile, frame->filename),
                                fc_profile_string (profile, frame->module),
                                fc_profile_string (profile, frame->package));
}
