package userdir

import (
	"errors"
	"path/filepath"
	"runtime"
	"testing"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// Both systems' rules, checked on whichever system runs the test.
func TestDirRules(t *testing.T) {
	for _, c := range []struct {
		name string
		kind Kind
		goos string
		env  map[string]string
		want string
	}{
		{"data dir wins on linux", State, "linux", map[string]string{"ELEMCTL_DATA_DIR": "/srv/elemctl", "XDG_STATE_HOME": "/x", "HOME": "/home/u"}, "/srv/elemctl"},
		{"data dir wins on windows", State, "windows", map[string]string{"ELEMCTL_DATA_DIR": `D:\data`, "LOCALAPPDATA": `C:\Users\u\AppData\Local`}, `D:\data`},
		{"data dir moves the state only", Data, "linux", map[string]string{"ELEMCTL_DATA_DIR": "/srv/elemctl", "HOME": "/home/u"}, "/home/u/.local/share/elemctl"},
		{"xdg state home", State, "linux", map[string]string{"XDG_STATE_HOME": "/home/u/.state", "HOME": "/home/u"}, "/home/u/.state/elemctl"},
		{"xdg data home", Data, "linux", map[string]string{"XDG_DATA_HOME": "/home/u/.data", "XDG_STATE_HOME": "/x", "HOME": "/home/u"}, "/home/u/.data/elemctl"},
		{"a relative xdg path is ignored", State, "linux", map[string]string{"XDG_STATE_HOME": "state", "HOME": "/home/u"}, "/home/u/.local/state/elemctl"},
		{"state in the home on linux", State, "linux", map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/elemctl"},
		{"data in the home on linux", Data, "linux", map[string]string{"HOME": "/home/u"}, "/home/u/.local/share/elemctl"},
		{"home on macOS", State, "darwin", map[string]string{"HOME": "/Users/u"}, "/Users/u/.local/state/elemctl"},
		{"local app data", State, "windows", map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`, "USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"local app data for data too", Data, "windows", map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`, "XDG_DATA_HOME": "/x"}, `C:\Users\u\AppData\Local\elemctl`},
		{"windows without local app data", State, "windows", map[string]string{"USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"windows home drive and path", State, "windows", map[string]string{"HOMEDRIVE": `C:`, "HOMEPATH": `\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"windows home drive and path for data", Data, "windows", map[string]string{"HOMEDRIVE": `C:`, "HOMEPATH": `\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"xdg is not read on windows", State, "windows", map[string]string{"XDG_STATE_HOME": "/x", "USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
		{"local app data is not read on linux", State, "linux", map[string]string{"LOCALAPPDATA": `C:\x`, "HOME": "/root"}, "/root/.local/state/elemctl"},
		{"cache in the home on linux", Cache, "linux", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/x"}, "/home/u/.cache/elemctl"},
		{"xdg cache home", Cache, "linux", map[string]string{"XDG_CACHE_HOME": "/var/cache/u", "HOME": "/home/u"}, "/var/cache/u/elemctl"},
		{"a relative xdg cache path is ignored", Cache, "darwin", map[string]string{"XDG_CACHE_HOME": "cache", "HOME": "/Users/u"}, "/Users/u/.cache/elemctl"},
		{"cache dir wins", Cache, "linux", map[string]string{"ELEMCTL_CACHE_DIR": "/ci/cache", "XDG_CACHE_HOME": "/x", "HOME": "/home/u"}, "/ci/cache"},
		{"cache under local app data", Cache, "windows", map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`}, `C:\Users\u\AppData\Local\elemctl\cache`},
		{"windows cache without local app data", Cache, "windows", map[string]string{"USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\elemctl\cache`},
		{"data dir does not move the cache", Cache, "linux", map[string]string{"ELEMCTL_DATA_DIR": "/srv/elemctl", "HOME": "/home/u"}, "/home/u/.cache/elemctl"},
		{"home is not read on windows", Data, "windows", map[string]string{"HOME": "/home/u", "USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\elemctl`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Dir(c.kind, envOf(c.env), c.goos)
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
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, kind := range []Kind{State, Data, Cache} {
			// Variables of the other system do not count.
			env := map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "relative"}
			if goos != "windows" {
				env = map[string]string{"USERPROFILE": `C:\Users\u`, "HOMEDRIVE": "C:", "XDG_DATA_HOME": "relative"}
			}
			if d, err := Dir(kind, envOf(env), goos); !errors.Is(err, ErrNoHome) {
				t.Errorf("%s, kind %d: %q %v, want ErrNoHome", goos, kind, d, err)
			}
		}
	}
}

func TestCacheCanBeTurnedOff(t *testing.T) {
	for _, goos := range []string{"linux", "windows"} {
		env := envOf(map[string]string{"ELEMCTL_CACHE_DIR": "off", "HOME": "/home/u", "LOCALAPPDATA": `C:\x`})
		if d, err := Dir(Cache, env, goos); !errors.Is(err, ErrCacheOff) {
			t.Errorf("%s: %q %v, want ErrCacheOff", goos, d, err)
		}
		// It is the cache's switch only.
		if _, err := Dir(State, env, goos); err != nil {
			t.Errorf("%s: the state directory: %v", goos, err)
		}
	}
}

func TestUsualNamesTheDefaultPlace(t *testing.T) {
	if got := Usual(Cache, "windows"); got != `~\AppData\Local\elemctl\cache` {
		t.Errorf("windows cache: %q", got)
	}
	if got := Usual(Cache, "linux"); got != "~/.cache/elemctl" {
		t.Errorf("linux cache: %q", got)
	}
	if got := Usual(State, "windows"); got != `~\AppData\Local\elemctl` {
		t.Errorf("windows: %q", got)
	}
	if got := Usual(State, "linux"); got != "~/.local/state/elemctl" {
		t.Errorf("linux state: %q", got)
	}
	if got := Usual(Data, "darwin"); got != "~/.local/share/elemctl" {
		t.Errorf("darwin data: %q", got)
	}
}

func TestJoinForAnotherSystem(t *testing.T) {
	other, sep := "windows", `\`
	if runtime.GOOS == "windows" {
		other, sep = "linux", "/"
	}
	if got := Join(other, "/", "a/", `\b`); got != sep+"a"+sep+"b" {
		t.Errorf("Join for %s: %q", other, got)
	}
	if got := Join(runtime.GOOS, "a", "b"); got != filepath.Join("a", "b") {
		t.Errorf("Join for this system: %q", got)
	}
}
