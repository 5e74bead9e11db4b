# SPDX-License-Identifier: GPL-3.0-or-later
#
#   make run    install what is missing, build, start the app
#   make check  install what is missing, build, run the whole test suite
#               (then the core, CLI and app suites again under ASan + UBSan,
#               the sampler's under UBSan alone, the recorder and the tests of
#               shared state under ThreadSanitizer)
#   make bench  build and run the benchmarks (they print figures)
#   make fuzz   build the libFuzzer harnesses (clang) and run each for FUZZ_SECONDS
#   make soak   attach/detach soak: SOAK_CYCLES recordings, SOAK_KILLS profilers
#               SIGKILLed mid-sample, SOAK_RECORD_SECONDS of a 50-thread target (RSS printed)

BUILDDIR ?= build
MESON_TEST_ARGS ?=

# Debian 12 packages the build, the tests and the benchmarks need
# (man-db and the shells: the install test renders the man pages and loads the completions).
DEB_PACKAGES = \
	meson ninja-build pkg-config gcc gettext appstream desktop-file-utils \
	libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libadwaita-1-dev libepoxy-dev \
	libjson-glib-dev libsoup-3.0-dev libyajl-dev \
	libunwind-dev libdw-dev libelf-dev libiberty-dev linux-perf zstd xz-utils make \
	protobuf-c-compiler libprotobuf-c-dev libdeflate-dev protobuf-compiler golang-go python3-jsonschema \
	libxtst-dev \
	man-db bash-completion zsh fish \
	libseccomp-dev \
	xvfb xauth \
	libpolkit-gobject-1-dev dbus-daemon python3-dbusmock libdebuginfod-dev debuginfod \
	clang libclang-rt-14-dev

.PHONY: all deps build run check asan-build check-sanitize check-sanitize-app check-ubsan check-tsan check-fuzz check-skips check-tap fuzz fuzz-build fuzz-merge soak bench clean

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -q && apt-get install -y -q --no-install-recommends $$missing; \
	  else \
	    echo "Flamecast needs these Debian packages. Run:"; \
	    echo "  sudo apt-get install$$missing"; \
	    exit 1; \
	  fi; \
	fi

$(BUILDDIR)/build.ninja:
	meson setup $(BUILDDIR)

build: deps $(BUILDDIR)/build.ninja
	meson compile -C $(BUILDDIR)

run: build
	./$(BUILDDIR)/app/flamecast $(FILE)

# The traced suite ('sampler': real programs under ptrace and perf events, most of the suite's
# time) runs once, in check-ubsan's tree: its UBSan build is the same code with the undefined-
# behaviour checks on, and running it twice here kept CI over its 20 minutes.
# `meson test -C build` still runs every suite in the plain tree.
check: build
	xvfb-run -a -s "-screen 0 1280x800x24" meson test -C $(BUILDDIR) --print-errorlogs --no-suite sampler \
	  $(MESON_TEST_ARGS)
	$(MAKE) check-sanitize
	$(MAKE) check-sanitize-app
	$(MAKE) check-ubsan
	$(MAKE) check-tsan
	$(MAKE) check-fuzz
	$(MAKE) check-skips
	$(MAKE) check-tap

# A skip never hides a failure: every test that skipped in the runs above must name the
# kernel facility it needed (perf events, ptrace of a non-child) and this machine must refuse
# it, as tests/fc-test-facilities finds with code of its own (.ci/check-skips says more).
check-skips:
	./.ci/check-skips $(BUILDDIR)/tests/fc-test-facilities $(wildcard \
	  $(BUILDDIR)/meson-logs/testlog.json $(ASAN_BUILDDIR)/meson-logs/testlog.json \
	  $(ASAN_BUILDDIR)/meson-logs/testlog-app.json $(UBSAN_BUILDDIR)/meson-logs/testlog.json \
	  $(TSAN_BUILDDIR)/meson-logs/testlog.json)

# A test's stdout is TAP and nothing else: a line that is not (a target's "ready" written into
# it) fails the run instead of being a warning of meson's (.ci/check-tap says more).
check-tap:
	./.ci/check-tap $(wildcard \
	  $(BUILDDIR)/meson-logs/testlog.json $(ASAN_BUILDDIR)/meson-logs/testlog.json \
	  $(ASAN_BUILDDIR)/meson-logs/testlog-app.json $(UBSAN_BUILDDIR)/meson-logs/testlog.json \
	  $(TSAN_BUILDDIR)/meson-logs/testlog.json)

# The core and CLI suites again under AddressSanitizer + UBSan (the app is
# built in the same tree for check-sanitize-app). Traced targets (suite
# 'sampler') stay out: LeakSanitizer's exit check ptrace()s the threads.
ASAN_BUILDDIR ?= build-sanitize
# the traced targets, and `meson install` (the main suite's), which needs every target built
ASAN_SKIP_SUITES = --no-suite sampler --no-suite install
ASAN_LSAN_OPTIONS = suppressions=$(CURDIR)/tests/lsan.supp
asan-build: deps
	@[ -f $(ASAN_BUILDDIR)/build.ninja ] || meson setup $(ASAN_BUILDDIR) \
	  -Db_sanitize=address,undefined -Db_lundef=false
	@# a tree set up before the app was checked here
	@! meson introspect $(ASAN_BUILDDIR) --buildoptions | grep -q '"name": "app", "value": false' || \
	  meson configure $(ASAN_BUILDDIR) -Dapp=true
	@# only what the suites run here need (tools/suite-targets.py says why)
	ninja -C $(ASAN_BUILDDIR) build.ninja
	ninja -C $(ASAN_BUILDDIR) $$(./tools/suite-targets.py $(ASAN_BUILDDIR) $(ASAN_SKIP_SUITES)) \
	  $$(./tools/suite-targets.py $(ASAN_BUILDDIR) --suite app)

check-sanitize: asan-build
	ASAN_OPTIONS=fast_unwind_on_malloc=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	LSAN_OPTIONS=$(ASAN_LSAN_OPTIONS) \
	  meson test -C $(ASAN_BUILDDIR) --no-rebuild $(ASAN_SKIP_SUITES) --no-suite app --timeout-multiplier 2 --print-errorlogs

# The app's widget tests under ASan + UBSan, LeakSanitizer on (tests/lsan.supp
# names each third-party leak it lets pass). GDK_DEBUG=gl-disable: GTK draws
# with cairo, not GL through Mesa's llvmpipe, whose JIT code registers its
# unwind tables with libgcc; the exact malloc stacks LeakSanitizer needs to
# name a leak (fast_unwind_on_malloc=0) then deadlock in libgcc's unwinder
# (it mallocs under its own lock), and the JIT frames have no name a
# suppression could match. 12 frames of each malloc stack reach the caller in
# our code and cost a fifth of the default 30 (GTK mallocs a lot). The suite
# includes test-record, which records real (unsanitized) targets.
# Its log is meson-logs/testlog-app.json (check-sanitize's stays testlog.json).
check-sanitize-app: asan-build
	GDK_DEBUG=gl-disable ASAN_OPTIONS=fast_unwind_on_malloc=0:malloc_context_size=12 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 LSAN_OPTIONS=$(ASAN_LSAN_OPTIONS) \
	  xvfb-run -a -s "-screen 0 1280x800x24" meson test -C $(ASAN_BUILDDIR) --no-rebuild \
	  --suite app --logbase testlog-app --timeout-multiplier 2 --print-errorlogs

# The sampler's suite (real traced programs) under UndefinedBehaviorSanitizer
# alone: LeakSanitizer's exit check ptrace()s the threads the profiler traces.
UBSAN_BUILDDIR ?= build-ubsan
check-ubsan: deps
	@[ -f $(UBSAN_BUILDDIR)/build.ninja ] || meson setup $(UBSAN_BUILDDIR) -Dapp=false \
	  -Db_sanitize=undefined -Db_lundef=false
	ninja -C $(UBSAN_BUILDDIR) build.ninja
	ninja -C $(UBSAN_BUILDDIR) $$(./tools/suite-targets.py $(UBSAN_BUILDDIR) --suite sampler)
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  meson test -C $(UBSAN_BUILDDIR) --no-rebuild --suite sampler --print-errorlogs

# Tests of code that threads share (suite 'tsan': the growing profile, the
# recorder with its sampler and writer threads and the CLI it runs) under
# ThreadSanitizer. Only those targets are built; add a test to TSAN_TARGETS
# and give it the suite.
TSAN_BUILDDIR ?= build-tsan
TSAN_TARGETS = test-profile-growing test-recorder flamecast-cli fcplugin \
	fc-target-burner fc-target-threads fc-target-churn fc-target-dlopen \
	fc-target-signals fc-target-soak fc-target-waiters fc-target-forker fc-target-pool
check-tsan: deps
	@[ -f $(TSAN_BUILDDIR)/build.ninja ] || meson setup $(TSAN_BUILDDIR) -Dapp=false -Db_sanitize=thread
	meson compile -C $(TSAN_BUILDDIR) $(TSAN_TARGETS)
	@# GLib's slice allocator and locks are invisible to ThreadSanitizer: plain
	@# malloc, and tests/tsan.supp with tests/fc-tsan-glib.c (see there)
	G_SLICE=always-malloc \
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/tsan.supp \
	  meson test -C $(TSAN_BUILDDIR) --no-rebuild --suite tsan --print-errorlogs

# libFuzzer harnesses (fuzz/): clang, ASan + UBSan, coverage in every core layer.
# The 'fuzz' test suite replays their corpus in the build and ASan trees; `make fuzz`
# mutates from there. See fuzz/run.sh for where corpus and crashes go.
FUZZ_BUILDDIR ?= build-fuzz
FUZZ_SECONDS ?= 300
FUZZ_CHECK_SECONDS ?= 3
FUZZERS ?= fuzz-reader fuzz-payload fuzz-envelope fuzz-gzip fuzz-dsn fuzz-rate-limits fuzz-outbox \
	fuzz-pprof fuzz-otlp fuzz-otlp-json fuzz-speedscope fuzz-folded fuzz-perf-script
fuzz-build: deps
	@[ -f $(FUZZ_BUILDDIR)/build.ninja ] || CC=clang meson setup $(FUZZ_BUILDDIR) -Dapp=false -Dfuzzing=true \
	  -Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link
	meson compile -C $(FUZZ_BUILDDIR) $(addprefix fuzz/,$(FUZZERS))

fuzz: fuzz-build
	./fuzz/run.sh $(FUZZ_BUILDDIR) $(FUZZ_SECONDS) $(FUZZERS)

# A few seconds each: the whole corpus (seeds and every crash ever kept) first, then mutations from a
# fixed seed, so that a red run is a regression, not a lucky find (`make fuzz` is where new bugs are found).
check-fuzz: fuzz-build
	FUZZ_SEED=1 ./fuzz/run.sh $(FUZZ_BUILDDIR) $(FUZZ_CHECK_SECONDS) $(FUZZERS)

# Folds what `make fuzz` found, minimized, into the corpus kept in the tree.
fuzz-merge: fuzz-build
	for h in $(FUZZERS); do \
	  $(FUZZ_BUILDDIR)/fuzz/$$h -merge=1 fuzz/corpus/$$h $(FUZZ_BUILDDIR)/corpus/$$h || exit 1; \
	done

# tests/soak/soak.sh; `make check` runs a short one (test 'soak', suite sampler).
SOAK_CYCLES ?= 1000
SOAK_KILLS ?= 200
SOAK_RECORD_SECONDS ?= 600
soak: build
	./tests/soak/soak.sh $(BUILDDIR)/cli/flamecast-cli $(BUILDDIR)/tests/targets/fc-target-soak \
	  $(SOAK_CYCLES) $(SOAK_KILLS) $(SOAK_RECORD_SECONDS)

bench: build
	meson compile -C $(BUILDDIR) benchmarks
	./bench/run-all.sh $(BUILDDIR)

clean:
	rm -rf $(BUILDDIR) $(ASAN_BUILDDIR) $(UBSAN_BUILDDIR) $(TSAN_BUILDDIR) $(FUZZ_BUILDDIR)
