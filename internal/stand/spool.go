package stand

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"net/http"
	"os"
)

// spoolInMemory is how much of a spooled body stays in memory; more goes
// to a file in the stand's store.
const spoolInMemory = 1 << 20

// spool is a request body read in full before the platform uses it: in
// memory when small, else in a file of the stand's store. It knows its
// SHA-256, the key an archive is stored under.
type spool struct {
	mem  []byte
	file *os.File
	size int64
	// over tells that the sender sent more than the limit; what was read
	// stops at the limit plus one byte.
	over bool
	sum  []byte
}

// readSpool reads body up to limit+1 bytes.
func (s *Stand) readSpool(body io.Reader, limit int64) (*spool, error) {
	sp := &spool{}
	h := sha256.New()
	src := io.LimitReader(body, limit+1)
	var mem bytes.Buffer
	n, err := io.Copy(io.MultiWriter(&mem, h), io.LimitReader(src, spoolInMemory))
	sp.size = n
	if err != nil {
		return nil, err
	}
	if n == spoolInMemory {
		if err := sp.toFile(s, &mem, src, h); err != nil {
			sp.Close()
			return nil, err
		}
	} else {
		sp.mem = mem.Bytes()
	}
	sp.over = sp.size > limit
	sp.sum = h.Sum(nil)
	return sp, nil
}

// toFile moves what is in memory to a file of the store and copies the
// rest of the body after it.
func (sp *spool) toFile(s *Stand, head *bytes.Buffer, rest io.Reader, h hash.Hash) error {
	dir, err := s.storeDir()
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, spoolPrefix+"*")
	if err != nil {
		return err
	}
	sp.file = f
	if _, err := f.Write(head.Bytes()); err != nil {
		return err
	}
	n, err := io.Copy(io.MultiWriter(f, h), rest)
	sp.size += n
	return err
}

// key is the SHA-256 of the body in hex.
func (sp *spool) key() string { return hex.EncodeToString(sp.sum) }

// reader reads the body from its start.
func (sp *spool) reader() io.Reader {
	if sp.file == nil {
		return bytes.NewReader(sp.mem)
	}
	return io.NewSectionReader(sp.file, 0, sp.size)
}

// readerAt reads the body at any offset (archives are read so).
func (sp *spool) readerAt() io.ReaderAt {
	if sp.file == nil {
		return bytes.NewReader(sp.mem)
	}
	return sp.file
}

// Close removes the spool's file, unless the store took it over.
func (sp *spool) Close() error {
	if sp == nil || sp.file == nil {
		return nil
	}
	name := sp.file.Name()
	err := sp.file.Close()
	sp.file = nil
	if e := os.Remove(name); e != nil && !os.IsNotExist(e) && err == nil {
		err = e
	}
	return err
}

// spooledBody is a request body served from a spool.
type spooledBody struct {
	io.Reader
	sp *spool
}

func (b *spooledBody) Close() error { return nil }

// spoolUpload reads an upload's body into a spool, at most the upload
// limit and one byte; a body a fault read already is taken as it is, and
// a declared length past the limit is not read at all (nil: the handler
// answers 413).
func (s *Stand) spoolUpload(r *http.Request) (*spool, error) {
	limit := s.opts.Limits.UploadSize
	if b, ok := r.Body.(*spooledBody); ok {
		return b.sp, nil
	}
	if r.ContentLength > limit {
		return nil, nil
	}
	body := io.Reader(http.NoBody)
	if r.Body != nil {
		body = r.Body
	}
	return s.readSpool(body, limit)
}
