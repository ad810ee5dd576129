# gst-octopus: `make test` and `make demo` install missing Debian packages,
# configure meson build dirs, build, and run.

BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
# `make install`: /usr puts the plugins where Debian's GStreamer looks
# (its pluginsdir); any other prefix needs GST_PLUGIN_PATH, which it prints.
PREFIX ?= /usr

# Sanitizer runs: leaks and undefined behaviour fail the test.
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
          UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

.PHONY: all deps build build-asan rtpgccbwe install env docs test demo demo-case3 demo-trace webrtc-demo live-eval bench experiments scenarios fuzz clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD)

$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false

build: deps $(BUILD)/build.ninja rtpgccbwe
	ninja -C $(BUILD)

# rtpgccbwe (gst-plugins-rs: real Google Congestion Control) for the WebRTC
# demos and tests: cargo with the crate's own Cargo.lock; skipped once built.
rtpgccbwe:
	scripts/build-rtpgccbwe.sh $(BUILD)/rtpgccbwe

# The three plugins, the meta library and its headers, the tools (as root
# or through sudo for a system prefix).
install: build
	meson configure $(BUILD) -Dprefix=$(PREFIX)
	meson install -C $(BUILD)
	@scripts/gst-env.sh --installed $(BUILD)

# The line that makes this build's plugins found: eval "$$(make -s env)"
env:
	@scripts/gst-env.sh $(BUILD)

# The plugin documentation cache, docs/plugins/gst_plugins_cache.json, from
# the plugins as built (the test plugins-doc-cache checks it is current).
docs: build
	ninja -C $(BUILD) plugins-doc-cache

build-asan: deps $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

# Unit tests in the normal build, then again under ASan+UBSan.
test: build build-asan
	$(SAN_ENV) scripts/run-tests.sh $(BUILD) $(ASAN_BUILD)

# Live case study 2: the shipped clip encoded by octopussvcenc (VP9, 3 spatial
# layers) through octopus-shim twice (Octopus queue vs drop-tail), scored
# with real SSIM; a side-by-side table.
demo: build
	BUILD=$(BUILD) demo-pipelines/case2-live.sh

# Live case study 3: the bunny (20 fps, Draco cells x density layers)
# through the shim on 5G-driving-1, Octopus vs. drop-tail.
demo-case3: build
	BUILD=$(BUILD) demo-pipelines/case3-live.sh

# Octopus vs. real GCC (rtpgccbwe) over webrtcbin through octopus-shim
# --shell (root).
webrtc-demo: build
	BUILD=$(BUILD) demo-pipelines/webrtc-compare.sh

# Live evaluation (root): every scheme REPEATS valid times per trace,
# interleaved, each run checked by the load guard (encode/decode lag, the
# shim's departure timing error); mean and 95 % CI per metric, HTML report
# in LIVE_OUT/index.html.  TRACES: names under data/traces/network.
# SCHEMES: WebRTC calls (webrtc-call.py) and the Octopus transport's case
# studies (octopus-call.py: case2-octopus, case2-droptail, case2-quco, ...;
# eval/live-eval.py --help).  RESUME=1 adds runs to LIVE_OUT's (a larger
# REPEATS narrows a confidence interval; same DURATION, same code).
TRACES ?= Verizon-LTE-short
SCHEMES ?= gcc octopus-bbr octopus-svc
REPEATS ?= 5
DURATION ?= 30
LIVE_OUT ?= results/live-eval
live-eval: build
	GST_PLUGIN_PATH=$(CURDIR)/$(BUILD)/gst-octopus/plugin:$(CURDIR)/$(BUILD)/svc-encoder:$(CURDIR)/$(BUILD)/rtpgccbwe/lib$${GST_PLUGIN_PATH:+:$$GST_PLUGIN_PATH} \
	  eval/live-eval.py run $(LIVE_OUT) --traces $(TRACES) --schemes $(SCHEMES) \
	  --repeats $(REPEATS) --seconds $(DURATION) --build $(BUILD) \
	  $(if $(filter 1,$(RESUME)),--resume)

# The same comparison replaying the quality trace instead of encoding.
demo-trace: build
	BUILD=$(BUILD) demo-pipelines/case2-demo.sh

bench: build
	$(BUILD)/bench/octo-bench-engine
	$(BUILD)/bench/octo-bench-engine-streams

# The simulated matrix into results/latest (ARGS: see bench/experiments.py -h),
# e.g. make experiments ARGS="--cases 2 --schemes octopus,octobbr --rtts 20,60"
experiments: build
	bench/experiments.py --sim $(BUILD)/bench/sim/octo-sim $(ARGS)

# The papers' section 7 scenarios (case 2, Verizon, 120 ms RTT): a
# backlogged BBR flow at a 12 Mbit/s legacy FIFO, that FIFO in series with
# the cellular queue, two streams sharing the queue.
scenarios: build
	bench/experiments.py --sim $(BUILD)/bench/sim/octo-sim --cases 2 \
	  --traces Verizon-LTE-short --rtts 120 \
	  --scenarios competing,two-bottlenecks,two-streams \
	  --schemes octopus,octobbr,gcc,salsify,awstream-bbr,awstream-cubic \
	  --out results/scenarios

# libFuzzer targets (clang), every one run FUZZ_SECONDS on a copy of its seed
# corpus (tests/fuzz/corpus/NAME for tests/fuzz/fuzz-NAME.c) even after one
# fails; prints a table of all and fails at the end if any failed.
fuzz: deps
	test -f $(FUZZ_BUILD)/build.ninja || CC=clang CXX=clang++ meson setup \
	  $(FUZZ_BUILD) -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false
	ninja -C $(FUZZ_BUILD)
	scripts/run-fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
