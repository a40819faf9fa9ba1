package selfupdate

import (
	"path/filepath"
	"strings"

	"github.com/elemctl/elemctl/internal/options"
)

// process is one running process, as far as the system shows it.
type process struct {
	PID, PPID int
	// Exe is the path of the file the process runs ("" when hidden).
	Exe string
	// Args is its command line (nil when hidden).
	Args []string
}

// StopMode says which holders --stop-holders ends.
type StopMode string

const (
	StopNone StopMode = ""
	// StopServers ends elemctl mcp, lsp and dap: their clients (editor,
	// agent) start them again, on the new binary.
	StopServers StopMode = "servers"
	// StopAll ends every process of the binary except this one's own tree.
	StopAll StopMode = "all"
)

// ParseStopMode reads the value of --stop-holders.
func ParseStopMode(s string) (StopMode, bool) {
	switch StopMode(s) {
	case StopNone, StopServers, StopAll:
		return StopMode(s), true
	}
	return "", false
}

// holdersOf picks the processes that run exe, leaving out the process
// self with its ancestors and descendants (a self-update started by a tool
// of `elemctl mcp` must not end its own caller). A process counts when its
// file is exe, is exe deleted by an earlier update (Linux shows
// "<path> (deleted)"), or is exe renamed aside by one (Windows).
func holdersOf(procs []process, exe string, self int, goos string) []process {
	parent := map[int]int{}
	for _, p := range procs {
		parent[p.PID] = p.PPID
	}
	inOwnTree := func(pid int) bool {
		// Descendants of self (and self): walk up from pid.
		for p, seen := pid, 0; p > 0 && seen < len(procs)+1; p, seen = parent[p], seen+1 {
			if p == self {
				return true
			}
		}
		// Ancestors of self: walk up from self.
		for p, seen := parent[self], 0; p > 0 && seen < len(procs)+1; p, seen = parent[p], seen+1 {
			if p == pid {
				return true
			}
		}
		return false
	}
	var out []process
	for _, p := range procs {
		if p.Exe == "" || !runsBinary(p.Exe, exe, goos) || inOwnTree(p.PID) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// runsBinary tells whether a process's file is exe, now or before an
// update replaced it.
func runsBinary(procExe, exe, goos string) bool {
	if goos == "windows" {
		p, e := strings.ToLower(procExe), strings.ToLower(exe)
		if p == e {
			return true
		}
		rest, ok := strings.CutPrefix(p, e+".")
		return ok && strings.HasSuffix(rest, asideSuffix) && !strings.ContainsAny(rest, `\/`)
	}
	procExe = strings.TrimSuffix(procExe, " (deleted)")
	return filepath.Clean(procExe) == filepath.Clean(exe)
}

// runsCurrentFile tells whether a holder is known to run the binary's
// present file rather than one an update replaced: Linux marks a replaced
// file "(deleted)", Windows shows the name it was renamed aside to. macOS
// shows the path either way, so there no holder is known to be current.
func runsCurrentFile(procExe, exe, goos string) bool {
	switch goos {
	case "linux":
		return !strings.HasSuffix(procExe, " (deleted)")
	case "windows":
		return strings.EqualFold(procExe, exe)
	}
	return false
}

// isServer tells elemctl mcp, lsp and dap from other commands: the first
// word of the command line that is neither an option nor an option's
// value.
func isServer(args []string) bool {
	switch commandWord(args) {
	case "mcp", "lsp", "dap":
		return true
	}
	return false
}

// takesValue tells a global option that takes a separate value.
func takesValue(arg string) bool {
	o, ok := options.Named(arg)
	return ok && o.Kind != options.Switch
}

func commandWord(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case takesValue(a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// commandText is a process's command line as the answer shows it, with the
// values of secret options hidden (a server may have been started with
// --client-secret on its command line).
func commandText(p process) string {
	if len(p.Args) == 0 {
		return p.Exe
	}
	out := make([]string, len(p.Args))
	hideNext := false
	for i, a := range p.Args {
		switch {
		case hideNext:
			out[i], hideNext = "***", false
			continue
		case isSecretOption(a):
			hideNext = true
		default:
			if flag, _, given := strings.Cut(a, "="); given && isSecretOption(flag) {
				a = flag + "=***"
			}
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// isSecretOption tells an option whose value is a secret.
func isSecretOption(a string) bool {
	o, ok := options.Named(a)
	return ok && o.Secret
}
