# elemctl – build, test, demo, bench.
GO       ?= go
BIN      := bin/elemctl
# The release number is written once, in cmd/elemctl/VERSION: a binary
# built without make (go build, go install from a checkout) embeds it. A
# git tag vX.Y.Z on the commit wins; cmd/elemctl/version_test.go checks
# that the two agree, so bump VERSION before tagging.
VERSION  ?= $(or $(shell git describe --tags --exact-match 2>/dev/null | sed "s/^v//"),$(shell cat cmd/elemctl/VERSION))
LDFLAGS  := -s -w -X main.version=$(VERSION)
export CGO_ENABLED ?= 0

.PHONY: build test golden faults deps demo bench lint cross e2e editors editors-platforms editors-publish dist dist-unsigned packages print-version fuzz clean

build:
	@echo "building $(BIN) with $(GO) build: the first build compiles every dependency (a minute or two on 2 cores), later ones take seconds"
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/elemctl

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

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
	./scripts/private-tmp.sh e2e ./scripts/e2e.sh

# Rewrite the golden answers (cmd/elemctl/testdata/golden) from a run
# against the stand; review the diff before committing it.
golden:
	$(GO) test -count=1 ./cmd/elemctl -run Golden -update

# The whole fault matrix and 200 interrupts per command (make test runs a
# sample of both); see docs/faults.md.
faults: deps
	GO=$(GO) ./scripts/faults.sh

# Every fuzz target for FUZZTIME each (default 10s).
FUZZTIME ?= 10s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

e2e: build
	./scripts/e2e.sh

demo: build
	./scripts/demo.sh

# BEFORE=REV (a git revision, e.g. main) runs REV's binary beside this
# tree's in the benchmarks that compare, and adds its column to the table;
# BENCH=PATTERN runs only the benchmarks it matches (go test -bench).
bench: build
	$(GO) run ./internal/benchtable $(if $(BEFORE),-before '$(BEFORE)') $(if $(BENCH),-bench '$(BENCH)')

# The release in dist/: every platform's archive, Python wheel, npm package,
# .deb and .rpm, SHA256SUMS signed with ELEMCTL_SIGNING_KEY (refused without
# it), the Scoop, winget and Homebrew manifests and the container's build
# context (docs/install.md, "Making a release").
dist:
	$(GO) run ./internal/dist/mkdist -version '$(VERSION)' -out dist

# The same, unsigned, in dist-unsigned/: for local tests; self-update
# refuses it.
dist-unsigned:
	$(GO) run ./internal/dist/mkdist -version '$(VERSION)' -out dist-unsigned -unsigned

# Every package of this machine's platform only, unsigned, in
# dist-unsigned/: a quick look at what the channels install.
packages:
	$(GO) run ./internal/dist/mkdist -version '$(VERSION)' -out dist-unsigned -unsigned -targets "$$($(GO) env GOOS)/$$($(GO) env GOARCH)"

print-version:
	@echo $(VERSION)

# The VS Code extension as one .vsix that finds elemctl on PATH.
editors:
	./scripts/editors.sh

# One .vsix per platform with the matching elemctl inside
# (VSCODE_TARGETS="linux-x64 win32-x64" for a few).
editors-platforms:
	VERSION='$(VERSION)' ./scripts/editors.sh --platforms $(VSCODE_TARGETS)

# Publishes the packages editors-platforms built to the VS Code Marketplace
# (VSCE_PAT) and Open VSX (OVSX_PAT); refuses without the tokens.
editors-publish:
	./scripts/editors-publish.sh

clean:
	rm -rf bin dist dist-unsigned
