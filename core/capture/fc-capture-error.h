/* fc-capture-error.h - the capture layer's error domain: a process we cannot record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Messages name the process and what to do about it:
 * "Process 4242 (sshd) is not dumpable: ...". */

#define FC_SAMPLER_ERROR (fc_sampler_error_quark ())

typedef enum {
  FC_SAMPLER_ERROR_FAILED,
  FC_SAMPLER_ERROR_PERMISSION,  /* EPERM: yama, other user, container, already traced */
  FC_SAMPLER_ERROR_NO_PROCESS,  /* ESRCH: no such process / it exited */
  FC_SAMPLER_ERROR_NOT_SUPPORTED, /* e.g. perf events not permitted */
} FcSamplerError;

GQuark fc_sampler_error_quark (void);

G_END_DECLS
