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
BUILD_PACKAGES = libarchive-dev libxml2-dev libssl-dev libcurl4-openssl-dev pkg-config nginx-light libvips-dev libjpeg-dev
TEST_PACKAGES  = $(BUILD_PACKAGES) libarchive-tools zip unzip curl rclone chromium chromium-driver python3-selenium python3-cairo qpdf img2pdf libvips-tools libjpeg-turbo-progs colord-data
# bench/imaging also compares with optipng and pdftoppm, on photographs from mate-backgrounds.
BENCH_PACKAGES = $(TEST_PACKAGES) optipng poppler-utils mate-backgrounds
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build-deps bench-deps build release test sample publish-sample stop-sample install format bench clean

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

build: build-deps
	$(SWIFT) build -c $(CONFIG)

# Optimised, with the Swift runtime linked in: starts faster and runs where Swift is not installed.
release: build-deps
	$(SWIFT) build -c release --static-swift-stdlib

test: deps
	$(SWIFT) build
	$(SWIFT) test --parallel

sample: build
	$(BIN) validate $(SAMPLE)
	$(BIN) build $(SAMPLE) --output $(SAMPLE_OUT) --feed shelf --feed atom
	$(BIN) preview $(SAMPLE) --output $(SAMPLE_OUT)-preview

publish-sample: sample
	scripts/publish-sample.sh

stop-sample:
	-[ -f output/nginx/nginx.pid ] && kill "$$(cat output/nginx/nginx.pid)"

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/newsstand
	install -m 0755 .build/release/newsstand $(DESTDIR)$(PREFIX)/bin/newsstand
	rm -rf $(DESTDIR)$(PREFIX)/share/newsstand/templates
	cp -R templates $(DESTDIR)$(PREFIX)/share/newsstand/templates

format:
	swift-format format --in-place --recursive --configuration .swift-format Package.swift Sources Tests

bench: deps bench-deps release
	bench/validate
	bench/build
	bench/reader
	bench/imaging

clean:
	rm -rf .build output
