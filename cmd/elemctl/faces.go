package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/elemctl/elemctl/internal/options"
	"github.com/elemctl/elemctl/internal/platform"
)

// startProtocol prepares a protocol server face (mcp, lsp, dap): an explicit
// --env-file must exist, so a typo fails at start instead of on every call.
// stdout belongs to the protocol: the server is the only writer it is
// given, and nothing else in elemctl writes to the process's stdout
// (TestNothingElseWritesToStdout).
func (a *app) startProtocol(ctx context.Context) (wd string, err error) {
	wd, _ = os.Getwd()
	if a.str(options.EnvFile) != "" {
		if _, err := platform.EnvFilePath(ctx, a.str(options.EnvFile), wd); err != nil {
			return "", &handlerError{err}
		}
	}
	tuneCollectorForServing()
	return wd, nil
}

// Collector settings of a protocol server, unless GOGC or GOMEMLIMIT say
// otherwise. A server lives long and answers with whole listings: a
// list_apps over thousands of applications reads megabytes per call, and
// with the default goal the collector runs several times per call. A goal
// of twice the live heap saves a good part of a call's CPU for some
// megabytes at the peak of a call (none at idle); a larger one made the
// first calls slower while the heap grew, each new page being costly on
// virtual machines. The soft limit keeps a huge listing from growing the
// process without bound.
const (
	serverGCPercent   = 200
	serverMemoryLimit = 128 << 20
)

func tuneCollectorForServing() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(serverGCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(serverMemoryLimit)
	}
}

// overrides are the global connection flags.
func (a *app) overrides() platform.Overrides {
	return platform.Overrides{BaseURL: a.str(options.BaseURL), ClientID: a.str(options.ClientID), ClientSecret: a.str(options.ClientSecret), Timeout: a.num(options.Timeout)}
}
