package registry

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestDirRules(t *testing.T) {
	cases := []struct {
		name string
		goos string
		env  map[string]string
		want string
	}{
		{"data dir wins on linux", "linux", map[string]string{"ELEMCTL_DATA_DIR": "/srv/elemctl", "XDG_STATE_HOME": "/x", "HOME": "/home/u"}, "/srv/elemctl"},
		{"data dir wins on windows", "windows", map[string]string{"ELEMCTL_DATA_DIR": `D:\data`, "LOCALAPPDATA": `C:\Users\u\AppData\Local`}, `D:\data`},
		{"xdg state home", "linux", map[string]string{"XDG_STATE_HOME": "/home/u/.state", "HOME": "/home/u"}, "/home/u/.state/elemctl"},
		{"home on linux", "linux", map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/elemctl"},
		{"home on macOS", "darwin", map[string]string{"HOME": "/Users/u"}, "/Users/u/.local/state/elemctl"},
		{"local app data", "windows", map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`, "USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"windows without local app data", "windows", map[string]string{"USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"windows home drive and path", "windows", map[string]string{"HOMEDRIVE": `C:`, "HOMEPATH": `\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"xdg is not read on windows", "windows", map[string]string{"XDG_STATE_HOME": "/x", "USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"local app data is not read on linux", "linux", map[string]string{"LOCALAPPDATA": `C:\x`, "HOME": "/root"}, "/root/.local/state/elemctl"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Dir(envOf(c.env), c.goos)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if c.goos == runtime.GOOS {
				want = filepath.FromSlash(want)
			}
			if got != want {
				t.Fatalf("Dir = %q, want %q", got, want)
			}
		})
	}
}

func TestNoHomeIsAnErrorNotAGuess(t *testing.T) {
	for _, goos := range []string{"linux", "windows"} {
		if _, err := Dir(envOf(nil), goos); err == nil {
			t.Fatalf("%s: no variables set, want an error", goos)
		}
	}
}

func TestRegistryFileName(t *testing.T) {
	r := New(envOf(map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`}), "windows")
	if runtime.GOOS != "windows" && r.Path() != `C:\Users\u\AppData\Local\elemctl\uploads.jsonl` {
		t.Fatalf("Path = %q", r.Path())
	}
	r = New(envOf(map[string]string{"HOME": "/home/u"}), "linux")
	if runtime.GOOS != "windows" && r.Path() != "/home/u/.local/state/elemctl/uploads.jsonl" {
		t.Fatalf("Path = %q", r.Path())
	}
}

func TestNoHomeAppendWarnsWithTheUsualPlace(t *testing.T) {
	ctx := context.Background()
	r := New(envOf(nil), runtime.GOOS)
	w := r.Append(ctx, Entry{AssemblyID: "a1", Command: CommandDeploy})
	if w == "" {
		t.Fatal("no home: want a warning")
	}
	if !strings.Contains(w, "elemctl") || !strings.Contains(w, FileName) || !strings.HasPrefix(w, "загрузка не записана в локальный реестр") {
		t.Fatalf("warning %q does not name the registry", w)
	}
	if en := i18n.TL(i18n.EN, "registry.write-failed", "path", "p", "error", "e"); !strings.Contains(en, "The build is uploaded") {
		t.Fatalf("en text: %q", en)
	}
}
