// Package updatetest serves a release feed on loopback for the tests of
// self-update: a list of releases in the shape of GitHub's releases API,
// each with its archives, SHA256SUMS and its signature, as `make dist`
// makes them, signed by a key of the tests.
package updatetest

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aead.dev/minisign"

	"github.com/elemctl/elemctl/internal/dist"
	"github.com/elemctl/elemctl/internal/releasekey"
)

// Release is one release of the feed: its version and files.
type Release struct {
	Version    string
	Prerelease bool
	Files      map[string][]byte
}

// The test signing keys: Key signs the releases PackRelease makes (a
// binary under test trusts its public key), ForeignKey is one nobody
// trusts.
var (
	PublicKey, Key               = newKey()
	ForeignPublicKey, ForeignKey = newKey()
)

func newKey() (minisign.PublicKey, minisign.PrivateKey) {
	pub, priv, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	return pub, priv
}

// PackRelease makes the release of a version with one platform's archive
// holding binary, SHA256SUMS over it, and its signature by Key.
func PackRelease(t testing.TB, version, goos, goarch string, binary []byte) Release {
	t.Helper()
	var buf bytes.Buffer
	files := []dist.File{
		{Name: "LICENSE", Mode: 0o644, Data: []byte("MIT License\n")},
		{Name: "README.md", Mode: 0o644, Data: []byte("# elemctl " + version + "\n")},
		{Name: dist.BinaryName(goos), Mode: 0o755, Data: binary},
	}
	if err := dist.Pack(&buf, goos, files, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	name := dist.ArchiveName(goos, goarch)
	sums := dist.Sums(map[string][]byte{name: buf.Bytes()})
	return Release{Version: version, Files: map[string][]byte{
		name:                     buf.Bytes(),
		dist.SumsName:            sums,
		releasekey.SignatureName: releasekey.Sign(Key, sums, version),
	}}
}

// Server is a release feed with its downloads.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	releases []Release
	requests []string
	// feedStatus, when set, is the feed's answer status with feedBody.
	feedStatus int
	feedBody   string
}

// NewServer serves the releases (newest first, as GitHub lists them) at
// /repos/elemctl/elemctl/releases, and each file at /download/v<version>/<name>.
func NewServer(t testing.TB, releases ...Release) *Server {
	s := &Server{}
	for _, r := range releases {
		// Replace changes this server's copy only.
		r.Files = maps.Clone(r.Files)
		s.releases = append(s.releases, r)
	}
	// The handler reads s.srv: it is set before the server starts, as a
	// request from another process makes no ordering the race detector sees.
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.srv.Start()
	t.Cleanup(s.srv.Close)
	return s
}

// FeedURL is the address ELEMCTL_UPDATE_URL takes.
func (s *Server) FeedURL() string { return s.srv.URL + "/repos/elemctl/elemctl/releases" }

// Requests are the paths asked for so far.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Replace changes a file of a release (say, to tamper with an archive).
func (s *Server) Replace(version, name string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.releases {
		if s.releases[i].Version == version {
			if data == nil {
				delete(s.releases[i].Files, name)
			} else {
				s.releases[i].Files[name] = data
			}
		}
	}
}

// FailFeed makes the feed answer a status and body.
func (s *Server) FailFeed(status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.feedStatus, s.feedBody = status, body
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.URL.Path)
	if r.URL.Path == "/repos/elemctl/elemctl/releases" {
		if s.feedStatus != 0 {
			w.WriteHeader(s.feedStatus)
			w.Write([]byte(s.feedBody))
			return
		}
		type asset struct {
			Name string `json:"name"`
			URL  string `json:"browser_download_url"`
		}
		type rel struct {
			Tag        string  `json:"tag_name"`
			Prerelease bool    `json:"prerelease"`
			Assets     []asset `json:"assets"`
		}
		var list []rel
		for _, r := range s.releases {
			x := rel{Tag: "v" + r.Version, Prerelease: r.Prerelease, Assets: []asset{}}
			for name := range r.Files {
				// A redirect, as GitHub's downloads do.
				x.Assets = append(x.Assets, asset{Name: name, URL: s.srv.URL + "/redirect/v" + r.Version + "/" + name})
			}
			list = append(list, x)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(list)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.Path, "/redirect/"); ok {
		http.Redirect(w, r, "/download/"+rest, http.StatusFound)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.Path, "/download/v"); ok {
		for _, rel := range s.releases {
			if name, ok := strings.CutPrefix(rest, rel.Version+"/"); ok {
				if data, ok := rel.Files[name]; ok {
					w.Write(data)
					return
				}
			}
		}
	}
	http.NotFound(w, r)
}
