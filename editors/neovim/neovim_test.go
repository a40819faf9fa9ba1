// Package neovim_test runs the Neovim set-up files in a real, headless
// Neovim when one is installed.
package neovim_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// nvim is the installed Neovim and its version, or a skip.
func nvim(t *testing.T) (path string, major, minor int) {
	t.Helper()
	path, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed")
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		t.Fatalf("nvim --version: %v", err)
	}
	m := regexp.MustCompile(`NVIM v(\d+)\.(\d+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("nvim --version says %q", out)
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return path, major, minor
}

// runLua runs script in a headless Neovim without user configuration and
// decodes the JSON it prints last.
func runLua(t *testing.T, bin, script string) map[string]any {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "test.lua")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--clean", "-c", "luafile "+file, "-c", "qa!")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_STATE_HOME="+dir)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var res map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(lines[len(lines)-1])), &res); err != nil {
		t.Fatalf("nvim printed %q", out)
	}
	return res
}

// The LSP set-up calls setup() as a user's init.lua does and reports what
// it returned, what it said and which commands exist afterwards.
const lspScript = `
local here = %q
local said = {}
vim.notify = function(msg, level) table.insert(said, { msg = msg, level = level }) end
local M = dofile(here .. '/lsp.lua')
local ok, res = pcall(M.setup, {})
if not ok then res = tostring(res) end
io.stdout:write(vim.fn.json_encode({
  ok = ok, result = res, said = said,
  deploy = vim.fn.exists(':ElemctlDeploy') == 2,
  error_level = vim.log.levels.ERROR,
}) .. '\n')
`

// On a Neovim older than 0.10 setup() says which version it needs (and
// which it found) instead of failing on an event that Neovim does not know,
// and leaves the editor as it was; on 0.10 or newer it sets up.
func TestLSPSetupChecksTheNeovimVersion(t *testing.T) {
	bin, major, minor := nvim(t)
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	res := runLua(t, bin, strings.Replace(lspScript, "%q", strconv.Quote(here), 1))
	if res["ok"] != true {
		t.Fatalf("setup() raised an error: %v", res["result"])
	}
	said, _ := res["said"].([]any)
	if major > 0 || minor >= 10 {
		if res["result"] != true || res["deploy"] != true || len(said) != 0 {
			t.Errorf("Neovim %d.%d: setup() = %v, :ElemctlDeploy %v, said %v", major, minor, res["result"], res["deploy"], said)
		}
		return
	}
	if res["result"] != false || res["deploy"] != false {
		t.Errorf("Neovim %d.%d: setup() = %v, :ElemctlDeploy defined %v; want false and nothing defined", major, minor, res["result"], res["deploy"])
	}
	if len(said) != 1 {
		t.Fatalf("Neovim %d.%d: setup() said %v, want one message", major, minor, said)
	}
	msg := said[0].(map[string]any)
	text, _ := msg["msg"].(string)
	found := strconv.Itoa(major) + "." + strconv.Itoa(minor) + "."
	if !strings.Contains(text, "needs Neovim 0.10 or newer") || !strings.Contains(text, found) || msg["level"] != res["error_level"] {
		t.Errorf("Neovim %d.%d: setup() said %v", major, minor, msg)
	}
}

// The nvim-dap set-up needs nothing of 0.10: it sets up on any Neovim that
// runs the test, with nvim-dap stood in by a table.
func TestDAPSetupRegistersTheAdapter(t *testing.T) {
	bin, _, _ := nvim(t)
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	script := `
local here = ` + strconv.Quote(here) + `
local auto = function() return setmetatable({}, { __index = function(t, k) t[k] = {} return t[k] end }) end
package.loaded['dap'] = { adapters = {}, configurations = {}, listeners = { after = auto() } }
local M = dofile(here .. '/dap.lua')
local ok, err = pcall(M.setup, { adapter = '/opt/adapter' })
local dap = package.loaded['dap']
local spec
if ok then dap.adapters.elemctl(function(s) spec = s end) end
io.stdout:write(vim.fn.json_encode({ ok = ok, err = tostring(err), spec = spec,
  config = dap.configurations.xbsl and dap.configurations.xbsl[1].request or vim.NIL }) .. '\n')
`
	res := runLua(t, bin, script)
	if res["ok"] != true {
		t.Fatalf("setup() raised an error: %v", res["err"])
	}
	spec, _ := res["spec"].(map[string]any)
	args, _ := json.Marshal(spec["args"])
	if spec["command"] != "elemctl" || string(args) != `["dap","--adapter","/opt/adapter"]` || res["config"] != "attach" {
		t.Errorf("adapter %v, configuration request %v", spec, res["config"])
	}
}
