package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// scripts/e2e.sh without npm: a developer's run says the end-to-end
// suites were skipped and passes; a CI run (CI=true) fails, so no CI job
// passes without them.
func TestTheEndToEndScriptFailsUnderCIWhenASuiteCannotRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the script runs under bash")
	}
	t.Parallel()
	// A PATH with the tools the script uses, and no npm.
	tools := t.TempDir()
	for _, name := range []string{"bash", "mktemp", "rm", "dirname", "awk", "tee"} {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s is not installed", name)
		}
		if err := os.Symlink(path, filepath.Join(tools, name)); err != nil {
			t.Fatal(err)
		}
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "e2e.sh"))
	run := func(ci string) (string, int) {
		cmd := exec.Command(filepath.Join(tools, "bash"), script)
		cmd.Env = []string{"PATH=" + tools, "CI=" + ci}
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := run(""); code != 0 || !strings.Contains(out, "npm is missing") {
		t.Errorf("without CI: exit %d\n%s", code, out)
	}
	if out, code := run("true"); code != 1 || !strings.Contains(out, "CI=true") {
		t.Errorf("with CI=true: exit %d\n%s", code, out)
	}
}
