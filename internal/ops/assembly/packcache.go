package assembly

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/atomicfile"
	"github.com/elemctl/elemctl/internal/userdir"
)

// A pack cache keeps the compressed files of a project's last pack, so the
// next pack of that project copies the files that did not change instead of
// compressing them again: compressing is nearly all of a pack's time, and
// between two deploys a project changes in a few files.
//
// A file is found by the SHA-256 of its content, never by its name, size or
// time, so a copied entry is the compression of exactly the bytes being
// packed. The bytes copied are checked against the CRC-32 they were stored
// with, and the entry's own CRC-32 and size against the file's; an entry
// that fails is compressed again. The cache belongs to one compressor (this
// format, Go's deflate of this Go release, the level, the end-block trim):
// an archive packed with the cache is the archive packed without it, byte
// for byte. A file streamed into the archive (larger than streamThreshold)
// is read once for its key before its bytes are copied, and those bytes
// are checked before the first of them is written. The manifest, which
// changes with every pack, is not kept.
//
// The cache is only a speed-up: a cache that cannot be read, written or
// trusted is passed over, and the pack goes on as without one. Each folder
// of a project has one file, <cache dir>/pack/<hash of the project's vendor
// and name>-<hash of the folder>.cache, rewritten by every pack of it (so it
// holds the last pack only and stays the size of the project's archive);
// a folder's first pack starts from the project's newest file of another
// folder. Files not written for packCacheMaxAge go, and the oldest go while
// all of them pass packCacheMaxBytes.
//
// Layout: the identity line, the compressed files back to back, the index
// (packCacheRecord per file) and the footer (the index's offset and count,
// its CRC-32, packCacheEnd).

// packCacheFormat names the cache's layout and the way compressor.compress
// makes an entry's bytes: a change to either must change it, so no pack
// copies bytes another compressor made.
const packCacheFormat = 1

// packCacheIdentity is the first line of a cache file: the format and the
// compressor its bytes come from.
func packCacheIdentity() string {
	return fmt.Sprintf("elemctl pack cache %d; %s deflate level %d, end block trimmed up to %d\n",
		packCacheFormat, runtime.Version(), compressionLevel, endBlockTrimLimit)
}

const (
	packCacheEnd     = "EPACKEND"
	packCacheRecord  = sha256.Size + 4 + 8 + 8 + 8 + 4 // key, crc, size, offset, compressed size, its crc
	packCacheFooter  = 8 + 8 + 4 + 8                   // the index's offset and count, its CRC-32, packCacheEnd
	packCacheMaxAge  = 30 * 24 * time.Hour
	packCacheMaxTemp = time.Hour // a pending file this old was left by a pack that died
)

// packCacheMaxBytes bounds all projects' cache files together; a variable
// so tests can reach it with small projects.
var packCacheMaxBytes int64 = 1 << 30

// cachedFile is where one file's compressed bytes are in the cache.
type cachedFile struct {
	crc, compressedCRC uint32
	size               uint64
	offset, length     int64
}

// packCache is one pack's view of its project's cache: the last pack's
// files to copy from, and the next cache, written as the archive is.
// Its methods do nothing on a nil *packCache (no cache).
type packCache struct {
	dir, path string
	last      *os.File
	files     map[[sha256.Size]byte]cachedFile

	next      *atomicfile.Pending // created at the first kept file
	nextBuf   *bufio.Writer
	nextAt    int64
	index     []byte
	nextFails bool

	reused int // files copied from the last pack (writer side)
}

// openPackCache is the cache of the project vendor/name in projectDir, or
// nil when the environment has no cache directory (ELEMCTL_CACHE_DIR=off,
// no home). A folder has a cache file of its own; a folder without one (a
// CI job's new checkout, a second worktree, a copy) starts from the
// project's newest cache in another folder, so it finds the files it
// shares with that pack.
func openPackCache(getenv func(string) string, vendor, name, projectDir string) *packCache {
	path, ok := packCachePath(getenv, vendor, name, projectDir)
	if !ok {
		return nil
	}
	c := &packCache{dir: filepath.Dir(path), path: path}
	if c.last, c.files = readPackCache(path); c.last == nil {
		if other := newestPackCache(c.dir, projectPrefix(path)); other != "" {
			c.last, c.files = readPackCache(other)
		}
	}
	return c
}

// packCachePath is the cache file of the project vendor/name in
// projectDir: <hash of vendor and name>-<hash of the folder>.cache; ok is
// false when there is no cache directory.
func packCachePath(getenv func(string) string, vendor, name, projectDir string) (path string, ok bool) {
	root, err := userdir.Dir(userdir.Cache, getenv, runtime.GOOS)
	if err != nil {
		return "", false
	}
	abs, err := filepath.Abs(projectDir)
	if err != nil {
		return "", false
	}
	project := sha256.Sum256([]byte(vendor + "\x00" + name))
	folder := sha256.Sum256([]byte(abs))
	file := hex.EncodeToString(project[:12]) + "-" + hex.EncodeToString(folder[:8]) + ".cache"
	return filepath.Join(root, "pack", file), true
}

// projectPrefix is the part of a cache file's name that names the project.
func projectPrefix(path string) string {
	base := filepath.Base(path)
	return base[:strings.IndexByte(base, '-')+1]
}

// newestPackCache is the newest cache file in dir whose name starts with
// prefix, or "".
func newestPackCache(dir, prefix string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	newest, at := "", time.Time{}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !strings.HasSuffix(e.Name(), ".cache") {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && info.ModTime().After(at) {
			newest, at = filepath.Join(dir, e.Name()), info.ModTime()
		}
	}
	return newest
}

// readPackCache opens a cache file and reads its index; nil when there is
// none or it is not one this compressor wrote whole.
func readPackCache(path string) (*os.File, map[[sha256.Size]byte]cachedFile) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	files, err := readPackIndex(f)
	if err != nil {
		f.Close()
		return nil, nil
	}
	return f, files
}

func readPackIndex(f *os.File) (map[[sha256.Size]byte]cachedFile, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	identity := packCacheIdentity()
	size := st.Size()
	if size < int64(len(identity)+packCacheFooter) {
		return nil, errors.New("too short")
	}
	head := make([]byte, len(identity))
	if _, err := f.ReadAt(head, 0); err != nil || string(head) != identity {
		return nil, errors.New("another format or compressor")
	}
	foot := make([]byte, packCacheFooter)
	if _, err := f.ReadAt(foot, size-packCacheFooter); err != nil || string(foot[20:]) != packCacheEnd {
		return nil, errors.New("no end")
	}
	at, count := binary.LittleEndian.Uint64(foot), binary.LittleEndian.Uint64(foot[8:])
	body := size - packCacheFooter - int64(len(identity))
	if count > uint64(body)/packCacheRecord || int64(at) != size-packCacheFooter-int64(count)*packCacheRecord {
		return nil, errors.New("the index does not fit")
	}
	index := make([]byte, count*packCacheRecord)
	if _, err := f.ReadAt(index, int64(at)); err != nil || crc32.ChecksumIEEE(index) != binary.LittleEndian.Uint32(foot[16:]) {
		return nil, errors.New("a damaged index")
	}
	files := make(map[[sha256.Size]byte]cachedFile, count)
	for r := index; len(r) > 0; r = r[packCacheRecord:] {
		var key [sha256.Size]byte
		copy(key[:], r)
		v := r[sha256.Size:]
		e := cachedFile{crc: binary.LittleEndian.Uint32(v), size: binary.LittleEndian.Uint64(v[4:]),
			offset: int64(binary.LittleEndian.Uint64(v[12:])), length: int64(binary.LittleEndian.Uint64(v[20:])),
			compressedCRC: binary.LittleEndian.Uint32(v[28:])}
		if e.offset < int64(len(identity)) || e.length < 0 || e.offset > int64(at)-e.length {
			return nil, errors.New("an entry outside the data")
		}
		files[key] = e
	}
	return files, nil
}

// contentKey is what a file is found by: the SHA-256 of its content; the
// zero key when there is no cache to look in or to write.
func (c *packCache) contentKey(data []byte) (key [sha256.Size]byte) {
	if c != nil {
		key = sha256.Sum256(data)
	}
	return key
}

// find is where the last pack keeps the compressed bytes of the content
// whose key, CRC-32 and size are given.
func (c *packCache) find(key [sha256.Size]byte, crc uint32, size uint64) (cachedFile, bool) {
	if c == nil || c.last == nil {
		return cachedFile{}, false
	}
	e, ok := c.files[key]
	return e, ok && e.crc == crc && e.size == size
}

// copyLast puts into out the last pack's compressed bytes of the content
// whose key, CRC-32 and size are given, and tells whether it did; a miss
// or a damaged entry leaves out empty. Safe for concurrent use.
func (c *packCache) copyLast(key [sha256.Size]byte, crc uint32, size uint64, out *bytes.Buffer) bool {
	e, ok := c.find(key, crc, size)
	if !ok {
		return false
	}
	out.Reset()
	out.Grow(int(e.length))
	b := out.AvailableBuffer()[:e.length]
	if _, err := c.last.ReadAt(b, e.offset); err != nil || crc32.ChecksumIEEE(b) != e.compressedCRC {
		return false
	}
	out.Write(b)
	return true
}

// lastStream finds the last pack's compressed bytes of a streamed file by
// its content's key, CRC-32 and size, and checks them against their CRC-32
// before any is written (a streamed file is too large to hold): a reader of
// exactly those bytes, or nil.
func (c *packCache) lastStream(ctx context.Context, key [sha256.Size]byte, crc uint32, size uint64) *io.SectionReader {
	e, ok := c.find(key, crc, size)
	if !ok {
		return nil
	}
	section := io.NewSectionReader(c.last, e.offset, e.length)
	sum := crc32.NewIEEE()
	if _, err := io.Copy(sum, &contextReader{ctx: ctx, r: section}); err != nil || sum.Sum32() != e.compressedCRC {
		return nil
	}
	if _, err := section.Seek(0, io.SeekStart); err != nil {
		return nil
	}
	return section
}

// keep writes one file's compressed bytes into the next cache. Called in
// the archive's order, by the goroutine that writes the archive.
func (c *packCache) keep(key [sha256.Size]byte, crc uint32, size uint64, compressed []byte, reused bool) {
	w := c.keepStream()
	w.Write(compressed)
	c.kept(w, key, crc, size, reused)
}

// keptStream is one file's compressed bytes on their way into the next
// cache; it never fails (a failure drops the next cache at commit).
type keptStream struct {
	c     *packCache
	at    int64
	crc   hash.Hash32
	count int64
}

func (k *keptStream) Write(p []byte) (int, error) {
	if k != nil && !k.c.nextFails {
		if _, err := k.c.nextBuf.Write(p); err != nil {
			k.c.nextFails = true
		}
		k.crc.Write(p)
		k.count += int64(len(p))
	}
	return len(p), nil
}

// keepStream starts keeping one file whose compressed bytes are then
// written to it (by the goroutine that writes the archive); nil when
// nothing is kept. kept ends it.
func (c *packCache) keepStream() *keptStream {
	if c == nil || c.nextFails {
		return nil
	}
	if c.next == nil {
		if err := c.startNext(); err != nil {
			c.nextFails = true
			return nil
		}
	}
	return &keptStream{c: c, at: c.nextAt, crc: crc32.NewIEEE()}
}

// kept records the file k kept: the content's key, CRC-32 and size.
func (c *packCache) kept(k *keptStream, key [sha256.Size]byte, crc uint32, size uint64, reused bool) {
	if c == nil {
		return
	}
	if reused {
		c.reused++
	}
	if k == nil || c.nextFails {
		return
	}
	r := make([]byte, packCacheRecord)
	copy(r, key[:])
	v := r[sha256.Size:]
	binary.LittleEndian.PutUint32(v, crc)
	binary.LittleEndian.PutUint64(v[4:], size)
	binary.LittleEndian.PutUint64(v[12:], uint64(k.at))
	binary.LittleEndian.PutUint64(v[20:], uint64(k.count))
	binary.LittleEndian.PutUint32(v[28:], k.crc.Sum32())
	c.index = append(c.index, r...)
	c.nextAt += k.count
}

func (c *packCache) startNext() error {
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return err
	}
	f, err := atomicfile.Create(c.dir, "."+filepath.Base(c.path)+".*.tmp")
	if err != nil {
		return err
	}
	c.next, c.nextBuf = f, bufio.NewWriterSize(f, 1<<20)
	identity := packCacheIdentity()
	c.nextBuf.WriteString(identity)
	c.nextAt = int64(len(identity))
	return nil
}

// commit puts the next cache in place of the last one, once the archive is
// whole, and clears out old caches. Unsynced: a cache cut short by a crash
// fails readPackIndex and is passed over.
func (c *packCache) commit() {
	if c == nil {
		return
	}
	c.closeLast()
	if c.next == nil {
		return
	}
	if c.nextFails {
		c.discard()
		return
	}
	foot := make([]byte, packCacheFooter)
	binary.LittleEndian.PutUint64(foot, uint64(c.nextAt))
	binary.LittleEndian.PutUint64(foot[8:], uint64(len(c.index)/packCacheRecord))
	binary.LittleEndian.PutUint32(foot[16:], crc32.ChecksumIEEE(c.index))
	copy(foot[20:], packCacheEnd)
	c.nextBuf.Write(c.index)
	c.nextBuf.Write(foot)
	if err := c.nextBuf.Flush(); err != nil {
		c.discard()
		return
	}
	next := c.next
	c.next = nil
	// On Windows the rename fails while another pack of the project reads
	// the last cache: that pack's cache then takes the place.
	if next.CommitUnsynced(c.path, 0o600) == nil {
		c.evict(time.Now())
	}
}

// discard drops the next cache: the pack failed or was stopped.
func (c *packCache) discard() {
	if c == nil {
		return
	}
	c.closeLast()
	if c.next != nil {
		c.next.Discard()
		c.next = nil
	}
}

// hasLast tells whether there is a last pack to copy from.
func (c *packCache) hasLast() bool { return c != nil && c.last != nil }

// reusedFiles is how many files this pack copied from the last one.
func (c *packCache) reusedFiles() int {
	if c == nil {
		return 0
	}
	return c.reused
}

func (c *packCache) closeLast() {
	if c.last != nil {
		c.last.Close()
		c.last = nil
	}
}

// evict removes the caches of projects not packed for packCacheMaxAge, then
// the oldest while all of them together pass packCacheMaxBytes (never the
// one just written), and pending files a dead pack left.
func (c *packCache) evict(now time.Time) {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	type cacheFile struct {
		path string
		mod  time.Time
		size int64
	}
	var kept []cacheFile
	var total int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		path := filepath.Join(c.dir, e.Name())
		age := now.Sub(info.ModTime())
		switch {
		case strings.HasPrefix(e.Name(), ".") && strings.HasSuffix(e.Name(), ".tmp"):
			if age > packCacheMaxTemp {
				os.Remove(path)
			}
		case !strings.HasSuffix(e.Name(), ".cache"):
		case path != c.path && age > packCacheMaxAge:
			os.Remove(path)
		default:
			kept = append(kept, cacheFile{path, info.ModTime(), info.Size()})
			total += info.Size()
		}
	}
	slices.SortFunc(kept, func(a, b cacheFile) int { return a.mod.Compare(b.mod) })
	for _, f := range kept {
		if total <= packCacheMaxBytes {
			break
		}
		if f.path != c.path && os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}
