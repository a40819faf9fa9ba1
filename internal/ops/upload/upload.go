// Package upload puts a build archive on the platform by one of the three
// routes of the Console API, finds out which project it landed in, guards
// against the rename an upload causes, and records the upload in the
// local registry. `builds upload`, `deploy` and `probe` all upload through
// Upload.
package upload

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/hint"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/platform"
)

// Options describe one upload.
type Options struct {
	// File is the archive. When Data is set it is the archive's content and
	// File only names it (registry line, messages).
	File string
	Data []byte
	// ProjectID is the project to upload into (POST /projects/{id}/assemblies,
	// the server numbers the build). Empty uploads without a project id: the
	// server picks the project by the descriptor's Ид, creating one if none
	// carries it, and the build keeps its archive version.
	ProjectID string
	// SpaceID is sent as space-id into a project, or routes an upload
	// without a project id to POST /spaces/{id}/projects.
	SpaceID string
	// CommitID is the commit-id query of an upload into a project; empty
	// takes the manifest's CommitId. The branch is never sent: it lives in
	// the manifest and the registry only.
	CommitID string
	// GuardRename compares the archive's project presentation with the
	// name of ProjectID before uploading into it: the console renames a
	// project after the last upload's Представление, so a different name
	// is refused unless ForceRename (then it is a warning).
	GuardRename, ForceRename bool
	// Record, when set, appends a line to the registry after the upload.
	Record *Record
	// Log receives warnings: a forced rename, a registry that could not be
	// written. nil drops them.
	Log func(string)
	// KnownBuilds is the project's build list read just before, when the
	// caller has it (KnownBuildsRead); otherwise an upload into a project
	// reads it itself, to tell its build should the answer be lost.
	KnownBuilds     []*jsonx.Object
	KnownBuildsRead bool
	// Hint spells the command that shows the project's builds (an upload
	// interrupted under way names it); nil spells it plain.
	Hint hint.Renderer
}

// Record is what the registry line of an upload says beyond the upload
// itself.
type Record struct {
	Registry *registry.Registry
	// Command is registry.CommandBuildUpload, CommandDeploy or CommandProbe.
	Command string
	// AppID is the deploy target or the probe's application, if any.
	AppID string
	// Branch and Commit default to the manifest's BranchName and CommitId.
	Branch, Commit string
	Dirty          *bool
	ProjectDir     *string
	// Stand defaults to the client's base URL.
	Stand string
	// Elemctl is the tool's version.
	Elemctl string
}

// Result is what an upload did.
type Result struct {
	// AssemblyID is the new build's id ("" if the answer named none).
	AssemblyID string
	// ArchiveVersion is the manifest's Version; ServerVersion the
	// assembly-version (or project-version) of the answer, "" if it had
	// none; Version the server's when known, else the archive's.
	ArchiveVersion, ServerVersion, Version string
	// Route is registry.RouteProject or registry.RouteNoProjectID.
	Route string
	// ProjectID is the project the build is in: the one given, or the one
	// it landed in ("" when that stayed unknown).
	ProjectID string
	// Project is set for uploads without a project id.
	Project *Landed
	// Response is the platform's answer as received.
	Response any
	// Manifest is Assembly.yaml of the archive (empty when unreadable).
	Manifest *jsonx.Object
	// Presentation and ConfigurationID come from the archive's descriptor.
	Presentation, ConfigurationID string
	// DescriptorFile and IDKey are how the descriptor spells its file and
	// its Ид/Id key; "" when it could not be read.
	DescriptorFile, IDKey string
	// File is the archive's absolute path ("" when it had none).
	File string
	// RenamedFrom is the project's former name after a forced rename of
	// the project uploaded into.
	RenamedFrom string
	// RegistryWarning is the warning the registry write produced, if any.
	RegistryWarning string
}

// Renumbered tells whether the server gave the build another version than
// its archive's. An archive whose manifest names no version was not
// renumbered: the server gave it the only number it has.
func (r *Result) Renumbered() bool {
	return r.ServerVersion != "" && r.ArchiveVersion != "" && r.ServerVersion != r.ArchiveVersion
}

// Landed is the project an upload without a project id went to.
type Landed struct {
	// ID is "" when neither the answer nor the build lists named it.
	ID, Name, ConfigurationID string
	// Created is nil when the project list could not be read before the
	// upload (then nobody knows whether the project is new).
	Created *bool
	// RenamedFrom is the name the project had before, when the upload
	// renamed it.
	RenamedFrom *string
	// FoundBy is "response" or "build-list" ("" when not found).
	FoundBy string
	// DescriptorFile and IDKey are the descriptor's own spelling of its
	// file and its Ид/Id key, which the lines name; "" takes the
	// spelling of the message's language.
	DescriptorFile, IDKey string
}

// JSON is the "project" object of the builds upload answer.
func (l *Landed) JSON() *jsonx.Object {
	var id, name, cid, created, renamed, foundBy any
	if l.ID != "" {
		id = l.ID
	}
	if l.Name != "" {
		name = l.Name
	}
	if l.ConfigurationID != "" {
		cid = l.ConfigurationID
	}
	if l.Created != nil {
		created = *l.Created
	}
	if l.RenamedFrom != nil {
		renamed = *l.RenamedFrom
	}
	if l.FoundBy != "" {
		foundBy = l.FoundBy
	}
	return jsonx.New("id", id, "name", name, "configuration-id", cid, "created", created, "renamed-from", renamed, "found-by", foundBy)
}

// Line is the one stderr line that tells the user where the build landed.
func (l *Landed) Line(ctx context.Context) string {
	file, key := l.DescriptorFile, l.IDKey
	if file == "" {
		file = i18n.T(ctx, "upload.descriptor-file")
	}
	if key == "" {
		key = i18n.T(ctx, "upload.descriptor-id-key")
	}
	switch {
	case l.ID == "":
		return i18n.T(ctx, "upload.landed-unknown", "key", key, "file", file)
	case l.Created == nil:
		return i18n.T(ctx, "upload.landed-unsure", "project", l.ID, "name", l.Name)
	case *l.Created:
		return i18n.T(ctx, "upload.landed-created", "project", l.ID, "name", l.Name)
	case l.RenamedFrom != nil:
		return i18n.T(ctx, "upload.landed-renamed", "project", l.ID, "from", *l.RenamedFrom, "name", l.Name, "key", key, "cid", l.ConfigurationID)
	}
	return i18n.T(ctx, "upload.landed-existing", "project", l.ID, "name", l.Name, "key", key, "cid", l.ConfigurationID)
}

// Upload sends the archive by the route opts name and reports what
// happened. Only the upload request itself (and a refused rename) fails
// it: every later step – finding the landed project, the registry line –
// degrades to "unknown" or a warning, because the build is on the
// platform by then.
func Upload(ctx context.Context, cl *platform.Client, opts Options) (*Result, error) {
	log := opts.Log
	if log == nil {
		log = func(string) {}
	}
	res := &Result{}
	data := opts.Data
	if opts.File != "" {
		if abs, err := filepath.Abs(opts.File); err == nil {
			res.File = abs
		}
	}
	// The archive on disk is read where it lies – its manifest and
	// descriptor by the inspection, the whole of it as the request goes
	// out – never into memory: uploads of hundreds of megabytes take what
	// one of a megabyte takes.
	var file *io.SectionReader
	if data == nil {
		f, size, err := openArchiveFile(ctx, opts.File)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		file = io.NewSectionReader(f, 0, size)
	}
	// What `inspect` refuses – not a ZIP, no manifest, a manifest or
	// descriptor too large to read, too many entries to list – and what it
	// warns of – entries outside the archive's folder – is refused here,
	// before anything is sent: the platform would refuse it too, or worse,
	// take it. What the archive unpacks to is the platform's to judge.
	var arch *assembly.Archive
	var err error
	if file != nil {
		arch, err = assembly.OpenArchiveAt(ctx, opts.File, file, file.Size())
	} else {
		arch, err = assembly.OpenArchive(ctx, opts.File, data)
	}
	if err != nil {
		return nil, refused(ctx, opts.File, err)
	}
	if refusals := arch.Refusals(ctx); len(refusals) > 0 {
		return nil, refused(ctx, opts.File, refusalList(refusals))
	}
	if _, ok := arch.DescriptorEntry(); ok {
		if _, err := arch.Descriptor(ctx); err != nil {
			return nil, refused(ctx, opts.File, err)
		}
	}
	res.Manifest = arch.Manifest()
	res.Presentation = arch.Presentation(ctx)
	res.ConfigurationID = arch.ID(ctx)
	res.DescriptorFile, res.IDKey = arch.DescriptorSpelling(ctx)
	res.ArchiveVersion = res.Manifest.Str("Version")

	var snapshot map[string]string
	var before map[string]bool
	// sent is the platform's time just before the upload (the Date of the
	// project list's answer): a build created earlier is not this upload's.
	var sent time.Time
	if opts.ProjectID != "" {
		res.Route = registry.RouteProject
		if opts.KnownBuildsRead {
			before = buildIDs(opts.KnownBuilds)
		} else if builds, err := cl.ListBuilds(ctx, opts.ProjectID); err == nil {
			before = buildIDs(builds)
		}
		if opts.GuardRename {
			from, err := guardRename(ctx, cl, opts, res.Presentation)
			if err != nil {
				return nil, err
			}
			if from != "" {
				res.RenamedFrom = from
				log(i18n.T(ctx, "upload.rename-forced", "project", opts.ProjectID, "from", from, "name", res.Presentation))
			}
		}
	} else {
		res.Route = registry.RouteNoProjectID
		snapshot, sent = projectNames(ctx, cl)
	}

	req := uploadRequest(opts, res.Manifest.Str("CommitId"), data, file)
	var found *landing
	change := readback.Change{
		Settle:   readback.SettleOf(cl),
		What:     i18n.T(ctx, "upload.what", "file", filepath.Base(firstNonEmpty(res.File, opts.File))),
		Checking: func(err error) string { return i18n.T(ctx, "upload.may-have-landed", "error", err) },
		Send:     func(ctx context.Context) (any, error) { return cl.Do(ctx, req) },
		Check: func(ctx context.Context) (bool, error) {
			var err error
			found, err = findLanding(ctx, cl, opts, res, before, snapshot, sent, req.Query.Get("commit-id"))
			return found != nil, err
		},
		Log: log,
	}
	if opts.ProjectID != "" {
		change.Look = opts.Hint.Render(ctx, hint.Command{Path: []string{"builds", "list"}, Args: []hint.Arg{hint.Opt("project-id", opts.ProjectID)}})
	}
	answered, err := change.Do(ctx)
	if err != nil {
		return nil, err
	}
	var answer *jsonx.Object
	if found != nil {
		log(i18n.T(ctx, "upload.landed-found", "version", buildlist.Version(found.build), "id", buildlist.ID(found.build)))
		answer = jsonx.New("id", buildlist.ID(found.build), "assembly-version", buildlist.Version(found.build))
		if found.project != nil {
			answer.Set("project-id", found.project.Str("id"))
		}
	} else {
		res.Response = answered.(*platform.Response).Value()
		answer, _ = res.Response.(*jsonx.Object)
	}
	res.AssemblyID = firstString(answer, "image-id", "assembly-id", "id")
	res.ServerVersion = firstString(answer, "assembly-version", "project-version")
	res.Version = res.ServerVersion
	if res.Version == "" {
		res.Version = res.ArchiveVersion
	}

	if opts.ProjectID != "" {
		res.ProjectID = opts.ProjectID
	} else {
		res.Project = landedProject(ctx, cl, answer, res, snapshot, opts)
		if found != nil {
			res.Project.FoundBy = "read-back"
			res.Project.Name = projectName(found.project)
		}
		res.ProjectID = res.Project.ID
	}

	if opts.Record != nil {
		res.RegistryWarning = record(ctx, cl, opts, res)
		if res.RegistryWarning != "" {
			log(res.RegistryWarning)
		}
	}
	return res, nil
}

// MaxArchiveSize bounds the archive an upload sends: the platform takes
// no larger upload. A build archive holds YAML and sources of kilobytes to
// a few megabytes, resources up to this.
const MaxArchiveSize = 256 << 20

// archiveSizeLimit is MaxArchiveSize; a variable so tests reach it with
// small files.
var archiveSizeLimit int64 = MaxArchiveSize

// openArchiveFile opens the archive at path and tells its size, refusing
// a file larger than the limit.
func openArchiveFile(ctx context.Context, path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, &platform.Error{Kind: platform.KindGeneral, Message: i18n.T(ctx, "upload.unreadable", "path", path, "error", err), Err: err}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, &platform.Error{Kind: platform.KindGeneral, Message: i18n.T(ctx, "upload.unreadable", "path", path, "error", err), Err: err}
	}
	if st.Size() > archiveSizeLimit {
		f.Close()
		return nil, 0, platform.NewError(ctx, platform.KindGeneral, "upload.too-large", "path", path, "size", st.Size(), "limit", archiveSizeLimit)
	}
	return f, st.Size(), nil
}

// refused is an archive refused before the upload, with inspect's reason.
func refused(ctx context.Context, file string, cause error) error {
	return &platform.Error{Kind: platform.KindGeneral, Message: i18n.T(ctx, "upload.refused", "error", cause.Error()), Err: cause}
}

// refusalList is the archive's Refusals as one error, in one line.
type refusalList []error

func (l refusalList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

func (l refusalList) Unwrap() []error { return l }

// uploadRequest is the upload's request; the archive is data, or file
// read as it goes out.
func uploadRequest(opts Options, manifestCommit string, data []byte, file *io.SectionReader) platform.Request {
	req := platform.Request{Method: http.MethodPost, Raw: data, RawFrom: file}
	switch {
	case opts.ProjectID != "":
		commit := opts.CommitID
		if commit == "" {
			commit = manifestCommit
		}
		req.Path = "/projects/" + url.PathEscape(opts.ProjectID) + "/assemblies"
		req.Query = url.Values{"space-id": {opts.SpaceID}, "commit-id": {commit}}
	case opts.SpaceID != "":
		req.Path = "/spaces/" + url.PathEscape(opts.SpaceID) + "/projects"
	default:
		req.Path = "/projects"
	}
	return req
}

// guardRename compares the archive's presentation with the project's
// name. It returns the project's name when a rename is forced, "" when
// there is none or either side cannot be read (then the upload goes on:
// the guard only refuses what it is sure of).
func guardRename(ctx context.Context, cl *platform.Client, opts Options, presentation string) (string, error) {
	if presentation == "" {
		return "", nil
	}
	card, err := cl.GetObject(ctx, "/projects/"+url.PathEscape(opts.ProjectID))
	if err != nil {
		return "", nil
	}
	name := card.Str("name")
	if name == "" || name == presentation {
		return "", nil
	}
	if !opts.ForceRename {
		return "", platform.ConfigErrorf(ctx, "upload.rename-refused", "project", opts.ProjectID, "name", name, "archive", presentation)
	}
	return name, nil
}

// projectNames is {id: name} of every project, deleted ones included; nil
// when the list cannot be read.
//
// at is the platform's time of the answer (its Date header), zero when it
// sent none.
func projectNames(ctx context.Context, cl *platform.Client) (names map[string]string, at time.Time) {
	resp, err := cl.Do(ctx, platform.Request{Method: http.MethodGet, Path: "/projects"})
	if err != nil {
		return nil, time.Time{}
	}
	if d, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		at = d
	}
	projects := platform.NormalizeList(resp.Value(), "projects")
	out := make(map[string]string, len(projects))
	for _, p := range projects {
		if id := p.Str("id"); id != "" {
			out[id] = projectName(p)
		}
	}
	return out, at
}

func projectName(p *jsonx.Object) string {
	if n := p.Str("name"); n != "" {
		return n
	}
	return p.Str("presentation")
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func firstString(o *jsonx.Object, keys ...string) string {
	for _, k := range keys {
		if s := strings.TrimSpace(o.Str(k)); s != "" {
			return s
		}
	}
	return ""
}

// record appends the registry line of the upload and returns the warning
// a failed write leaves.
func record(ctx context.Context, cl *platform.Client, opts Options, res *Result) string {
	rec := opts.Record
	reg := rec.Registry
	if reg == nil {
		reg = registry.Default()
	}
	stand := rec.Stand
	if stand == "" {
		stand = cl.Config().BaseURL
	}
	branch, commit := rec.Branch, rec.Commit
	if branch == "" {
		branch = res.Manifest.Str("BranchName")
	}
	if commit == "" {
		commit = opts.CommitID
	}
	if commit == "" {
		commit = res.Manifest.Str("CommitId")
	}
	var file *string
	if res.File != "" {
		file = registry.String(res.File)
	}
	return reg.Append(ctx, registry.Entry{
		AssemblyID: res.AssemblyID,
		ProjectID:  res.ProjectID,
		Version:    res.Version,
		Branch:     branch,
		Commit:     commit,
		Dirty:      rec.Dirty,
		ProjectDir: rec.ProjectDir,
		File:       file,
		Stand:      stand,
		Command:    rec.Command,
		Elemctl:    rec.Elemctl,
		AppID:      rec.AppID,
		Route:      res.Route,
	})
}
