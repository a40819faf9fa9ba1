package selfupdate

import (
	"slices"
	"strings"
	"testing"
)

func TestHoldersOfLeavesOutTheOwnProcessTree(t *testing.T) {
	const exe = "/home/u/bin/elemctl"
	procs := []process{
		{PID: 1, PPID: 0, Exe: "/sbin/init"},
		{PID: 10, PPID: 1, Exe: exe, Args: []string{"elemctl", "mcp"}},       // the agent's server: ours
		{PID: 11, PPID: 10, Exe: "/bin/sh", Args: []string{"sh", "-c", "x"}}, // its child
		{PID: 12, PPID: 11, Exe: exe, Args: []string{"elemctl", "self-update"}},
		{PID: 13, PPID: 12, Exe: exe, Args: []string{"elemctl", "--version"}}, // self's child
		{PID: 20, PPID: 1, Exe: exe + " (deleted)", Args: []string{"elemctl", "lsp"}},
		{PID: 21, PPID: 1, Exe: "/other/elemctl", Args: []string{"elemctl", "dap"}},
		{PID: 22, PPID: 1, Exe: exe, Args: []string{"elemctl", "deploy"}},
		{PID: 23, PPID: 1, Exe: "", Args: nil}, // hidden
	}
	var got []int
	for _, p := range holdersOf(procs, exe, 12, "linux") {
		got = append(got, p.PID)
	}
	if !slices.Equal(got, []int{20, 22}) {
		t.Fatalf("holders %v, want 20 (replaced before) and 22", got)
	}
}

func TestHoldersOnWindowsMatchCaseAndAsideNames(t *testing.T) {
	exe := `C:\Tools\elemctl.exe`
	procs := []process{
		{PID: 4, Exe: `c:\tools\ELEMCTL.EXE`},
		{PID: 5, Exe: `C:\Tools\elemctl.exe.1a2b3c.old`},
		{PID: 6, Exe: `C:\Tools\elemctl.exe.d\x.old`},
		{PID: 7, Exe: `C:\Tools\elemctl.exe.bak`},
	}
	var got []int
	for _, p := range holdersOf(procs, exe, 99, "windows") {
		got = append(got, p.PID)
	}
	if !slices.Equal(got, []int{4, 5}) {
		t.Fatalf("holders %v", got)
	}
}

func TestIsServer(t *testing.T) {
	cases := map[string]bool{
		"elemctl mcp":                                  true,
		"elemctl --env-file mcp.env lsp":               true,
		"elemctl --json --lang en dap --adapter x":     true,
		"elemctl --timeout=5 mcp":                      true,
		"elemctl deploy --app-id mcp":                  false,
		"elemctl":                                      false,
		"elemctl --client-secret mcp apps list":        false,
		`C:\Tools\elemctl.exe --base-url http://x mcp`: true,
	}
	for line, want := range cases {
		if got := isServer(strings.Fields(line)); got != want {
			t.Errorf("%s: %v", line, got)
		}
	}
}

func TestCommandTextHidesSecrets(t *testing.T) {
	p := process{Exe: "/bin/elemctl", Args: []string{"elemctl", "--client-secret", "TOPSECRET", "--client-secret=ALSO", "mcp"}}
	got := commandText(p)
	if strings.Contains(got, "TOPSECRET") || strings.Contains(got, "ALSO") || got != "elemctl --client-secret *** --client-secret=*** mcp" {
		t.Fatalf("command %q", got)
	}
	if got := commandText(process{Exe: "/bin/elemctl"}); got != "/bin/elemctl" {
		t.Fatalf("without a command line: %q", got)
	}
}

func TestParseStopMode(t *testing.T) {
	for _, s := range []string{"", "servers", "all"} {
		if m, ok := ParseStopMode(s); !ok || string(m) != s {
			t.Errorf("%q: %v %v", s, m, ok)
		}
	}
	if _, ok := ParseStopMode("some"); ok {
		t.Error("took some")
	}
}
