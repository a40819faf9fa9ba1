package catalog

import (
	"context"
	"path/filepath"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/platform"
)

func deployCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"deploy"}, Order: 8, Examples: []string{"elemctl deploy --project-dir src/Acme/CRM", "elemctl deploy --app-id crm-test --project-id PROJECT_ID --require-clean"}, Tool: "deploy", LSP: "deploy",
		Help: "cli.help.deploy", ToolHelp: "mcp.help.deploy", Slow: true, Destructive: true, WritesFiles: true, Lens: "lsp.lens-deploy",
		Args: []command.Argument{
			{Name: "app-id", Help: "cli.arg.deploy-app-id", Type: command.String, Metavar: "APP_ID"},
			{Name: "project-id", Help: "cli.arg.deploy-project-id", Type: command.String, Metavar: "PROJECT_ID"},
			{Name: "project-dir", Help: "cli.arg.project-dir", Type: command.String, Metavar: "DIR"},
			{Name: "output", Help: "cli.arg.deploy-output", Type: command.String, Metavar: "DIR"},
			{Name: "build-version", Help: "cli.arg.deploy-build-version", Type: command.String, Metavar: "VERSION"},
			{Name: "branch", Help: "cli.arg.branch", Type: command.String, Metavar: "BRANCH"},
			{Name: "commit", Help: "cli.arg.commit", Type: command.String, Metavar: "COMMIT"},
			{Name: "dry-run", Help: "cli.arg.deploy-dry-run", Type: command.Bool},
			{Name: "require-clean", Help: "cli.arg.require-clean", Type: command.Bool},
			{Name: "allow-data-loss", Help: "cli.arg.allow-data-loss", Type: command.Bool},
			{Name: "server-start-timeout", Help: "cli.arg.server-start-timeout", Type: command.Float, Default: 900.0, Metavar: "SECONDS"},
		},
		ToolArgs: []command.Argument{
			{Name: "app_id", Help: "mcp.arg.deploy-app-id", Type: command.String, Required: true},
			{Name: "project_id", Help: "mcp.arg.deploy-project-id", Type: command.String, Required: true},
			{Name: "project_dir", Help: "mcp.arg.project-dir", Type: command.String, Default: ""},
			{Name: "version", Key: "build-version", Help: "mcp.arg.deploy-version", Type: command.String, Default: ""},
			{Name: "branch", Help: "mcp.arg.branch", Type: command.String, Default: ""},
			{Name: "allow_data_loss", Help: "mcp.arg.allow-data-loss", Type: command.Bool, Default: false},
			{Name: "server_start_timeout", Help: "mcp.arg.server-start-timeout", Type: command.Int, Default: 900},
		},
	}, runDeploy)
}

// DeployOps prepares the long operations of platform/deploy for one call:
// progress through the call's log and status line, the local registry,
// the adaptive poll policy.
func DeployOps(cc *command.Context, cl *platform.Client) *deploy.Ops {
	return &deploy.Ops{
		Client:   cl,
		Clock:    deploy.RealClock,
		Poll:     deploy.PolicyFromEnv(cc.Env),
		Log:      cc.Log,
		Status:   cc.Status,
		Pending:  cc.Pending,
		Registry: Registry(cc),
		Getenv:   cc.Env,
		Version:  cc.Version,
		Hint:     cc.Hint,
		Arg:      cc.ArgToGive,
	}
}

// localPath resolves a path the caller gave against the call's directory;
// "" is the call's directory itself.
func localPath(cc *command.Context, p string) string {
	if p == "" {
		if cc.Dir != "" {
			return cc.Dir
		}
		return "."
	}
	if !filepath.IsAbs(p) && cc.Dir != "" {
		return filepath.Join(cc.Dir, p)
	}
	return p
}

// requireClean is the --require-clean check: it runs before any client is
// made and before anything is built.
func requireClean(ctx context.Context, cc *command.Context, projectDir string) error {
	dir, err := assembly.FindProjectDir(ctx, localPath(cc, projectDir))
	if err != nil {
		return err
	}
	return assembly.RequireClean(ctx, dir)
}

// deployInput are the arguments runDeploy reads.
type deployInput struct {
	ProjectDir         string  `arg:"project-dir"`
	RequireClean       bool    `arg:"require-clean"`
	Output             string  `arg:"output"`
	DryRun             bool    `arg:"dry-run"`
	AppID              string  `arg:"app-id"`
	ProjectID          string  `arg:"project-id"`
	ServerStartTimeout float64 `arg:"server-start-timeout"`
	BuildVersion       string  `arg:"build-version"`
	AllowDataLoss      bool    `arg:"allow-data-loss"`
	// Branch and Commit override the repository's even when given empty.
	Branch *string `arg:"branch"`
	Commit *string `arg:"commit"`
}

func runDeploy(ctx context.Context, cc *command.Context, in deployInput) (any, error) {
	projectDir := in.ProjectDir
	if in.RequireClean {
		if err := requireClean(ctx, cc, projectDir); err != nil {
			return nil, err
		}
	}
	output := in.Output
	if output != "" {
		output = localPath(cc, output)
	}
	if in.DryRun {
		return deployDryRun(ctx, cc, in, projectDir, output)
	}
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	cfg := cl.Config()
	appRef, appSource := in.AppID, deploy.SourceFlag
	if appRef == "" {
		appRef, appSource = cfg.AppID, deploy.SourceEnv
	}
	if appRef == "" {
		return nil, platform.ConfigErrorf(ctx, "cli.deploy-app-id-missing")
	}
	project, projectSource := in.ProjectID, deploy.SourceFlag
	if project == "" {
		project, projectSource = cfg.ProjectID, deploy.SourceEnv
	}
	if project == "" {
		return nil, platform.ConfigErrorf(ctx, "cli.project-id-missing")
	}
	ops := DeployOps(cc, cl)
	if t := in.ServerStartTimeout; t > 0 {
		ops.ServerStart = time.Duration(t * float64(time.Second))
	}
	dir := localPath(cc, projectDir)
	r, err := ops.Deploy(ctx, deploy.DeployOptions{
		AppRef: appRef, AppIDSource: appSource, ProjectID: project, ProjectIDSource: projectSource,
		ProjectDir: dir, OutputDir: output, Version: in.BuildVersion,
		Branch: in.Branch, Commit: in.Commit, AllowDataLoss: in.AllowDataLoss,
	})
	if err != nil {
		if d := deployDiagnostics(ctx, dir, false, []string{err.Error()}); d != nil {
			return nil, &command.DiagnosedError{Err: err, Diagnostics: d}
		}
		return nil, err
	}
	return deployed(ctx, r, dir), nil
}

// deployed is a deploy's report with its headline, and the project's
// diagnostics: cleared by a deploy that passed, the located compile errors
// among the problems of one that did not.
func deployed(ctx context.Context, r *deploy.Report, dir string) reported {
	out := reported{report: r.JSON(), diagnostics: deployDiagnostics(ctx, dir, r.OK(), r.Problems)}
	name := func(values ...string) string {
		for _, v := range values {
			if v != "" {
				return v
			}
		}
		return ""
	}
	switch {
	case r.OK():
		applied := r.Version
		if r.AppliedVersion != nil && *r.AppliedVersion != "" {
			applied = *r.AppliedVersion
		}
		out.headline = i18n.T(ctx, "verdict.deploy-ok", "app", name(r.AppName, r.AppID), "version", applied)
	case r.Applied != nil && !*r.Applied:
		out.headline = i18n.T(ctx, "verdict.deploy-rolled-back", "version", r.Version, "problem", command.FirstProblem(ctx, out.report))
		out.severity = command.Failure
	}
	return out
}

// deployDiagnostics are the compile errors texts locate in the project of
// dir (nil when they locate none, or the project cannot be read); a clean
// deploy clears the project's.
func deployDiagnostics(ctx context.Context, dir string, clean bool, texts []string) *command.Diagnostics {
	dir, err := assembly.FindProjectDir(ctx, dir)
	if err != nil {
		return nil
	}
	if clean {
		return &command.Diagnostics{ProjectDir: dir}
	}
	desc, err := assembly.ReadDescriptor(ctx, dir)
	if err != nil {
		return nil
	}
	errs := platform.ParseCompileErrors(texts, desc.Vendor+"/"+desc.Name+"/")
	if len(errs) == 0 {
		return nil
	}
	return &command.Diagnostics{ProjectDir: dir, Vendor: desc.Vendor, Name: desc.Name, Errors: errs}
}

// deployDryRun builds only – with the explicit, CI or default version,
// never asking the server for the last build – and names the targets when
// the configuration can be read.
func deployDryRun(ctx context.Context, cc *command.Context, in deployInput, projectDir, output string) (_ any, err error) {
	if output == "" {
		tmp, remove, tmpErr := deploy.TempOutput(ctx, deploy.TempBuildPrefix, cc.Log)
		if tmpErr != nil {
			return nil, tmpErr
		}
		defer func() {
			// Said only once the folder is really gone.
			if remove() && err == nil {
				if param, ok := cc.ArgToGive("output"); ok && cc.Naming != command.CLINames {
					cc.Log(i18n.T(ctx, "deploy.temp-archive-removed-param", "parameter", param))
				} else {
					cc.Log(i18n.T(ctx, "deploy.temp-archive-removed"))
				}
			}
		}()
		output = tmp
	}
	res, err := assembly.Build(ctx, assembly.BuildOptions{ProjectDir: localPath(cc, projectDir), OutputDir: output,
		Version: in.BuildVersion, Branch: in.Branch, Commit: in.Commit, Getenv: cc.Env})
	if err != nil {
		return nil, err
	}
	logBuildWarnings(ctx, cc, res)
	answer := res.JSON()
	if cfg, err := cc.Config(ctx); err == nil {
		app, appSource := targetOf(in.AppID, cfg.AppID)
		project, projectSource := targetOf(in.ProjectID, cfg.ProjectID)
		answer.Set("app-id", app).Set("app-id-source", appSource).Set("project-id", project).Set("project-id-source", projectSource)
	}
	return answer, nil
}

// targetOf is an id with where it came from: the flag, the environment,
// or nowhere.
func targetOf(flag, env string) (any, string) {
	switch {
	case flag != "":
		return flag, deploy.SourceFlag
	case env != "":
		return env, deploy.SourceEnv
	}
	return nil, ""
}

// logBuildWarnings tells what a build left out or packed with doubts.
func logBuildWarnings(ctx context.Context, cc *command.Context, res *assembly.BuildResult) {
	for _, w := range []string{assembly.DirtyWarning(ctx, res.DirtyFiles), assembly.SkippedWarning(ctx, res.SkippedFiles),
		assembly.SOAPWarning(ctx, res.SOAPClientsWithoutDescription)} {
		if w != "" {
			cc.Log(w)
		}
	}
}

var deployMessages = []i18n.Message{
	// The code lenses of a project descriptor.
	{Key: "lsp.lens-deploy", RU: "▶ Развернуть (elemctl)", EN: "▶ Deploy (elemctl)"},
	{Key: "lsp.lens-probe", RU: "Проверить компиляцию", EN: "Probe compilation"},
	{Key: "lsp.lens-verify", RU: "Проверить применение", EN: "Verify the deploy"},
	// The headlines of a deploy and a probe.
	{Key: "verdict.deploy-ok",
		RU: "elemctl deploy: сборка {version} применена, {app} работает на ней",
		EN: "elemctl deploy: build {version} is applied, {app} runs it",
	},
	{Key: "verdict.deploy-rolled-back",
		RU: "elemctl deploy: платформа откатила применение сборки {version} – {problem}",
		EN: "elemctl deploy: the platform rolled the apply of build {version} back – {problem}",
	},
	{Key: "verdict.probe-ok", RU: "elemctl probe: {project} компилируется без ошибок", EN: "elemctl probe: {project} compiles without errors"},
	{Key: "verdict.probe-errors",
		RU: "elemctl probe: ошибок компиляции – {count}; первая: {problem}",
		EN: "elemctl probe: {count} compilation error(s); the first: {problem}",
	},
	{Key: "cli.create-needs-source",
		RU: "не из чего создавать приложение: передайте {version} (id сборки) или {project} – тогда берётся самая новая сборка проекта (по умолчанию ELEMENT_PROJECT_ID стенда)",
		EN: "nothing to create the application from: pass {version} (a build id) or {project} – then the project's newest build is taken (default: the stand's ELEMENT_PROJECT_ID)",
	},
	{Key: "cli.help.deploy",
		RU: "собрать, загрузить в проект, применить и проверить, что приложение действительно работает на новой сборке",
		EN: "build, upload into the project, apply and verify that the application really runs the new build",
	},
	{Key: "mcp.help.deploy",
		RU: "Полный цикл развёртывания (минуты): сборка, загрузка в проект, применение, ожидание и проверка, что платформа не откатила применение. Возвращает отчёт (ok, applied, problems) и log.",
		EN: "The whole deploy cycle (takes minutes): build, upload into the project, apply, wait and verify that the platform did not roll the apply back. Returns the report (ok, applied, problems) and log.",
	},
	{Key: "cli.arg.deploy-app-id", RU: "приложение: id или точное имя (по умолчанию ELEMENT_APP_ID)", EN: "the application: id or exact name (default ELEMENT_APP_ID)"},
	{Key: "cli.arg.deploy-project-id", RU: "проект (по умолчанию ELEMENT_PROJECT_ID)", EN: "the project (default ELEMENT_PROJECT_ID)"},
	{Key: "cli.arg.project-dir", RU: "каталог проекта или каталог над ним (по умолчанию текущий)", EN: "the project directory or one above it (default: the current one)"},
	{Key: "cli.arg.deploy-output", RU: "куда положить архив (по умолчанию временный каталог)", EN: "where to put the archive (default: a temporary directory)"},
	{Key: "cli.arg.deploy-build-version", RU: "версия сборки как есть (иначе номер считается от последней сборки проекта)", EN: "the build version as is (else the number is counted on from the project's last build)"},
	{Key: "cli.arg.branch", RU: "ветка в манифесте вместо git (пустая строка тоже считается)", EN: "the branch for the manifest instead of git (an empty string counts too)"},
	{Key: "cli.arg.commit", RU: "коммит в манифесте вместо git (пустая строка тоже считается)", EN: "the commit for the manifest instead of git (an empty string counts too)"},
	{Key: "cli.arg.deploy-dry-run", RU: "только собрать и показать цели, без сети", EN: "build only and show the targets, no network"},
	{Key: "cli.arg.require-clean", RU: "отказаться, если в каталоге проекта есть незафиксированные изменения", EN: "refuse when the project directory has uncommitted changes"},
	{Key: "cli.arg.allow-data-loss", RU: "применять, даже если проверка схемы нашла потерю данных", EN: "apply even when the schema check finds data loss"},
	{Key: "cli.arg.server-start-timeout", RU: "сколько секунд ждать запускающийся сервер на каждый его простой (0 – не ждать)", EN: "how many seconds to wait for a starting server per outage (0 = do not wait)"},
	{Key: "mcp.arg.deploy-app-id", RU: "приложение: id или точное имя", EN: "the application: id or exact name"},
	{Key: "mcp.arg.deploy-project-id", RU: "проект, в который загружается сборка", EN: "the project the build is uploaded into"},
	{Key: "mcp.arg.project-dir", RU: "каталог проекта или каталог над ним; пусто – текущий", EN: "the project directory or one above it; empty = the current one"},
	{Key: "mcp.arg.deploy-version", RU: "версия сборки; пусто – следующий номер", EN: "the build version; empty = the next number"},
	{Key: "mcp.arg.branch", RU: "ветка для манифеста; пусто – из git", EN: "the branch for the manifest; empty = from git"},
	{Key: "mcp.arg.allow-data-loss", RU: "применять, даже если проверка схемы нашла потерю данных", EN: "apply even when the schema check finds data loss"},
	{Key: "mcp.arg.server-start-timeout", RU: "секунд ждать запускающийся сервер (0 – не ждать)", EN: "seconds to wait for a starting server (0 = do not wait)"},
	{Key: "cli.deploy-app-id-missing",
		RU: "не задано --app-id (или ELEMENT_APP_ID)",
		EN: "--app-id (or ELEMENT_APP_ID) is not set",
	},

	{Key: "cli.help.probe",
		RU: "скомпилировать проект на платформе во временном приложении и убрать всё за собой (probe --cleanup APP_ID – убрать оставленное)",
		EN: "compile the project on the platform in a throwaway application and clean up after itself (probe --cleanup APP_ID removes leftovers)",
	},
	{Key: "mcp.help.probe",
		RU: "Проверка компиляции (минуты): загрузка без проекта, временное приложение, ошибки с файлом, строкой и колонкой, уборка. Реальные приложения не трогает. Возвращает отчёт и log.",
		EN: "A compilation check (takes minutes): upload without a project, a throwaway application, errors with file, line and column, cleanup. Never touches real applications. Returns the report and log.",
	},
	{Key: "mcp.help.probe-cleanup",
		RU: "Убрать то, что оставила проба (--keep или прерванная): приложение, её сборки и проект. Чужие приложения не трогает.",
		EN: "Remove what a probe left (with --keep or interrupted): the application, its builds and the project. Refuses applications no probe left.",
	},
	{Key: "cli.arg.probe-output", RU: "куда положить архив (по умолчанию временный каталог, удаляется)", EN: "where to put the archive (default: a temporary directory, removed afterwards)"},
	{Key: "cli.arg.probe-build-version", RU: "версия сборки (по умолчанию {base}-probe-<метка>)", EN: "the build version (default {base}-probe-<token>)"},
	{Key: "cli.arg.probe-name", RU: "имя временного приложения (по умолчанию elemctl-probe-<метка>)", EN: "the throwaway application's name (default elemctl-probe-<token>)"},
	{Key: "cli.arg.probe-space-id", RU: "пространство (по умолчанию ELEMENT_SPACE_ID)", EN: "the space (default ELEMENT_SPACE_ID)"},
	{Key: "cli.arg.probe-keep", RU: "ничего не удалять и напечатать команды уборки", EN: "delete nothing and print the cleanup commands"},
	{Key: "cli.arg.probe-cleanup", RU: "убрать оставленное пробой приложение (ключ можно повторить, по значению на каждый)", EN: "remove an application a probe left (the key may be repeated, one value each)"},
	{Key: "mcp.arg.probe-space-id", RU: "пространство; пусто – ELEMENT_SPACE_ID", EN: "the space; empty = ELEMENT_SPACE_ID"},
	{Key: "mcp.arg.probe-keep", RU: "ничего не удалять", EN: "delete nothing"},
	{Key: "mcp.arg.probe-cleanup-app-id", RU: "приложение пробы (id или имя) или их список", EN: "a probe's application (id or name) or a list of them"},
	{Key: "cli.probe-cleanup-run-flags",
		RU: "probe --cleanup убирает оставленное и не запускает пробу – уберите флаги запуска: {flags}",
		EN: "probe --cleanup removes leftovers and runs no probe – drop the run flags: {flags}",
	},
	{Key: "cli.probe-cleanup-empty",
		RU: "probe --cleanup: не указано приложение",
		EN: "probe --cleanup: no application given",
	},

	{Key: "cli.help.apps-create", RU: "создать приложение из сборки (и дождаться, проверить)", EN: "create an application from a build (and wait, verify)"},
	{Key: "cli.help.apps-ensure", RU: "создать приложение, если его нет; у существующего – сверить сборку", EN: "create the application unless it exists; for an existing one compare the build"},
	{Key: "mcp.help.create-app",
		RU: "Создать приложение из сборки (без version_id – из новейшей сборки проекта). С verify ждёт готовности (минуты) и проверяет сборку. Ответ с sign-in: входить учётной записью панели управления.",
		EN: "Create an application from a build (without version_id: the project's newest build). With verify it waits for readiness (minutes) and verifies the build. The answer has sign-in: sign in with a control-panel account.",
	},
	{Key: "mcp.help.ensure-app",
		RU: "Как create_app, но существующее приложение с таким именем не пересоздаётся: ответ {id, created: false, sign-in} говорит, работает ли оно на version_id (applied); отсутствующее создаётся – created: true.",
		EN: "Like create_app, but an existing application of the name is not recreated: the answer {id, created: false, sign-in} says whether it runs version_id (applied); an absent one is created – created: true.",
	},
	{Key: "cli.arg.create-name", RU: "имя приложения (display-name и publication-context)", EN: "the application's name (display-name and publication-context)"},
	{Key: "cli.arg.create-project-id", RU: "проект (по умолчанию ELEMENT_PROJECT_ID)", EN: "the project (default ELEMENT_PROJECT_ID)"},
	{Key: "cli.arg.create-version-id", RU: "id сборки, из которой создать", EN: "the id of the build to create from"},
	{Key: "cli.arg.create-latest-build", RU: "взять новейшую сборку проекта", EN: "take the project's newest build"},
	{Key: "cli.arg.create-space-id", RU: "пространство (по умолчанию ELEMENT_SPACE_ID)", EN: "the space (default ELEMENT_SPACE_ID)"},
	{Key: "cli.arg.create-tech-version", RU: "версия технологии", EN: "the technology version"},
	{Key: "cli.arg.create-no-dev-mode", RU: "без среды разработки", EN: "without the development environment"},
	{Key: "cli.arg.create-wait", RU: "дождаться готовности (и проверить сборку)", EN: "wait for readiness (and verify the build)"},
	{Key: "cli.arg.create-verify", RU: "проверить сборку (с ожиданием)", EN: "verify the build (waits)"},
	{Key: "cli.arg.create-no-verify", RU: "не проверять сборку после ожидания", EN: "do not verify the build after the wait"},
	{Key: "cli.arg.ensure-apply", RU: "применить --version-id к существующему приложению, если оно на другой сборке", EN: "apply --version-id to an existing application that runs another build"},
	{Key: "mcp.arg.create-name", RU: "имя приложения", EN: "the application's name"},
	{Key: "mcp.arg.create-project-id", RU: "проект; пусто – ELEMENT_PROJECT_ID", EN: "the project; empty = ELEMENT_PROJECT_ID"},
	{Key: "mcp.arg.create-version-id", RU: "id сборки; пусто – новейшая сборка проекта", EN: "the build id; empty = the project's newest build"},
	{Key: "mcp.arg.create-space-id", RU: "пространство; пусто – ELEMENT_SPACE_ID", EN: "the space; empty = ELEMENT_SPACE_ID"},
	{Key: "mcp.arg.create-development-mode", RU: "со средой разработки", EN: "with the development environment"},
	{Key: "mcp.arg.create-verify", RU: "дождаться готовности и проверить сборку", EN: "wait for readiness and verify the build"},

	{Key: "cli.help.apps-apply", RU: "применить сборку к приложению, дождаться и проверить", EN: "apply a build to the application, wait and verify"},
	{Key: "cli.arg.apply-version-id", RU: "id сборки", EN: "the build id"},
	{Key: "mcp.help.apply-build",
		RU: "Начать применение сборки к приложению и сразу вернуть ответ платформы (без ожидания; проверка – verify_deploy).",
		EN: "Start applying a build to an application and return the platform's answer at once (no wait; check with verify_deploy).",
	},
	{Key: "mcp.arg.apply-app-id", RU: "id приложения (как есть, без поиска по имени)", EN: "the application id (as is, no name lookup)"},
	{Key: "mcp.arg.apply-version-id", RU: "id сборки", EN: "the build id"},

	{Key: "cli.help.verify-deploy", RU: "проверить, что приложение работает на нужной сборке (без развёртывания)", EN: "verify that the application runs the right build (no deploy)"},
	{Key: "mcp.help.verify-deploy",
		RU: "Проверить применение: упавшие задачи за последние минуты, сборка на карточке (или в строке расширения), адрес. Отчёт с ok и problems.",
		EN: "Verify an apply: failed tasks of the last minutes, the build on the card (or the extension row), the address. A report with ok and problems.",
	},
	{Key: "cli.arg.verify-version-id", RU: "ожидаемый id сборки", EN: "the expected build id"},
	{Key: "cli.arg.verify-expected-version", RU: "ожидаемая версия", EN: "the expected version"},
	{Key: "cli.arg.verify-since-minutes", RU: "за сколько минут смотреть упавшие задачи", EN: "how many minutes back failed tasks count"},
	{Key: "mcp.arg.verify-expected-version", RU: "ожидаемая версия", EN: "the expected version"},
	{Key: "mcp.arg.verify-expected-assembly-id", RU: "ожидаемый id сборки", EN: "the expected build id"},
	{Key: "mcp.arg.verify-since-minutes", RU: "за сколько минут смотреть упавшие задачи", EN: "how many minutes back failed tasks count"},

	{Key: "cli.help.build", RU: "собрать архив проекта (.xasm/.xlib) локально, без сервера", EN: "pack the project archive (.xasm/.xlib) locally, no server"},
	{Key: "cli.arg.build-output", RU: "каталог для архива (по умолчанию текущий)", EN: "the archive's directory (default: the current one)"},
	{Key: "cli.arg.build-build-version", RU: "версия сборки как есть", EN: "the build version as is"},
	{Key: "cli.arg.build-last-build", RU: "последняя сборка: номер считается от неё", EN: "the last build: the number is counted on from it"},
	{Key: "cli.arg.build-kind", RU: "вид проекта: application, library или extension (или по-русски)", EN: "the project kind: application, library or extension (Russian words too)"},
	{Key: "mcp.help.build-assembly",
		RU: "Собрать архив проекта локально (без сервера). Ответ {file, version, kind}.",
		EN: "Pack the project archive locally (no server). Answers {file, version, kind}.",
	},
	{Key: "mcp.arg.build-output-dir", RU: "каталог для архива; пусто – текущий", EN: "the archive's directory; empty = the current one"},
	{Key: "mcp.arg.build-version", RU: "версия сборки; пусто – CI-номер или {base}-1", EN: "the build version; empty = the CI number or {base}-1"},
	{Key: "cli.help.inspect", RU: "разобрать архив сборки: манифест, проект, подсистемы, глобальные типы", EN: "read a build archive: manifest, project, subsystems, global types"},
	{Key: "cli.arg.inspect-file", RU: "файл .xasm/.xlib", EN: "the .xasm/.xlib file"},
	{Key: "mcp.help.inspect-assembly",
		RU: "Разобрать архив сборки локально: манифест, проект, подсистемы, глобальные типы.",
		EN: "Read a build archive locally: manifest, project, subsystems, global types.",
	},
	{Key: "mcp.arg.inspect-file", RU: "путь к файлу .xasm/.xlib", EN: "the path of the .xasm/.xlib file"},
}
