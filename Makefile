# elemctl – build, test, demo, bench.
GO       ?= go
BIN      := bin/elemctl
VERSION  ?= $(shell git describe --tags --exact-match 2>/dev/null | sed "s/^v//" || true)
LDFLAGS  := -s -w -X main.version=$(VERSION)
export CGO_ENABLED ?= 0

.PHONY: build test demo bench lint cross e2e editors clean

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/elemctl

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./...
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./...
	GOOS=linux GOARCH=arm64 $(GO) build -o /dev/null ./...

test: lint cross build
	./scripts/ensure-tools.sh
	CGO_ENABLED=1 $(GO) test -race -count=1 ./...
	./scripts/e2e.sh

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
