//go:build linux || darwin

package selfupdate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/selfupdate/updatetest"
)

// layout writes files (path → content) under root and returns root.
func layout(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestManagedByKnowsEveryInstaller(t *testing.T) {
	const record = "../../../bin/elemctl,sha256=x,1\nelemctl-1.0.0.dist-info/RECORD,,\n"
	cases := []struct {
		name  string
		files map[string]string
		exe   string // relative to the layout's root
		want  string // the manager's name, "" for none
		cmd   string // a part of the update command; ROOT stands for the root
	}{
		{"pip in a virtual environment", map[string]string{
			"venv/bin/elemctl": "", "venv/bin/python": "",
			"venv/lib/python3.11/site-packages/elemctl-1.0.0.dist-info/RECORD":    record,
			"venv/lib/python3.11/site-packages/elemctl-1.0.0.dist-info/INSTALLER": "pip\n",
		}, "venv/bin/elemctl", "pip", "ROOT/venv/bin/python -m pip install --upgrade elemctl"},
		{"pip --user", map[string]string{
			".local/bin/elemctl": "",
			".local/lib/python3.12/site-packages/elemctl-1.0.0.dist-info/RECORD":    record,
			".local/lib/python3.12/site-packages/elemctl-1.0.0.dist-info/INSTALLER": "pip\n",
		}, ".local/bin/elemctl", "pip", "pip install --upgrade elemctl"},
		{"pipx", map[string]string{
			".local/share/pipx/venvs/elemctl/bin/elemctl":                                                 "",
			".local/share/pipx/venvs/elemctl/lib/python3.11/site-packages/elemctl-1.0.0.dist-info/RECORD": record,
		}, ".local/share/pipx/venvs/elemctl/bin/elemctl", "pipx", "pipx upgrade elemctl"},
		{"uv tool", map[string]string{
			".local/share/uv/tools/elemctl/bin/elemctl":                                                    "",
			".local/share/uv/tools/elemctl/lib/python3.11/site-packages/elemctl-1.0.0.dist-info/RECORD":    record,
			".local/share/uv/tools/elemctl/lib/python3.11/site-packages/elemctl-1.0.0.dist-info/INSTALLER": "uv\n",
		}, ".local/share/uv/tools/elemctl/bin/elemctl", "uv", "uv tool upgrade elemctl"},
		{"a dist-info of another file", map[string]string{
			"venv/bin/elemctl": "",
			"venv/lib/python3.11/site-packages/elemctl-1.0.0.dist-info/RECORD": "../../../bin/elemctl-other,sha256=x,1\n",
		}, "venv/bin/elemctl", "", ""},
		{"npm in a project", map[string]string{
			"app/node_modules/@elemctl/linux-x64/bin/elemctl":  "",
			"app/node_modules/@elemctl/linux-x64/package.json": `{"name": "@elemctl/linux-x64"}`,
		}, "app/node_modules/@elemctl/linux-x64/bin/elemctl", "npm", "npm install --prefix ROOT/app elemctl@latest"},
		{"npm -g", map[string]string{
			"usr/lib/node_modules/elemctl/node_modules/@elemctl/linux-x64/bin/elemctl":  "",
			"usr/lib/node_modules/elemctl/node_modules/@elemctl/linux-x64/package.json": `{"name": "@elemctl/linux-x64"}`,
		}, "usr/lib/node_modules/elemctl/node_modules/@elemctl/linux-x64/bin/elemctl", "npm", "npm install -g elemctl@latest"},
		{"npx", map[string]string{
			".npm/_npx/1f2e/node_modules/@elemctl/linux-x64/bin/elemctl":  "",
			".npm/_npx/1f2e/node_modules/@elemctl/linux-x64/package.json": `{"name": "@elemctl/linux-x64"}`,
		}, ".npm/_npx/1f2e/node_modules/@elemctl/linux-x64/bin/elemctl", "npm", "npx -y elemctl@latest"},
		{"another package.json", map[string]string{
			"tool/bin/elemctl": "", "tool/package.json": `{"name": "something-else"}`,
		}, "tool/bin/elemctl", "", ""},
		{"deb", map[string]string{
			"usr/bin/elemctl": "", "usr/share/elemctl/package-manager": "deb\n",
		}, "usr/bin/elemctl", "deb", "curl -fsSLO https://github.com/elemctl/elemctl/releases/latest/download/elemctl-linux-amd64.deb && sudo apt install ./elemctl-linux-amd64.deb"},
		{"rpm", map[string]string{
			"usr/bin/elemctl": "", "usr/share/elemctl/package-manager": "rpm\n",
		}, "usr/bin/elemctl", "rpm", "sudo rpm -U ./elemctl-linux-amd64.rpm"},
		{"Homebrew", map[string]string{
			"Cellar/elemctl/1.0.0/bin/elemctl": "", "Cellar/elemctl/1.0.0/share/elemctl/package-manager": "homebrew\n",
		}, "Cellar/elemctl/1.0.0/bin/elemctl", "homebrew", "brew upgrade elemctl"},
		{"an archive unpacked by hand", map[string]string{
			".local/bin/elemctl": "",
		}, ".local/bin/elemctl", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := layout(t, c.files)
			m := ManagedBy(filepath.Join(root, filepath.FromSlash(c.exe)), "linux", "amd64")
			if c.want == "" {
				if m != nil {
					t.Fatalf("managed by %+v", m)
				}
				return
			}
			if m == nil || m.Name != c.want || !strings.Contains(m.Update, strings.ReplaceAll(c.cmd, "ROOT", root)) {
				t.Fatalf("got %+v, want %s with %q", m, c.want, c.cmd)
			}
		})
	}
	// Windows installers, by their folders.
	for exe, want := range map[string]string{
		`C:\Users\Пётр\scoop\apps\elemctl\current\elemctl.exe`:                                                                  "scoop update elemctl",
		`C:\Users\me\AppData\Local\Microsoft\WinGet\Packages\Elemctl.Elemctl_Microsoft.Winget.Source_8wekyb3d8bbwe\elemctl.exe`: "winget upgrade --id Elemctl.Elemctl",
	} {
		if m := ManagedBy(exe, "windows", "amd64"); m == nil || m.Update != want {
			t.Errorf("%s: %+v, want %q", exe, m, want)
		}
	}
	if m := ManagedBy(`C:\Users\me\AppData\Local\Programs\elemctl\elemctl.exe`, "windows", "amd64"); m != nil {
		t.Errorf("the folder docs/install.md suggests is taken for %+v", m)
	}
}

// TestRunLeavesAManagedCopyAlone: self-update refuses a copy pip owns
// before downloading anything, names pip's command, and --check still
// reports.
func TestRunLeavesAManagedCopyAlone(t *testing.T) {
	srv := updatetest.NewServer(t, packed(t, "1.1.0", script("1.1.0")))
	root := layout(t, map[string]string{
		"venv/bin/python": "",
		"venv/lib/python3.11/site-packages/elemctl-1.0.0.dist-info/RECORD": "../../../bin/elemctl,sha256=x,1\n",
	})
	exe := filepath.Join(root, "venv", "bin", "elemctl")
	if err := os.WriteFile(exe, script("1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Run(english(), runOptions(t, srv, exe, "1.0.0"))
	want := "was installed by pip, which also updates it: " + filepath.Join(root, "venv", "bin", "python") + " -m pip install --upgrade elemctl"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests before refusing", n)
	}
	if data, _ := os.ReadFile(exe); string(data) != string(script("1.0.0")) {
		t.Fatal("the binary changed")
	}

	o := runOptions(t, srv, exe, "1.0.0")
	o.Check = true
	res, err := Run(english(), o)
	if err != nil {
		t.Fatal(err)
	}
	if got := compact(t, res.Answer()); !strings.Contains(got, `"managed_by":"pip"`) || !strings.Contains(got, `"available":true`) {
		t.Fatalf("check answer %s", got)
	}
}
