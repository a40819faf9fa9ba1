package standtest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
)

// WithZeros copies a build archive and adds n resources of size zero
// bytes each (Acme/Tasks/Ресурсы/zerosI.bin): megabytes unpacked, a few
// kilobytes packed, as a zip bomb or a project of large resources is. The
// zeros are compressed once.
func WithZeros(archive []byte, n, size int) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, err
	}
	var packed bytes.Buffer
	fw, _ := flate.NewWriter(&packed, flate.BestSpeed)
	if _, err := fw.Write(make([]byte, size)); err != nil {
		return nil, err
	}
	if err := fw.Close(); err != nil {
		return nil, err
	}
	crc := crc32.ChecksumIEEE(make([]byte, size))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			return nil, err
		}
	}
	for i := range n {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: fmt.Sprintf("Acme/Tasks/Ресурсы/zeros%d.bin", i), Method: zip.Deflate,
			CRC32: crc, CompressedSize64: uint64(packed.Len()), UncompressedSize64: uint64(size)})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(packed.Bytes()); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
