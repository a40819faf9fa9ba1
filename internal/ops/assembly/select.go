package assembly

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// resourcesDir is the directory whose files are packed whatever their type.
const resourcesDir = "Ресурсы"

// excludedDirNames are never packed nor searched for projects; every
// directory whose name starts with "." is excluded too.
var excludedDirNames = map[string]bool{"__pycache__": true, "node_modules": true}

// excludedFileNames are never packed and not reported as skipped.
var excludedFileNames = map[string]bool{".gitignore": true, ".env": true, ".DS_Store": true}

// packedExtensions are the file types packed outside Ресурсы.
var packedExtensions = map[string]bool{
	".yaml": true, ".xbsl": true, ".xbql": true, ".md": true, ".txt": true, ".json": true,
	".png": true, ".svg": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".ico": true,
	".css": true, ".htm": true, ".html": true, ".js": true,
	".woff": true, ".woff2": true, ".ttf": true, ".eot": true,
}

// soapDescription matches service descriptions of SOAP clients, numbered
// parts included (Service.wsdl, Types.xsd.2).
var soapDescription = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\.(wsdl|xsd)(\.\d+)?$`) })

// ExcludedDir tells whether a directory is left out of builds and of the
// search for projects.
func ExcludedDir(name string) bool {
	return strings.HasPrefix(name, ".") || excludedDirNames[name]
}

func excludedFile(name string) bool {
	if excludedFileNames[name] {
		return true
	}
	ext := strings.ToLower(path.Ext(name))
	return ext == ".xasm" || ext == ".xlib"
}

// selection is the outcome of the file rules for one file.
type selection int

const (
	selExcluded selection = iota // neither packed nor reported
	selPacked
	selSkipped // not packed, reported in skipped-files
)

// selectFile applies the rules to a file at rel (slash-separated, relative
// to the project directory).
func selectFile(rel string) selection {
	name := path.Base(rel)
	if excludedFile(name) {
		return selExcluded
	}
	if dir := path.Dir(rel); dir != "." && inResources(dir) {
		return selPacked
	}
	if packedExtensions[strings.ToLower(path.Ext(name))] || soapDescription().MatchString(name) {
		return selPacked
	}
	return selSkipped
}

func inResources(dir string) bool {
	for part := range strings.SplitSeq(dir, "/") {
		if part == resourcesDir {
			return true
		}
	}
	return false
}

// projectFile is a file of a project chosen for packing.
type projectFile struct {
	src    string // path on disk
	entry  string // archive entry name
	report string // how reports name it (relative to the root project)
	size   int64
	// soapCandidate: a .yaml that would be a SOAP client without a
	// description if its element kind says so (no <stem>.wsdl beside it).
	soapCandidate bool
}

// collectProject lists the files of the project in dir: the ones to pack
// (entries under entryPrefix) and the skipped ones (named under
// reportPrefix). Symbolic links to files are followed; links to directories,
// broken links and special files are left out and reported as skipped.
func collectProject(dir, entryPrefix, reportPrefix string) (files []projectFile, skipped []string, err error) {
	var walk func(abs, rel string) error
	walk = func(abs, rel string) error {
		entries, err := os.ReadDir(abs)
		if err != nil {
			return err
		}
		var siblings []string
		for _, e := range entries {
			if !e.IsDir() {
				siblings = append(siblings, strings.ToLower(e.Name()))
			}
		}
		for _, e := range entries {
			name := e.Name()
			childAbs := filepath.Join(abs, name)
			childRel := name
			if rel != "" {
				childRel = rel + "/" + name
			}
			if e.IsDir() {
				if !ExcludedDir(name) {
					if err := walk(childAbs, childRel); err != nil {
						return err
					}
				}
				continue
			}
			st, err := os.Stat(childAbs) // follows a link to its target
			if err != nil || !st.Mode().IsRegular() {
				// A link to a folder, a broken link or a special file:
				// never packed, and said, unless its name is excluded.
				if !excludedFile(name) && !(err == nil && st.IsDir() && ExcludedDir(name)) {
					skipped = append(skipped, reportPrefix+childRel)
				}
				continue
			}
			switch selectFile(childRel) {
			case selPacked:
				files = append(files, projectFile{
					src:           childAbs,
					entry:         entryPrefix + composeCyrillic(childRel),
					report:        reportPrefix + childRel,
					size:          st.Size(),
					soapCandidate: isElementYAML(name) && !hasWSDLSibling(name, siblings),
				})
			case selSkipped:
				skipped = append(skipped, reportPrefix+childRel)
			}
		}
		return nil
	}
	if err := walk(dir, ""); err != nil {
		return nil, nil, err
	}
	return files, skipped, nil
}

// isElementYAML tells whether a file may describe an element: a .yaml that
// is not a project descriptor.
func isElementYAML(name string) bool {
	return strings.EqualFold(path.Ext(name), ".yaml") && !isDescriptorName(name)
}

func hasWSDLSibling(name string, lowerSiblings []string) bool {
	prefix := strings.ToLower(strings.TrimSuffix(name, path.Ext(name))) + ".wsdl"
	for _, s := range lowerSiblings {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// soapClientKinds are the element kinds of a SOAP service client.
var soapClientKinds = map[string]bool{"КлиентSoapСервиса": true, "SoapServiceClient": true}

// soapHeadRunes is how much of a .yaml the SOAP check reads: the element
// kind is among its first lines.
const soapHeadRunes = 512

// isSOAPClient tells whether the head of a .yaml file declares a SOAP client.
func isSOAPClient(head []byte) bool {
	text := string(head)
	n := 0
	for i := range text {
		if n == soapHeadRunes {
			text = text[:i]
			break
		}
		n++
	}
	return soapClientKinds[parseFlat(text).get("ВидЭлемента", "ElementKind")]
}
