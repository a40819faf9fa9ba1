package dap

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Project descriptors, Russian first, as everywhere in elemctl.
var descriptorNames = []string{"Проект.yaml", "Project.yaml"}

// maxScannedSubdirs bounds the downward search, as the editor extension
// does, so a start in a huge tree stays quick.
const maxScannedSubdirs = 64

// findSourcesRoot finds the sources root the adapter needs as "workspace":
// the directory two levels above a project descriptor that sits in
// <root>/<Vendor>/<Name>/. It looks in start, its parent and grandparent,
// then in up to 64 subdirectories one and two levels down (hidden ones and
// node_modules skipped).
func findSourcesRoot(start string) (string, bool) {
	candidates := []string{start}
	if parent := filepath.Dir(start); parent != start {
		candidates = append(candidates, parent)
		if grand := filepath.Dir(parent); grand != parent {
			candidates = append(candidates, grand)
		}
	}
	candidates = append(candidates, subdirsTwoLevels(start, maxScannedSubdirs)...)
	for _, dir := range candidates {
		if root, ok := rootOfProjectDir(dir); ok {
			return root, true
		}
	}
	return "", false
}

func subdirsTwoLevels(start string, limit int) []string {
	level1 := listSubdirs(start)
	out := make([]string, 0, limit)
	for _, d := range level1 {
		if len(out) == limit {
			return out
		}
		out = append(out, d)
	}
	for _, d := range level1 {
		for _, dd := range listSubdirs(d) {
			if len(out) == limit {
				return out
			}
			out = append(out, dd)
		}
	}
	return out
}

func listSubdirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		out = append(out, filepath.Join(dir, name))
	}
	sort.Strings(out)
	return out
}

// rootOfProjectDir accepts dir when it holds a descriptor naming the vendor
// and name that dir's own path ends with.
func rootOfProjectDir(dir string) (string, bool) {
	for _, name := range descriptorNames {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		vendor, project := descriptorIdentity(data)
		if vendor == "" || project == "" {
			continue
		}
		if filepath.Base(dir) == project && filepath.Base(filepath.Dir(dir)) == vendor {
			return filepath.Dir(filepath.Dir(dir)), true
		}
	}
	return "", false
}

// descriptorIdentity reads the top-level vendor and name lines. A full
// YAML parse is not needed for two scalar keys and would make a broken
// descriptor elsewhere in the file stop the search.
func descriptorIdentity(data []byte) (vendor, name string) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		value = scalar(value)
		switch strings.TrimSpace(key) {
		case "Поставщик", "Vendor":
			if vendor == "" {
				vendor = value
			}
		case "Имя", "Name":
			if name == "" {
				name = value
			}
		}
	}
	return vendor, name
}

func scalar(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return v[1 : len(v)-1]
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}
