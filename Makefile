# Crier. The two commands that matter: `make run` and `make test`.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -eu -o pipefail -c

SQLC_VERSION := v1.31.1
GOBIN := $(shell go env GOPATH)/bin
SQLC := $(GOBIN)/sqlc
export PLAYWRIGHT_DRIVER_PATH ?= $(CURDIR)/.data/playwright-driver

.PHONY: run build test test-unit fuzz e2e-deps bench generate check-generated lint test-clean help

help:
	@echo "make run              serve Crier at http://127.0.0.1:8080 with the sandbox networks"
	@echo "make test             the whole suite: unit, integration (PostgreSQL, River) and e2e (Chromium)"
	@echo "make bench            the API against a bare Echo+pgx handler: a table of req/s, p50, p99, ratios"
	@echo "make generate         regenerate templ, sqlc and the API server from their sources"
	@echo "make check-generated  fail if committed generated code is stale or go.mod is not tidy"
	@echo "make lint             gofmt and go vet"

build:
	go build -o bin/crier ./cmd/crier

## run: the database from DATABASE_URL, else 127.0.0.1:5432, else a private cluster (scripts/devdb.sh);
## migrations run at start; the networks are the built-in sandbox; CRIER_ENV is development (the dev
## mailbox), which the binary never assumes on its own.
## The living demo is seeded on the first start and refreshed on every start (the sandbox forgets its
## tokens, so the accounts are connected again); each start prints the login and a fresh API key.
run: build
	@DATABASE_URL="$$(scripts/devdb.sh)"; export DATABASE_URL; export CRIER_ENV="$${CRIER_ENV:-development}"; \
	SANDBOX=$${SANDBOX:-1} ALLOW_PRIVATE_URLS=$${ALLOW_PRIVATE_URLS:-1} exec ./bin/crier demo --serve

## test: the browser journeys run after the rest, alone: beside the server and web suites on a
## 2-CPU machine their 30 s waits were seen to time out.
test: e2e-deps
	go test -count=1 -timeout 20m $$(go list ./... | grep -v '/e2e$$')
	$(MAKE) fuzz
	go test -count=1 -timeout 20m ./e2e/

## fuzz: each fuzz target for a number of executions (about 10 s each on a 2-core machine), not a
## duration: a -fuzztime duration races Go's fuzz coordinator (golang/go#75804, fixed only in go1.27)
## and fails with "context deadline exceeded" and no finding on a loaded machine (seen in CI).
## FUZZTIME (Nx, or a duration) sets every target's budget. The seed corpora, testdata/fuzz/<target>,
## also run in every plain go test. A finding is written to testdata/fuzz/<target>/ and fails the
## run: commit it with the fix.
fuzz:
	go test -run '^$$' -fuzz '^FuzzValidateBody$$' -fuzztime $${FUZZTIME:-40000x} ./api
	go test -run '^$$' -fuzz '^FuzzMultipart$$' -fuzztime $${FUZZTIME:-12000x} ./api
	go test -run '^$$' -fuzz '^FuzzSniffAndProbe$$' -fuzztime $${FUZZTIME:-200000x} ./media

test-unit:
	go test -count=1 -short ./...

e2e-deps:
	@scripts/e2e-deps.sh

## bench: issue 15's table (README "Performance"), about 7 minutes: the publishing burst (10,000 posts,
## server/), then the API against a bare handler and the dashboard pages (bench/), printed as one
## table. CRIER_BENCH_POSTS, CRIER_BENCH_ROW and CRIER_BENCH_RATE_FOR resize it.
bench:
	@mkdir -p .data && rm -f .data/bench-rows.jsonl
	CRIER_BENCH_ROWS=$(CURDIR)/.data/bench-rows.jsonl CRIER_BENCH_POSTS=$${CRIER_BENCH_POSTS:-10000} \
		go test -count=1 -run '^$$' -bench PublishDueTogether -benchtime 1x -timeout 20m ./server/
	CRIER_BENCH_ROWS=$(CURDIR)/.data/bench-rows.jsonl go test -count=1 -run '^$$' -bench '^(BenchmarkAPI|BenchmarkPages)$$' -benchtime 1x -timeout 10m ./bench/

$(SQLC):
	go install github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)

generate: $(SQLC)
	go tool templ generate
	$(SQLC) generate
	go generate ./api/...

check-generated: generate
	@go mod tidy -diff >/dev/null || { echo "go.mod/go.sum are not tidy; run go mod tidy and commit:"; go mod tidy -diff; exit 1; }
	@if [ -n "$$(git status --porcelain -- '*.go' api store views)" ]; then \
		echo "Generated code is stale; run make generate and commit:"; git status --porcelain -- '*.go' api store views; exit 1; fi

lint:
	@bad=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$bad" ]; then echo "gofmt would change:"; echo "$$bad"; exit 1; fi
	go vet ./...

## test-clean: drop the test databases (templates are rebuilt on the next run).
test-clean:
	@psql "$${CRIER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}" -Atc \
		"SELECT datname FROM pg_database WHERE datname LIKE 'crier\_t%'" | while read -r db; do \
		psql "$${CRIER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}" -c "ALTER DATABASE \"$$db\" WITH IS_TEMPLATE false" -c "DROP DATABASE \"$$db\" WITH (FORCE)"; done
