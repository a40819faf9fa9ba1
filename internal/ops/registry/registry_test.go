package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
)

// childVar makes the test binary act as another elemctl process that
// appends to the registry of its environment.
const childVar = "ELEMCTL_REGISTRY_TEST_CHILD"

func TestMain(m *testing.M) {
	i18n.Register(Messages)
	if spec := os.Getenv(childVar); spec != "" {
		os.Exit(runChild(context.Background(), spec))
	}
	os.Exit(m.Run())
}

// runChild appends "count:prefix" entries and reports warnings on stderr.
func runChild(ctx context.Context, spec string) int {
	countText, prefix, _ := strings.Cut(spec, ":")
	count, err := strconv.Atoi(countText)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad child spec", spec)
		return 2
	}
	r := Default()
	for i := 1; i <= count; i++ {
		if w := r.Append(ctx, Entry{AssemblyID: fmt.Sprintf("%s-%d", prefix, i), ProjectID: "proj-1",
			Version: fmt.Sprintf("1.0-%d", i), Command: CommandBuildUpload}); w != "" {
			fmt.Fprintln(os.Stderr, w)
			return 1
		}
	}
	return 0
}

// appendInChild runs another process that appends count entries.
func appendInChild(t *testing.T, dir, limit, prefix string, count int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childVar+"="+strconv.Itoa(count)+":"+prefix,
		"ELEMCTL_DATA_DIR="+dir, LimitVar+"="+limit)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child process: %v\n%s", err, out)
	}
}

var moscow = time.FixedZone("MSK", 3*3600)

func newTestRegistry(t *testing.T, env map[string]string) (*Registry, string) {
	t.Helper()
	dir := t.TempDir()
	vars := map[string]string{"ELEMCTL_DATA_DIR": dir}
	for k, v := range env {
		vars[k] = v
	}
	r := New(envOf(vars), runtime.GOOS)
	r.now = func() time.Time { return time.Date(2025, 3, 1, 14, 5, 9, 0, moscow) }
	return r, dir
}

func fileLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSuffix(string(data), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

func upload(i int) Entry {
	return Entry{AssemblyID: fmt.Sprintf("asm-%d", i), ProjectID: "proj-1", Version: fmt.Sprintf("1.0-%d", i),
		Command: CommandDeploy, AppID: "app-1"}
}

func appendAll(t *testing.T, r *Registry, from, to int) {
	t.Helper()

	ctx := context.Background()
	for i := from; i <= to; i++ {
		if w := r.Append(ctx, upload(i)); w != "" {
			t.Fatalf("append %d: %s", i, w)
		}
	}
}

func versionsIn(t *testing.T, r *Registry) []string {
	t.Helper()
	var out []string
	for _, e := range r.Read() {
		out = append(out, e.Version)
	}
	return out
}

func seq(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("1.0-%d", i))
	}
	return out
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, FileName+".*.tmp"))
	if len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestLineFieldOrderAndRoundTrip(t *testing.T) {
	ctx := context.Background()
	r, _ := newTestRegistry(t, nil)
	full := Entry{AssemblyID: "asm-1", ProjectID: "proj-1", Version: "1.0-3", Branch: "main", Commit: "abc123",
		Dirty: Bool(false), ProjectDir: String("/home/u/Проекты/crm"), File: String("/tmp/Acme CRM 1.0-3.xasm"),
		Stand: "https://stand.example/console", Command: CommandDeploy, Elemctl: "0.1.0", AppID: "app-1"}
	bare := Entry{AssemblyID: "asm-2", ProjectID: "proj-1", Version: "1.0-probe-ab12cd34", Branch: "<a&b>",
		Command: CommandProbe, UploadedAt: "2025-02-01T09:00:00+00:00"}
	for _, e := range []Entry{full, bare} {
		if w := r.Append(ctx, e); w != "" {
			t.Fatal(w)
		}
	}
	got := fileLines(t, r.Path())
	want := []string{
		`{"assembly-id":"asm-1","project-id":"proj-1","version":"1.0-3","branch":"main","commit":"abc123","dirty":false,"project-dir":"/home/u/Проекты/crm","file":"/tmp/Acme CRM 1.0-3.xasm","stand":"https://stand.example/console","command":"deploy","uploaded-at":"2025-03-01T14:05:09+03:00","elemctl":"0.1.0","app-id":"app-1","route":"project"}`,
		`{"assembly-id":"asm-2","project-id":"proj-1","version":"1.0-probe-ab12cd34","branch":"<a&b>","commit":"","dirty":null,"project-dir":null,"file":null,"stand":"","command":"probe","uploaded-at":"2025-02-01T09:00:00+00:00","elemctl":"","app-id":null,"route":"no-project-id"}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	read := r.Read()
	full.UploadedAt, full.Route = "2025-03-01T14:05:09+03:00", RouteProject
	bare.Route = RouteNoProjectID
	if !reflect.DeepEqual([]Entry(read), []Entry{full, bare}) {
		t.Fatalf("read back %+v", read)
	}
}

func TestStampIsLocalTimeWithOffsetToTheSecond(t *testing.T) {
	if got := Stamp(time.Date(2025, 3, 1, 14, 5, 9, 999, moscow)); got != "2025-03-01T14:05:09+03:00" {
		t.Fatal(got)
	}
	if got := Stamp(time.Date(2025, 3, 1, 14, 5, 9, 0, time.UTC)); got != "2025-03-01T14:05:09+00:00" {
		t.Fatal(got)
	}
}

func TestLastLineWins(t *testing.T) {
	ctx := context.Background()
	r, _ := newTestRegistry(t, nil)
	first := upload(1)
	again := upload(1)
	again.Commit, again.Command = "def456", CommandBuildUpload
	for _, e := range []Entry{first, upload(2), again, {Version: "no id"}, {Version: "no id either"}} {
		r.Append(ctx, e)
	}
	es := r.Read()
	if got := []string{es[0].AssemblyID, es[1].AssemblyID, es[2].Version, es[3].Version}; !reflect.DeepEqual(got,
		[]string{"asm-2", "asm-1", "no id", "no id either"}) || len(es) != 4 {
		t.Fatalf("entries %+v", es)
	}
	if e := r.ByAssembly()["asm-1"]; e.Commit != "def456" || e.Command != CommandBuildUpload {
		t.Fatalf("ByAssembly kept the first line: %+v", e)
	}
}

func TestBrokenLinesAreSkipped(t *testing.T) {
	data := strings.Join([]string{
		`{"assembly-id":"a1","version":"1.0-1","command":"deploy"}`,
		`not json`,
		`[1,2,3]`,
		`null`,
		`42`,
		`"a string"`,
		`{"assembly-id":"a2","version":`,
		``,
		`   `,
		`{"assembly-id":"a3","version":7,"dirty":"yes","command":"probe"}`,
		"{\"assembly-id\":\"a4\",\"version\":\"1.0-4\"}\r",
		"\u00a0 {\"assembly-id\":\"a5\",\"version\":\"1.0-5\"}\t ", // white space around, Unicode's too
		`{"assembly-id":"a6","version":"1.0-6"}`,                   // the last line has no newline
	}, "\n")
	es := Parse([]byte(data))
	var ids []string
	for _, e := range es {
		ids = append(ids, e.AssemblyID)
	}
	if !reflect.DeepEqual(ids, []string{"a1", "a3", "a4", "a5", "a6"}) {
		t.Fatalf("ids %v", ids)
	}
	if es[1].Version != "" || es[1].Dirty != nil || es[1].Command != CommandProbe {
		t.Fatalf("a wrong-typed field should be empty, the rest kept: %+v", es[1])
	}
}

func TestMissingOrUnreadableRegistryIsEmpty(t *testing.T) {
	r, dir := newTestRegistry(t, nil)
	if es := r.Read(); len(es) != 0 {
		t.Fatalf("missing file: %v", es)
	}
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if es := r.Read(); len(es) != 0 {
		t.Fatalf("a directory in the file's place: %v", es)
	}
	if es := New(envOf(nil), runtime.GOOS).Read(); es != nil {
		t.Fatalf("unknown location: %v", es)
	}
}

func TestRoutes(t *testing.T) {
	data := strings.Join([]string{
		`{"assembly-id":"a1","command":"deploy","route":"project"}`,
		`{"assembly-id":"a2","command":"builds upload","route":"vendor-name"}`,
		`{"assembly-id":"a3","command":"probe"}`,
		`{"assembly-id":"a4","command":"builds upload"}`,
		`{"assembly-id":"a5","command":"deploy","route":null}`,
		`{"assembly-id":"a6","command":"probe","route":"no-project-id"}`,
	}, "\n")
	var got []string
	for _, e := range Parse([]byte(data)) {
		got = append(got, e.Route)
	}
	want := []string{RouteProject, RouteNoProjectID, RouteNoProjectID, RouteProject, RouteProject, RouteNoProjectID}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("routes %v, want %v", got, want)
	}
}

func TestLimitParsing(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		value string
		limit int
		warns bool
	}{
		{"", DefaultLimit, false},
		{"0", 0, false},
		{"10", 10, false},
		{"007", 7, false},
		{"99999999999999999999999", 0, false},
		{"abc", DefaultLimit, true},
		{"-5", DefaultLimit, true},
		{"+5", DefaultLimit, true},
		{" 10", DefaultLimit, true},
		{"10.0", DefaultLimit, true},
		{"١٠", DefaultLimit, true}, // Arabic-Indic digits are digits, but not ASCII
	}
	for _, c := range cases {
		limit, warning := Limit(ctx, envOf(map[string]string{LimitVar: c.value}))
		if limit != c.limit || (warning != "") != c.warns {
			t.Errorf("%q: limit %d warning %q; want %d, warning %v", c.value, limit, warning, c.limit, c.warns)
		}
		if c.warns && !(strings.Contains(warning, LimitVar) && strings.Contains(warning, `"`+c.value+`"`) &&
			strings.Contains(warning, strconv.Itoa(DefaultLimit))) {
			t.Errorf("%q: the warning must name variable, value and default: %q", c.value, warning)
		}
	}
	en := i18n.TL(i18n.EN, "registry.limit-invalid", "name", LimitVar, "value", "abc", "default", DefaultLimit)
	if en != `ELEMCTL_REGISTRY_LIMIT="abc": a whole number of lines was expected (0 keeps all); the default 1000 is used` {
		t.Errorf("en: %q", en)
	}
}

func TestInvalidLimitWarnsAndStillRecords(t *testing.T) {
	ctx := context.Background()
	r, _ := newTestRegistry(t, map[string]string{LimitVar: "lots"})
	w := r.Append(ctx, upload(1))
	if !strings.Contains(w, LimitVar) || !strings.Contains(w, "lots") {
		t.Fatalf("warning %q", w)
	}
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(1, 1)) {
		t.Fatalf("recorded %v", got)
	}
}

func TestTrimAtLimitPlusATenth(t *testing.T) {
	r, dir := newTestRegistry(t, map[string]string{LimitVar: "10"})
	appendAll(t, r, 1, 11)
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(1, 11)) {
		t.Fatalf("after 11 uploads: %v", got)
	}
	appendAll(t, r, 12, 12)
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(3, 12)) {
		t.Fatalf("the 12th upload must trim to the newest 10: %v", got)
	}
	appendAll(t, r, 13, 13)
	if n := len(fileLines(t, r.Path())); n != 11 {
		t.Fatalf("after trimming, lines grow again to 11, got %d", n)
	}
	assertNoTemp(t, dir)
}

func TestTrimSmallAndLargeLimits(t *testing.T) {
	r, _ := newTestRegistry(t, map[string]string{LimitVar: "1"})
	appendAll(t, r, 1, 2)
	if n := len(fileLines(t, r.Path())); n != 2 {
		t.Fatalf("L=1 keeps 2 before trimming, got %d", n)
	}
	appendAll(t, r, 3, 3)
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(3, 3)) {
		t.Fatalf("L=1 trims to 1: %v", got)
	}

	r, _ = newTestRegistry(t, map[string]string{LimitVar: "0"})
	appendAll(t, r, 1, 40)
	if n := len(fileLines(t, r.Path())); n != 40 {
		t.Fatalf("L=0 keeps all, got %d", n)
	}

	r, _ = newTestRegistry(t, map[string]string{LimitVar: "40"})
	appendAll(t, r, 1, 44)
	if n := len(fileLines(t, r.Path())); n != 44 {
		t.Fatalf("L=40 keeps 44 before trimming, got %d", n)
	}
	appendAll(t, r, 45, 45)
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(6, 45)) {
		t.Fatalf("L=40 trims to the newest 40: %v", got)
	}
}

func TestTrimCarriesOverAnotherProcessAppend(t *testing.T) {
	r, dir := newTestRegistry(t, map[string]string{LimitVar: "10"})
	appendAll(t, r, 1, 11)
	r.afterSnapshot = func() {
		// The other process keeps all lines, so it appends without
		// trimming itself, as a process that has not reached its own
		// trim yet would.
		appendInChild(t, dir, "0", "other", 2)
	}
	appendAll(t, r, 12, 12)
	es := r.Read()
	var ids []string
	for _, e := range es {
		ids = append(ids, e.AssemblyID)
	}
	want := []string{"asm-3", "asm-4", "asm-5", "asm-6", "asm-7", "asm-8", "asm-9", "asm-10", "asm-11", "asm-12", "other-1", "other-2"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids %v\nwant %v", ids, want)
	}
	assertNoTemp(t, dir)
}

func TestTrimCarriesOverAppendsOfSeveralRounds(t *testing.T) {
	ctx := context.Background()
	r, _ := newTestRegistry(t, map[string]string{LimitVar: "10"})
	appendAll(t, r, 1, 11)
	other := New(envOf(map[string]string{"ELEMCTL_DATA_DIR": filepath.Dir(r.Path()), LimitVar: "0"}), runtime.GOOS)
	r.beforeRound = func(round int) {
		if round <= 2 {
			other.Append(ctx, upload(100+round))
		}
	}
	appendAll(t, r, 12, 12)
	if got := versionsIn(t, r); !reflect.DeepEqual(got, append(seq(3, 12), "1.0-101", "1.0-102")) {
		t.Fatalf("versions %v", got)
	}
}

func TestTrimCarriesAPartialLineWhole(t *testing.T) {
	r, dir := newTestRegistry(t, map[string]string{LimitVar: "10"})
	appendAll(t, r, 1, 11)
	line, _ := upload(99).line()
	half := len(line) / 2
	writeRaw := func(b []byte) {
		f, err := os.OpenFile(r.Path(), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(b)
		f.Close()
	}
	r.afterSnapshot = func() { writeRaw(line[:half]) }
	r.beforeRound = func(round int) {
		if round == 2 {
			writeRaw(line[half:])
		}
	}
	appendAll(t, r, 12, 12)
	if got := versionsIn(t, r); !reflect.DeepEqual(got, append(seq(3, 12), "1.0-99")) {
		t.Fatalf("versions %v", got)
	}
	assertNoTemp(t, dir)
}

func TestTrimNeverCutsALineStillBeingWritten(t *testing.T) {
	r, dir := newTestRegistry(t, map[string]string{LimitVar: "10"})
	appendAll(t, r, 1, 11)
	r.afterSnapshot = func() {
		f, _ := os.OpenFile(r.Path(), os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString(`{"assembly-id":"slow-writer","vers`)
		f.Close()
	}
	r.roundPause = time.Millisecond
	appendAll(t, r, 12, 12)
	lines := fileLines(t, r.Path())
	if len(lines) != 13 || lines[12] != `{"assembly-id":"slow-writer","vers` {
		t.Fatalf("the file must stay as it was, with the unfinished line at the end: %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	assertNoTemp(t, dir)

	// The writer died: the next upload starts on a fresh line and trims;
	// the fragment is one of the ten lines kept and is skipped on reading.
	r.afterSnapshot = nil
	appendAll(t, r, 13, 13)
	if n := len(fileLines(t, r.Path())); n != 10 {
		t.Fatalf("%d lines after trimming", n)
	}
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(5, 13)) {
		t.Fatalf("versions %v", got)
	}
}

func TestAppendAfterAnUnfinishedLineStartsAFreshLine(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	appendAll(t, r, 1, 1)
	f, _ := os.OpenFile(r.Path(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"assembly-id":"dead`)
	f.Close()
	appendAll(t, r, 2, 2)
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(1, 2)) {
		t.Fatalf("versions %v", got)
	}
}

func TestTrimLeavesAShrunkFileAlone(t *testing.T) {
	r, dir := newTestRegistry(t, map[string]string{LimitVar: "10"})
	appendAll(t, r, 1, 11)
	var shrunk []byte
	r.afterSnapshot = func() {
		data, _ := os.ReadFile(r.Path())
		shrunk = data[:bytes.IndexByte(data, '\n')+1]
		// Truncate in place (same file), as a careless editor would.
		if err := os.Truncate(r.Path(), int64(len(shrunk))); err != nil {
			t.Fatal(err)
		}
	}
	appendAll(t, r, 12, 12)
	if data, _ := os.ReadFile(r.Path()); !bytes.Equal(data, shrunk) {
		t.Fatalf("file changed: %q", data)
	}
	assertNoTemp(t, dir)
}

func TestTrimLeavesAFileAnotherProcessReplacedAlone(t *testing.T) {
	r, dir := newTestRegistry(t, map[string]string{LimitVar: "10"})
	appendAll(t, r, 1, 11)
	r.afterSnapshot = func() {
		// Another process trimmed first: same size or longer, but a new file.
		data, _ := os.ReadFile(r.Path())
		other := filepath.Join(dir, "other.tmp")
		os.WriteFile(other, append(data, data...), 0o644)
		if err := os.Rename(other, r.Path()); err != nil {
			t.Fatal(err)
		}
	}
	before := 0
	r.beforeRound = func(int) {
		if before == 0 {
			before = len(fileLines(t, r.Path()))
		}
	}
	appendAll(t, r, 12, 12)
	if n := len(fileLines(t, r.Path())); n != before || n != 24 {
		t.Fatalf("the other process's file must stay: %d lines, had %d", n, before)
	}
	assertNoTemp(t, dir)
}

func TestRefusedReplaceLeavesTheFileWhole(t *testing.T) {
	ctx := context.Background()
	r, dir := newTestRegistry(t, map[string]string{LimitVar: "10"})
	appendAll(t, r, 1, 11)
	refused := false
	r.replace = func(tmp, path string) error {
		refused = true
		if _, err := os.Stat(tmp); err != nil {
			t.Fatalf("the temporary file must exist at the replace: %v", err)
		}
		return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: errors.New("Access is denied.")}
	}
	if w := r.Append(ctx, upload(12)); w != "" {
		t.Fatalf("a refused replace is no warning: %q", w)
	}
	if !refused {
		t.Fatal("no replace was attempted")
	}
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(1, 12)) {
		t.Fatalf("versions %v", got)
	}
	assertNoTemp(t, dir)

	r.replace = os.Rename
	appendAll(t, r, 13, 13)
	if got := versionsIn(t, r); !reflect.DeepEqual(got, seq(4, 13)) {
		t.Fatalf("the next upload trims: %v", got)
	}
}

func TestUnwritableRegistryWarnsAndNeverFails(t *testing.T) {
	ctx := context.Background()
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(blocker, "elemctl")
	r := New(envOf(map[string]string{"ELEMCTL_DATA_DIR": dir}), runtime.GOOS)
	w := r.Append(ctx, upload(1))
	want := "загрузка не записана в локальный реестр (" + filepath.Join(dir, FileName) + "): "
	if !strings.HasPrefix(w, want) || !strings.Contains(w, "Сборка загружена") {
		t.Fatalf("warning %q\nwant prefix %q", w, want)
	}
	if es := r.Read(); len(es) != 0 {
		t.Fatalf("read %v", es)
	}
}

func TestManyProcessesAppendingWithTrimsLeaveOnlyWholeLines(t *testing.T) {
	r, dir := newTestRegistry(t, map[string]string{LimitVar: "10"})
	var wg sync.WaitGroup
	for p := 1; p <= 3; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			appendInChild(t, dir, "10", "p"+strconv.Itoa(p), 25)
		}()
	}
	wg.Wait()
	lines := fileLines(t, r.Path())
	if len(lines) < 10 || len(lines) > 11+3 {
		t.Fatalf("%d lines after trims", len(lines))
	}
	for _, l := range lines {
		if _, ok := parseLine([]byte(l), l); !ok {
			t.Fatalf("broken line %q", l)
		}
	}
	assertNoTemp(t, dir)
}

func TestLookupHelpers(t *testing.T) {
	no := func(e Entry) Entry { e.Route = RouteNoProjectID; return e }
	es := Parse(nil)
	for _, e := range []Entry{
		{AssemblyID: "a1", ProjectID: "p1", Version: "1.0-9", Command: CommandDeploy, AppID: "app-1"},
		{AssemblyID: "a2", ProjectID: "p1", Version: "1.0-10", Command: CommandBuildUpload},
		no(Entry{AssemblyID: "a3", ProjectID: "p1", Version: "1.0-probe-ab12cd34", Command: CommandProbe, AppID: "probe-app"}),
		{AssemblyID: "a4", ProjectID: "p1", Version: "2.0-1", Command: CommandDeploy, AppID: "app-1"},
		{AssemblyID: "a5", ProjectID: "p2", Version: "1.0-50", Command: CommandDeploy},
		no(Entry{AssemblyID: "a6", ProjectID: "p3", Version: "1.0-probe-0000", Command: CommandProbe}),
	} {
		es = append(es, e)
	}
	if v, ok := es.MaxVersion("p1", "1.0"); !ok || v != "1.0-10" {
		t.Errorf("MaxVersion p1 1.0 = %q %v", v, ok)
	}
	if v, ok := es.MaxVersion("p1", "3.0"); ok {
		t.Errorf("MaxVersion p1 3.0 = %q", v)
	}
	if v, ok := es.MaxVersion("", "1.0"); ok {
		t.Errorf("MaxVersion without a project = %q", v)
	}
	if got := len(es.ForProject("p1")); got != 4 {
		t.Errorf("ForProject p1: %d", got)
	}
	if got := es.ForApp("app-1"); len(got) != 2 || got[1].AssemblyID != "a4" {
		t.Errorf("ForApp: %+v", got)
	}
	if got := es.ProbeEntries("probe-app"); len(got) != 1 || got[0].AssemblyID != "a3" {
		t.Errorf("ProbeEntries: %+v", got)
	}
	if !es.RecognizesProbe("probe-app", "") {
		t.Error("a probe line names the app")
	}
	if !es.RecognizesProbe("old-probe-app", "a6") {
		t.Error("an old probe line without app id uploaded the applied build")
	}
	if es.RecognizesProbe("app-1", "a1") {
		t.Error("a deploy is no probe")
	}
	if p, ok := es.ProjectOf("a5"); !ok || p != "p2" {
		t.Errorf("ProjectOf a5 = %q", p)
	}
	if _, ok := es.ProjectOf("zzz"); ok {
		t.Error("ProjectOf unknown")
	}
}

func TestSplitVersion(t *testing.T) {
	cases := []struct {
		v        string
		base     string
		counter  int
		numbered bool
	}{
		{"1.0-42", "1.0", 42, true},
		{"1.0.0-10", "1.0.0", 10, true},
		{"1.0-probe-ab12cd34", "1.0-probe", 0, false},
		{"1.0", "1.0", 0, false},
		{"1.0-", "1.0", 0, false},
		{"1.0-0", "1.0", 0, true},
		{"1.0-99999999999999999999999", "1.0", 0, false},
		{"1.0-9223372036854775807", "1.0", 9223372036854775807, true},
		{"1.0-9223372036854775808", "1.0", 0, false},
		{"1.0-007", "1.0", 7, true},
		{"1.0-+7", "1.0", 0, false},
		{"1.0-٣", "1.0", 0, false},
		{"", "", 0, false},
	}
	for _, c := range cases {
		b, n, ok := SplitVersion(c.v)
		if b != c.base || n != c.counter || ok != c.numbered {
			t.Errorf("SplitVersion(%q) = %q %d %v", c.v, b, n, ok)
		}
		bb, bn, bok := SplitVersionBytes([]byte(c.v))
		if string(bb) != b || bn != n || bok != ok {
			t.Errorf("SplitVersionBytes(%q) = %q %d %v, SplitVersion %q %d %v", c.v, bb, bn, bok, b, n, ok)
		}
	}
}

func BenchmarkRead1000Lines(b *testing.B) {
	dir := b.TempDir()
	r := New(envOf(map[string]string{"ELEMCTL_DATA_DIR": dir, LimitVar: "0"}), runtime.GOOS)
	var buf bytes.Buffer
	for i := 1; i <= 1000; i++ {
		e := upload(i)
		e.Branch, e.Commit, e.Dirty, e.ProjectDir = "main", "0123456789abcdef0123456789abcdef01234567", Bool(i%2 == 0), String("/home/u/Проекты/crm")
		e.Stand, e.UploadedAt, e.Elemctl, e.Route = "https://stand.example/console", Stamp(time.Now()), "0.1.0", RouteProject
		line, _ := e.line()
		buf.Write(line)
	}
	if err := os.WriteFile(r.Path(), buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if es := r.Read(); len(es) != 1000 {
			b.Fatal(len(es))
		}
	}
}
