# elemctl – build, test, demo, bench.
GO       ?= go
BIN      := bin/elemctl
VERSION  ?= $(shell git describe --tags --exact-match 2>/dev/null | sed "s/^v//" || true)
LDFLAGS  := -s -w -X main.version=$(VERSION)
export CGO_ENABLED ?= 0

.PHONY: build test deps demo bench lint cross e2e editors fuzz clean

build:
	@echo "building $(BIN) with $(GO) build: the first build compiles every dependency (a minute or two on 2 cores), later ones take seconds"
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/elemctl

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./...
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./...
	GOOS=linux GOARCH=arm64 $(GO) build -o /dev/null ./...

# What test needs from the network, fetched first (see scripts/prefetch.sh).
deps:
	GO=$(GO) ./scripts/prefetch.sh

test: deps
	$(MAKE) --no-print-directory lint cross build
	GO=$(GO) ./scripts/test-go.sh
	./scripts/e2e.sh

# Every fuzz target for FUZZTIME each (default 10s).
FUZZTIME ?= 10s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

e2e: build
	./scripts/e2e.sh

demo: build
	./scripts/demo.sh

bench: build
	$(GO) run ./internal/benchtable

editors:
	./scripts/editors.sh

clean:
	rm -rf bin dist
