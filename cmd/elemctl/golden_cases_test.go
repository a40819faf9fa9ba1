package main

import (
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/dist"
	"github.com/elemctl/elemctl/internal/selfupdate/updatetest"
)

// goldenCall is one case of a command: its command line (words split at
// spaces; {name} takes a value of the case, which may hold spaces) and
// its tool arguments (a JSON template). "" leaves the face out.
type goldenCall struct{ cli, mcp string }

// goldenStep is a command run before the case; into names the value its
// answer gives at path (dot-separated keys and indexes).
type goldenStep struct{ cli, into, path string }

// goldenCase pins a command's success ("ok") and its main failure
// ("fail"): the error it is most often refused with, or the report of a
// run that failed where the command reports one.
type goldenCase struct {
	command string
	// own gives each case a stand of its own: the command changes what
	// other cases read.
	own bool
	// server: the command serves until stopped; its success answer is
	// the JSON it prints on stdout once it listens, then it is
	// interrupted and its exit code recorded.
	server bool
	// env changes the binary's environment ("" removes a variable).
	env map[string]string
	// failEnv is the environment of the failure when it differs.
	failEnv map[string]string
	// setup prepares what a command line cannot (for the kind of case).
	setup    func(t *testing.T, r *goldenRun, kind string)
	prep     []goldenStep
	ok, fail goldenCall
	// more are further cases worth pinning: an answer of another shape.
	more []goldenMore
}

// goldenMore is a further case of a command, named by kind; it runs on
// a stand of its own after its own preparing steps.
type goldenMore struct {
	kind string
	prep []goldenStep
	call goldenCall
}

// kinds are the names of the command's cases.
func (c goldenCase) kinds() []string {
	kinds := []string{"ok", "fail"}
	for _, m := range c.more {
		kinds = append(kinds, m.kind)
	}
	return kinds
}

// run is what a case of kind does: its preparing steps, its call and
// whether it needs a stand of its own.
func (c goldenCase) run(kind string) (prep []goldenStep, call goldenCall, own bool) {
	switch kind {
	case "ok":
		return c.prep, c.ok, c.own
	case "fail":
		return c.prep, c.fail, c.own
	}
	for _, m := range c.more {
		if m.kind == kind {
			return m.prep, m.call, true
		}
	}
	return nil, goldenCall{}, false
}

func (c goldenCase) call(kind, face string) *goldenCall {
	_, call, _ := c.run(kind)
	if (face == "cli" && call.cli == "") || (face == "mcp" && call.mcp == "") {
		return nil
	}
	return &call
}

func (c goldenCase) tool() string { return findCommand(c.command).Tool }

func findCommand(name string) *command.Command {
	for _, cmd := range catalog.Core().Commands() {
		if cmd.Name() == name {
			return cmd
		}
	}
	return nil
}

// Values every case has: {app}, {app-name}, {project}, {space} (the
// demo), {home} (the case's directory, the current one), {project-dir}
// (the demo project copied there), {broken-dir} (the same with a compile
// error), {panel} (the control panel's user list), {wrong-env} (an .env
// with a wrong secret), {stand-host} (the stand's host:port).
const goldenUnknownID = "01900000-0000-7000-8000-0000000000aa"

// Preparing steps shared by cases.
var (
	stepBuildID = goldenStep{cli: "builds get 1.0-2 --project-id {project}", into: "build", path: "id"}
	stepBranch  = goldenStep{cli: "branches create feature-a --project-id {project} --app-id {app}", into: "branch", path: "id"}
	stepBroken  = []goldenStep{
		{cli: "build --project-dir {broken-dir} --build-version 1.0-9 --output {home}/dist", into: "broken-file", path: "file"},
		{cli: "builds upload {broken-file} --project-id {project}", into: "broken-build", path: "assembly-id"},
	}
	stepKeptProbe  = goldenStep{cli: "probe --project-dir {project-dir} --output {home}/dist --keep", into: "probe-app", path: "app-id"}
	stepFreshProbe = goldenStep{cli: "probe --project-dir {fresh-dir} --output {home}/dist --keep", into: "probe-app", path: "app-id"}
	stepDump       = goldenStep{cli: "dumps create {app} --description before", into: "dump", path: "id"}
	stepExtProject = goldenStep{cli: "builds upload {home}/ext.xasm --new-project", into: "ext-project", path: "project.id"}
)

var goldenCases = []goldenCase{
	// Applications.
	{command: "apps list",
		ok:   goldenCall{"apps list", `{}`},
		fail: goldenCall{"apps list --env-file {wrong-env}", `{"env_file":"{wrong-env}"}`},
		// The brief cards (list_apps gives them by default).
		more: []goldenMore{{kind: "brief", call: goldenCall{cli: "apps list --brief"}}}},
	{command: "apps get",
		ok:   goldenCall{"apps get {app}", `{"app_id":"{app}"}`},
		fail: goldenCall{"apps get no-such-app", `{"app_id":"no-such-app"}`}},
	{command: "apps find",
		ok:   goldenCall{"apps find {app-name}", `{"name":"{app-name}"}`},
		fail: goldenCall{"apps find no-such-app", `{"name":"no-such-app"}`}},
	{command: "apps debug",
		ok:   goldenCall{"apps debug {app}", `{"app_id":"{app}"}`},
		fail: goldenCall{"apps debug no-such-app", `{"app_id":"no-such-app"}`}},
	{command: "apps users",
		ok:   goldenCall{"apps users {app}", `{"app_id":"{app}"}`},
		fail: goldenCall{"apps users no-such-app", `{"app_id":"no-such-app"}`}},
	{command: "apps export",
		ok:   goldenCall{"apps export {app} --output {home}/out/", `{"app_id":"{app}","output":"{home}/out/"}`},
		fail: goldenCall{"apps export no-such-app", `{"app_id":"no-such-app"}`}},
	{command: "apps export-extension", own: true,
		prep: []goldenStep{{cli: "builds upload {home}/ext.xasm --new-project", into: "ext-build", path: "assembly-id"},
			{cli: "apps apply {app} {ext-build}"}},
		ok:   goldenCall{"apps export-extension {app} CrmExtras --output {home}/out/", `{"app_id":"{app}","extension":"CrmExtras","output":"{home}/out/"}`},
		fail: goldenCall{"apps export-extension {app} NoSuchExtension", `{"app_id":"{app}","extension":"NoSuchExtension"}`}},
	{command: "apps token-access", own: true,
		ok:   goldenCall{"apps token-access {app} --user demo --enable", `{"app_id":"{app}","user":"demo","enabled":true}`},
		fail: goldenCall{"apps token-access {app} --user nobody --enable", `{"app_id":"{app}","user":"nobody","enabled":true}`},
		// Several users: one entry each, a refusal among them.
		more: []goldenMore{{kind: "several",
			call: goldenCall{"apps token-access {app} --user demo --user nobody --enable", `{"app_id":"{app}","user":["demo","nobody"],"enabled":true}`}}}},
	{command: "apps start", own: true,
		prep: []goldenStep{{cli: "apps stop {app}"}},
		ok:   goldenCall{"apps start {app}", `{"app_id":"{app}"}`},
		fail: goldenCall{"apps start no-such-app", `{"app_id":"no-such-app"}`}},
	{command: "apps stop", own: true,
		ok:   goldenCall{"apps stop {app}", `{"app_id":"{app}"}`},
		fail: goldenCall{"apps stop no-such-app", `{"app_id":"no-such-app"}`}},
	{command: "apps delete", own: true,
		ok:   goldenCall{"apps delete {app}", `{"app_id":"{app}"}`},
		fail: goldenCall{"apps delete no-such-app", `{"app_id":"no-such-app"}`}},
	{command: "apps apply", own: true, prep: append([]goldenStep{stepBuildID}, stepBroken...),
		ok:   goldenCall{cli: "apps apply {app} {build}"},
		fail: goldenCall{cli: "apps apply {app} {broken-build}"}},
	// apply_build answers as soon as the platform took the apply: a
	// build the platform does not know is its failure.
	{command: "apply_build", own: true, prep: []goldenStep{stepBuildID},
		ok:   goldenCall{mcp: `{"app_id":"{app}","version_id":"{build}"}`},
		fail: goldenCall{mcp: `{"app_id":"{app}","version_id":"` + goldenUnknownID + `"}`}},
	{command: "apps create", own: true,
		ok:   goldenCall{"apps create crm-dev --project-id {project} --latest-build --wait", `{"name":"crm-dev","project_id":"{project}"}`},
		fail: goldenCall{"apps create crm-none", `{"name":"crm-none"}`}},
	{command: "apps ensure", own: true,
		ok:   goldenCall{"apps ensure crm-one --project-id {project} --latest-build --wait", `{"name":"crm-one","project_id":"{project}"}`},
		fail: goldenCall{"apps ensure crm-none", `{"name":"crm-none"}`},
		// The application is there and runs another build: nothing is
		// applied, the answer says which build runs.
		more: []goldenMore{{kind: "existing", prep: []goldenStep{stepBuildID},
			call: goldenCall{"apps ensure {app-name} --version-id {build}", `{"name":"{app-name}","version_id":"{build}"}`}}}},
	{command: "verify-deploy",
		ok:   goldenCall{"verify-deploy {app} --expected-version 1.0-3", `{"app_id":"{app}","expected_version":"1.0-3"}`},
		fail: goldenCall{"verify-deploy {app} --expected-version 1.0-9", `{"app_id":"{app}","expected_version":"1.0-9"}`}},

	// Deploying and probing.
	{command: "deploy", own: true,
		ok: goldenCall{"deploy --app-id {app} --project-id {project} --project-dir {project-dir} --output {home}/dist",
			`{"app_id":"{app}","project_id":"{project}","project_dir":"{project-dir}"}`},
		fail: goldenCall{"deploy --app-id {app} --project-id {project} --project-dir {broken-dir} --output {home}/dist",
			`{"app_id":"{app}","project_id":"{project}","project_dir":"{broken-dir}"}`},
		// --dry-run builds only: the build's answer and the target.
		more: []goldenMore{{kind: "dry-run",
			call: goldenCall{cli: "deploy --dry-run --app-id {app} --project-id {project} --project-dir {project-dir} --output {home}/dist"}}}},
	{command: "probe", own: true,
		ok:   goldenCall{"probe --project-dir {project-dir} --output {home}/dist", `{"project_dir":"{project-dir}"}`},
		fail: goldenCall{"probe --project-dir {broken-dir} --output {home}/dist", `{"project_dir":"{broken-dir}"}`},
		more: []goldenMore{
			// probe --cleanup of a probe kept on purpose: in the demo
			// project, which stays; in a project the probe created, which
			// goes; and again once that is gone.
			{kind: "cleanup", prep: []goldenStep{stepKeptProbe}, call: goldenCall{cli: "probe --cleanup {probe-app}"}},
			{kind: "cleanup-created", prep: []goldenStep{stepFreshProbe}, call: goldenCall{cli: "probe --cleanup {probe-app}"}},
			{kind: "cleanup-again", prep: []goldenStep{stepFreshProbe, {cli: "probe --cleanup {probe-app}"}}, call: goldenCall{cli: "probe --cleanup {probe-app}"}},
			// Several at once: one report each, a refusal among them.
			{kind: "cleanup-several", prep: []goldenStep{stepKeptProbe}, call: goldenCall{cli: "probe --cleanup {probe-app} --cleanup {app}"}},
			// --keep leaves it all and says how to remove it.
			{kind: "keep", call: goldenCall{"probe --project-dir {project-dir} --output {home}/dist --keep", `{"project_dir":"{project-dir}","keep":true}`}},
			// A probe of a project the stand does not know creates it and
			// deletes it afterwards.
			{kind: "created", call: goldenCall{"probe --project-dir {fresh-dir} --output {home}/dist", `{"project_dir":"{fresh-dir}"}`}},
		}},
	{command: "probe_cleanup", own: true,
		prep: []goldenStep{stepKeptProbe},
		ok:   goldenCall{mcp: `{"app_id":"{probe-app}"}`},
		fail: goldenCall{mcp: `{"app_id":"{app}"}`},
		// Several applications: one report each, a refusal among them.
		more: []goldenMore{{kind: "several", prep: []goldenStep{stepKeptProbe},
			call: goldenCall{mcp: `{"app_id":["{probe-app}","{app}"]}`}}}},

	// Builds and archives.
	{command: "build",
		ok:   goldenCall{cli: "build --project-dir {project-dir} --build-version 1.0-9 --output {home}/dist"},
		fail: goldenCall{cli: "build --project-dir {home}/nowhere --output {home}/dist"}},
	{command: "build_assembly",
		ok:   goldenCall{mcp: `{"project_dir":"{project-dir}","output_dir":"{home}/dist","version":"1.0-9"}`},
		fail: goldenCall{mcp: `{"project_dir":"{home}/nowhere","output_dir":"{home}/dist"}`}},
	{command: "inspect",
		prep: []goldenStep{{cli: "build --project-dir {project-dir} --build-version 1.0-9 --output {home}/dist", into: "file", path: "file"}},
		ok:   goldenCall{"inspect {file}", `{"file":"{file}"}`},
		fail: goldenCall{"inspect {home}/missing.xasm", `{"file":"{home}/missing.xasm"}`}},
	{command: "builds list",
		ok:   goldenCall{"builds list --project-id {project}", `{"project_id":"{project}"}`},
		fail: goldenCall{"builds list --project-id " + goldenUnknownID, `{"project_id":"` + goldenUnknownID + `"}`},
		more: []goldenMore{
			// An extension project's builds are deleted by hand only.
			{kind: "extension", prep: []goldenStep{stepExtProject},
				call: goldenCall{"builds list --project-id {ext-project}", `{"project_id":"{ext-project}"}`}},
			// The brief cards (list_builds gives them by default), every
			// build (a limit of 0 or below cuts nothing).
			{kind: "brief", call: goldenCall{"builds list --project-id {project} --brief --limit -1", `{"project_id":"{project}","limit":-1}`}},
		}},
	{command: "builds get",
		ok:   goldenCall{"builds get 1.0-3 --project-id {project}", `{"project_id":"{project}","version":"1.0-3"}`},
		fail: goldenCall{"builds get 9.9-9 --project-id {project}", `{"project_id":"{project}","version":"9.9-9"}`}},
	{command: "builds delete", own: true,
		ok:   goldenCall{cli: "builds delete 1.0-1 --project-id {project}"},
		fail: goldenCall{cli: "builds delete 9.9-9 --project-id {project}"}},
	{command: "builds upload", own: true,
		prep: []goldenStep{{cli: "build --project-dir {project-dir} --build-version 1.0-9 --output {home}/dist", into: "file", path: "file"}},
		ok:   goldenCall{cli: "builds upload {file} --project-id {project}"},
		fail: goldenCall{cli: "builds upload {home}/missing.xasm --project-id {project}"},
		// Without a project id the platform picks the project: the answer
		// says which (the "project" object).
		more: []goldenMore{{kind: "new-project", call: goldenCall{cli: "builds upload {home}/ext.xasm --new-project"}}}},

	// Projects, spaces, branches.
	{command: "projects list",
		ok:   goldenCall{"projects list", `{}`},
		fail: goldenCall{"projects list --env-file {wrong-env}", `{"env_file":"{wrong-env}"}`}},
	{command: "projects get",
		ok:   goldenCall{cli: "projects get {project}"},
		fail: goldenCall{cli: "projects get " + goldenUnknownID}},
	{command: "projects delete", own: true, prep: []goldenStep{stepExtProject},
		ok: goldenCall{cli: "projects delete {ext-project}"},
		// The demo project is refused: its application runs it.
		fail: goldenCall{cli: "projects delete {project}"}},
	{command: "spaces list",
		ok:   goldenCall{"spaces list", `{}`},
		fail: goldenCall{"spaces list --env-file {wrong-env}", `{"env_file":"{wrong-env}"}`}},
	{command: "branches list", own: true, prep: []goldenStep{stepBranch},
		ok:   goldenCall{"branches list --project-id {project}", `{"project_id":"{project}"}`},
		fail: goldenCall{"branches list --env-file {wrong-env}", `{"env_file":"{wrong-env}"}`}},
	{command: "branches get", own: true, prep: []goldenStep{stepBranch},
		ok:   goldenCall{cli: "branches get {branch}"},
		fail: goldenCall{cli: "branches get " + goldenUnknownID}},
	{command: "branches create", own: true,
		ok:   goldenCall{cli: "branches create feature-a --project-id {project} --app-id {app}"},
		fail: goldenCall{cli: "branches create feature-a --project-id {project} --app-id no-such-app"}},
	{command: "branches update", own: true, prep: []goldenStep{stepBranch},
		ok:   goldenCall{cli: "branches update {branch} --app-id {app}"},
		fail: goldenCall{cli: "branches update " + goldenUnknownID + " --app-id {app}"}},
	{command: "branches delete", own: true, prep: []goldenStep{stepBranch},
		ok:   goldenCall{cli: "branches delete {branch}"},
		fail: goldenCall{cli: "branches delete " + goldenUnknownID}},
	{command: "branches merge", own: true, prep: []goldenStep{stepBranch},
		ok:   goldenCall{"branches merge {branch}", `{"branch_id":"{branch}"}`},
		fail: goldenCall{"branches merge " + goldenUnknownID, `{"branch_id":"` + goldenUnknownID + `"}`}},

	// Dumps, tasks, technology.
	{command: "dumps create", own: true,
		ok:   goldenCall{cli: "dumps create {app} --description before"},
		fail: goldenCall{cli: "dumps create no-such-app"}},
	{command: "dumps get", own: true, prep: []goldenStep{stepDump},
		ok:   goldenCall{cli: "dumps get {app} {dump}"},
		fail: goldenCall{cli: "dumps get {app} " + goldenUnknownID}},
	{command: "tasks list",
		ok:   goldenCall{"tasks list --app-id {app}", `{"app_id":"{app}"}`},
		fail: goldenCall{"tasks list --app-id {app} --env-file {wrong-env}", `{"app_id":"{app}","env_file":"{wrong-env}"}`}},
	{command: "tasks get-group", own: true,
		prep: []goldenStep{{cli: "tech set {app} 8.1.2", into: "task", path: "id"}},
		ok:   goldenCall{cli: "tasks get-group {task}"},
		fail: goldenCall{cli: "tasks get-group " + goldenUnknownID}},
	{command: "tech get",
		ok:   goldenCall{cli: "tech get {app}"},
		fail: goldenCall{cli: "tech get no-such-app"}},
	{command: "tech set", own: true,
		ok:   goldenCall{cli: "tech set {app} 8.1.2"},
		fail: goldenCall{cli: "tech set no-such-app 8.1.2"}},
	{command: "token",
		ok:   goldenCall{cli: "token"},
		fail: goldenCall{cli: "token --env-file {wrong-env}"}},

	// User lists.
	{command: "user-lists list",
		ok:   goldenCall{"user-lists list", `{}`},
		fail: goldenCall{"user-lists list --env-file {wrong-env}", `{"env_file":"{wrong-env}"}`}},
	{command: "user-lists get",
		ok:   goldenCall{cli: "user-lists get {panel}"},
		fail: goldenCall{cli: "user-lists get nothing-like-it"}},
	{command: "user-lists self-registration", own: true,
		ok:   goldenCall{cli: "user-lists self-registration --app {app} --enable"},
		fail: goldenCall{cli: "user-lists self-registration nothing-like-it --enable"}},
	{command: "user-lists password-login", own: true,
		ok:   goldenCall{cli: "user-lists password-login {panel} --disable"},
		fail: goldenCall{cli: "user-lists password-login nothing-like-it --disable"}},
	{command: "user-lists calculation-rules", own: true,
		ok:   goldenCall{cli: "user-lists calculation-rules {panel} --presentation-rule $.name"},
		fail: goldenCall{cli: "user-lists calculation-rules nothing-like-it --presentation-rule $.name"}},
	{command: "configure_user_list", own: true,
		ok:   goldenCall{mcp: `{"app_id":"{app}","self_registration":true,"password_login":true}`},
		fail: goldenCall{mcp: `{"list_id":"` + goldenUnknownID + `","password_login":true}`}},

	// Plugins and the debug adapter (local).
	{command: "plugins", env: map[string]string{"ELEMCTL_NO_PLUGINS": "", "ELEMCTL_PLUGIN_PATH": "{home}/plugins"},
		failEnv: map[string]string{"ELEMCTL_NO_PLUGINS": "", "ELEMCTL_PLUGIN_PATH": "{home}/broken-plugins"},
		ok:      goldenCall{cli: "plugins"},
		fail:    goldenCall{cli: "plugins"}},
	{command: "debug-adapter", own: true, env: map[string]string{"ELEMCTL_DEBUG_ADAPTER": "{home}/adapter-dir"}, failEnv: map[string]string{},
		ok:   goldenCall{"debug-adapter", `{}`},
		fail: goldenCall{"debug-adapter", `{}`}},
	{command: "debug-adapter extract",
		ok:   goldenCall{cli: "debug-adapter extract {home}/element-8.0.30+12.car --output {home}/adapter"},
		fail: goldenCall{cli: "debug-adapter extract {home}/missing.car --output {home}/adapter"}},
	// self-update --check against a release feed of its own: a newer
	// release is there, or the feed is down.
	{command: "self-update", setup: releaseFeed,
		ok:   goldenCall{cli: "self-update --check"},
		fail: goldenCall{cli: "self-update --check"}},
	// The servers' answer when they listen: where, and how to reach
	// them. A loopback MCP server makes its token file; an address other
	// machines reach is refused without a token named on purpose.
	{command: "mcp", server: true,
		ok:   goldenCall{cli: "mcp --http 127.0.0.1:0"},
		fail: goldenCall{cli: "mcp --http 0.0.0.0:0"}},
	{command: "stand", server: true,
		ok: goldenCall{cli: "stand --seed demo --write-env {home}/stand.env"},
		// The address is taken: the golden stand listens there.
		fail: goldenCall{cli: "stand --addr {stand-host}"}},
	{command: "mcp install",
		ok:   goldenCall{cli: "mcp install --client cursor --scope project --print --command elemctl"},
		fail: goldenCall{cli: "mcp install --client emacs"}},
}

// releaseFeed serves release 99.0.0 to a copy of the binary; the
// failure's feed answers 503.
func releaseFeed(t *testing.T, r *goldenRun, kind string) {
	feed := updatetest.NewServer(t, updatetest.PackRelease(t, "99.0.0", runtime.GOOS, runtime.GOARCH, []byte("a newer elemctl")))
	if kind == "fail" {
		feed.FailFeed(http.StatusServiceUnavailable, `{"message": "the release feed is down"}`)
	}
	r.env["ELEMCTL_UPDATE_URL"] = feed.FeedURL()
	// The archive's name tells the platform the test runs on.
	r.marks[dist.ArchiveName(runtime.GOOS, runtime.GOARCH)] = "<archive of this platform>"
	r.marks[strings.TrimSuffix(feed.FeedURL(), "/repos/elemctl/elemctl/releases")] = "<feed>"
	r.ownCopy(t)
}
