/* fc-in-app.h - application or system frame, when the SDK did not say
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/*
 * Sentry decides in_app on the server when an SDK leaves it out; these are
 * the same rules, per platform (the frame's, else the profile's):
 *
 *   node, javascript  in app: an absolute path (or ./, file://, app:///, webpack://)
 *                     not under node_modules/; not: node: and internal/ modules,
 *                     bare names ("events.js"), frames without a path ("(program)")
 *   python            not: site-packages/, dist-packages/, the standard library
 *                     (lib/pythonX.Y/, <frozen ...>, <string>); in app: any other path
 *   native, c, cpp, rust, go, cocoa, swift, objc
 *                     not: images in system directories (/usr/lib, /lib, /lib64,
 *                     /usr/lib64, /usr/libexec, /usr/local/lib, /nix/store, /gnu/store,
 *                     /snap, /System, [vdso]...); in app: the executable and any other image
 *   java, android, kotlin   not: java., javax., jdk., sun., android., androidx.,
 *                     kotlin., dalvik. ...
 *   php, ruby         not: vendor/, gems/, lib/ruby/; in app: any other path
 *
 * A path, module or package under one of the user's in-app prefixes (the
 * "in-app-prefixes" setting; "~/" is the home directory) is in app on every
 * platform. An SDK's explicit value always wins.
 */

FcInAppRules *fc_in_app_rules_new       (const char * const  *app_prefixes);
void          fc_in_app_rules_free      (FcInAppRules        *self);

FcInApp       fc_in_app_rules_infer     (const FcInAppRules  *self,
                                         const char          *platform,
                                         const char          *abs_path,
                                         const char          *filename,
                                         const char          *module,
                                         const char          *package);

/* the frame's in_app: its own when the payload has it, otherwise inferred
 * (@rules NULL: the platform rules alone) */
FcInApp       fc_profile_frame_in_app   (FcProfile           *profile,
                                         guint32              frame_id,
                                         const FcInAppRules  *rules);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcInAppRules, fc_in_app_rules_free)

G_END_DECLS
