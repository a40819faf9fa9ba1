package selfupdate

import (
	"net/url"
	"testing"
)

func TestVersionOrder(t *testing.T) {
	ordered := []string{"0.9.9", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "v1.0.1", "1.2", "1.10.0"}
	for i := range ordered {
		for j := range ordered {
			a, okA := parseVersion(ordered[i])
			b, okB := parseVersion(ordered[j])
			if !okA || !okB {
				t.Fatalf("%s or %s does not parse", ordered[i], ordered[j])
			}
			if got, want := a.compare(b), cmpInt(i, j); got != want {
				t.Errorf("compare(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	for _, bad := range []string{"", "dev", "1", "1.2.3.4", "1.x.0", "01.2.3", "1.2.3-", "-1.2.3"} {
		if _, ok := parseVersion(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	if v, _ := parseVersion("v1.2.3+build.5"); v.String() != "1.2.3+build.5" {
		t.Errorf("text %q", v)
	}
}

func TestParseFeed(t *testing.T) {
	feed, _ := url.Parse("https://mirror.example/elemctl/releases.json")
	data := []byte(`[
	  {"tag_name": "v1.2.0", "prerelease": false, "assets": [
	    {"name": "SHA256SUMS", "browser_download_url": "v1.2.0/SHA256SUMS"},
	    {"name": "elemctl-linux-amd64.tar.gz", "browser_download_url": "https://cdn.example/a.tgz"},
	    {"name": "evil", "browser_download_url": "file:///etc/passwd"}]},
	  {"tag_name": "v1.3.0-rc.1", "prerelease": true, "assets": []},
	  {"tag_name": "v1.4.0", "draft": true, "assets": []},
	  {"tag_name": "nightly", "assets": []},
	  {"tag_name": "v1.1.0", "assets": []}
	]`)
	rels, err := parseFeed(data, feed)
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 3 {
		t.Fatalf("%d releases, want 3 (no draft, no tag that is no version)", len(rels))
	}
	latest := newest(rels)
	if latest == nil || latest.version.String() != "1.2.0" {
		t.Fatalf("newest = %v, want 1.2.0 (pre-releases only by name)", latest)
	}
	if got := latest.assets["SHA256SUMS"]; got != "https://mirror.example/elemctl/v1.2.0/SHA256SUMS" {
		t.Errorf("relative asset resolved to %q", got)
	}
	if _, ok := latest.assets["evil"]; ok {
		t.Error("an asset that is not http(s) was kept")
	}
	rc, _ := parseVersion("1.3.0-rc.1")
	if r := find(rels, rc); r == nil || !r.prerelease {
		t.Errorf("find(1.3.0-rc.1) = %v", r)
	}
	one, err := parseFeed([]byte(`{"tag_name": "v2.0.0", "assets": []}`), feed)
	if err != nil || len(one) != 1 || one[0].version.String() != "2.0.0" {
		t.Fatalf("one release: %v %v", one, err)
	}
	if _, err := parseFeed([]byte(`<html>`), feed); err == nil {
		t.Error("html read as a feed")
	}
}

func TestChecksumOf(t *testing.T) {
	sums := []byte("ab" + repeat("0", 62) + "  elemctl-linux-amd64.tar.gz\n" +
		"CD" + repeat("1", 62) + " *elemctl-windows-amd64.zip\n" +
		"short  elemctl-darwin-arm64.tar.gz\n")
	if got := checksumOf(sums, "elemctl-linux-amd64.tar.gz"); got != "ab"+repeat("0", 62) {
		t.Errorf("text mode: %q", got)
	}
	if got := checksumOf(sums, "elemctl-windows-amd64.zip"); got != "cd"+repeat("1", 62) {
		t.Errorf("binary mode: %q", got)
	}
	for _, name := range []string{"elemctl-darwin-arm64.tar.gz", "elemctl-linux-amd64", "tar.gz"} {
		if got := checksumOf(sums, name); got != "" {
			t.Errorf("%s: %q", name, got)
		}
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
