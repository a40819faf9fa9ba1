package assembly

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// deflatedSizes sums, over the entries of the archive at file, the deflate
// stream sizes the archive holds and what compress/flate at its default
// level (the level of zlib-made archives) gives for the same contents.
func deflatedSizes(t *testing.T, file string) (ours, reference int64) {
	t.Helper()
	zr, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc) // checks the CRC too
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		buf.Reset()
		fw.Reset(&buf)
		fw.Write(data)
		fw.Close()
		ours += int64(f.CompressedSize64)
		reference += int64(buf.Len())
	}
	return ours, reference
}

// zlibSizes is, for the entries of the archive at file, the deflate stream
// sizes zlib gives at its default level, as Python's zipfile writes them;
// ok is false without python3.
func zlibSizes(t *testing.T, file string) (total int64, ok bool) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		return 0, false
	}
	const script = `import sys, zipfile, zlib
z = zipfile.ZipFile(sys.argv[1])
total = 0
for name in z.namelist():
    c = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    total += len(c.compress(z.read(name)) + c.flush())
print(total)`
	out, err := exec.Command(python, "-c", script, file).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		t.Fatalf("python3 said %q", out)
	}
	return n, true
}

// The archive is no bigger than the default deflate level makes it, with
// compress/flate and (where python3 is there) with zlib, which the Python
// tool's archives use: the demo project (small files, where the end of
// each stream counts) and a generated one of larger source files and a few
// incompressible resources.
func TestArchiveIsNoBiggerThanDefaultDeflate(t *testing.T) {
	demo, err := filepath.Abs("../../../examples/demo/Acme/Tasks")
	if err != nil {
		t.Fatal(err)
	}
	generated := filepath.Join(t.TempDir(), "Acme", "Gen")
	writeTree(t, generated, map[string]string{DescriptorRU: "Имя: Gen\nПоставщик: Acme\nВерсия: 1.0\n"})
	rnd := rand.New(rand.NewPCG(7, 7))
	words := []string{"метод ", "знч ", "если ", "иначе ", "возврат ", "Строка ", "Число ", "; ", "(", ") ", "\n    "}
	for i := range 120 {
		size := 200 + rnd.IntN(60_000)
		var b []byte
		name := fmt.Sprintf("Модули/Модуль%03d.xbsl", i)
		if i%30 == 0 {
			name = fmt.Sprintf("Ресурсы/image%03d.png", i)
			b = make([]byte, size)
			rand.NewChaCha8([32]byte{byte(i)}).Read(b)
		}
		for len(b) < size {
			if rnd.IntN(4) == 0 {
				b = fmt.Appendf(b, "Имя%x ", rnd.Uint32()&0xffff)
			} else {
				b = append(b, words[rnd.IntN(len(words))]...)
			}
		}
		writeTree(t, generated, map[string]string{name: string(b)})
	}
	for name, dir := range map[string]string{"demo": demo, "generated": generated} {
		t.Run(name, func(t *testing.T) {
			r := buildIn(t, dir, BuildOptions{})
			ours, reference := deflatedSizes(t, r.File)
			if ours > reference {
				t.Errorf("the archive's entries take %d bytes, more than the %d of compress/flate's default level", ours, reference)
			}
			t.Run("zlib", func(t *testing.T) {
				zlib, ok := zlibSizes(t, r.File)
				if !ok {
					t.Skip("python3 is absent: zlib's level is not compared")
				}
				t.Logf("%d bytes of deflated entries, %d with compress/flate's default level, %d with zlib's", ours, reference, zlib)
				if ours > zlib {
					t.Errorf("the archive's entries take %d bytes, more than the %d of zlib's default level (the Python tool's archive)", ours, zlib)
				}
			})
		})
	}
}

// Every rewritten stream inflates to its entry: small and large inputs,
// text, incompressible bytes, empty files, inputs of several deflate blocks
// (which keep their end as it was).
func TestTrimmedStreamsInflateToTheirEntry(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(1, 2))
	c := newCompressor()
	trimmed, kept := 0, 0
	for _, size := range []int{0, 1, 2, 7, 100, 1000, 4096, endBlockTrimLimit - 1, endBlockTrimLimit, endBlockTrimLimit + 1, 20000, 40000} {
		for _, kind := range []string{"text", "random", "zeros"} {
			data := make([]byte, size)
			switch kind {
			case "text":
				for i := range data {
					data[i] = "абв где\n"[rnd.IntN(8)]
				}
			case "random":
				rand.NewChaCha8([32]byte{byte(size), byte(size >> 8)}).Read(data)
			}
			var plain bytes.Buffer
			fw, _ := flate.NewWriter(&plain, compressionLevel)
			fw.Write(data)
			fw.Close()
			r := c.compress(ctx, &zipEntry{name: "x", data: data}, new(bytes.Buffer), nil)
			if r.err != nil {
				t.Fatal(r.err)
			}
			got, err := io.ReadAll(flate.NewReader(bytes.NewReader(r.buf.Bytes())))
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%s of %d bytes: the stream does not inflate back (%v)", kind, size, err)
			}
			switch {
			case r.buf.Len() > plain.Len():
				t.Errorf("%s of %d bytes: %d bytes, more than compress/flate's %d", kind, size, r.buf.Len(), plain.Len())
			case r.buf.Len() < plain.Len():
				trimmed++
			default:
				kept++
			}
		}
	}
	if trimmed == 0 {
		t.Error("no stream was tightened")
	}
	t.Logf("%d streams tightened, %d kept", trimmed, kept)
}
