package assembly

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
)

// Archive entries carry a fixed time (the ZIP epoch, 1980-01-01 00:00) so
// that two builds of the same tree with the same Created are identical byte
// for byte; the build time lives in the manifest only.
const (
	fixedDOSDate = 1<<5 | 1 // 1980-01-01
	fixedDOSTime = 0
)

// compressionLevel is the deflate level of every entry. It is part of the
// archive's reproducibility: change it and the bytes change. The default
// level makes archives a fifth smaller than the fastest one on source text
// (the size of a zlib-made archive at its default level, or a little less),
// which is upload time saved on every deploy; the workers keep the packing
// fast.
const compressionLevel = flate.DefaultCompression

// streamThreshold: files larger than this are compressed while they are
// written, instead of ahead in memory by the workers, so a huge resource
// never sits in memory whole. A variable so tests can reach that path with
// small files.
var streamThreshold int64 = 8 << 20

// zipEntry is one file to write: either content in memory or a file on disk.
type zipEntry struct {
	name string
	data []byte // when src == ""
	src  string
	size int64
	// head asks for the first bytes of the content to be handed back
	// (the SOAP check reads them).
	head bool
}

// entryResult is what writing one entry found out.
type entryResult struct {
	head []byte
}

// compressed is an entry compressed ahead of its turn.
type compressed struct {
	buf   *bytes.Buffer
	crc   uint32
	usize uint64
	head  []byte
	err   error
	// key is the content's key in the pack cache; reused tells that buf
	// was copied from it.
	key    [sha256.Size]byte
	reused bool
}

// headBytes is enough bytes for soapHeadRunes runes of any UTF-8 text.
const headBytes = soapHeadRunes * 4

// writeZip writes entries, in the given order, as a ZIP to w. Entries are
// compressed in parallel (one worker per CPU) and written in order with
// precomputed headers, so the result does not depend on scheduling. With a
// cache (nil: none), files of the last pack are copied from it and this
// pack's are kept in it; the caller commits or discards it.
func writeZip(ctx context.Context, w io.Writer, entries []zipEntry, cache *packCache) ([]entryResult, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	zw := zip.NewWriter(bw) // every entry goes in raw, compressed here

	ctx, cancel := context.WithCancel(ctx)

	workers := runtime.GOMAXPROCS(0)
	window := 2*workers + 2 // entries compressed ahead of the writer at most
	results := make([]chan compressed, len(entries))
	for i := range entries {
		if entries[i].src == "" || entries[i].size <= streamThreshold {
			results[i] = make(chan compressed, 1)
		}
	}
	slots := make(chan struct{}, window)
	jobs := make(chan int)
	var wg sync.WaitGroup
	bufs := sync.Pool{New: func() any { return new(bytes.Buffer) }}

	go func() { // hands out entries in order, never more than window ahead
		defer close(jobs)
		for i := range entries {
			if results[i] == nil {
				continue
			}
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newCompressor()
			for i := range jobs {
				out := bufs.Get().(*bytes.Buffer)
				out.Reset()
				results[i] <- c.compress(ctx, &entries[i], out, cache)
			}
		}()
	}
	defer func() { // stop the feeder first, then let the workers drain
		cancel()
		wg.Wait()
	}()

	found := make([]entryResult, len(entries))
	for i := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := &entries[i]
		if results[i] == nil {
			head, err := streamEntry(ctx, zw, e, cache)
			if err != nil {
				return nil, err
			}
			found[i].head = head
			continue
		}
		// The feeder stops handing out entries once the context is done,
		// so an entry it never handed out has no result coming: the wait
		// must end with the context too.
		var r compressed
		select {
		case r = <-results[i]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		<-slots
		if r.err != nil {
			return nil, r.err
		}
		fh := entryHeader(e.name)
		fh.Method = zip.Deflate
		fh.CRC32 = r.crc
		fh.UncompressedSize64 = r.usize
		fh.CompressedSize64 = uint64(r.buf.Len())
		raw, err := zw.CreateRaw(fh)
		if err != nil {
			return nil, err
		}
		if _, err := raw.Write(r.buf.Bytes()); err != nil {
			return nil, err
		}
		if e.src != "" { // the manifest changes with every pack
			cache.keep(r.key, r.crc, r.usize, r.buf.Bytes(), r.reused)
		}
		found[i].head = r.head
		bufs.Put(r.buf)
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return found, bw.Flush()
}

// entryHeader is the header every entry shares: the name, UTF-8 flag when
// the name needs it, the fixed time, a regular file readable by all.
func entryHeader(name string) *zip.FileHeader {
	// The DOS fields, not Modified: Modified adds an extended-timestamp
	// field the reference's archives do not carry.
	//lint:ignore SA1019 see above
	fh := &zip.FileHeader{Name: name, ModifiedDate: fixedDOSDate, ModifiedTime: fixedDOSTime}
	fh.SetMode(0o644)
	fh.CreatorVersion = fh.CreatorVersion&0xff00 | 20
	fh.ReaderVersion = 20
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			fh.Flags |= 0x800 // names are UTF-8
			break
		}
	}
	return fh
}

// compressor is one worker's reusable state.
type compressor struct {
	in []byte
	fw *flate.Writer
	// trimEndBlock's scratch: the rewritten stream and its check.
	trimmed  []byte
	inflater io.ReadCloser
	check    bytes.Buffer
}

func newCompressor() *compressor {
	fw, _ := flate.NewWriter(io.Discard, compressionLevel) // the level is valid
	return &compressor{fw: fw}
}

// compress compresses one entry into out, or copies it from the pack cache.
// A change to the bytes it makes changes packCacheFormat.
func (c *compressor) compress(ctx context.Context, e *zipEntry, out *bytes.Buffer, cache *packCache) compressed {
	data := e.data
	if e.src != "" {
		var err error
		c.in, err = readInto(c.in[:0], e.src, e.size)
		if err != nil {
			return compressed{err: wrapError(ctx, err, "build.read-file", "file", e.src, "error", err)}
		}
		data = c.in
	}
	r := compressed{buf: out, crc: crc32.ChecksumIEEE(data), usize: uint64(len(data))}
	if e.head {
		r.head = bytes.Clone(data[:min(len(data), headBytes)])
	}
	if e.src != "" {
		r.key = cache.contentKey(data)
		if r.reused = cache.copyLast(r.key, r.crc, r.usize, out); r.reused {
			return r
		}
	}
	c.fw.Reset(out)
	if _, err := c.fw.Write(data); err != nil {
		r.err = err
	} else if r.err = c.fw.Close(); r.err == nil && len(data) <= endBlockTrimLimit {
		c.trimEndBlock(out, data)
	}
	return r
}

// endBlockTrimLimit: entries up to this size get the end of their deflate
// stream tightened (see trimEndBlock); above it the four bytes saved are
// below a two-thousandth of the entry and not worth the check's inflate.
const endBlockTrimLimit = 8 << 10

// trimEndBlock rewrites the end of a small entry's deflate stream the way
// zlib ends one. compress/flate closes every stream with an extra empty
// stored block (three header bits, padding, then 00 00 FF FF), four or five
// bytes per entry that a project of many small files pays hundreds of
// times. A small entry is usually one data block: marking that block final
// and dropping the empty one gives the same data in fewer bytes. The
// rewrite is kept only when it inflates back to exactly the entry, so a
// stream of several blocks is left as it was.
func (c *compressor) trimEndBlock(out *bytes.Buffer, data []byte) {
	stream := out.Bytes()
	n := len(stream)
	if n < 5 || !bytes.Equal(stream[n-4:], []byte{0x00, 0x00, 0xff, 0xff}) {
		return
	}
	// The empty block's header is BFINAL=1 and BTYPE=00 followed by zero
	// padding: its last set bit before LEN is where the data block ended.
	end := -1
	for bit := 8*(n-4) - 1; bit >= 0 && bit >= 8*(n-4)-10; bit-- {
		if stream[bit/8]>>(bit%8)&1 == 1 {
			end = bit
			break
		}
	}
	if end <= 0 {
		return
	}
	c.trimmed = append(c.trimmed[:0], stream[:(end+7)/8]...)
	if end%8 != 0 {
		c.trimmed[len(c.trimmed)-1] &= byte(1)<<(end%8) - 1
	}
	c.trimmed[0] |= 1 // BFINAL of the first block
	if c.inflater == nil {
		c.inflater = flate.NewReader(bytes.NewReader(c.trimmed))
	} else if err := c.inflater.(flate.Resetter).Reset(bytes.NewReader(c.trimmed), nil); err != nil {
		return
	}
	c.check.Reset()
	if _, err := io.Copy(&c.check, c.inflater); err != nil || !bytes.Equal(c.check.Bytes(), data) {
		return
	}
	out.Reset()
	out.Write(c.trimmed)
}

// readInto reads the file at path into buf (grown as needed); sizeHint is
// the size seen when the file was listed.
func readInto(buf []byte, path string, sizeHint int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if need := int(sizeHint) + 1; cap(buf) < need {
		buf = make([]byte, 0, need)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// streamEntry writes a large file into the archive as it reads it, never
// whole in memory: compressed as it goes, or copied from the pack cache
// when the last pack kept the same content (found by a first read of the
// file). Either way the entry is written raw with a data descriptor, so
// the archive is the same with the cache and without it. It stops between
// two reads when the context is done.
func streamEntry(ctx context.Context, zw *zip.Writer, e *zipEntry, cache *packCache) (head []byte, err error) {
	readErr := func(err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return wrapError(ctx, err, "build.read-file", "file", e.src, "error", err)
	}
	content := newContentSum(e.head, cache != nil)
	var last *io.SectionReader
	if cache.hasLast() {
		if err := content.read(ctx, e.src, io.Discard); err != nil {
			return nil, readErr(err)
		}
		last = cache.lastStream(ctx, content.key(), content.crc.Sum32(), content.size)
	}
	fh := entryHeader(e.name)
	fh.Method = zip.Deflate
	fh.Flags |= 0x8 // sizes and CRC-32 in a data descriptor after the data
	raw, err := zw.CreateRaw(fh)
	if err != nil {
		return nil, err
	}
	kept := cache.keepStream()
	out := &countWriter{w: io.MultiWriter(raw, kept)}
	if last != nil {
		if _, err := io.Copy(out, &contextReader{ctx: ctx, r: last}); err != nil {
			return nil, readErr(err)
		}
	} else {
		content = newContentSum(e.head, cache != nil)
		fw, _ := flate.NewWriter(out, compressionLevel) // the level is valid
		if err := content.read(ctx, e.src, fw); err != nil {
			return nil, readErr(err)
		}
		if err := fw.Close(); err != nil {
			return nil, err
		}
	}
	setSizes(fh, content.crc.Sum32(), uint64(out.count), content.size)
	cache.kept(kept, content.key(), content.crc.Sum32(), content.size, last != nil)
	return content.head, nil
}

// setSizes puts what a data descriptor says into the header, as
// archive/zip's own writer does when it compresses an entry: for a raw
// entry, the data descriptor and the central directory take the 32-bit
// sizes from the header as they are.
func setSizes(fh *zip.FileHeader, crc uint32, compressed, size uint64) {
	fh.CRC32, fh.CompressedSize64, fh.UncompressedSize64 = crc, compressed, size
	compressed32, size32 := uint32(compressed), uint32(size)
	if compressed >= math.MaxUint32 || size >= math.MaxUint32 {
		compressed32, size32 = math.MaxUint32, math.MaxUint32
		fh.ReaderVersion = 45 // ZIP64
	}
	//lint:ignore SA1019 see above
	fh.CompressedSize, fh.UncompressedSize = compressed32, size32
}

// contentSum is what reading a file tells of its content: its CRC-32, its
// size, its key in the pack cache (when there is a cache) and its first
// bytes (when asked for).
type contentSum struct {
	crc      hash.Hash32
	sha      hash.Hash // nil without a cache
	size     uint64
	head     []byte
	wantHead bool
}

func newContentSum(wantHead, keyed bool) *contentSum {
	c := &contentSum{crc: crc32.NewIEEE(), wantHead: wantHead}
	if keyed {
		c.sha = sha256.New()
	}
	return c
}

func (c *contentSum) Write(p []byte) (int, error) {
	c.crc.Write(p)
	if c.sha != nil {
		c.sha.Write(p)
	}
	if c.wantHead && len(c.head) < headBytes {
		c.head = append(c.head, p[:min(len(p), headBytes-len(c.head))]...)
	}
	c.size += uint64(len(p))
	return len(p), nil
}

func (c *contentSum) key() (key [sha256.Size]byte) {
	if c.sha != nil {
		c.sha.Sum(key[:0])
	}
	return key
}

// read reads the file at path into the sums and into w.
func (c *contentSum) read(ctx context.Context, path string, w io.Writer) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	_, err = io.Copy(io.MultiWriter(c, w), &contextReader{ctx: ctx, r: file})
	return err
}

// countWriter counts what goes through it.
type countWriter struct {
	w     io.Writer
	count int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.count += int64(n)
	return n, err
}

// contextReader reads until its context is done.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
