package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/elemctl/elemctl/internal/dap"
)

// jvmStandIn runs elemctl in place of java. The XBSL extension spawns the
// debug adapter's JVM itself, and its xbsl.debug.javaPath setting may name
// elemctl: elemctl then gets the JVM's argument vector (JVM options, the
// adapter's main class, the adapter's arguments) instead of a command
// line, or `-version`, which it answers with the real java's answer. For a
// launch it runs the DAP proxy of `elemctl dap` on its stdio – variables
// fix, attach completion – in front of the real java started with exactly
// that vector, and exits with the adapter's code. handled is false, and
// nothing happened, when args is neither; cobra then parses them.
//
// It must run before cobra sees the arguments (which it would refuse:
// "unknown shorthand flag: 'D'"), from app.run.
func (a *app) jvmStandIn(ctx context.Context, args []string) (handled bool, code int) {
	isVersion := dap.IsVersionQuery(args)
	if !isVersion && !dap.IsAdapterLaunch(args) {
		return false, 0
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if isVersion {
		// The editor's check that its java setting names a JVM.
		code, err := dap.RunJava(ctx, args, a.stdin, a.stdout, a.stderr, a.getenv)
		if err != nil {
			a.printError(err)
		}
		return true, code
	}
	_, err := a.startProtocol(ctx)
	if err != nil {
		var he *handlerError
		if errors.As(err, &he) {
			err = he.err
		}
		a.printError(err)
		return true, exitFailure
	}
	code, err = dap.Run(ctx, dap.Options{
		Stdin:   a.stdin,
		Stdout:  a.stdout,
		Stderr:  a.stderr,
		JVMArgs: args,
		Getenv:  a.getenv,
		Session: a.debugSession,
		// No --lang here (the editor gives the JVM's arguments): the
		// editor's language, unless ELEMCTL_LANG names one.
		AdoptClientLocale: a.getenv("ELEMCTL_LANG") == "",
		Reaper:            reaperPath(),
	})
	if err != nil && ctx.Err() == nil {
		a.printError(err)
		return true, exitFailure
	}
	return true, code
}
