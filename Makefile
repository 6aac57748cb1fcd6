# Thin wrapper around CMake, in the manner of neovim's top-level Makefile.
#   make          configure and build into build/ (without the tests, unless
#                 build/ was configured with them)
#   make test     install missing Debian deps (as root), build with -Werror, run
#                 every test; then the same suite again under ASan+UBSan
#   make demo     install the build deps, build and run the main job: no
#                 test-only package is needed (tests/build checks that)
#   make bench    benchmarks, pmkit against Debian's libpcp (never part of test)
#   make install  PREFIX=/usr/local DESTDIR=
PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
ASAN      ?= build-asan
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE     ?= cmake
CTEST     ?= ctest
GENERATOR_FLAGS ?=

.PHONY: all deps test-deps build test test-plain test-asan demo bench install clean distclean

all: build

deps:
	@sh scripts/deps.sh build

test-deps:
	@sh scripts/deps.sh test

# A first configure leaves the tests out: they need test-only packages
# (cmocka, a C++ compiler, pkg-config, ...).  make test turns them on.
$(BUILD)/CMakeCache.txt:
	$(CMAKE) -S . -B $(BUILD) $(GENERATOR_FLAGS) -DPMKIT_TESTS=OFF -DCMAKE_INSTALL_PREFIX=$(PREFIX)

build: $(BUILD)/CMakeCache.txt
	$(CMAKE) --build $(BUILD) -j $(JOBS)

test: test-deps test-plain test-asan

test-plain:
	$(CMAKE) -S . -B $(BUILD) -DPMKIT_WERROR=ON -DPMKIT_TESTS=ON -DCMAKE_INSTALL_PREFIX=$(PREFIX)
	$(CMAKE) --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && $(CTEST) --output-on-failure -j $(JOBS)

test-asan:
	$(CMAKE) -S . -B $(ASAN) -DPMKIT_WERROR=ON -DPMKIT_TESTS=ON -DPMKIT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
	$(CMAKE) --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(CTEST) --output-on-failure -j $(JOBS)

demo: deps build
	@sh scripts/demo.sh $(BUILD)

bench: test-deps build
	@sh bench/run $(BUILD)
	@sh bench/pmcpp_bench.sh $(BUILD)

install: build
	DESTDIR=$(DESTDIR) $(CMAKE) --install $(BUILD) --prefix $(PREFIX)

clean:
	@if [ -d $(BUILD) ]; then $(CMAKE) --build $(BUILD) --target clean; fi
	@if [ -d $(ASAN) ]; then $(CMAKE) --build $(ASAN) --target clean; fi

distclean:
	rm -rf $(BUILD) $(ASAN) .cache
