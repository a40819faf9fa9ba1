package command

import (
	"context"
	"os"
	"path/filepath"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
)

func buildsUploadCommand() *Command {
	return &Command{
		Path: []string{"builds", "upload"},
		Help: "cli.help.builds-upload",
		Args: []Argument{
			{Name: "file", Help: "cli.arg.upload-file", Type: String, Positional: true, Required: true, Metavar: "FILE"},
			{Name: "project-id", Help: "cli.arg.upload-project-id", Type: String, Metavar: "PROJECT_ID"},
			{Name: "new-project", Help: "cli.arg.upload-new-project", Type: Bool},
			{Name: "force-rename", Help: "cli.arg.upload-force-rename", Type: Bool},
			{Name: "space-id", Help: "cli.arg.upload-space-id", Type: String, Metavar: "SPACE_ID"},
		},
		Run: runBuildsUpload,
	}
}

// Sources of the project id in the upload answer.
const (
	sourceFlag   = "flag"
	sourceEnv    = "env"
	sourceServer = "server"
)

func runBuildsUpload(ctx context.Context, cc *Context, in Values) (any, error) {
	file := in.Str("file")
	path := file
	if !filepath.IsAbs(path) && cc.Dir != "" {
		path = filepath.Join(cc.Dir, path)
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil, platform.ConfigErrorf("cli.upload-file-missing", "path", file)
	}
	if in.Bool("new-project") && in.Str("project-id") != "" {
		return nil, platform.ConfigErrorf("cli.upload-new-project-and-id")
	}
	cl, err := cc.Client()
	if err != nil {
		return nil, err
	}
	cfg := cl.Config()
	project, source := "", ""
	switch {
	case in.Bool("new-project"):
	case in.Str("project-id") != "":
		project, source = in.Str("project-id"), sourceFlag
	case cfg.ProjectID != "":
		project, source = cfg.ProjectID, sourceEnv
		cc.Log(i18n.T("cli.upload-project-from-env", "project", project))
	}
	space := in.Str("space-id")
	if space == "" {
		space = cfg.SpaceID
	}
	res, err := upload.Upload(ctx, cl, upload.Options{
		File:        path,
		ProjectID:   project,
		SpaceID:     space,
		GuardRename: true,
		ForceRename: in.Bool("force-rename"),
		Record:      &upload.Record{Registry: Registry(cc), Command: registry.CommandBuildUpload, Elemctl: cc.Version},
		Log:         cc.Log,
		Hint:        cc.Hint,
	})
	if err != nil {
		return nil, err
	}
	if res.Renumbered() {
		cc.Log(i18n.T("cli.upload-renumbered", "version", res.ServerVersion, "archive", res.ArchiveVersion))
	}
	var assemblyID, projectID, projectSource any
	if res.AssemblyID != "" {
		assemblyID = res.AssemblyID
	}
	out := jsonx.New()
	out.Set("assembly-id", assemblyID)
	if res.Project == nil {
		projectID, projectSource = project, source
		out.Set("project-id", projectID).Set("project-id-source", projectSource)
	} else {
		cc.Log(res.Project.Line())
		if res.Project.ID != "" {
			projectID, projectSource = res.Project.ID, sourceServer
		}
		out.Set("project-id", projectID).Set("project-id-source", projectSource).Set("project", res.Project.JSON())
	}
	out.Set("response", res.Response)
	return out, nil
}
