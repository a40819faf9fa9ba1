package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/platform"
)

// faceCommands are the commands that are not catalog operations: the
// servers (stand, mcp, lsp, dap), debug-adapter with its extract, and
// self-update.
func (a *app) faceCommands(ctx context.Context) []*cobra.Command {
	return []*cobra.Command{a.debugAdapterCommand(ctx), a.mcpCommand(ctx), a.lspCommand(ctx), a.dapCommand(ctx), a.standCommand(ctx), a.selfUpdateCommand(ctx)}
}

// startProtocol prepares a protocol server face (mcp, lsp, dap): an explicit
// --env-file must exist, so a typo fails at start instead of on every call.
// stdout belongs to the protocol: the server is the only writer it is
// given, and nothing else in elemctl writes to the process's stdout
// (TestNothingElseWritesToStdout).
func (a *app) startProtocol(ctx context.Context) (wd string, err error) {
	wd, _ = os.Getwd()
	if a.envFile != "" {
		if _, err := platform.EnvFilePath(ctx, a.envFile, wd); err != nil {
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
	return platform.Overrides{BaseURL: a.baseURL, ClientID: a.clientID, ClientSecret: a.clientSecret, Timeout: a.timeout}
}
