// Package userdir finds elemctl's directories in the user's home by the
// rules of each operating system. Everything takes the environment and the
// system as arguments, so a test checks the Windows rules on Linux and the
// other way round.
package userdir

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrNoHome is the failure when the environment names no home directory.
var ErrNoHome = errors.New("the home directory is unknown")

// EnvDataDir moves the state directory (the registry of uploads) elsewhere.
const EnvDataDir = "ELEMCTL_DATA_DIR"

// EnvCacheDir moves the cache directory (the pack cache) elsewhere; the
// value CacheOff turns the cache off.
const EnvCacheDir = "ELEMCTL_CACHE_DIR"

// CacheOff, as EnvCacheDir, asks for no cache at all.
const CacheOff = "off"

// ErrCacheOff is Dir's failure for Cache when EnvCacheDir is CacheOff.
var ErrCacheOff = errors.New(EnvCacheDir + "=" + CacheOff)

// Kind is what a directory holds.
type Kind int

const (
	// State is what elemctl records of the user's work: the registry of
	// uploads.
	State Kind = iota
	// Data is what the user installs into elemctl: plugins, the extracted
	// debug adapter.
	Data
	// Cache is what elemctl keeps only to be faster and may lose at any
	// time: the compressed files of the last packs.
	Cache
)

// Dir is elemctl's directory of kind for the environment getenv describes
// on the operating system goos.
//
// On Windows State and Data are %LOCALAPPDATA%\elemctl, else
// ~\AppData\Local\elemctl (the home being %USERPROFILE%, else
// %HOMEDRIVE%%HOMEPATH%), and Cache is its folder cache. Elsewhere State is
// $XDG_STATE_HOME/elemctl, else ~/.local/state/elemctl, Data is
// $XDG_DATA_HOME/elemctl, else ~/.local/share/elemctl, and Cache is
// $XDG_CACHE_HOME/elemctl, else ~/.cache/elemctl; a relative XDG path is
// ignored, as the XDG specification asks. ELEMCTL_DATA_DIR,
// when set, is the State directory itself on every system, and
// ELEMCTL_CACHE_DIR the Cache directory (ErrCacheOff when it is "off").
func Dir(kind Kind, getenv func(string) string, goos string) (string, error) {
	switch kind {
	case State:
		if d := getenv(EnvDataDir); d != "" {
			return d, nil
		}
	case Cache:
		if d := getenv(EnvCacheDir); d == CacheOff {
			return "", ErrCacheOff
		} else if d != "" {
			return d, nil
		}
	}
	if goos == "windows" {
		var sub []string
		if kind == Cache {
			sub = []string{"cache"}
		}
		if d := getenv("LOCALAPPDATA"); d != "" {
			return Join(goos, append([]string{d, "elemctl"}, sub...)...), nil
		}
		home, err := Home(getenv, goos)
		if err != nil {
			return "", err
		}
		return Join(goos, append([]string{home, "AppData", "Local", "elemctl"}, sub...)...), nil
	}
	xdg, fallback := "XDG_STATE_HOME", []string{".local", "state"}
	switch kind {
	case Data:
		xdg, fallback = "XDG_DATA_HOME", []string{".local", "share"}
	case Cache:
		xdg, fallback = "XDG_CACHE_HOME", []string{".cache"}
	}
	if d := getenv(xdg); strings.HasPrefix(d, "/") {
		return Join(goos, d, "elemctl"), nil
	}
	home, err := Home(getenv, goos)
	if err != nil {
		return "", err
	}
	return Join(goos, append(append([]string{home}, fallback...), "elemctl")...), nil
}

// Home is the user's home directory: on Windows %USERPROFILE%, else
// %HOMEDRIVE%%HOMEPATH%, the order Windows programs use; elsewhere $HOME.
func Home(getenv func(string) string, goos string) (string, error) {
	if goos == "windows" {
		if h := getenv("USERPROFILE"); h != "" {
			return h, nil
		}
		if drive, path := getenv("HOMEDRIVE"), getenv("HOMEPATH"); drive != "" && path != "" {
			return drive + path, nil
		}
		return "", ErrNoHome
	}
	if h := getenv("HOME"); h != "" {
		return h, nil
	}
	return "", ErrNoHome
}

// Usual is how a user would look for elemctl's directory of kind when the
// home directory is unknown, so a message still says where.
func Usual(kind Kind, goos string) string {
	switch {
	case goos == "windows" && kind == Cache:
		return `~\AppData\Local\elemctl\cache`
	case goos == "windows":
		return `~\AppData\Local\elemctl`
	case kind == Data:
		return "~/.local/share/elemctl"
	case kind == Cache:
		return "~/.cache/elemctl"
	}
	return "~/.local/state/elemctl"
}

// Join joins path parts with the separator of goos. On the running system
// it is filepath.Join; for another system (tests of the Windows rules on
// Linux) the parts are joined by that system's separator.
func Join(goos string, parts ...string) string {
	if goos == runtime.GOOS {
		return filepath.Join(parts...)
	}
	sep := "/"
	if goos == "windows" {
		sep = `\`
	}
	// "/" or `C:\` lose their trailing separator here and get it back below.
	out := strings.TrimRight(parts[0], `/\`)
	for _, p := range parts[1:] {
		out += sep + strings.Trim(p, `/\`)
	}
	return out
}
