package schemaguard

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/elemctl/elemctl/internal/ops/assembly"
)

// ErrNoDescriptor: the commit has no Проект.yaml/Project.yaml at the
// project directory's place (another project, or the project moved).
var ErrNoDescriptor = errors.New("the commit has no Проект.yaml/Project.yaml in the project directory")

// isMetadata tells whether a path (slash-separated, relative to the
// project directory) is a metadata file the guard compares: a .yaml
// outside the directories the build never packs.
func isMetadata(rel string) bool {
	if !strings.EqualFold(path.Ext(rel), ".yaml") {
		return false
	}
	dirs := strings.Split(rel, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if assembly.ExcludedDir(d) {
			return false
		}
	}
	return true
}

// ReadDir reads the metadata files of the project directory as they are
// on disk now (uncommitted changes included).
func ReadDir(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	var walk func(abs, rel string) error
	walk = func(abs, rel string) error {
		entries, err := os.ReadDir(abs)
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := e.Name()
			childAbs, childRel := filepath.Join(abs, name), name
			if rel != "" {
				childRel = rel + "/" + name
			}
			if e.IsDir() {
				if !assembly.ExcludedDir(name) {
					if err := walk(childAbs, childRel); err != nil {
						return err
					}
				}
				continue
			}
			if !isMetadata(childRel) {
				continue
			}
			if st, err := os.Stat(childAbs); err != nil || !st.Mode().IsRegular() {
				continue
			}
			data, err := os.ReadFile(childAbs)
			if err != nil {
				return err
			}
			out[childRel] = data
		}
		return nil
	}
	if err := walk(dir, ""); err != nil {
		return nil, err
	}
	return out, nil
}

// validRevision keeps what git would read as an option (or worse) out of
// its argument list: a commit named by the platform or the registry is
// not trusted.
func validRevision(commit string) bool {
	if commit == "" || strings.HasPrefix(commit, "-") || len(commit) > 256 {
		return false
	}
	for _, r := range commit {
		if r <= ' ' || r == 0x7f || r == ':' {
			return false
		}
	}
	return true
}

// ReadCommit reads the metadata files of the project directory dir as
// they were in commit: one `git ls-tree` lists them, one
// `git cat-file --batch` reads them all. An error means the commit cannot
// be read here (no git, not a repository, the commit not fetched) or
// holds no project descriptor at this place (ErrNoDescriptor).
func ReadCommit(ctx context.Context, dir, commit string) (map[string][]byte, error) {
	if !validRevision(commit) {
		return nil, fmt.Errorf("not a commit: %q", commit)
	}
	listing, err := assembly.Git(ctx, dir, nil, "ls-tree", "-r", "-z", commit)
	if err != nil {
		return nil, err
	}
	paths := map[string][]string{} // object → paths
	var order []string
	descriptor := false
	for entry := range bytes.SplitSeq(listing, []byte{0}) {
		// "<mode> SP <type> SP <object> TAB <path>"
		meta, rel, ok := bytes.Cut(entry, []byte{'\t'})
		if !ok {
			continue
		}
		fields := strings.Fields(string(meta))
		if len(fields) != 3 || fields[1] != "blob" || fields[0] == "120000" {
			continue
		}
		name := string(rel)
		if name == assembly.DescriptorRU || name == assembly.DescriptorEN {
			descriptor = true
		}
		if !isMetadata(name) {
			continue
		}
		if _, seen := paths[fields[2]]; !seen {
			order = append(order, fields[2])
		}
		paths[fields[2]] = append(paths[fields[2]], name)
	}
	if !descriptor {
		return nil, ErrNoDescriptor
	}
	out := make(map[string][]byte, len(order))
	if len(order) == 0 {
		return out, nil
	}
	var input bytes.Buffer
	for _, obj := range order {
		input.WriteString(obj)
		input.WriteByte('\n')
	}
	batch, err := assembly.Git(ctx, dir, &input, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	rd := bufio.NewReader(bytes.NewReader(batch))
	for range order {
		header, err := rd.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size < 0 {
			return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(header))
		}
		data := make([]byte, size)
		if _, err := io.ReadFull(rd, data); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		if _, err := rd.Discard(1); err != nil { // the newline after the content
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		for _, p := range paths[f[0]] {
			out[p] = data
		}
	}
	return out, nil
}
