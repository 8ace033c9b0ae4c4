# The two commands of the README:
#   make demo   build, then run the main job on the bundled sample
#   make test   build and pass every test
# Everything else (sanitizers, the aarch64 cross build, benchmarks, fuzzing)
# is a target here too; .ci/run calls them.

SHELL      := /bin/bash
BUILD      ?= build
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=

.PHONY: all build demo test sanitize tsan cross-aarch64 bench clean

all: build

build:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@echo "== simdsv check examples/sample.csv"
	@$(BUILD)/simdsv check examples/sample.csv
	@echo "== simdsv count examples/sample.csv"
	@$(BUILD)/simdsv count examples/sample.csv
	@echo "== simdsv convert --to json examples/sample.csv"
	@$(BUILD)/simdsv convert --to json examples/sample.csv
	@echo "== a broken file: simdsv check --quote '\"' (exit status 1 is expected; detection alone reads its quotes as text)"
	@printf 'name,comment\nann,"fine"\nbob,say "hi"\ncid,"open\n' > $(BUILD)/broken.csv
	@$(BUILD)/simdsv check --quote '"' $(BUILD)/broken.csv || true

test: test-c
	@$(MAKE) --no-print-directory python-test

# The C tests alone (every kernel); the sanitizer build runs these.
.PHONY: test-c
test-c: build
	@cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS)

# The Python package (python/) and its tests against real pyarrow, polars,
# duckdb, pandas and dask, in a virtual environment made from the pinned
# requirements the first time (PyPI), then reused.  The package is rebuilt
# incrementally (scikit-build-core keeps its CMake build in build-py/cmake).
PY_VENV ?= build-py/venv
$(PY_VENV)/.installed: python/requirements-test.txt
	@echo "== creating $(PY_VENV) from python/requirements-test.txt"
	@rm -rf $(PY_VENV) && python3 -m venv $(PY_VENV)
	@$(PY_VENV)/bin/pip install -q --disable-pip-version-check -r python/requirements-test.txt
	@touch $@

# The real servers of the remote-storage tests (versitygw for S3, nginx for HTTP): built or installed once,
# cached; the tests start and stop them (python/tests/remote_servers.py).
.PHONY: remote-servers
remote-servers:
	@tests/remote/install.sh

.PHONY: python-test
python-test: $(PY_VENV)/.installed remote-servers
	@$(PY_VENV)/bin/pip install -q --disable-pip-version-check --no-build-isolation ./python
	@cd python/tests && ../../$(PY_VENV)/bin/python -m pytest -q -p no:cacheprovider -p no:logging .

# ASan + UBSan build of the library, CLI and tests.
sanitize:
	@$(MAKE) --no-print-directory test-c BUILD=build-asan \
	  CMAKE_ARGS="-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DSIMDSV_SANITIZE=address,undefined -DSIMDSV_BUILD_BENCH=OFF"

# ThreadSanitizer over the tests that use threads (the typed reader, count, the writers),
# with one kernel: the threading does not depend on it.
tsan:
	@cmake -S . -B build-tsan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSIMDSV_SANITIZE=thread -DSIMDSV_BUILD_TESTS=ON -DSIMDSV_BUILD_BENCH=OFF > /dev/null
	@cmake --build build-tsan -j $(JOBS) --target test_table test_table_threads test_count_threads test_write
	@cd build-tsan && ctest --output-on-failure --no-tests=error -j $(JOBS) -R '^test_((table|table_threads|count_threads)\.scalar|write)$$'
	@# stats: threads over byte ranges, each with its own statistics, merged
	@cmake --build build-tsan -j $(JOBS) --target simdsv_cli
	@awk 'BEGIN { print "n,f,s"; for (i = 0; i < 1200000; i++) print i "," i / 7 ",w" i % 9; print "x,1,z" }' \
	  > build-tsan/stats_threads.csv
	@build-tsan/simdsv stats --threads 4 build-tsan/stats_threads.csv > /dev/null

# aarch64: cross-compiled with Debian's gcc, tests run under qemu-user.
cross-aarch64:
	@cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
	  -DCMAKE_BUILD_TYPE=Release -DSIMDSV_BUILD_BENCH=OFF -DSIMDSV_BUILD_TESTS=ON > /dev/null
	@cmake --build build-aarch64 -j $(JOBS)
	@cd build-aarch64 && QEMU_LD_PREFIX=/usr/aarch64-linux-gnu ctest --output-on-failure --no-tests=error -j $(JOBS) -E 'test_cli|test_sniff'

# Every command over 2 GiB of generated CSV through a pipe, each one's peak
# RSS asserted below 64 MiB (tests/memory/run.sh; minutes, not part of test).
MEMORY_SIZE ?= 2G
.PHONY: test-memory
test-memory: build
	@tests/memory/run.sh $(BUILD)/simdsv $(MEMORY_SIZE)

bench: build
	@BUILD=$(BUILD) bench/run.sh

# simdsv side by side with the current peers of ../shared/peers (issue 22):
# every job of the issue's table, interleaved rounds, medians, ratios, one
# markdown report in bench/results/ (bench/bench_peers.py).  The full run
# takes the three 200 MB shapes (made in bench/data/ when missing; point
# BENCH_PEERS_ARGS="--data DIR" at a folder that has them) and about half an
# hour; bench-peers-quick runs every job once on 1 MB files.
BENCH_PEERS_ARGS ?=
.PHONY: bench-peers bench-peers-quick
bench-peers bench-peers-quick: build $(PY_VENV)/.installed
	@$(PY_VENV)/bin/pip install -q --disable-pip-version-check --no-build-isolation ./python
	@python3 bench/bench_peers.py --build $(BUILD) --python $(PY_VENV)/bin/python \
	  $(if $(filter bench-peers-quick,$@),--quick) $(BENCH_PEERS_ARGS)

clean:
	rm -rf build build-asan build-aarch64 build-tsan build-fuzz build-py

# Fuzzing (clang + libFuzzer + ASan/UBSan).  fuzz-short: every target for
# FUZZ_SECONDS (default 60) — the CI tier; fuzz: 10 minutes each.  The cli
# target (fuzz_cli.c) has its own seeds (seeds/cli) and writes its temporary
# files under TMPDIR.
FUZZ_TARGETS ?= reader kernels chunked utf8 table spec cli sniff dataset range
FUZZ_SECONDS ?= 60
.PHONY: fuzz-build fuzz-short fuzz
fuzz-build:
	@cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSIMDSV_SANITIZE=address,undefined -DSIMDSV_FUZZ=ON -DSIMDSV_BUILD_TESTS=OFF -DSIMDSV_BUILD_BENCH=OFF \
	  -DSIMDSV_BUILD_CLI=OFF > /dev/null
	@cmake --build build-fuzz -j $(JOBS) > /dev/null
	@fuzz/make_seeds.sh build-fuzz/seeds

fuzz-short: fuzz-build
	@set -o pipefail; for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
	  mkdir -p build-fuzz/corpus/$$t; \
	  seeds=build-fuzz/seeds/lib; if [ $$t = cli ]; then seeds=build-fuzz/seeds/cli; fi; \
	  build-fuzz/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=70000 -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix=build-fuzz/crash-$$t- -print_final_stats=1 \
	    build-fuzz/corpus/$$t $$seeds 2>&1 | grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|==|SUMMARY|INFO: seed corpus|fuzz_cli)' || exit 1; \
	done

fuzz:
	@$(MAKE) --no-print-directory fuzz-short FUZZ_SECONDS=600
