package catalog

import (
	"context"
	"os"
	"path/filepath"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
)

func buildsUploadCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"builds", "upload"}, Order: 3, Examples: []string{"elemctl builds upload \"Acme CRM 1.0-12.xasm\" --project-id PROJECT_ID"},
		Help: "cli.help.builds-upload",
		Args: []command.Argument{
			{Name: "file", Help: "cli.arg.upload-file", Type: command.String, Positional: true, Required: true, Metavar: "FILE"},
			{Name: "project-id", Help: "cli.arg.upload-project-id", Type: command.String, Metavar: "PROJECT_ID"},
			{Name: "new-project", Help: "cli.arg.upload-new-project", Type: command.Bool},
			{Name: "force-rename", Help: "cli.arg.upload-force-rename", Type: command.Bool},
			{Name: "space-id", Help: "cli.arg.upload-space-id", Type: command.String, Metavar: "SPACE_ID"},
		},
	}, runBuildsUpload)
}

// Sources of the project id in the upload answer.
const (
	sourceFlag   = "flag"
	sourceEnv    = "env"
	sourceServer = "server"
)

// buildsUploadInput are the arguments runBuildsUpload reads.
type buildsUploadInput struct {
	File        string `arg:"file"`
	NewProject  bool   `arg:"new-project"`
	ProjectID   string `arg:"project-id"`
	SpaceID     string `arg:"space-id"`
	ForceRename bool   `arg:"force-rename"`
}

func runBuildsUpload(ctx context.Context, cc *command.Context, in buildsUploadInput) (any, error) {
	file := in.File
	path := file
	if !filepath.IsAbs(path) && cc.Dir != "" {
		path = filepath.Join(cc.Dir, path)
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil, platform.ConfigErrorf(ctx, "cli.upload-file-missing", "path", file)
	}
	if in.NewProject && in.ProjectID != "" {
		return nil, platform.ConfigErrorf(ctx, "cli.upload-new-project-and-id")
	}
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	cfg := cl.Config()
	project, source := "", ""
	switch {
	case in.NewProject:
	case in.ProjectID != "":
		project, source = in.ProjectID, sourceFlag
	case cfg.ProjectID != "":
		project, source = cfg.ProjectID, sourceEnv
		cc.Log(i18n.T(ctx, "cli.upload-project-from-env", "project", project))
	}
	space := in.SpaceID
	if space == "" {
		space = cfg.SpaceID
	}
	res, err := upload.Upload(ctx, cl, upload.Options{
		File:        path,
		ProjectID:   project,
		SpaceID:     space,
		GuardRename: true,
		ForceRename: in.ForceRename,
		Record:      &upload.Record{Registry: Registry(cc), Command: registry.CommandBuildUpload, Elemctl: cc.Version},
		Log:         cc.Log,
		Hint:        cc.Hint,
	})
	if err != nil {
		return nil, err
	}
	if res.Renumbered() {
		cc.Log(i18n.T(ctx, "cli.upload-renumbered", "version", res.ServerVersion, "archive", res.ArchiveVersion))
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
		cc.Log(res.Project.Line(ctx))
		if res.Project.ID != "" {
			projectID, projectSource = res.Project.ID, sourceServer
		}
		out.Set("project-id", projectID).Set("project-id-source", projectSource).Set("project", res.Project.JSON())
	}
	out.Set("response", res.Response)
	return out, nil
}
