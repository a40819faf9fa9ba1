package dap

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
)

// AdapterMainClass is the entry point of the platform's Java debug adapter.
const AdapterMainClass = "com.e1c.g5rt.debugger.adapter.App"

// adapterJarPrefix names the adapter's own jar inside repo/; third-party
// jars next to it do not make a directory an adapter.
const adapterJarPrefix = "com.e1c.g5rt.debugger.adapter"

// startError is a failure to find or start the adapter. Its text is what
// the client shows the user.
type startError struct{ msg string }

func (e *startError) Error() string { return e.msg }

// HasAdapterJar tells whether dir/repo holds com.e1c.g5rt.debugger.adapter*.jar.
// The name is compared without regard to case, as the editor extension does.
func HasAdapterJar(dir string) bool {
	entries, err := os.ReadDir(filepath.Join(dir, "repo"))
	if err != nil {
		return false
	}
	for _, e := range entries {
		name := strings.ToLower(e.Name())
		if !e.IsDir() && strings.HasPrefix(name, adapterJarPrefix) && strings.HasSuffix(name, ".jar") {
			return true
		}
	}
	return false
}

// findAdapterDir applies the order --adapter, ELEMCTL_DEBUG_ADAPTER, the
// plugin-declared directory. A directory named explicitly but lacking the
// jar is an error rather than a reason to look further: the user meant it.
func findAdapterDir(ctx context.Context, opts *Options) (string, error) {
	advice := i18n.T(ctx, "dap.adapter-advice")
	check := func(dir, sourceKey string) (string, error) {
		abs, err := filepath.Abs(dir)
		if err == nil {
			dir = abs
		}
		if !HasAdapterJar(dir) {
			return "", &startError{i18n.T(ctx, "dap.adapter-no-jar", "dir", dir, "source", i18n.T(ctx, sourceKey)) + " " + advice}
		}
		return dir, nil
	}
	if opts.AdapterDir != "" {
		return check(opts.AdapterDir, "dap.source-flag")
	}
	if dir := opts.getenv("ELEMCTL_DEBUG_ADAPTER"); dir != "" {
		return check(dir, "dap.source-env")
	}
	if opts.LocateAdapter != nil {
		dir, err := opts.LocateAdapter()
		if err != nil {
			return "", &startError{i18n.T(ctx, "dap.adapter-locate-failed", "error", err.Error()) + " " + advice}
		}
		if dir != "" {
			return check(dir, "dap.source-plugin")
		}
	}
	return "", &startError{i18n.T(ctx, "dap.adapter-not-found") + " " + advice}
}

// findJava applies the order --java, $JAVA_HOME/bin/java, java on PATH.
// A stale JAVA_HOME falls through to PATH, which is what a shell would run.
// A java found in JAVA_HOME or on PATH that is elemctl itself (a link or
// a java setting pointed at elemctl) is passed over: starting it would
// start this proxy again. --java is taken as the user gives it.
func findJava(ctx context.Context, opts *Options) (string, error) {
	if opts.Java != "" {
		path, err := exec.LookPath(opts.Java)
		if err != nil && !errors.Is(err, exec.ErrDot) {
			return "", &startError{i18n.T(ctx, "dap.java-not-found", "java", opts.Java)}
		}
		if path == "" {
			path = opts.Java
		}
		return path, nil
	}
	var self string // a java that is elemctl, passed over
	if home := opts.getenv("JAVA_HOME"); home != "" {
		candidate := filepath.Join(home, "bin", javaExecutable())
		if st, err := os.Stat(candidate); err == nil && !st.IsDir() {
			if !isSelf(candidate) {
				return candidate, nil
			}
			self = candidate
		}
	}
	path, err := exec.LookPath("java")
	if err == nil && !isSelf(path) {
		return path, nil
	}
	if err == nil {
		self = path
		// Look further down PATH, in absolute directories only (as
		// exec.LookPath trusts no relative one).
		for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
			if !filepath.IsAbs(dir) {
				continue
			}
			if p, err := exec.LookPath(filepath.Join(dir, "java")); err == nil && !isSelf(p) {
				return p, nil
			}
		}
	}
	switch {
	case self != "":
		return "", &startError{i18n.T(ctx, "dap.java-is-elemctl", "java", self)}
	case len(opts.JVMArgs) > 0:
		return "", &startError{i18n.T(ctx, "dap.java-missing-stand-in")}
	}
	return "", &startError{i18n.T(ctx, "dap.java-missing")}
}

// isSelf tells whether path is the running executable, through links too.
func isSelf(path string) bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		if abs, err := filepath.Abs(resolved); err == nil && samePath(abs, exe) {
			return true
		}
	}
	a, errA := os.Stat(exe)
	b, errB := os.Stat(path)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

func samePath(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

func javaExecutable() string {
	if runtime.GOOS == "windows" {
		return "java.exe"
	}
	return "java"
}

// AdapterArgs is the JVM argument vector that starts the adapter found in
// dir, exactly as the editor extension builds it. The "*" stays literal:
// the JVM expands a classpath wildcard itself.
func AdapterArgs(dir string) []string {
	return []string{
		"-Dfile.encoding=UTF-8",
		"--add-opens", "java.base/java.lang=ALL-UNNAMED",
		"--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
		"-cp", filepath.Join(dir, "repo", "*"),
		AdapterMainClass,
	}
}
