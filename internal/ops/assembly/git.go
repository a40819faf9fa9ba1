package assembly

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// GitTimeout bounds every git call: a hung credential helper or a huge
// repository must not hang a build.
const GitTimeout = 15 * time.Second

// ciBranchVariables name the branch of a CI job whose checkout is a
// detached HEAD, in the order they are consulted.
var ciBranchVariables = []string{"CI_COMMIT_BRANCH", "CI_COMMIT_REF_NAME", "GITHUB_REF_NAME"}

// GitInfo is what a build records about the working tree of its project.
type GitInfo struct {
	Commit string // HEAD commit, "" when git cannot tell
	Branch string // current branch; for a detached HEAD the CI branch, else ""
	// Dirty is nil when git is unavailable or the directory is not in a
	// repository, else whether the project directory has uncommitted changes.
	Dirty      *bool
	DirtyFiles []string // paths as git status prints them (relative to the repository root)
}

// ReadGit reads commit, branch and uncommitted changes of the project in dir.
// A directory outside any repository, or a machine without git, is a normal
// case and gives empty values and Dirty == nil. getenv nil means no
// environment (no CI branch fallback).
func ReadGit(ctx context.Context, dir string, getenv func(string) string) GitInfo {
	var info GitInfo
	if out, err := runGit(ctx, dir, "rev-parse", "HEAD"); err == nil {
		info.Commit = strings.TrimSpace(out)
	}
	if out, err := runGit(ctx, dir, "rev-parse", "--abbrev-ref", "HEAD"); err == nil {
		info.Branch = strings.TrimSpace(out)
		if info.Branch == "HEAD" {
			info.Branch = ciBranch(getenv)
		}
	}
	if out, err := runGit(ctx, dir, "-c", "core.quotepath=false", "status", "--porcelain", "--", "."); err == nil {
		info.DirtyFiles = porcelainPaths(out)
		dirty := len(info.DirtyFiles) > 0
		info.Dirty = &dirty
	}
	return info
}

func ciBranch(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	for _, name := range ciBranchVariables {
		if v := strings.TrimSpace(getenv(name)); v != "" && v != "HEAD" {
			return v
		}
	}
	return ""
}

// porcelainPaths takes the paths out of `git status --porcelain` lines
// ("XY path"; a rename keeps its "old -> new" form). Git puts a path with
// spaces or special characters in C-style quotes; they are removed so the
// list names real files.
func porcelainPaths(out string) []string {
	paths := []string{}
	for line := range strings.SplitSeq(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if len(line) <= 3 {
			continue
		}
		p := line[3:]
		if from, to, ok := strings.Cut(p, " -> "); ok && (isQuoted(from) || isQuoted(to)) {
			p = unquoteGitPath(from) + " -> " + unquoteGitPath(to)
		} else {
			p = unquoteGitPath(p)
		}
		paths = append(paths, p)
	}
	return paths
}

func isQuoted(p string) bool { return len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' }

func unquoteGitPath(p string) string {
	if !isQuoted(p) {
		return p
	}
	if u, err := strconv.Unquote(p); err == nil {
		return u
	}
	return p
}

// RequireClean refuses a directory with uncommitted changes, and one git
// cannot judge (no git, or not inside a repository): the --require-clean
// check that runs before anything is built or sent.
func RequireClean(ctx context.Context, dir string) error {
	out, err := runGit(ctx, dir, "status", "--porcelain", "--", ".")
	if err != nil {
		return wrapError(ctx, err, "build.require-clean-no-git", "dir", dir)
	}
	if n := len(porcelainPaths(out)); n > 0 {
		return newError(ctx, "build.require-clean-dirty", "dir", dir, "count", n)
	}
	return nil
}

// runGit runs git in dir with an empty stdin (see Git) and returns its
// stdout.
func runGit(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Git(ctx, dir, nil, args...)
	return string(out), err
}

// Git runs git in dir with stdin (nil: empty), no prompts, no optional
// locks and the timeout above, and returns its stdout. A failure names the
// git command and the first line git wrote to stderr.
func Git(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, GitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(gitEnviron(),
		"GIT_TERMINAL_PROMPT=0", // never wait for a password on a terminal
		"GIT_OPTIONAL_LOCKS=0",  // status must not take the index lock another git holds
	)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n"); msg != "" {
			return nil, fmt.Errorf("git %s: %s: %w", args[0], msg, err)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return stdout.Bytes(), nil
}

// gitEnviron is the environment without the variables that point git at a
// repository: run from a git hook (which sets GIT_DIR), git -C dir would
// read the hook's repository from its top instead of the one holding dir.
func gitEnviron() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "GIT_DIR", "GIT_WORK_TREE":
			continue
		}
		env = append(env, kv)
	}
	return env
}
