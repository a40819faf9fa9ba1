package prefault

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

func TestExecutableMappings(t *testing.T) {
	maps := "00400000-00a80000 r-xp 00000000 fe:00 10020625                           /opt/elemctl/bin/elemctl\n" +
		"00a80000-01180000 r--p 00680000 fe:00 10020625                           /opt/elemctl/bin/elemctl\n" +
		"01180000-011ec000 rw-p 00d80000 fe:00 10020625                           /opt/elemctl/bin/elemctl\n" +
		"011ec000-03230000 rw-p 00000000 00:00 0 \n" +
		"7f8e4069d000-7f8e406a1000 r--p 00000000 00:00 0                          [vvar]\n"
	got := executableMappings([]byte(maps))
	want := []mapping{
		{0x400000, 0xa80000, true, true, false},
		{0xa80000, 0x1180000, true, false, false},
		{0x1180000, 0x11ec000, true, false, true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d mappings %+v, want %+v", len(got), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("mapping %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestExecutableMappingsRefusesOddInput(t *testing.T) {
	for _, maps := range []string{
		"",
		"7f00-7f10 rw-p 00000000 00:00 0 \n", // anonymous first: no executable
		"garbage\n",
		"00400000-00300000 r-xp 00000000 fe:00 1 /x\n", // end before start
		"0040zz00-00500000 r-xp 00000000 fe:00 1 /x\n",
	} {
		if got := executableMappings([]byte(maps)); len(got) != 0 {
			t.Errorf("executableMappings(%q) = %+v, want none", maps, got)
		}
	}
	// A line cut off by the read buffer is left out.
	cut := "00400000-00500000 r-xp 00000000 fe:00 7 /x\n00500000-00600000 rw-p 00100000 fe:00 7 /"
	if got := executableMappings([]byte(cut)); len(got) != 1 || got[0].end != 0x500000 {
		t.Fatalf("cut-off input: %+v", got)
	}
}

// populate maps a file's pages in ahead of any touch: code for reading,
// data as private copies.
func TestPopulateMapsPagesIn(t *testing.T) {
	const size = 1 << 20
	f := zeroFile(t, size)
	for _, c := range []struct {
		name     string
		prot     int
		writable bool
		field    string // the smaps line that must reach the whole size
	}{
		{"code", syscall.PROT_READ, false, "Rss:"},
		{"data", syscall.PROT_READ | syscall.PROT_WRITE, true, "Private_Dirty:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem, err := syscall.Mmap(int(f.Fd()), 0, size, c.prot, syscall.MAP_PRIVATE)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Munmap(mem)
			start := uintptr(unsafe.Pointer(&mem[0]))
			if before := smapsKiB(t, start, c.field); before != 0 {
				t.Fatalf("%s %d KiB before any touch", c.field, before)
			}
			populate(mapping{start: start, end: start + size, readable: true, executable: !c.writable, writable: c.writable})
			after := smapsKiB(t, start, c.field)
			if after < size>>10 {
				if kernelBefore(t, 5, 14) {
					t.Skipf("kernel older than 5.14 has no MADV_POPULATE_* (%s %d KiB)", c.field, after)
				}
				t.Fatalf("%s %d KiB after populate, want %d", c.field, after, size>>10)
			}
		})
	}
}

// Program finds this test binary's mappings and maps them without error.
func TestProgramFindsTheExecutable(t *testing.T) {
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps")
	}
	got := executableMappings(b)
	exe, _ := os.Executable()
	if len(got) < 2 || !got[0].executable || !strings.Contains(string(b[:strings.IndexByte(string(b), '\n')]), exe) {
		t.Fatalf("executable mappings %+v from\n%s", got, b)
	}
	Program()
}

// zeroFile is a file of size zero bytes, open for reading until the test ends.
func zeroFile(t *testing.T, size int) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pages")
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// smapsKiB reads one field of the /proc/self/smaps entry starting at addr.
func smapsKiB(t *testing.T, addr uintptr, field string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	defer f.Close()
	head := strconv.FormatUint(uint64(addr), 16) + "-"
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = strings.HasPrefix(fields[0], head)
			continue
		}
		if in && len(fields) >= 2 && fields[0] == field {
			n, _ := strconv.Atoi(fields[1])
			return n
		}
	}
	t.Fatalf("no %s for the mapping at %#x in /proc/self/smaps", field, addr)
	return 0
}

// kernelBefore tells whether the running kernel is older than major.minor.
func kernelBefore(t *testing.T, major, minor int) bool {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return false
	}
	parts := strings.SplitN(strings.TrimSpace(string(b)), ".", 3)
	if len(parts) < 2 {
		return false
	}
	gotMajor, _ := strconv.Atoi(parts[0])
	gotMinor, _ := strconv.Atoi(parts[1])
	return gotMajor < major || gotMajor == major && gotMinor < minor
}

func TestHugePageSpan(t *testing.T) {
	maps := "00400000-00a80000 r-xp 00000000 fe:00 1 /x\n" +
		"2f836c000000-2f836f800000 ---p 00000000 00:00 0 \n" +
		"2f836f800000-2f8370000000 rw-p 00000000 00:00 0 \n" +
		"2f8370000000-2f8370100000 rw-p 00000000 00:00 0"
	for _, c := range []struct {
		addr     uintptr
		from, to uintptr
		ok       bool
	}{
		// from the huge page holding addr to the mapping's end
		{0x2f836f9c4000, 0x2f836f800000, 0x2f8370000000, true},
		{0x2f836fe00010, 0x2f836fe00000, 0x2f8370000000, true},
		// in a mapping smaller than a huge page: nothing to back
		{0x2f8370000800, 0, 0, false},
		// in no mapping
		{0x1000, 0, 0, false},
	} {
		from, to, ok := hugePageSpan([]byte(maps), c.addr)
		if from != c.from || to != c.to || ok != c.ok {
			t.Errorf("hugePageSpan(%#x) = %#x, %#x, %v; want %#x, %#x, %v", c.addr, from, to, ok, c.from, c.to, c.ok)
		}
	}
	// A mapping that starts off a huge page boundary starts at the next.
	odd := "2f836f900000-2f8370000000 rw-p 00000000 00:00 0\n"
	if from, to, ok := hugePageSpan([]byte(odd), 0x2f836f900010); !ok || from != 0x2f836fa00000 || to != 0x2f8370000000 {
		t.Errorf("off-boundary mapping: %#x %#x %v", from, to, ok)
	}
}

func TestHugePagesDisabled(t *testing.T) {
	for v, want := range map[string]bool{
		"":                           false,
		"disablethp=1":               true,
		"gctrace=1,disablethp=1":     true,
		"disablethp=0":               false,
		"xdisablethp=1,inittrace=1":  false,
		"inittrace=1,disablethp=1,x": true,
	} {
		t.Setenv("GODEBUG", v)
		if got := hugePagesDisabled(); got != want {
			t.Errorf("GODEBUG=%q: hugePagesDisabled() = %v, want %v", v, got, want)
		}
	}
}

// collapse backs a mapping with a huge page now, pages already touched
// included.
func TestCollapseBacksWithHugePages(t *testing.T) {
	const size = 4 << 20
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	start := uintptr(unsafe.Pointer(&mem[0]))
	from := (start + hugePage - 1) &^ (hugePage - 1)
	mem[from-start] = 7 // touched before, kept after
	if errno := collapse(from, from+hugePage); errno != 0 {
		t.Skipf("no MADV_COLLAPSE here: %v", errno)
	}
	huge := smapsKiB(t, start, "AnonHugePages:")
	if huge < hugePage>>10 {
		if kernelBefore(t, 6, 1) || thpNever() {
			t.Skipf("no MADV_COLLAPSE here (kernel before 6.1 or THP off): AnonHugePages %d KiB", huge)
		}
		t.Fatalf("AnonHugePages %d KiB after collapse, want %d", huge, hugePage>>10)
	}
	if mem[from-start] != 7 {
		t.Fatal("collapse lost a page's content")
	}
}

func thpNever() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err != nil || strings.Contains(string(b), "[never]")
}

func TestProbeAddresses(t *testing.T) {
	m := mapping{start: 0x401000, end: 0x401000 + 6<<20, executable: true}
	addrs, ok := probeAddresses(m)
	if !ok {
		t.Fatal("a 6 MiB mapping is not probed")
	}
	half := m.start + (m.end-m.start)/2
	for i, a := range addrs {
		if a < half-faultWindow || a >= m.end {
			t.Errorf("probe %d at %#x, outside the later half [%#x, %#x)", i, a, half, m.end)
		}
		if i > 0 && a-addrs[i-1] < faultWindow {
			t.Errorf("probes %d and %d only %#x apart: one fault could map both", i-1, i, a-addrs[i-1])
		}
	}
	if _, ok := probeAddresses(mapping{start: 0x401000, end: 0x401000 + 256<<10}); ok {
		t.Error("a 256 KiB mapping is probed: its probes would share fault windows")
	}
}

func TestMedian(t *testing.T) {
	us := time.Microsecond
	for _, c := range []struct {
		took [probes]time.Duration
		want time.Duration
	}{
		{[probes]time.Duration{1 * us, 2 * us, 3 * us, 4 * us, 5 * us}, 3 * us},
		{[probes]time.Duration{90 * us, 4 * us, 3 * us, 80 * us, 5 * us}, 5 * us}, // two preempted touches
		{[probes]time.Duration{20 * us, 0, 30 * us, 25 * us, 0}, 20 * us},         // two pages already mapped
	} {
		if got := median(c.took); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.took, got, c.want)
		}
	}
}

// faultsDear really touches its probe pages: they are mapped afterwards,
// and not the whole mapping, as populating would.
func TestFaultsDearTouchesItsProbes(t *testing.T) {
	const size = 4 << 20
	f := zeroFile(t, size)
	mem, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	start := uintptr(unsafe.Pointer(&mem[0]))
	if before := smapsKiB(t, start, "Rss:"); before != 0 {
		t.Fatalf("Rss %d KiB before any touch", before)
	}
	faultsDear(mapping{start: start, end: start + size, readable: true, executable: true})
	after := smapsKiB(t, start, "Rss:")
	// Each probe maps its page at least; fault-around and large folios map
	// more with it, but nothing maps the first half, which no probe touches.
	if after < probes*4 || after >= size>>10 {
		t.Fatalf("Rss %d KiB after probing, want %d to %d", after, probes*4, size>>10)
	}
}

// Code that cannot be read (execute-only) is not probed: a touch would
// crash the program. Here the mapping is not even accessible, so a touch
// would end the test.
func TestFaultsDearLeavesUnreadableCodeAlone(t *testing.T) {
	const size = 4 << 20
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	start := uintptr(unsafe.Pointer(&mem[0]))
	if faultsDear(mapping{start: start, end: start + size, executable: true}) {
		t.Fatal("an unreadable mapping was judged dear")
	}
}
