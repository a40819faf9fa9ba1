package dist

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"time"
)

// Summary is the one-line description every package registry shows.
const Summary = "One binary for the 1C:Enterprise.Element Console API: deploy, probe, an MCP server, LSP and DAP"

// Homepage is the project's address in every package.
const Homepage = "https://github.com/elemctl/elemctl"

// PythonVersion is a release number in the form PEP 440 writes it:
// 1.2.3-rc.1 becomes 1.2.3rc1, -beta.2 b2, -alpha.1 a1, -dev.4 .dev4.
func PythonVersion(v string) (string, error) {
	core, pre, ok := strings.Cut(v, "-")
	if !ok {
		return v, nil
	}
	word, num, _ := strings.Cut(pre, ".")
	if num == "" {
		num = "0"
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return "", fmt.Errorf("dist: the pre-release %q of %s has no Python form (alpha.N, beta.N, rc.N or dev.N)", pre, v)
		}
	}
	switch word {
	case "alpha", "a":
		return core + "a" + num, nil
	case "beta", "b":
		return core + "b" + num, nil
	case "rc":
		return core + "rc" + num, nil
	case "dev":
		return core + ".dev" + num, nil
	}
	return "", fmt.Errorf("dist: the pre-release %q of %s has no Python form (alpha.N, beta.N, rc.N or dev.N)", pre, v)
}

// wheelPlatforms are the platform tags of each target's wheel. Go's
// binaries are static, so one Linux wheel serves glibc (manylinux, and
// manylinux2014 for pip before 20.3) and musl (Alpine) alike. Go 1.26
// supports macOS 12 Monterey and later, and its linker marks the binary so.
var wheelPlatforms = map[Target][]string{
	{"linux", "amd64"}:   {"manylinux_2_17_x86_64", "manylinux2014_x86_64", "musllinux_1_1_x86_64"},
	{"linux", "arm64"}:   {"manylinux_2_17_aarch64", "manylinux2014_aarch64", "musllinux_1_1_aarch64"},
	{"darwin", "amd64"}:  {"macosx_12_0_x86_64"},
	{"darwin", "arm64"}:  {"macosx_12_0_arm64"},
	{"windows", "amd64"}: {"win_amd64"},
	{"windows", "arm64"}: {"win_arm64"},
}

// WheelName is the file name of a target's wheel.
func WheelName(t Target, pyVersion string) (string, error) {
	tags, ok := wheelPlatforms[t]
	if !ok {
		return "", fmt.Errorf("dist: no Python platform tag is known for %s", t)
	}
	return "elemctl-" + pyVersion + "-py3-none-" + strings.Join(tags, ".") + ".whl", nil
}

// Wheel is the Python wheel of a target: the binary as the script
// elemctl-<v>.data/scripts/elemctl[.exe], which pip, pipx and uv install
// into the environment's bin (Scripts) folder beside python as it is, with
// METADATA (the README as its description), WHEEL and RECORD. It holds no
// Python code: `pip install elemctl` puts this binary on PATH.
func Wheel(t Target, pyVersion string, binary, readme, license []byte, mtime time.Time) (name string, data []byte, err error) {
	name, err = WheelName(t, pyVersion)
	if err != nil {
		return "", nil, err
	}
	distInfo := "elemctl-" + pyVersion + ".dist-info/"
	var meta strings.Builder
	fmt.Fprintf(&meta, "Metadata-Version: 2.1\nName: elemctl\nVersion: %s\nSummary: %s\nHome-page: %s\nLicense: MIT\n", pyVersion, Summary, Homepage)
	fmt.Fprintf(&meta, "Project-URL: Source, %s\nProject-URL: Documentation, %s/blob/main/docs/install.md\n", Homepage, Homepage)
	meta.WriteString("Classifier: Environment :: Console\nClassifier: License :: OSI Approved :: MIT License\n")
	meta.WriteString("Classifier: Operating System :: " + map[string]string{
		"linux": "POSIX :: Linux", "darwin": "MacOS", "windows": "Microsoft :: Windows"}[t.GOOS] + "\n")
	meta.WriteString("Classifier: Programming Language :: Go\nDescription-Content-Type: text/markdown\n\n")
	meta.Write(readme)

	var wheel strings.Builder
	wheel.WriteString("Wheel-Version: 1.0\nGenerator: elemctl mkdist\nRoot-Is-Purelib: false\n")
	for _, tag := range wheelPlatforms[t] {
		wheel.WriteString("Tag: py3-none-" + tag + "\n")
	}

	files := []File{
		{Name: "elemctl-" + pyVersion + ".data/scripts/" + t.BinaryName(), Mode: 0o755, Data: binary},
		{Name: distInfo + "LICENSE", Mode: 0o644, Data: license},
		{Name: distInfo + "METADATA", Mode: 0o644, Data: []byte(meta.String())},
		{Name: distInfo + "WHEEL", Mode: 0o644, Data: []byte(wheel.String())},
	}
	var record strings.Builder
	for _, f := range files {
		sum := sha256.Sum256(f.Data)
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", f.Name, base64.RawURLEncoding.EncodeToString(sum[:]), len(f.Data))
	}
	record.WriteString(distInfo + "RECORD,,\n")
	// RECORD comes last, as the wheel format asks.
	files = append(files, File{Name: distInfo + "RECORD", Mode: 0o644, Data: []byte(record.String())})

	var buf bytes.Buffer
	if err := zipInOrder(&buf, files, mtime.UTC().Truncate(time.Second)); err != nil {
		return "", nil, err
	}
	return name, buf.Bytes(), nil
}

// zipInOrder writes a zip of the files in the order given, every entry
// deflated with the same time and only permission bits.
func zipInOrder(w io.Writer, files []File, mtime time.Time) error {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestCompression)
	})
	for _, f := range files {
		hdr := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: mtime}
		hdr.SetMode(f.Mode.Perm())
		fw, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.Data); err != nil {
			return err
		}
	}
	return zw.Close()
}
