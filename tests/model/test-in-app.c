/* test-in-app.c - application or system frame when the SDK left in_app out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-call-tree.h"
#include "fc-in-app.h"
#include "fc-profile.h"

#define YES FC_IN_APP_YES
#define NO FC_IN_APP_NO
#define UNKNOWN FC_IN_APP_UNKNOWN

static FcInApp
path (const char *platform,
      const char *abs_path)
{
  return fc_in_app_rules_infer (NULL, platform, abs_path, NULL, NULL, NULL);
}

static FcInApp
image (const char *platform,
       const char *package)
{
  return fc_in_app_rules_infer (NULL, platform, NULL, NULL, NULL, package);
}

static void
test_node (void)
{
  g_assert_cmpint (path ("node", "/srv/shop/src/checkout.js"), ==, YES);
  g_assert_cmpint (path ("node", "/srv/shop/node_modules/express/lib/router/index.js"), ==, NO);
  g_assert_cmpint (path ("node", "node:internal/timers"), ==, NO);
  g_assert_cmpint (path ("node", "internal/modules/cjs/loader.js"), ==, NO);
  g_assert_cmpint (path ("node", "events.js"), ==, NO);
  g_assert_cmpint (path ("node", NULL), ==, NO);
  g_assert_cmpint (path ("javascript", "app:///main.js"), ==, YES);
  g_assert_cmpint (path ("javascript", "C:\\shop\\index.js"), ==, YES);
  /* the filename stands in for a missing abs_path */
  g_assert_cmpint (fc_in_app_rules_infer (NULL, "node", NULL, "/srv/shop/a.js", NULL, NULL), ==, YES);
}

static void
test_python (void)
{
  g_assert_cmpint (path ("python", "/home/ana/shop/views.py"), ==, YES);
  g_assert_cmpint (path ("python", "/home/ana/shop/lib/python_helpers.py"), ==, YES);
  g_assert_cmpint (path ("python", "/usr/lib/python3.11/json/encoder.py"), ==, NO);
  g_assert_cmpint (path ("python", "/opt/py/lib64/python3.9/threading.py"), ==, NO);
  g_assert_cmpint (path ("python", "/home/ana/.venv/lib/python3.11/site-packages/flask/app.py"), ==, NO);
  g_assert_cmpint (path ("python", "/usr/lib/python3/dist-packages/gi/__init__.py"), ==, NO);
  g_assert_cmpint (path ("python", "<frozen importlib._bootstrap>"), ==, NO);
  g_assert_cmpint (path ("python", NULL), ==, UNKNOWN);
}

static void
test_native_and_others (void)
{
  g_assert_cmpint (image ("native", "/home/ana/build/shop"), ==, YES);
  g_assert_cmpint (image ("native", "/usr/bin/python3.11"), ==, YES);
  g_assert_cmpint (image ("native", "/usr/lib/x86_64-linux-gnu/libc.so.6"), ==, NO);
  g_assert_cmpint (image ("native", "/lib64/ld-linux-x86-64.so.2"), ==, NO);
  g_assert_cmpint (image ("native", "/nix/store/8a8f-glibc-2.38/lib/libc.so.6"), ==, NO);
  g_assert_cmpint (image ("native", "[vdso]"), ==, NO);
  g_assert_cmpint (image ("native", NULL), ==, UNKNOWN);
  /* the module when there is no package, as the recorder writes it */
  g_assert_cmpint (fc_in_app_rules_infer (NULL, "native", NULL, NULL, "/usr/lib64/libz.so.1", NULL), ==, NO);
  g_assert_cmpint (image ("cocoa", "/System/Library/Frameworks/Foundation.framework/Foundation"), ==, NO);

  g_assert_cmpint (fc_in_app_rules_infer (NULL, "java", NULL, NULL, "java.lang.Thread", NULL), ==, NO);
  g_assert_cmpint (fc_in_app_rules_infer (NULL, "android", NULL, NULL, "com.example.Shop", NULL), ==, UNKNOWN);
  g_assert_cmpint (path ("php", "/srv/shop/vendor/symfony/Kernel.php"), ==, NO);
  g_assert_cmpint (path ("php", "/srv/shop/src/Cart.php"), ==, YES);
  g_assert_cmpint (path ("ruby", "/usr/lib/ruby/gems/3.1.0/gems/rack-2.2/lib/rack.rb"), ==, NO);
  g_assert_cmpint (path ("unknown-platform", "/srv/shop/x"), ==, UNKNOWN);
  g_assert_cmpint (image ("unknown-platform", "/usr/lib/libfoo.so"), ==, NO);
}

static void
test_user_prefixes (void)
{
  g_autofree char *home_code = g_build_filename (g_get_home_dir (), "code", "tool.py", NULL);
  g_autoptr(FcInAppRules) rules = fc_in_app_rules_new ((const char * const[]) { "/srv/vendored/", "~/code/",
                                                                                "shop.", "", NULL });

  /* a prefix makes a frame the user's whatever the platform rules say */
  g_assert_cmpint (fc_in_app_rules_infer (rules, "node", "/srv/vendored/node_modules/ours/a.js", NULL, NULL, NULL),
                   ==, YES);
  g_assert_cmpint (fc_in_app_rules_infer (rules, "python", home_code, NULL, NULL, NULL), ==, YES);
  g_assert_cmpint (fc_in_app_rules_infer (rules, "java", NULL, NULL, "shop.Cart", NULL), ==, YES);
  /* the empty prefix matches nothing */
  g_assert_cmpint (fc_in_app_rules_infer (rules, "node", "/srv/other/node_modules/x.js", NULL, NULL, NULL), ==, NO);
}

static guint32
js_frame (FcProfile  *profile,
          const char *function,
          const char *abs_path,
          FcInApp     in_app)
{
  FcFrame frame;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (profile, function);
  frame.abs_path = fc_profile_intern (profile, abs_path);
  frame.in_app = in_app;
  return fc_profile_intern_frame (profile, &frame);
}

/* A Node chunk without in_app: views see the user's code, explicit values win. */
static void
test_node_chunk_for_view (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) view = NULL;
  g_autoptr(FcCallTree) app_only = NULL;
  g_autoptr(FcCallTree) raw_app_only = NULL;
  guint32 handler = js_frame (profile, "handler", "/srv/shop/src/handler.js", UNKNOWN);
  guint32 route = js_frame (profile, "route", "/srv/shop/node_modules/express/lib/router.js", UNKNOWN);
  guint32 timers = js_frame (profile, "listOnTimeout", "node:internal/timers", UNKNOWN);
  guint32 marked = js_frame (profile, "marked", "/srv/shop/src/marked.js", NO);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  guint32 stack[] = { handler, route, timers };    /* leaf first */
  guint32 stack2[] = { marked, route, timers };

  fc_profile_set_meta_string (profile, "platform", "node");
  fc_profile_append_sample (profile, 1000, t, fc_profile_intern_stack_frames (profile, stack, 3), 0);
  fc_profile_append_sample (profile, 2000, t, fc_profile_intern_stack_frames (profile, stack2, 3), 0);
  fc_profile_finish (profile);

  g_assert_cmpint (fc_profile_frame_in_app (profile, handler, NULL), ==, YES);
  g_assert_cmpint (fc_profile_frame_in_app (profile, route, NULL), ==, NO);
  g_assert_cmpint (fc_profile_frame_in_app (profile, timers, NULL), ==, NO);
  g_assert_cmpint (fc_profile_frame_in_app (profile, marked, NULL), ==, NO);
  /* the model itself is untouched */
  g_assert_cmpint (fc_profile_get_frame (profile, handler)->in_app, ==, UNKNOWN);

  /* without inference "application frames only" is empty; with it, handler */
  raw_app_only = fc_call_tree_new_full (profile, 0, 0, 0, FALSE, FC_FRAME_FILTER_APPLICATION);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (fc_call_tree_get_root (raw_app_only)), ==, 0);

  view = fc_profile_dup_for_view (profile, NULL);
  g_assert_true (fc_profile_is_finished (view));
  app_only = fc_call_tree_new_full (view, 0, 0, 0, FALSE, FC_FRAME_FILTER_APPLICATION);
  g_assert_cmpuint (fc_call_tree_node_get_n_children (fc_call_tree_get_root (app_only)), ==, 1);
  {
    const FcCallTreeNode *node = fc_call_tree_node_get_child (fc_call_tree_get_root (app_only), 0);
    const FcFrame *frame = fc_profile_get_frame (view, fc_call_tree_node_get_frame (node));
    char buf[64];

    g_assert_cmpstr (fc_profile_frame_label (view, fc_call_tree_node_get_frame (node), buf, sizeof buf), ==, "handler");
    g_assert_cmpint (frame->in_app, ==, YES);
    g_assert_true (frame->in_app_inferred);
    g_assert_cmpuint (fc_call_tree_node_get_total (node), ==, 1);
  }
  for (guint32 f = 0; f < fc_profile_get_n_frames (view); f++)
    {
      const FcFrame *frame = fc_profile_get_frame (view, f);

      if (g_strcmp0 (fc_profile_string (view, frame->function), "marked") == 0)
        {
          g_assert_cmpint (frame->in_app, ==, NO);
          g_assert_false (frame->in_app_inferred);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/in-app/node", test_node);
  g_test_add_func ("/core/in-app/python", test_python);
  g_test_add_func ("/core/in-app/native-and-others", test_native_and_others);
  g_test_add_func ("/core/in-app/user-prefixes", test_user_prefixes);
  g_test_add_func ("/core/in-app/node-chunk-for-view", test_node_chunk_for_view);

  return g_test_run ();
}
