package dap

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
)

// An editor that spawns the adapter's JVM itself (the XBSL extension, with
// its xbsl.debug.javaPath setting) may be pointed at elemctl instead of
// java. elemctl then receives the JVM's argument vector, recognised by
// IsAdapterLaunch, and runs the proxy with Options.JVMArgs: it starts the
// real java with exactly that vector and relays the session. Applying the
// variables fix twice (the extension has its own) is harmless: a request
// that already carries a filter passes through.

// StandInEnv is set in the environment of a JVM that elemctl started while
// standing in for java. An elemctl that finds it on entering stand-in mode
// was started by itself – through a java on PATH or in JAVA_HOME that
// leads back to elemctl (a wrapper script, a copy) – and refuses instead of
// starting itself again.
const StandInEnv = "ELEMCTL_JAVA_STAND_IN"

// standInSeqBase starts the seqs of the messages the proxy originates when
// it stands in for java. The editor's own proxy numbers its synthetic
// requests from syntheticSeqBase; a different range keeps the two proxies'
// requests and the responses to them apart. It stays below 2^31 for an
// adapter that reads seqs as Java ints.
const standInSeqBase = 2_000_000_000

// jvmValueOptions are the JVM options that take the next argument as their
// value; the "--" ones also take it after "=".
var jvmValueOptions = []string{
	"-cp", "-classpath", "--class-path",
	"-p", "--module-path", "--upgrade-module-path",
	"--add-modules", "--add-opens", "--add-exports", "--add-reads",
	"--patch-module", "--limit-modules", "--enable-native-access",
}

// jvmFlagOptions are the JVM options that stand alone.
var jvmFlagOptions = []string{
	"-server", "-client", "-verbose", "-showversion", "--show-version",
	"-ea", "-da", "-esa", "-dsa",
	"-enableassertions", "-disableassertions",
	"-enablesystemassertions", "-disablesystemassertions",
	"--enable-preview",
}

// jvmColonOptions are the JVM options written as "<name>:<value>".
var jvmColonOptions = []string{
	"-ea:", "-da:", "-enableassertions:", "-disableassertions:",
	"-verbose:", "-javaagent:", "-agentlib:", "-agentpath:", "-splash:",
}

// IsAdapterLaunch tells whether args, a command line without the program
// name, starts the platform's debug adapter on a JVM: options a JVM knows
// (-D…, -X…, --add-opens V, -cp V, …), then AdapterMainClass, then the
// adapter's own arguments, if any. Anything else before the main class –
// an elemctl command, a global flag, -jar, an unknown option – makes it no
// adapter launch, so no elemctl command line is taken for one.
func IsAdapterLaunch(args []string) bool {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == AdapterMainClass {
			return true
		}
		takesValue, ok := jvmOption(arg)
		if !ok {
			return false
		}
		if takesValue {
			i++
			if i >= len(args) {
				return false
			}
		}
	}
	return false
}

// jvmOption tells whether arg is a JVM option and whether the next
// argument is its value.
func jvmOption(arg string) (takesValue, ok bool) {
	if len(arg) < 2 || arg[0] != '-' {
		return false, false
	}
	for _, name := range jvmValueOptions {
		if arg == name {
			return true, true
		}
		if strings.HasPrefix(name, "--") && strings.HasPrefix(arg, name+"=") && len(arg) > len(name)+1 {
			return false, true
		}
	}
	for _, name := range jvmFlagOptions {
		if arg == name {
			return false, true
		}
	}
	for _, prefix := range jvmColonOptions {
		if strings.HasPrefix(arg, prefix) && len(arg) > len(prefix) {
			return false, true
		}
	}
	switch {
	case strings.HasPrefix(arg, "-D"):
		// -Dname or -Dname=value; the name must not be empty.
		return false, len(arg) > 2 && arg[2] != '='
	case strings.HasPrefix(arg, "-X"):
		// -Xmx512m, -Xss1m, -XX:+UseG1GC, ...; a bare -X prints help.
		return false, len(arg) > 2
	}
	return false, false
}

// IsVersionQuery tells whether args is `java -version`: what an editor's
// setup check runs on whatever its java setting names, to see a JVM is
// there (the XBSL wizard does, before anything else).
func IsVersionQuery(args []string) bool {
	return len(args) == 1 && args[0] == "-version"
}

// RunJava runs the real java – JAVA_HOME, else PATH, never elemctl itself
// – with args on the given stdio and returns its exit code: elemctl
// standing in for java answers `-version` with the JVM's own answer.
func RunJava(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) (int, error) {
	java, err := standInJava(ctx, &Options{Getenv: getenv, JVMArgs: args})
	if err != nil {
		return 1, err
	}
	cmd := exec.CommandContext(ctx, java, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	markStandIn(cmd)
	beforeStart(cmd)
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	if err != nil {
		return 1, &startError{i18n.T(ctx, "dap.adapter-start-failed", "java", java, "error", err.Error())}
	}
	return 0, nil
}

// standInJava is the real java for elemctl standing in for java, refused
// when this elemctl was itself started by a stand-in (StandInEnv set).
func standInJava(ctx context.Context, opts *Options) (string, error) {
	if opts.getenv(StandInEnv) != "" {
		return "", &startError{i18n.T(ctx, "dap.stand-in-loop", "var", StandInEnv)}
	}
	return findJava(ctx, opts)
}

// markStandIn sets StandInEnv for the JVM a stand-in starts.
func markStandIn(cmd *exec.Cmd) { cmd.Env = append(os.Environ(), StandInEnv+"=1") }
