package catalog

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elemctl/elemctl/internal/atomicfile"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/cards"
	"github.com/elemctl/elemctl/internal/platform"
)

func appsExportCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "export"}, Order: 13, Examples: []string{"elemctl apps export crm-test --output builds/"}, Tool: "export_app",
		Help: "cli.help.apps-export", ToolHelp: "mcp.help.export-app", WritesFiles: true,
		Args: []command.Argument{
			AppArg(false),
			{Name: "output", Help: "cli.arg.export-output", Type: command.String, Metavar: "PATH"},
		},
		ToolArgs: []command.Argument{
			ToolAppArg(),
			{Name: "output", Help: "mcp.arg.export-output", Type: command.String, Default: ""},
		},
	}, runAppsExport)
}

func appsExportExtensionCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "export-extension"}, Order: 14, Examples: []string{"elemctl apps export-extension crm-test CrmExtras --output builds/"}, Tool: "export_extension",
		Help: "cli.help.apps-export-extension", ToolHelp: "mcp.help.export-extension", WritesFiles: true,
		Args: []command.Argument{
			AppArg(false),
			{Name: "extension", Help: "cli.arg.export-extension", Type: command.String, Positional: true, Required: true, Metavar: "EXTENSION"},
			{Name: "output", Help: "cli.arg.export-output", Type: command.String, Metavar: "PATH"},
		},
		ToolArgs: []command.Argument{
			ToolAppArg(),
			{Name: "extension", Help: "mcp.arg.export-extension", Type: command.String, Required: true},
			{Name: "output", Help: "mcp.arg.export-output", Type: command.String, Default: ""},
		},
	}, runAppsExportExtension)
}

// appsExportInput are the arguments runAppsExport reads.
type appsExportInput struct {
	AppID  string `arg:"app-id"`
	Output string `arg:"output"`
}

func runAppsExport(ctx context.Context, cc *command.Context, in appsExportInput) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.AppID, true)
	if err != nil {
		return nil, err
	}
	dl, err := newExportDownload(cc, in.Output)
	if err != nil {
		return nil, err
	}
	defer dl.discard()
	if _, err := cl.Do(ctx, platform.Request{Method: http.MethodPost, Path: "/applications/" + cards.PathSegment(id) + "/project/export",
		MayBeUnknown: true, ReadAnswer: dl.read}); err != nil {
		return nil, err
	}
	fallback := func() string {
		if card, err := cl.GetApp(ctx, id); err == nil {
			if n := platform.AppName(card); n != "" {
				return n
			}
		}
		return id
	}
	saved, err := dl.save(ctx, fallback, func() string {
		return i18n.T(ctx, "client.export-what-app", "app", id)
	})
	if err != nil {
		return nil, err
	}
	// The CLI names the application first; a tool answers with the file.
	cli, tool := jsonx.New("app-id", id), jsonx.New()
	saved.addTo(cli)
	saved.addTo(tool)
	return dialects{cli: cli, tool: tool}, nil
}

// appsExportExtensionInput are the arguments runAppsExportExtension reads.
type appsExportExtensionInput struct {
	AppID     string `arg:"app-id"`
	Extension string `arg:"extension"`
	Output    string `arg:"output"`
}

func runAppsExportExtension(ctx context.Context, cc *command.Context, in appsExportExtensionInput) (any, error) {
	appRef, extRef := in.AppID, in.Extension
	cl, id, err := TargetApp(ctx, cc, appRef, true)
	if err != nil {
		return nil, err
	}
	ext, err := FindAppExtension(ctx, cl, id, extRef)
	if err != nil {
		return nil, err
	}
	dl, err := newExportDownload(cc, in.Output)
	if err != nil {
		return nil, err
	}
	defer dl.discard()
	if _, err := cl.Do(ctx, platform.Request{Method: http.MethodPost, API: platform.API21, MayBeUnknown: true, ReadAnswer: dl.read,
		Path: "/applications/" + cards.PathSegment(id) + "/project/" + cards.PathSegment(ext.Str("id")) + "/export"}); err != nil {
		return nil, err
	}
	fallback := func() string {
		if n := ext.Str("project-name"); n != "" {
			return n
		}
		return ext.Str("id")
	}
	saved, err := dl.save(ctx, fallback, func() string {
		return i18n.T(ctx, "client.export-what-extension", "extension", ext.Str("id"), "app", id)
	})
	if err != nil {
		return nil, err
	}
	// The CLI names the application first and the file last; a tool
	// answers with the file first, as export_app does.
	cli, tool := jsonx.New("app-id", id), jsonx.New()
	saved.addTo(tool)
	for _, out := range []*jsonx.Object{cli, tool} {
		out.Set("extension-id", ext.Value("id"))
		for _, k := range []string{"project-id", "vendor-name", "project-name", "assembly-version", "enabled"} {
			out.Set(k, ext.Value(k))
		}
	}
	saved.addTo(cli)
	return dialects{cli: cli, tool: tool}, nil
}

// ListAppExtensions reads the extensions applied to an application
// (Console API 2.1; an older server answers "unknown method").
func ListAppExtensions(ctx context.Context, cl *platform.Client, appID string) ([]*jsonx.Object, error) {
	v, err := cl.Call(ctx, platform.Request{Method: http.MethodGet, API: platform.API21, MayBeUnknown: true,
		Path: "/applications/" + cards.PathSegment(appID) + "/project"})
	if err != nil {
		return nil, err
	}
	o, _ := v.(*jsonx.Object)
	return jsonx.Objects(o.Value("extension-projects")), nil
}

// FindAppExtension picks the applied extension ref names exactly (any
// case) by id, project-id, project-name or project-presentation.
func FindAppExtension(ctx context.Context, cl *platform.Client, appID, ref string) (*jsonx.Object, error) {
	exts, err := ListAppExtensions(ctx, cl, appID)
	if err != nil {
		return nil, err
	}
	var found []*jsonx.Object
	for _, e := range exts {
		for _, k := range []string{"id", "project-id", "project-name", "project-presentation"} {
			if v := e.Str(k); v != "" && strings.EqualFold(v, ref) {
				found = append(found, e)
				break
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		labels := make([]string, len(exts))
		for i, e := range exts {
			labels[i] = extensionLabel(e)
		}
		list := strings.Join(labels, "; ")
		if list == "" {
			list = i18n.T(ctx, "client.tree-none")
		}
		return nil, platform.ConfigErrorf(ctx, "client.extension-not-found", "ref", ref, "app", appID, "extensions", list)
	}
	labels := make([]string, len(found))
	for i, e := range found {
		labels[i] = extensionLabel(e)
	}
	return nil, platform.ConfigErrorf(ctx, "client.extension-ambiguous", "ref", ref, "app", appID, "extensions", strings.Join(labels, "; "))
}

// extensionLabel names an applied extension: "vendor/name version (id X)".
func extensionLabel(e *jsonx.Object) string {
	return e.Str("vendor-name") + "/" + e.Str("project-name") + " " + e.Str("assembly-version") + " (id " + e.Str("id") + ")"
}

type savedExport struct {
	file     string
	size     int64
	manifest *jsonx.Object
}

// addTo appends file, size and manifest to an answer.
func (s *savedExport) addTo(o *jsonx.Object) {
	o.Set("file", s.file).Set("size", s.size).Set("manifest", s.manifest)
}

// exportPreview is how many bytes of a refused export the error shows.
const exportPreview = 48

// exportDownload is an export's answer written to disk as it arrives, in
// a temporary file in the folder it goes to, so that an archive of
// hundreds of megabytes is never held in memory, and a refused or broken
// answer replaces no file: save renames it into place once it is checked.
type exportDownload struct {
	dir  string              // the folder the file goes to
	file string              // its name when output gives it, else ""
	tmp  *atomicfile.Pending // the answer so far; nil before it arrives
	size int64
	made []string // folders the download made, deepest last
}

// newExportDownload finds where output puts the file (exportPlace);
// nothing is made before an answer arrives.
func newExportDownload(cc *command.Context, output string) (*exportDownload, error) {
	dir, file, err := exportPlace(cc, output)
	if err != nil {
		return nil, err
	}
	return &exportDownload{dir: dir, file: file}, nil
}

// read writes an answer to the temporary file (Request.ReadAnswer); an
// answer read again starts the file afresh.
func (d *exportDownload) read(r io.Reader) error {
	if d.tmp == nil {
		made, err := mkdirAllMade(d.dir)
		d.made = made
		if err != nil {
			return fileError(err)
		}
		if d.tmp, err = atomicfile.Create(d.dir, ".elemctl-export-*.part"); err != nil {
			return fileError(err)
		}
	} else if err := d.tmp.Truncate(0); err != nil {
		return fileError(err)
	} else if _, err := d.tmp.Seek(0, io.SeekStart); err != nil {
		return fileError(err)
	}
	n, err := io.Copy(d.tmp, r)
	d.size = n
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return fileError(err) // the disk's, not the connection's
	}
	return err
}

// save checks that the answer is a build archive (a ZIP with
// Assembly.yaml), names it "{Name} {Version}.xasm" after its manifest
// unless output names a file, and moves it there. When the check fails
// nothing is written.
func (d *exportDownload) save(ctx context.Context, fallbackName func() string, what func() string) (*savedExport, error) {
	if d.tmp == nil {
		return nil, d.refusal(ctx, what, nil)
	}
	arch, err := assembly.OpenArchiveAt(ctx, "export", d.tmp, d.size)
	if err != nil {
		head := make([]byte, min(d.size, exportPreview))
		n, _ := d.tmp.ReadAt(head, 0)
		return nil, d.refusal(ctx, what, head[:n])
	}
	manifest := arch.Manifest()
	file := d.file
	if file == "" {
		name := manifest.Str("Name")
		if name == "" {
			name = fallbackName()
		}
		version := manifest.Str("Version")
		if version == "" {
			version = "build"
		}
		file = assembly.SafeFileName(name + " " + version + ".xasm")
	}
	target := filepath.Join(d.dir, file)
	err = d.tmp.Commit(target, 0o644)
	d.tmp = nil // committed, or removed by a failed Commit
	if err != nil {
		return nil, fileError(err)
	}
	d.made = nil
	if manifest == nil {
		manifest = jsonx.New()
	}
	return &savedExport{file: target, size: d.size, manifest: manifest}, nil
}

func (d *exportDownload) refusal(ctx context.Context, what func() string, head []byte) error {
	return platform.NewError(ctx, platform.KindGeneral, "client.export-not-archive", "what", what(),
		"size", d.size, "beginning", preview(head))
}

// discard removes what the download left unless save moved it into place:
// the temporary file and the folders it made, if they are empty.
func (d *exportDownload) discard() {
	if d.tmp != nil {
		d.tmp.Discard()
		d.tmp = nil
	}
	for i := len(d.made) - 1; i >= 0; i-- {
		os.Remove(d.made[i])
	}
	d.made = nil
}

// mkdirAllMade is os.MkdirAll that tells the folders it made, outermost
// first.
func mkdirAllMade(dir string) ([]string, error) {
	var missing []string
	for p := dir; ; {
		if _, err := os.Stat(p); err == nil {
			break
		}
		missing = append(missing, p)
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	slices.Reverse(missing)
	return missing, os.MkdirAll(dir, 0o755)
}

// exportPlace is where an export goes: the absolute folder, and the
// file's name when output names a file ("": the default name, after the
// archive). output empty is the current directory; an existing directory,
// or a path ending with a separator, is that directory.
func exportPlace(cc *command.Context, output string) (dir, file string, err error) {
	dir = cc.Dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return "", "", fileError(err)
		}
	}
	if output == "" {
		return dir, "", nil
	}
	abs := output
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, output)
	}
	if strings.HasSuffix(output, "/") || strings.HasSuffix(output, `\`) {
		return abs, "", nil
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return abs, "", nil
	}
	return filepath.Dir(abs), filepath.Base(abs), nil
}

func fileError(err error) error {
	return &platform.Error{Kind: platform.KindGeneral, Message: err.Error(), Err: err}
}

// preview shows the first bytes of a refused answer readably.
func preview(data []byte) string {
	if len(data) > exportPreview {
		data = data[:exportPreview]
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0xfffd {
			return '.'
		}
		return r
	}, strings.ToValidUTF8(string(data), "."))
}
