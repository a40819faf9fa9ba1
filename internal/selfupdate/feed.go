package selfupdate

import (
	"encoding/json"
	"net/url"
	"strings"
)

// DefaultFeed is the release feed: the GitHub releases of elemctl/elemctl,
// newest first. ELEMCTL_UPDATE_URL names another one in the same shape (a
// mirror can serve it as a static file; see docs/install.md).
const DefaultFeed = "https://api.github.com/repos/elemctl/elemctl/releases?per_page=100"

// release is one release of the feed.
type release struct {
	version    semver
	tag        string
	prerelease bool
	assets     map[string]string // name → absolute download address
}

// feedRelease is the part of a GitHub release the update reads.
type feedRelease struct {
	TagName    string `json:"tag_name"`
	Draft      bool   `json:"draft"`
	Prerelease bool   `json:"prerelease"`
	Assets     []struct {
		Name string `json:"name"`
		URL  string `json:"browser_download_url"`
	} `json:"assets"`
}

// parseFeed reads a feed: a list of releases (GitHub's /releases) or one
// release (/releases/latest). Drafts and tags that are no version are left
// out; asset addresses may be relative to the feed's own.
func parseFeed(data []byte, feed *url.URL) ([]release, error) {
	var list []feedRelease
	trimmed := strings.TrimSpace(string(data))
	if strings.HasPrefix(trimmed, "{") {
		var one feedRelease
		if err := json.Unmarshal(data, &one); err != nil {
			return nil, err
		}
		list = []feedRelease{one}
	} else if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	var out []release
	for _, r := range list {
		v, ok := parseVersion(r.TagName)
		if r.Draft || !ok {
			continue
		}
		rel := release{version: v, tag: r.TagName, prerelease: r.Prerelease || len(v.pre) > 0, assets: map[string]string{}}
		for _, a := range r.Assets {
			if a.Name == "" || a.URL == "" {
				continue
			}
			u, err := feed.Parse(a.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
				continue
			}
			rel.assets[a.Name] = u.String()
		}
		out = append(out, rel)
	}
	return out, nil
}

// newest is the highest release that is not a pre-release, or nil.
func newest(releases []release) *release {
	var best *release
	for i := range releases {
		r := &releases[i]
		if r.prerelease {
			continue
		}
		if best == nil || r.version.compare(best.version) > 0 {
			best = r
		}
	}
	return best
}

// find is the release of a version (a pre-release too, when asked for by
// name), or nil.
func find(releases []release, v semver) *release {
	for i := range releases {
		if releases[i].version.compare(v) == 0 {
			return &releases[i]
		}
	}
	return nil
}
