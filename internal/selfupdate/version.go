package selfupdate

import (
	"strconv"
	"strings"
)

// semver is a release number: dot-separated numbers with an optional
// pre-release after "-" (1.2.0-rc.1); build metadata after "+" is
// ignored, as semantic versioning says.
type semver struct {
	nums []int
	pre  []string
	text string // as written, without a leading v
}

// parseVersion reads "1.2.3", "v1.2.3" or "1.2.3-rc.1"; ok is false for
// anything else.
func parseVersion(s string) (semver, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	core, _, _ := strings.Cut(s, "+")
	core, pre, hasPre := strings.Cut(core, "-")
	parts := strings.Split(core, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return semver{}, false
	}
	v := semver{text: s}
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p == "" || (len(p) > 1 && p[0] == '0') {
			return semver{}, false
		}
		v.nums = append(v.nums, n)
	}
	for len(v.nums) < 3 {
		v.nums = append(v.nums, 0)
	}
	if hasPre {
		if pre == "" {
			return semver{}, false
		}
		v.pre = strings.Split(pre, ".")
	}
	return v, true
}

func (v semver) String() string { return v.text }

// compare orders two versions by semantic versioning's precedence: numbers
// first, and a pre-release before its release.
func (v semver) compare(w semver) int {
	for i := range 3 {
		if v.nums[i] != w.nums[i] {
			return cmpInt(v.nums[i], w.nums[i])
		}
	}
	switch {
	case len(v.pre) == 0 && len(w.pre) == 0:
		return 0
	case len(v.pre) == 0:
		return 1
	case len(w.pre) == 0:
		return -1
	}
	for i := 0; i < len(v.pre) && i < len(w.pre); i++ {
		a, b := v.pre[i], w.pre[i]
		na, errA := strconv.Atoi(a)
		nb, errB := strconv.Atoi(b)
		switch {
		case errA == nil && errB == nil:
			if na != nb {
				return cmpInt(na, nb)
			}
		case errA == nil:
			return -1 // numeric identifiers come first
		case errB == nil:
			return 1
		default:
			if c := strings.Compare(a, b); c != 0 {
				return c
			}
		}
	}
	return cmpInt(len(v.pre), len(w.pre))
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
