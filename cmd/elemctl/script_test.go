package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// knownSecret is the client secret every scripted stand uses, so the
// secrets check knows what to look for.
const knownSecret = "s3cr3t-3l3mctl-7e57-0000-c1i3n7s3cr37"

func TestMain(m *testing.M) {
	registerMessages()
	quickRaceExit()
	testscript.Main(removingBuiltBins{m}, map[string]func(){
		"elemctl": func() { os.Exit(runLogged()) },
	})
}

// removingBuiltBins runs the tests, then removes the programs buildBin
// built for them: the suite leaves nothing in the temporary directory.
type removingBuiltBins struct{ m *testing.M }

func (r removingBuiltBins) Run() int {
	code := r.m.Run()
	pluginBins.Lock()
	if pluginBins.dir != "" {
		os.RemoveAll(pluginBins.dir)
	}
	pluginBins.Unlock()
	return code
}

// quickRaceExit keeps a race-enabled elemctl from sleeping its second at
// exit: every `exec elemctl` of a script re-runs this test binary, and
// testscript passes GORACE on, so the default sleep cost a second per
// command. Races are still reported when they happen.
func quickRaceExit() {
	if g := os.Getenv("GORACE"); !strings.Contains(g, "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(g+" atexit_sleep_ms=0"))
	}
}

// runLogged runs the CLI inside a script and appends everything it printed
// to $ELEMCTL_OUTPUT_LOG, so the secrets check sees every byte.
func runLogged() int {
	logPath := os.Getenv("ELEMCTL_OUTPUT_LOG")
	if logPath == "" {
		return newApp(os.Stdin, os.Stdout, os.Stderr, os.Getenv).run(os.Args[1:])
	}
	var out, errOut bytes.Buffer
	var gaps []string
	i18n.SetEmptyValueHook(func(key, name string) { gaps = append(gaps, key+" {"+name+"}") })
	code := newApp(os.Stdin, io.MultiWriter(os.Stdout, &out), io.MultiWriter(os.Stderr, &errOut), os.Getenv).run(os.Args[1:])
	// "token" prints the bearer token by design; everything else must not.
	if len(os.Args) < 2 || !isTokenCommand(os.Args[1:]) {
		if f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			fmt.Fprintf(f, "$ elemctl %s\n%s%s", strings.Join(os.Args[1:], " "), out.String(), errOut.String())
			for _, g := range gaps {
				fmt.Fprintf(f, "%s%s\n", emptyValueMark, g)
			}
			f.Close()
		}
	}
	return code
}

func isTokenCommand(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a == "token"
		}
	}
	return false
}

// emptyValueMark starts a log line naming a message that was given an
// empty value where a word belongs: the caller had nothing to say there.
const emptyValueMark = "EMPTY VALUE IN MESSAGE "

// scriptStands remembers every stand the scripts started, for the check of
// issued tokens after the run.
var scriptStands struct {
	sync.Mutex
	list []*stand.Stand
}

func TestScripts(t *testing.T) {
	t.Parallel()
	logDir := t.TempDir()
	// Scripts run as parallel subtests: the check waits for all of them.
	t.Cleanup(func() { checkNoSecrets(t, logDir) })
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       os.Getenv("UPDATE") != "",
		RequireExplicitExec: false,
		Setup: func(e *testscript.Env) error {
			s, err := stand.New(stand.Options{ClientSecret: knownSecret, Speed: 0.001})
			if err != nil {
				return err
			}
			base, err := s.Listen("127.0.0.1:0")
			if err != nil {
				return err
			}
			e.Defer(func() { s.Close() })
			scriptStands.Lock()
			scriptStands.list = append(scriptStands.list, s)
			scriptStands.Unlock()
			e.Values["stand"] = s
			e.Setenv("ELEMENT_BASE_URL", base)
			e.Setenv("ELEMENT_CLIENT_ID", s.ClientID())
			e.Setenv("ELEMENT_CLIENT_SECRET", knownSecret)
			e.Setenv("ELEMCTL_NO_PROXY", "1")
			e.Setenv("ELEMCTL_LANG", "ru")
			e.Setenv("HOME", e.WorkDir)
			e.Setenv("XDG_STATE_HOME", filepath.Join(e.WorkDir, ".state"))
			e.Setenv("XDG_DATA_HOME", filepath.Join(e.WorkDir, ".data"))
			e.Setenv("ELEMCTL_DATA_DIR", filepath.Join(e.WorkDir, ".elemctl"))
			e.Setenv("TMPDIR", filepath.Join(e.WorkDir, ".tmp"))
			e.Setenv("ELEMCTL_NO_PLUGINS", "1")
			e.Setenv("ELEMCTL_OUTPUT_LOG", filepath.Join(logDir, filepath.Base(e.WorkDir)+".log"))
			return os.MkdirAll(filepath.Join(e.WorkDir, ".tmp"), 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"standctl": standctl,
			"archive":  archiveCmd,
			"ls":       lsCmd,
		},
	})
}

// checkNoSecrets fails when any command printed the client secret or a
// bearer token a stand issued.
func checkNoSecrets(t *testing.T, logDir string) {
	scriptStands.Lock()
	var tokens []string
	for _, s := range scriptStands.list {
		tokens = append(tokens, s.IssuedTokens()...)
	}
	scriptStands.Unlock()
	logs, found := secretLeaks(logDir, knownSecret, tokens)
	for _, f := range found {
		t.Error(f)
	}
	for _, g := range emptyValues(logDir) {
		t.Error(g)
	}
	for _, g := range packageNames(t, logDir) {
		t.Error(g)
	}
	if logs == 0 {
		t.Error("no script output was logged; the secrets check saw nothing")
	}
}

// secretLeaks scans the output logs for the secret and the tokens.
func secretLeaks(logDir, secret string, tokens []string) (logs int, found []string) {
	paths, _ := filepath.Glob(filepath.Join(logDir, "*.log"))
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		if bytes.Contains(data, []byte(secret)) {
			found = append(found, filepath.Base(p)+": the client secret appeared in the output")
		}
		for _, tok := range tokens {
			if bytes.Contains(data, []byte(tok)) {
				found = append(found, filepath.Base(p)+": a bearer token appeared in the output")
			}
		}
	}
	return len(paths), found
}

// emptyValues lists the messages the scripts' commands rendered with an
// empty value where a word belongs, with the command that did it.
func emptyValues(logDir string) []string {
	paths, _ := filepath.Glob(filepath.Join(logDir, "*.log"))
	var found []string
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		command := ""
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "$ elemctl ") {
				command = line
			}
			if g, ok := strings.CutPrefix(line, emptyValueMark); ok {
				found = append(found, fmt.Sprintf("%s: %s: the message %s got an empty value", filepath.Base(p), command, g))
			}
		}
	}
	return found
}

// packageNames lists the output lines that start a message with the name
// of one of elemctl's own packages ("jsonx: invalid JSON"): words for the
// code's readers, not for users.
func packageNames(t *testing.T, logDir string) []string {
	var names []string
	for _, dir := range []string{"../../internal", "../../internal/ops", "../../internal/platform", "../../internal/plugin"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			// "hint: …" starts the lines of hints, a word for users.
			if e.IsDir() && e.Name() != "testdata" && e.Name() != "e2e" && e.Name() != "hint" {
				names = append(names, regexp.QuoteMeta(e.Name()))
			}
		}
	}
	// At the start of a message: a line, a JSON string, or after a ": "
	// that wraps a cause.
	re := regexp.MustCompile(`(^|"|: )(` + strings.Join(names, "|") + `): `)
	paths, _ := filepath.Glob(filepath.Join(logDir, "*.log"))
	var found []string
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		command := ""
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "$ elemctl ") {
				command = line
				continue
			}
			if m := re.FindStringSubmatch(line); m != nil {
				found = append(found, fmt.Sprintf("%s: %s: a message names the package %s: %s", filepath.Base(p), command, m[2], strings.TrimSpace(line)))
			}
		}
	}
	return found
}

func TestSecretLeaksAreFound(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.log"), []byte("$ elemctl x\n{\"error\": \"bad s3cr3t-value here\"}\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "b.log"), []byte("Bearer aaa.bbb.ccc\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "c.log"), []byte("clean\n"), 0o600)
	logs, found := secretLeaks(dir, "s3cr3t-value", []string{"aaa.bbb.ccc"})
	if logs != 3 || len(found) != 2 {
		t.Fatalf("logs %d, found %v", logs, found)
	}
}

// standctl drives the script's stand:
//
//	standctl seed demo            seed the demo and export DEMO_APP_ID, DEMO_PROJECT_ID, DEMO_SPACE_ID, DEMO_APP_NAME
//	standctl seed apps N LIVE     bulk applications
//	standctl starting DURATION    "console not found" for a while (0 ends it)
//	standctl status APP STATUS    inject a status (UNKNOWN, "")
//	standctl expire-tokens        refuse every token issued so far
//	standctl api21 on|off         old server without Console API 2.1
//	standctl export on|off        old server without project/export
//	standctl drafts APP on|off    the app has unpublished development changes
//	standctl apply-error on|off   a failed apply leaves status Error instead of rolling back
//	standctl apply-takes APP D    the applies of application APP (an id) take D of platform time
//	standctl faults FILE|clear    take the fault rules of FILE (JSON or YAML, docs/stand.md), or none
//	standctl fired RULE N         the rule named RULE fired exactly N times
//	standctl env FILE [ENCODING]  write a .env for the stand into FILE (CRLF lines), in
//	                              utf-8 (default), utf-8-bom, utf-16le or utf-16be with
//	                              a byte-order mark (Notepad's "Unicode"), utf-32le, or
//	                              cp1251 (Notepad's "ANSI", with a Cyrillic ELEMENT_APP_ID)
//	standctl calls METHOD RE N    the stand answered exactly N METHOD calls whose path matches RE
//	standctl jsonenv VAR FILE PATH  set VAR to a value of the JSON in FILE (e.g. after
//	                              "cp stdout FILE"); PATH is dot-separated keys and
//	                              array indexes: "0.id", "project.id"
func standctl(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("standctl does not fail on purpose")
	}
	s := ts.Value("stand").(*stand.Stand)
	if len(args) == 0 {
		ts.Fatalf("usage: standctl <action> ...")
	}
	onOff := func(v string) bool { return v == "on" }
	switch args[0] {
	case "seed":
		switch {
		case len(args) == 2 && args[1] == "demo":
			info, err := s.SeedDemo()
			ts.Check(err)
			ts.Setenv("DEMO_APP_ID", info.AppID)
			ts.Setenv("DEMO_PROJECT_ID", info.ProjectID)
			ts.Setenv("DEMO_SPACE_ID", info.SpaceID)
			ts.Setenv("DEMO_APP_NAME", info.AppName)
		case len(args) == 4 && args[1] == "apps":
			total, _ := strconv.Atoi(args[2])
			live, _ := strconv.Atoi(args[3])
			ts.Check(s.SeedApps(total, live))
		default:
			ts.Fatalf("standctl seed demo | seed apps N LIVE")
		}
	case "starting":
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		s.SetStarting(d)
	case "status":
		status := ""
		if len(args) > 2 {
			status = args[2]
		}
		ts.Check(s.SetAppStatus(args[1], status))
	case "expire-tokens":
		s.ExpireTokens()
	case "api21":
		s.SetAPI21(onOff(args[1]))
	case "export":
		s.SetExportEnabled(onOff(args[1]))
	case "apply-error":
		s.SetApplyLeavesError(onOff(args[1]))
	case "apply-takes":
		if len(args) != 3 {
			ts.Fatalf("usage: standctl apply-takes APP DURATION")
		}
		d, err := time.ParseDuration(args[2])
		ts.Check(err)
		ts.Check(s.AddFault(stand.Fault{Name: "apply-takes " + args[1], Path: "/console/api/v2/applications/" + args[1] + "/project/update",
			Effect: stand.EffectApplyTakes, Delay: d}))
	case "faults":
		if len(args) != 2 {
			ts.Fatalf("usage: standctl faults FILE|clear")
		}
		if args[1] == "clear" {
			s.ClearFaults()
			break
		}
		set, err := stand.LoadFaults(ts.MkAbs(args[1]))
		ts.Check(err)
		ts.Check(s.SetFaults(set))
	case "fired":
		if len(args) != 3 {
			ts.Fatalf("usage: standctl fired RULE N")
		}
		want, err := strconv.Atoi(args[2])
		ts.Check(err)
		got := 0
		for _, f := range s.Firings() {
			if f.Rule == args[1] {
				got++
			}
		}
		if got != want {
			ts.Fatalf("rule %q fired %d time(s), want %d", args[1], got, want)
		}
	case "drafts":
		ts.Check(s.SetAppDrafts(args[1], onOff(args[2])))
	case "env":
		if len(args) < 2 || len(args) > 3 {
			ts.Fatalf("usage: standctl env FILE [utf-8-bom|utf-16le|utf-16be|utf-32le|cp1251]")
		}
		text := fmt.Sprintf("ELEMENT_BASE_URL=%s\r\nELEMENT_CLIENT_ID=%s\r\nELEMENT_CLIENT_SECRET=%s\r\n", s.URL(), s.ClientID(), s.ClientSecret())
		encoding := "utf-8"
		if len(args) == 3 {
			encoding = args[2]
		}
		if encoding == "cp1251" {
			// Notepad's "ANSI" matters for letters outside ASCII.
			text += "ELEMENT_APP_ID=Задачи команды\r\n"
		}
		data, err := encodeText(text, encoding)
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o600))
	case "calls":
		if len(args) != 4 {
			ts.Fatalf("usage: standctl calls METHOD PATH-REGEXP COUNT")
		}
		re, err := regexp.Compile(args[2])
		ts.Check(err)
		want, err := strconv.Atoi(args[3])
		ts.Check(err)
		got := 0
		for _, c := range s.Calls() {
			if c.Method == args[1] && re.MatchString(c.Path) {
				got++
			}
		}
		if got != want {
			ts.Fatalf("the stand answered %d %s call(s) to %s, want %d", got, args[1], args[2], want)
		}
	case "jsonenv":
		if len(args) != 4 {
			ts.Fatalf("usage: standctl jsonenv VAR FILE PATH")
		}
		v, err := jsonx.Decode([]byte(ts.ReadFile(args[2])))
		ts.Check(err)
		for _, step := range strings.Split(args[3], ".") {
			switch x := v.(type) {
			case *jsonx.Object:
				if !x.Has(step) {
					ts.Fatalf("no key %q in %s", step, args[2])
				}
				v = x.Value(step)
			case []any:
				i, err := strconv.Atoi(step)
				if err != nil || i < 0 || i >= len(x) {
					ts.Fatalf("no index %q in %s", step, args[2])
				}
				v = x[i]
			default:
				ts.Fatalf("cannot step %q into %v", step, v)
			}
		}
		ts.Setenv(args[1], fmt.Sprint(v))
	default:
		ts.Fatalf("unknown standctl action %q", args[0])
	}
}

// lsCmd prints the names in a folder, hidden ones too, one a line: what a
// script checks was left there, on every system.
//
//	ls DIR
func lsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: ls DIR")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, e := range entries {
		fmt.Fprintln(ts.Stdout(), e.Name())
	}
}

// archiveCmd makes and reads build archives in a script:
//
//	archive make FILE outside   the demo's archive with entries whose names
//	                            point outside its folder (../, an absolute path)
//	archive make FILE bomb      the demo's archive with 1,120 MiB of zeros
//	                            in 80 entries (about a megabyte packed)
//	archive list FILE           print the archive's entry names, one a line
func archiveCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("archive does not fail on purpose")
	}
	switch {
	case len(args) == 3 && args[0] == "make":
		demo := stand.MakeArchive(stand.ArchiveSpec{Vendor: stand.DemoVendor, Name: stand.DemoName, Version: "1.0-90",
			ID: stand.DemoConfigurationID, Presentation: stand.DemoPresentation})
		var data []byte
		switch args[2] {
		case "outside":
			data = withEntries(ts, demo, map[string][]byte{
				"../outside.xbsl":            []byte("метод А()\n;\n"),
				"/etc/elemctl-absolute.yaml": []byte("Имя: x\n"),
			})
		case "bomb":
			var err error
			data, err = standtest.WithZeros(demo, 80, 14<<20)
			ts.Check(err)
		default:
			ts.Fatalf("usage: archive make FILE outside|bomb")
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o644))
	case len(args) == 2 && args[0] == "list":
		data, err := os.ReadFile(ts.MkAbs(args[1]))
		ts.Check(err)
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		ts.Check(err)
		for _, f := range zr.File {
			fmt.Fprintln(ts.Stdout(), f.Name)
		}
	default:
		ts.Fatalf("usage: archive make FILE outside|bomb | archive list FILE")
	}
}

// withEntries copies an archive and adds entries, in sorted order.
func withEntries(ts *testscript.TestScript, data []byte, extra map[string][]byte) []byte {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	ts.Check(err)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		ts.Check(zw.Copy(f))
	}
	names := make([]string, 0, len(extra))
	for n := range extra {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w, err := zw.Create(n)
		ts.Check(err)
		_, err = w.Write(extra[n])
		ts.Check(err)
	}
	ts.Check(zw.Close())
	return buf.Bytes()
}

// encodeText writes text in one of the encodings Windows editors save .env
// files in, with its byte-order mark.
func encodeText(text, encoding string) ([]byte, error) {
	var order binary.ByteOrder
	switch encoding {
	case "utf-8":
		return []byte(text), nil
	case "utf-8-bom":
		return append([]byte("\xef\xbb\xbf"), text...), nil
	case "cp1251":
		var b []byte
		for _, r := range text {
			switch {
			case r < 0x80:
				b = append(b, byte(r))
			case r >= 'А' && r <= 'я':
				b = append(b, byte(0xC0+r-'А'))
			default:
				return nil, fmt.Errorf("%q is not in the test's Windows-1251 table", r)
			}
		}
		return b, nil
	case "utf-16le", "utf-32le":
		order = binary.LittleEndian
	case "utf-16be":
		order = binary.BigEndian
	default:
		return nil, fmt.Errorf("unknown encoding %q", encoding)
	}
	var b bytes.Buffer
	if encoding == "utf-32le" {
		for _, r := range "\uFEFF" + text {
			_ = binary.Write(&b, order, uint32(r))
		}
		return b.Bytes(), nil
	}
	for _, u := range utf16.Encode([]rune("\uFEFF" + text)) {
		_ = binary.Write(&b, order, u)
	}
	return b.Bytes(), nil
}
