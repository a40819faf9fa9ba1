package registry

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
)

// FileName is the registry's file inside its directory.
const FileName = "uploads.jsonl"

// errNoHome is the location failure when neither a data directory nor a
// home directory is known.
var errNoHome = errors.New("the home directory is unknown")

// Dir is the registry directory for the environment getenv describes on
// the operating system goos: ELEMCTL_DATA_DIR; on Windows
// %LOCALAPPDATA%\elemctl, else ~/AppData/Local/elemctl; elsewhere
// $XDG_STATE_HOME/elemctl, else ~/.local/state/elemctl.
func Dir(getenv func(string) string, goos string) (string, error) {
	if d := getenv("ELEMCTL_DATA_DIR"); d != "" {
		return d, nil
	}
	if goos == "windows" {
		if d := getenv("LOCALAPPDATA"); d != "" {
			return joinFor(goos, d, "elemctl"), nil
		}
		home := windowsHome(getenv)
		if home == "" {
			return "", errNoHome
		}
		return joinFor(goos, home, "AppData", "Local", "elemctl"), nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return joinFor(goos, d, "elemctl"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", errNoHome
	}
	return joinFor(goos, home, ".local", "state", "elemctl"), nil
}

// windowsHome follows the order Windows programs use: USERPROFILE, then
// HOMEDRIVE+HOMEPATH.
func windowsHome(getenv func(string) string) string {
	if h := getenv("USERPROFILE"); h != "" {
		return h
	}
	if drive, path := getenv("HOMEDRIVE"), getenv("HOMEPATH"); drive != "" && path != "" {
		return drive + path
	}
	return ""
}

// unresolvedPath names the registry file the way a user would look for it
// when the home directory is unknown, so the warning still says where.
func unresolvedPath(goos string) string {
	if goos == "windows" {
		return `~\AppData\Local\elemctl\` + FileName
	}
	return "~/.local/state/elemctl/" + FileName
}

// joinFor joins path parts with the separator of goos. On the running
// system it is filepath.Join; for another system (tests of the Windows
// rules on Linux) the parts are joined by that system's separator.
func joinFor(goos string, parts ...string) string {
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
