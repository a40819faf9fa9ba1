package dist

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"aead.dev/minisign"
)

// The release the channel tests share: made once per test run, for every
// platform, by the mkdist command as `make dist` runs it, and made a second
// time beside it for TestReleaseIsReproducible. mkdist is built
// without the race detector, which would make packing the 16 MB binary
// into an archive, a wheel, an npm package, a .deb and an .rpm take
// minutes instead of seconds. This machine's binary is real (mkdist
// -binary, as version testVersion); the other platforms' are stand-ins,
// since only this machine's packages can be installed and run here – the
// packers, manifests and sums are the same code for every platform.
const testVersion = "9.8.7"

// madeRelease is one run of mkdist.
type madeRelease struct {
	dir      string
	binaries string // the folder of binaries it packed (mkdist -binaries)
	output   []byte // what mkdist printed
	err      error
}

var (
	sharedDir string // removed by TestMain
	shared    struct {
		once          sync.Once
		mkdist        string // the command, built without the race detector
		first         madeRelease
		second        chan madeRelease // receives the second release once
		secondStarted bool
		err           error // of what both releases need
	}
	testKey, testPub = func() (minisign.PrivateKey, minisign.PublicKey) {
		pub, priv, err := minisign.GenerateKey(rand.Reader)
		if err != nil {
			panic(err)
		}
		return priv, pub
	}()
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "elemctl-dist-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedDir = dir
	code := m.Run()
	if shared.secondStarted {
		// The second release may still run (when TestReleaseIsReproducible
		// did not): mkdist finishes, and removes its own temporary files,
		// before the folder goes.
		<-shared.second
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// standInBinary is the binary of a platform other than this machine's.
func standInBinary(t Target) []byte {
	return []byte("a stand-in for the elemctl " + testVersion + " binary of " + t.String() + "\n")
}

// exeName is a program's file name on this machine.
func exeName(name string) string {
	if Host().GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// makeShared builds mkdist, trusting the test key as elemctl's binaries
// built with ReleaseKeys do, and starts the two releases.
func makeShared(root string) error {
	ctx := context.Background()
	mkdist := filepath.Join(sharedDir, exeName("mkdist"))
	shared.mkdist = mkdist
	if err := BuildBinary(ctx, BuildOptions{ModuleDir: root, Target: Host(), Command: "./internal/dist/mkdist", ReleaseKeys: testPub.String()}, mkdist); err != nil {
		return err
	}
	// nfpm is built here, once: the two runs below would both build it on
	// an empty build cache.
	if out, err := goTool(ctx, "", root, "-n", "nfpm").CombinedOutput(); err != nil {
		return fmt.Errorf("go tool -n nfpm: %v\n%s", err, out)
	}
	keyText, err := testKey.MarshalText()
	if err != nil {
		return err
	}
	env := append(os.Environ(), SigningKeyVariable+"="+string(keyText), SigningPasswordVariable+"=",
		"SOURCE_DATE_EPOCH="+strconv.FormatInt(fixedTime.Unix(), 10))
	mkdistRun := func(args ...string) *exec.Cmd {
		cmd := exec.Command(mkdist, args...)
		cmd.Dir, cmd.Env = root, env
		return cmd
	}
	// Each release packs binaries of its own: this machine's is built
	// twice, so the second release proves the build reproducible too.
	binaries := func(name string) (string, error) {
		dir := filepath.Join(sharedDir, name+"-binaries")
		for _, t := range Targets {
			if err := os.MkdirAll(filepath.Dir(t.BinaryPath(dir)), 0o755); err != nil {
				return "", err
			}
			if t != Host() {
				if err := os.WriteFile(t.BinaryPath(dir), standInBinary(t), 0o755); err != nil {
					return "", err
				}
				continue
			}
			if out, err := mkdistRun("-binary", t.String(), "-version", testVersion, "-o", t.BinaryPath(dir)).CombinedOutput(); err != nil {
				return "", fmt.Errorf("mkdist -binary %s: %v\n%s", t, err, out)
			}
		}
		return dir, nil
	}
	release := func(name string, env ...string) madeRelease {
		dir := filepath.Join(sharedDir, name)
		binaries, err := binaries(name)
		if err != nil {
			return madeRelease{err: err}
		}
		cmd := mkdistRun("-version", testVersion, "-out", dir, "-binaries", binaries)
		cmd.Env = append(slices.Clip(cmd.Env), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			err = fmt.Errorf("mkdist -out %s: %v\n%s", dir, err, out)
		}
		return madeRelease{dir: dir, binaries: binaries, output: out, err: err}
	}
	shared.first = release("first")
	if shared.first.err != nil {
		return nil
	}
	// The second release is made while the tests read the first. It
	// starts after the first has finished, so a clock read into a file
	// shows as a difference, and in another time zone.
	shared.second = make(chan madeRelease, 1)
	shared.secondStarted = true
	go func() { shared.second <- release("second", "TZ=Asia/Kathmandu") }()
	return nil
}

// sharedRelease is the directory of the shared test release.
func sharedRelease(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a release")
	}
	root := moduleDir(t)
	shared.once.Do(func() { shared.err = makeShared(root) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	if shared.first.err != nil {
		t.Fatal(shared.first.err)
	}
	return shared.first.dir
}

// secondRelease waits for the release made beside the shared one.
func secondRelease(t *testing.T) madeRelease {
	t.Helper()
	sharedRelease(t)
	second := <-shared.second
	shared.second <- second
	if second.err != nil {
		t.Fatal(second.err)
	}
	return second
}

// hostBinary is this machine's binary the shared release packed.
func hostBinary(t *testing.T) []byte {
	t.Helper()
	sharedRelease(t)
	return readFile(t, Host().BinaryPath(shared.first.binaries))
}

// releaseFile reads a file of the shared release.
func releaseFile(t *testing.T, name string) []byte {
	t.Helper()
	return readFile(t, filepath.Join(sharedRelease(t), filepath.FromSlash(name)))
}

// releaseTree lists a release's files: path (slash-separated, relative to
// the release) → mode.
func releaseTree(t *testing.T, dir string) map[string]os.FileMode {
	t.Helper()
	files := map[string]os.FileMode{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = info.Mode()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
