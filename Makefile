# causa: the two entry points of the README.
.PHONY: demo test setup build bench

CARGO ?= cargo

setup:
	@bash scripts/setup.sh

build: setup
	$(CARGO) build --release --bin causa

# Find the lost update in the bundled bank example, then replay it.
demo: build
	@./target/release/causa test examples/bank.c --iterations 1000 --seed 1; \
	 code=$$?; if [ $$code -ne 1 ]; then echo "demo: expected a bug (exit 1), got exit $$code" >&2; exit 1; fi
	@./target/release/causa run examples/bank.c --schedule causa-out/bank-assertion-violation.schedule | head -n 4; true

# The whole test suite: formatting, lints, unit tests, the C program corpus.
test: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace

bench: build
	bash bench/run.sh
