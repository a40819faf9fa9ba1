package dist

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Readers of the .deb and .rpm formats, so the tests unpack the packages
// as dpkg and rpm would without needing either tool.

// unpackedFile is one file of a package.
type unpackedFile struct {
	mode os.FileMode
	data []byte
}

// debMembers reads the ar archive of a .deb: its members by name.
func debMembers(deb []byte) (map[string][]byte, error) {
	if !bytes.HasPrefix(deb, []byte("!<arch>\n")) {
		return nil, fmt.Errorf("not an ar archive")
	}
	out := map[string][]byte{}
	for rest := deb[8:]; len(rest) > 0; {
		if len(rest) < 60 || string(rest[58:60]) != "`\n" {
			return nil, fmt.Errorf("a damaged ar header")
		}
		name := strings.TrimSuffix(strings.TrimSpace(string(rest[:16])), "/")
		size, err := strconv.Atoi(strings.TrimSpace(string(rest[48:58])))
		if err != nil || 60+size > len(rest) {
			return nil, fmt.Errorf("ar member %s: a bad size", name)
		}
		out[name] = rest[60 : 60+size]
		rest = rest[60+size:]
		if size%2 == 1 && len(rest) > 0 {
			rest = rest[1:]
		}
	}
	return out, nil
}

// tarGzFiles reads the regular files of a .tar.gz, names without "./".
func tarGzFiles(data []byte) (map[string]unpackedFile, error) {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	out := map[string]unpackedFile{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		out[strings.TrimPrefix(h.Name, "./")] = unpackedFile{mode: os.FileMode(h.Mode).Perm(), data: b}
	}
}

// rpmPackage is what the tests read of an .rpm: header tags and files.
type rpmPackage struct {
	tags  map[int]string // string tags
	files map[string]unpackedFile
}

// readRPM reads an .rpm: the lead, the signature header, the header and
// the gzip-compressed cpio (newc) payload.
func readRPM(data []byte) (*rpmPackage, error) {
	if len(data) < 96 || !bytes.Equal(data[:4], []byte{0xED, 0xAB, 0xEE, 0xDB}) {
		return nil, fmt.Errorf("no rpm lead")
	}
	pos := 96
	header := func() (map[int]string, error) {
		if len(data) < pos+16 || !bytes.Equal(data[pos:pos+3], []byte{0x8E, 0xAD, 0xE8}) {
			return nil, fmt.Errorf("no rpm header at %d", pos)
		}
		n := int(binary.BigEndian.Uint32(data[pos+8:]))
		size := int(binary.BigEndian.Uint32(data[pos+12:]))
		index := pos + 16
		store := index + 16*n
		if store+size > len(data) {
			return nil, fmt.Errorf("a damaged rpm header")
		}
		tags := map[int]string{}
		for i := 0; i < n; i++ {
			e := data[index+16*i:]
			tag, typ, off := int(binary.BigEndian.Uint32(e)), binary.BigEndian.Uint32(e[4:]), int(binary.BigEndian.Uint32(e[8:]))
			if typ == 6 && off < size { // STRING
				s := data[store+off : store+size]
				if end := bytes.IndexByte(s, 0); end >= 0 {
					tags[tag] = string(s[:end])
				}
			}
		}
		pos = store + size
		return tags, nil
	}
	if _, err := header(); err != nil { // the signature
		return nil, err
	}
	pos = (pos + 7) &^ 7
	tags, err := header()
	if err != nil {
		return nil, err
	}
	if c := tags[1125]; c != "gzip" {
		return nil, fmt.Errorf("payload compressed with %q, not gzip", c)
	}
	gz, err := gzip.NewReader(bytes.NewReader(data[pos:]))
	if err != nil {
		return nil, err
	}
	cpio, err := io.ReadAll(gz)
	if err != nil {
		return nil, err
	}
	files := map[string]unpackedFile{}
	for p := 0; ; {
		if len(cpio) < p+110 || string(cpio[p:p+6]) != "070701" {
			return nil, fmt.Errorf("a damaged cpio header at %d", p)
		}
		field := func(i int) int {
			v, _ := strconv.ParseUint(string(cpio[p+6+8*i:p+14+8*i]), 16, 32)
			return int(v)
		}
		mode, size, nameSize := field(1), field(6), field(11)
		name := string(cpio[p+110 : p+110+nameSize-1])
		p = (p + 110 + nameSize + 3) &^ 3
		if name == "TRAILER!!!" {
			break
		}
		if mode&0o170000 == 0o100000 {
			files[strings.TrimLeft(name, "./")] = unpackedFile{mode: os.FileMode(mode).Perm(), data: cpio[p : p+size]}
		}
		p = (p + size + 3) &^ 3
	}
	return &rpmPackage{tags: tags, files: files}, nil
}

// writeTree writes unpacked files under root.
func writeTree(root string, files map[string]unpackedFile) error {
	for name, f := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.data, f.mode); err != nil {
			return err
		}
	}
	return nil
}
