package assembly

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// cachedProject is a project of small files and one streamed file, with the
// environment of a pack cache in a directory of its own.
type cachedProject struct {
	dir, cacheDir string
	env           func(string) string
	files         int // the files the cache keeps: all of them
	bigSize       int // the streamed file's
}

func newCachedProject(t *testing.T) *cachedProject {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "Acme", "Tasks")
	rnd := rand.New(rand.NewPCG(3, 4))
	files := map[string]string{"Проект.yaml": demoDescriptor}
	for i := range 30 {
		var b strings.Builder
		for range 200 + rnd.IntN(2000) {
			b.WriteString([]string{"метод ", "Задача ", "; ", "\n", "если ", "знч ", "x", "42 "}[rnd.IntN(8)])
		}
		files[fmt.Sprintf("Подсистема%c/модуль%d.xbsl", 'A'+i%3, i)] = b.String()
	}
	files["Подсистема/копия.xbsl"] = files["ПодсистемаA/модуль0.xbsl"] // the same content twice
	big := make([]byte, 64<<10+777)
	rand.NewChaCha8([32]byte{9}).Read(big[:len(big)/2])
	files["Ресурсы/big.bin"] = string(big)
	writeTree(t, dir, files)
	cacheDir := filepath.Join(t.TempDir(), "cache")
	return &cachedProject{dir: dir, cacheDir: cacheDir, env: envOf(map[string]string{"ELEMCTL_CACHE_DIR": cacheDir}),
		files: len(files), bigSize: len(big)}
}

// build packs the project with the cache (or, with off, without one) and
// returns the result and the archive's bytes.
func (p *cachedProject) build(t *testing.T, off bool) (*BuildResult, []byte) {
	t.Helper()
	defer func(was int64) { streamThreshold = was }(streamThreshold)
	streamThreshold = 64 << 10
	env := p.env
	if off {
		env = envOf(map[string]string{"ELEMCTL_CACHE_DIR": "off", "HOME": t.TempDir()})
	}
	r := buildIn(t, p.dir, BuildOptions{Getenv: env})
	data, err := os.ReadFile(r.File)
	if err != nil {
		t.Fatal(err)
	}
	return r, data
}

// cacheFile is the project's one cache file.
func (p *cachedProject) cacheFile(t *testing.T) string {
	t.Helper()
	path, ok := packCachePath(p.env, "Acme", "Tasks", p.dir)
	if _, err := os.Stat(path); !ok || err != nil || filepath.Dir(filepath.Dir(path)) != p.cacheDir {
		t.Fatalf("the project's cache %q: %v", path, err)
	}
	return path
}

// sameAsWithout fails unless archive is the archive packed without a cache.
func (p *cachedProject) sameAsWithout(t *testing.T, archive []byte, when string) {
	t.Helper()
	if _, fresh := p.build(t, true); !bytes.Equal(archive, fresh) {
		t.Fatalf("%s: the archive differs from one packed without the cache (%d and %d bytes)", when, len(archive), len(fresh))
	}
}

func TestPackCacheCopiesWhatDidNotChange(t *testing.T) {
	p := newCachedProject(t)
	first, archive := p.build(t, false)
	if first.ReusedFiles != 0 {
		t.Fatalf("the first pack reused %d files", first.ReusedFiles)
	}
	p.sameAsWithout(t, archive, "first pack")
	if info, err := os.Stat(p.cacheFile(t)); err != nil || info.Size() > int64(len(archive)) {
		t.Fatalf("the cache (%v) is larger than the archive (%d bytes)", info.Size(), len(archive))
	}

	second, archive := p.build(t, false)
	if second.ReusedFiles != p.files {
		t.Fatalf("the second pack reused %d files, want %d", second.ReusedFiles, p.files)
	}
	p.sameAsWithout(t, archive, "second pack")
	_, contents := readZip(t, second.File)
	if got, _ := os.ReadFile(filepath.Join(p.dir, "ПодсистемаB", "модуль1.xbsl")); !bytes.Equal(contents["Acme/Tasks/ПодсистемаB/модуль1.xbsl"], got) {
		t.Fatalf("a copied entry does not unpack to its file")
	}

	// One file changed, one added: the others are copied, the archive is
	// still the one packed without the cache.
	writeTree(t, p.dir, map[string]string{"ПодсистемаB/модуль1.xbsl": "метод Новый()\n", "Новый/файл.xbsl": "знч x = 1\n"})
	third, archive := p.build(t, false)
	if third.ReusedFiles != p.files-1 {
		t.Fatalf("after one change the pack reused %d files, want %d", third.ReusedFiles, p.files-1)
	}
	p.sameAsWithout(t, archive, "after a change")
	_, contents = readZip(t, third.File)
	if string(contents["Acme/Tasks/ПодсистемаB/модуль1.xbsl"]) != "метод Новый()\n" {
		t.Fatalf("the changed file packed as %q", contents["Acme/Tasks/ПодсистемаB/модуль1.xbsl"])
	}
}

func TestPackCacheThatCannotBeTrustedIsPassedOver(t *testing.T) {
	p := newCachedProject(t)
	p.build(t, false)
	file := p.cacheFile(t)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	identity := len(packCacheIdentity())
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
		reused int
	}{
		{"a byte of a small file's compressed data", func(b []byte) []byte {
			b[cachedBytesOf(t, b, uint64(len(demoDescriptor)))+2] ^= 0x40
			return b
		}, p.files - 1},
		{"a byte of the streamed file's compressed data", func(b []byte) []byte {
			b[cachedBytesOf(t, b, uint64(p.bigSize))+5000] ^= 0x01
			return b
		}, p.files - 1},
		{"cut short", func(b []byte) []byte { return b[:len(b)-100] }, 0},
		{"the index damaged", func(b []byte) []byte { b[len(b)-packCacheFooter-5] ^= 1; return b }, 0},
		{"another compressor's", func(b []byte) []byte {
			return append([]byte(strings.Replace(string(b[:identity]), "go", "Go", 1)), b[identity:]...)
		}, 0},
		{"empty", func([]byte) []byte { return nil }, 0},
		{"not a cache at all", func([]byte) []byte { return []byte(strings.Repeat("PK\x03\x04 no cache ", 100)) }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(file, c.damage(bytes.Clone(good)), 0o600); err != nil {
				t.Fatal(err)
			}
			r, archive := p.build(t, false)
			if r.ReusedFiles != c.reused {
				t.Errorf("reused %d files, want %d", r.ReusedFiles, c.reused)
			}
			p.sameAsWithout(t, archive, c.name)
			// The pack wrote a whole cache again.
			if again, _ := p.build(t, false); again.ReusedFiles != p.files {
				t.Errorf("the pack after it reused %d files, want %d", again.ReusedFiles, p.files)
			}
			good, _ = os.ReadFile(file)
		})
	}
}

// cachedBytesOf is where, in a cache file's bytes b, the compressed bytes
// of the one file of size size start.
func cachedBytesOf(t *testing.T, b []byte, size uint64) int64 {
	t.Helper()
	foot := b[len(b)-packCacheFooter:]
	at, count := binary.LittleEndian.Uint64(foot), binary.LittleEndian.Uint64(foot[8:])
	found := int64(-1)
	for i := range count {
		v := b[at+i*packCacheRecord+sha256.Size:]
		if binary.LittleEndian.Uint64(v[4:]) == size {
			if found >= 0 {
				t.Fatalf("two files of %d bytes in the cache", size)
			}
			found = int64(binary.LittleEndian.Uint64(v[12:]))
		}
	}
	if found < 0 {
		t.Fatalf("no file of %d bytes in the cache", size)
	}
	return found
}

func TestPackWithoutAWritableCache(t *testing.T) {
	p := newCachedProject(t)
	// The cache directory's place is taken by a file.
	if err := os.WriteFile(p.cacheDir, []byte("a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		r, archive := p.build(t, false)
		if r.ReusedFiles != 0 {
			t.Fatalf("reused %d files without a cache", r.ReusedFiles)
		}
		p.sameAsWithout(t, archive, "no cache")
	}
	// No home and no ELEMCTL_CACHE_DIR: no cache, and no error.
	r := buildIn(t, p.dir, BuildOptions{Getenv: noEnv})
	if r.ReusedFiles != 0 {
		t.Fatalf("reused %d files with no home", r.ReusedFiles)
	}
}

func TestAFailedPackLeavesTheLastCache(t *testing.T) {
	p := newCachedProject(t)
	p.build(t, false)
	file := p.cacheFile(t)
	before, _ := os.ReadFile(file)
	// A file that goes between the listing and the packing: the pack fails
	// after it kept the file before it in the next cache.
	cache := openPackCache(p.env, "Acme", "Tasks", p.dir)
	present := filepath.Join(p.dir, "Проект.yaml")
	entries := []zipEntry{{name: "a", src: present, size: 10}, {name: "b", src: filepath.Join(p.dir, "gone.xbsl"), size: 10}}
	_, err := writeZip(context.Background(), io.Discard, entries, cache)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the pack: %v", err)
	}
	if cache.next == nil {
		t.Fatalf("the next cache was never started: the test tests nothing")
	}
	cache.discard()
	after, _ := os.ReadFile(file)
	if !bytes.Equal(before, after) {
		t.Fatalf("a stopped pack changed the cache")
	}
	if left, _ := filepath.Glob(filepath.Join(p.cacheDir, "pack", ".*")); len(left) != 0 {
		t.Fatalf("a stopped pack left %v", left)
	}
}

func TestOldPackCachesGo(t *testing.T) {
	p := newCachedProject(t)
	packDir := filepath.Join(p.cacheDir, "pack")
	if err := os.MkdirAll(packDir, 0o700); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	put := func(name string, size int, age time.Duration) string {
		path := filepath.Join(packDir, name)
		if err := os.WriteFile(path, make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, now.Add(-age), now.Add(-age))
		return path
	}
	stale := put("aaaa.cache", 10, 31*24*time.Hour)
	deadTemp := put(".bbbb.cache.123.tmp", 10, 2*time.Hour)
	liveTemp := put(".cccc.cache.456.tmp", 10, time.Minute)
	older := put("dddd.cache", 4000, 2*time.Hour)
	newer := put("eeee.cache", 4000, time.Hour)
	notOurs := put("notes.txt", 10, 60*24*time.Hour)

	p.build(t, false)
	own := p.cacheFile(t)
	info, _ := os.Stat(own)
	defer func(was int64) { packCacheMaxBytes = was }(packCacheMaxBytes)
	// Room for this project's cache and one other.
	packCacheMaxBytes = info.Size() + 4000
	p.build(t, false)

	for path, want := range map[string]bool{stale: false, deadTemp: false, liveTemp: true, older: false, newer: true, notOurs: true, own: true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(path), err == nil, want)
		}
	}

	// A cache larger than the bound on its own is kept: it is the one in use.
	packCacheMaxBytes = 1
	if r, _ := p.build(t, false); r.ReusedFiles != p.files {
		t.Fatalf("reused %d files, want %d", r.ReusedFiles, p.files)
	}
	if _, err := os.Stat(own); err != nil {
		t.Fatalf("the cache in use went: %v", err)
	}
	if _, err := os.Stat(newer); err == nil {
		t.Fatalf("another project's cache stayed past the bound")
	}
}

func TestPacksOfOneProjectAtOnce(t *testing.T) {
	p := newCachedProject(t)
	_, want := p.build(t, true)
	p.build(t, false)
	// Four packs at once: each reads the last cache while the others
	// replace it; every archive is whole, and the cache left is one of
	// theirs, whole.
	defer func(was int64) { streamThreshold = was }(streamThreshold)
	streamThreshold = 64 << 10 // as p.build packs
	var wg sync.WaitGroup
	archives := make([][]byte, 4)
	errs := make([]error, 4)
	for i := range archives {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Build(context.Background(), BuildOptions{ProjectDir: p.dir, OutputDir: t.TempDir(), Getenv: p.env,
				Now: fixedNow, Commit: ptr("c0ffee"), Branch: ptr("main")})
			if err != nil {
				errs[i] = err
				return
			}
			archives[i], errs[i] = os.ReadFile(r.File)
		}()
	}
	wg.Wait()
	for i := range archives {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(archives[i], want) {
			t.Errorf("pack %d differs from the pack without a cache", i)
		}
	}
	if r, _ := p.build(t, false); r.ReusedFiles != p.files {
		t.Fatalf("after packs at once the cache served %d files, want %d", r.ReusedFiles, p.files)
	}
	if left, _ := filepath.Glob(filepath.Join(p.cacheDir, "pack", ".*")); len(left) != 0 {
		t.Fatalf("packs at once left %v", left)
	}
}

func TestAProjectInAnotherFolderFindsItsCache(t *testing.T) {
	p := newCachedProject(t)
	p.build(t, false)
	// A second checkout of the project (a CI job's folder, a worktree)
	// starts from the first one's cache and keeps its own.
	copyDir := filepath.Join(t.TempDir(), "Acme", "Tasks")
	if err := os.CopyFS(copyDir, os.DirFS(p.dir)); err != nil {
		t.Fatal(err)
	}
	writeTree(t, copyDir, map[string]string{"ПодсистемаA/модуль0.xbsl": "метод Ветка()\n;\n"})
	elsewhere := &cachedProject{dir: copyDir, cacheDir: p.cacheDir, env: p.env, files: p.files, bigSize: p.bigSize}
	r, archive := elsewhere.build(t, false)
	if r.ReusedFiles != p.files-1 {
		t.Fatalf("the project in another folder reused %d files, want %d", r.ReusedFiles, p.files-1)
	}
	elsewhere.sameAsWithout(t, archive, "another folder")
	elsewhere.cacheFile(t)
	// Each folder keeps its own: the first one's files are all still there.
	if r, _ := p.build(t, false); r.ReusedFiles != p.files {
		t.Fatalf("back in the first folder the pack reused %d files, want %d", r.ReusedFiles, p.files)
	}
	// Another project starts from nothing and keeps a file of its own.
	other := filepath.Join(t.TempDir(), "Acme", "Notes")
	writeTree(t, other, map[string]string{"Проект.yaml": strings.Replace(demoDescriptor, "Имя: Tasks", "Имя: Notes", 1), "а.xbsl": "метод А()\n;\n"})
	if r := buildIn(t, other, BuildOptions{Getenv: p.env}); r.ReusedFiles != 0 {
		t.Fatalf("another project reused %d files", r.ReusedFiles)
	}
	if found, _ := filepath.Glob(filepath.Join(p.cacheDir, "pack", "*.cache")); len(found) != 3 {
		t.Fatalf("cache files of two folders of a project and of another project: %v", found)
	}
}
