/* flamecast.h - umbrella header of libflamecast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#define FLAMECAST_INSIDE
/* model */
#include "fc-problem.h"
#include "fc-profile.h"
#include "fc-in-app.h"
#include "fc-frame-location.h"
#include "fc-document.h"
#include "fc-time.h"
/* formats */
#include "fc-format-error.h"
#include "fc-chunk-meta.h"
#include "fc-envelope.h"
#include "fc-envelope-summary.h"
#include "fc-strip-home.h"
#include "fc-export-plan.h"
#include "fc-reader.h"
#include "fc-writer.h"
#include "fc-validate.h"
#include "fc-convert.h"
#include "fc-transaction.h"
#include "fc-import.h"
#include "fc-otlp.h"
#include "fc-pprof.h"
#include "fc-speedscope.h"
#include "fc-folded.h"
#include "fc-perf-script.h"
#include "fc-stats.h"
/* views' aggregation */
#include "fc-sample-weights.h"
#include "fc-span.h"
#include "fc-call-tree.h"
#include "fc-filtered-tree.h"
#include "fc-view-threads.h"
#include "fc-function-details.h"
#include "fc-flame-layout.h"
#include "fc-diff.h"
/* capture */
#include "fc-capture-error.h"
#include "fc-capture-summary.h"
#include "fc-record-options.h"
#include "fc-recorder.h"
#include "fc-access.h"
#include "fc-attach-check.h"
#include "fc-process-list.h"
#include "fc-debuginfod.h"
#include "fc-resymbolize.h"
/* Sentry */
#include "fc-transport-error.h"
#include "fc-control-error.h"
#include "fc-dsn.h"
#include "fc-settings.h"
#include "fc-lifecycle.h"
#include "fc-outbox.h"
#include "fc-outbox-entries.h"
#include "fc-rate-limits.h"
#include "fc-transport.h"
#include "fc-otlp-endpoint.h"
#include "fc-send-plan.h"
#include "fc-sender.h"
#include "fc-recording.h"
#include "fc-locale.h"
#undef FLAMECAST_INSIDE
