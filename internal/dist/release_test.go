package dist

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"aead.dev/minisign"
)

// The release the channel tests share: built once per test run, for every
// platform. This machine's binary is real (built as version testVersion);
// the other platforms' are stand-ins, since only this machine's packages
// can be installed and run here – the packers, manifests and sums are the
// same code for every platform.
const testVersion = "9.8.7"

var (
	sharedDir string // removed by TestMain
	shared    struct {
		once  sync.Once
		dir   string
		paths []string
		err   error
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
	os.RemoveAll(dir)
	os.Exit(code)
}

// standInBinary is the binary of a platform other than this machine's.
func standInBinary(t Target) []byte {
	return []byte("a stand-in for the elemctl " + testVersion + " binary of " + t.String() + "\n")
}

// testReleaseOptions build the test release into out.
func testReleaseOptions(root, out string) ReleaseOptions {
	return ReleaseOptions{
		ModuleDir: root, OutDir: out, Version: testVersion, Targets: Targets, Time: fixedTime, SigningKey: &testKey,
		Binary: func(ctx context.Context, t Target) ([]byte, error) {
			if t != Host() {
				return standInBinary(t), nil
			}
			bin, err := os.MkdirTemp("", "elemctl-dist-bin-")
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(bin)
			exe := filepath.Join(bin, t.BinaryName())
			if err := BuildBinary(ctx, BuildOptions{ModuleDir: root, Target: t, Version: testVersion}, exe); err != nil {
				return nil, err
			}
			return os.ReadFile(exe)
		},
	}
}

// sharedRelease is the directory of the shared test release.
func sharedRelease(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a release")
	}
	root := moduleDir(t)
	shared.once.Do(func() {
		shared.dir = filepath.Join(sharedDir, "release")
		shared.paths, shared.err = Release(context.Background(), testReleaseOptions(root, shared.dir))
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.dir
}

// releaseFile reads a file of the shared release.
func releaseFile(t *testing.T, name string) []byte {
	t.Helper()
	return readFile(t, filepath.Join(sharedRelease(t), filepath.FromSlash(name)))
}
