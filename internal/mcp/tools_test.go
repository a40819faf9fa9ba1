package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// coreTools are the core catalog's commands that are MCP tools.
func coreTools() []*command.Command {
	var out []*command.Command
	for _, c := range catalog.Core().Commands() {
		if c.Tool != "" && c.Source == "" {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out
}

// snapshot is a tool's declaration exactly as tools/list sends it,
// pretty-printed.
func snapshot(t *testing.T, c *command.Command) []byte {
	t.Helper()
	raw, err := json.Marshal(declaration(i18n.WithLang(context.Background(), i18n.RU), c))
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonx.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonx.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestToolSchemaSnapshots pins every tool's declaration (description,
// schema, annotations) in testdata/tools/<tool>.json, in Russian. UPDATE=1
// rewrites them; a tool without a snapshot, or a snapshot without a tool,
// fails.
func TestToolSchemaSnapshots(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "tools")
	update := os.Getenv("UPDATE") != ""
	if update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]bool{}
	for _, c := range coreTools() {
		want[c.Tool+".json"] = true
		path := filepath.Join(dir, c.Tool+".json")
		got := snapshot(t, c)
		if update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no snapshot (%v); run UPDATE=1 go test ./mcp -run TestToolSchemaSnapshots after checking the schema", c.Tool, err)
			continue
		}
		if have = bytes.ReplaceAll(have, []byte("\r\n"), []byte("\n")); !bytes.Equal(have, got) {
			t.Errorf("%s: the declaration changed; if on purpose, run UPDATE=1\n%s", c.Tool, lineDiff(string(have), string(got)))
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		name := filepath.Base(f)
		if !want[name] {
			if update {
				os.Remove(f)
				continue
			}
			t.Errorf("%s: a snapshot of a tool the catalog no longer has", name)
		}
	}
}

// lineDiff shows the lines of two texts that differ, by position.
func lineDiff(was, now string) string {
	a, b := strings.Split(was, "\n"), strings.Split(now, "\n")
	var out []string
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("line %d\n  - %s\n  + %s", i+1, x, y))
		}
	}
	return strings.Join(out, "\n")
}

// TestToolDeclarations checks the rules every declaration follows, on the
// wire: the listed tools are exactly the catalog's, platform tools end
// with env_file = "", local ones have none, annotations are explicit, and
// descriptions are real texts rather than message keys.
func TestToolDeclarations(t *testing.T) {
	h := start(t, setup{})
	res, err := h.cl.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]mcpgo.Tool{}
	for _, tool := range res.Tools {
		listed[tool.Name] = tool
	}
	for _, c := range coreTools() {
		tool, ok := listed[c.Tool]
		if !ok {
			t.Errorf("%s: in the catalog but not listed", c.Tool)
			continue
		}
		delete(listed, c.Tool)
		raw, _ := json.Marshal(tool)
		wire, _ := jsonx.Decode(raw)
		schema := wire.(*jsonx.Object).Obj("inputSchema")
		props := schema.Obj("properties")
		keys := props.Keys()
		if c.Local {
			if props.Has(envFileParam) {
				t.Errorf("%s: a local tool must not take env_file", c.Tool)
			}
		} else {
			if len(keys) == 0 || keys[len(keys)-1] != envFileParam {
				t.Errorf("%s: env_file must be the last parameter, got %v", c.Tool, keys)
			} else if ef := props.Obj(envFileParam); ef.Str("type") != "string" || ef.Value("default") != "" {
				t.Errorf("%s: env_file must be a string defaulting to \"\": %v", c.Tool, ef)
			}
		}
		for _, a := range command.ToolNames.Args(c) {
			p := props.Obj(command.ParamName(a))
			if p == nil {
				t.Errorf("%s: parameter %s missing from the schema", c.Tool, command.ParamName(a))
				continue
			}
			if d := p.Str("description"); strings.HasPrefix(d, "mcp.") || strings.HasPrefix(d, "cli.") {
				t.Errorf("%s.%s: description is an unregistered message key %q", c.Tool, command.ParamName(a), d)
			}
		}
		if tool.Description == "" || strings.HasPrefix(tool.Description, "mcp.") || strings.HasPrefix(tool.Description, "cli.") {
			t.Errorf("%s: description is missing or an unregistered message key: %q", c.Tool, tool.Description)
		}
		ann := tool.Annotations
		if ann.ReadOnlyHint == nil || ann.DestructiveHint == nil || ann.IdempotentHint == nil || ann.OpenWorldHint == nil {
			t.Errorf("%s: annotations must all be explicit: %+v", c.Tool, ann)
		} else {
			if *ann.ReadOnlyHint != c.ReadOnly || *ann.DestructiveHint != c.Destructive || *ann.IdempotentHint != c.Idempotent {
				t.Errorf("%s: annotations do not follow the catalog", c.Tool)
			}
			if *ann.ReadOnlyHint && *ann.DestructiveHint {
				t.Errorf("%s: read-only and destructive at once", c.Tool)
			}
		}
	}
	for name := range listed {
		t.Errorf("%s: listed but not in the catalog", name)
	}
}

// smokeArguments fills a tool's required parameters with values that
// make sense on the demo stand.
func smokeArguments(h *harness, c *command.Command) map[string]any {
	args := map[string]any{}
	for _, a := range command.ToolNames.Args(c) {
		if !required(c, a) {
			continue
		}
		name := command.ParamName(a)
		var v any
		switch name {
		case "app_id":
			v = h.demo.AppID
		case "project_id":
			v = h.demo.ProjectID
		case "space_id":
			v = h.demo.SpaceID
		case "name":
			v = h.demo.AppName
		case "version":
			v = "1.0-3"
		default:
			switch a.Type {
			case command.Int:
				v = 1
			case command.Float:
				v = 1.0
			case command.Bool:
				v = false
			default:
				v = "00000000-0000-4000-8000-000000000000"
			}
		}
		if a.Multiple {
			v = []any{v}
		}
		args[name] = v
	}
	return args
}

// smokeRefusals are the tools the smoke arguments leave nothing to do,
// with what each answers: every other tool succeeds.
var smokeRefusals = map[string]string{
	"apply_build":         "Can't update application",                               // the version id names no build
	"build_assembly":      "каталог проекта не найден",                              // the server's directory holds no project
	"configure_user_list": "не задан список",                                        // neither list_id nor app_id
	"create_app":          "не из чего создавать приложение",                        // no build and no project
	"deploy":              "каталог проекта не найден",                              // no project to build
	"export_extension":    "не найдено среди применённых",                           // the demo has no extension
	"inspect_assembly":    "не найден: ",                                            // no such archive
	"merge_branch":        "/branches/00000000-0000-4000-8000-000000000000: Branch", // no such branch
	"probe":               "каталог проекта не найден",                              // no project to probe
	"probe_cleanup":       "оставлено не пробой",                                    // the demo's application is no probe's
}

// TestEveryToolAnswers calls every tool of the catalog once against the
// demo stand, read-only ones first and destructive ones last: each call
// gives its expected outcome – an answer, or the refusal of
// smokeRefusals in the shape of an elemctl error – object answers come
// with matching structuredContent and text, list answers with one text
// block per item.
func TestEveryToolAnswers(t *testing.T) {
	h := start(t, setup{})
	for tool := range smokeRefusals {
		if h.srv.command(tool) == nil {
			t.Errorf("smokeRefusals names %s, which is no tool", tool)
		}
	}
	tools := coreTools()
	sort.SliceStable(tools, func(i, j int) bool {
		rank := func(c *command.Command) int {
			switch {
			case c.ReadOnly:
				return 0
			case !c.Destructive:
				return 1
			}
			return 2
		}
		return rank(tools[i]) < rank(tools[j])
	})
	for _, c := range tools {
		t.Run(c.Tool, func(t *testing.T) {
			args := smokeArguments(h, c)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := h.callWith(ctx, c.Tool, args, nil)
			if err != nil {
				t.Fatalf("protocol error: %v", err)
			}
			refusal, refused := smokeRefusals[c.Tool]
			switch {
			case res.IsError && !refused:
				t.Fatalf("%s %v failed: %s", c.Tool, args, textOf(res))
			case refused && !res.IsError:
				t.Fatalf("%s %v answered instead of refusing with %q: %s", c.Tool, args, refusal, textOf(res))
			case refused:
				checkErrorShape(t, c.Tool, res)
				if !strings.Contains(textOf(res), refusal) {
					t.Errorf("%s %v: want the refusal %q, got %s", c.Tool, args, refusal, textOf(res))
				}
				return
			}
			obj := structured(t, res)
			if list, ok := obj.Get("result"); ok && obj.Len() == 1 {
				items, isList := list.([]any)
				if isList {
					if len(res.Content) != len(items) {
						t.Errorf("a list of %d items came in %d text blocks", len(items), len(res.Content))
					}
					for i, text := range texts(res) {
						if !sameJSON(t, items[i], decodeText(t, text)) {
							t.Errorf("block %d differs from item %d:\n%s", i, i, text)
						}
					}
					return
				}
			}
			if len(res.Content) != 1 {
				t.Fatalf("an object answer must be one text block, got %d", len(res.Content))
			}
			if !sameJSON(t, obj, decodeText(t, textOf(res))) {
				t.Errorf("text and structuredContent differ:\n%s", textOf(res))
			}
		})
	}
}

// sameJSON compares two JSON values ignoring key order (a Go client reads
// structuredContent into maps).
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	norm := func(v any) any {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// descriptionPins are the substrings the reference's tests pin in the
// Russian tool descriptions (spec §1.1): an agent learns from them what
// the tool takes and what it answers.
var descriptionPins = map[string][]string{
	"list_apps":  {"Deleted", "СКРЫТЫ", "include_deleted"},
	"get_app":    {"имя"},
	"delete_app": {"URL", "имя"},
	"start_app":  {"имя"},
	"stop_app":   {"имя"},
	"debug_info": {"имя"},
	"ensure_app": {"пересозда", "created"},
	"get_build":  {"ВЕРСИЯ", "404"},
}

func TestDescriptionsCarryThePinnedWords(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	for _, c := range coreTools() {
		desc := Description(ctx, c)
		for _, w := range descriptionPins[c.Tool] {
			if !strings.Contains(desc, w) {
				t.Errorf("%s: the description lacks %q: %s", c.Tool, w, desc)
			}
		}
	}
}

// specParams is the tool table of spec §1.4: every tool's parameters in
// order as "name:type=default" ("!" marks a required one), env_file left
// out. Types: s string, i integer, b boolean, s|l string or list, b|n
// boolean or null.
var specParams = map[string][]string{
	"list_apps":           {"name:s=", "status:s=", "include_deleted:b=false", "brief:b=true"},
	"get_app":             {"app_id:s!"},
	"find_app":            {"name:s!", "include_deleted:b=false"},
	"create_app":          {"name:s!", "project_id:s=", "version_id:s=", "space_id:s=", "development_mode:b=true", "verify:b=false"},
	"ensure_app":          {"name:s!", "project_id:s=", "version_id:s=", "space_id:s=", "development_mode:b=true", "verify:b=false"},
	"start_app":           {"app_id:s!"},
	"stop_app":            {"app_id:s!"},
	"debug_info":          {"app_id:s!"},
	"debug_adapter":       {},
	"delete_app":          {"app_id:s!"},
	"list_spaces":         {},
	"list_projects":       {"name:s=", "include_deleted:b=false", "brief:b=true"},
	"list_builds":         {"project_id:s!", "limit:i=10", "brief:b=true"},
	"get_build":           {"project_id:s!", "version:s!"},
	"build_assembly":      {"project_dir:s=", "output_dir:s=", "version:s="},
	"inspect_assembly":    {"file:s!"},
	"deploy":              {"app_id:s!", "project_id:s!", "project_dir:s=", "version:s=", "branch:s=", "allow_data_loss:b=false", "server_start_timeout:i=900"},
	"probe":               {"project_dir:s=", "space_id:s=", "keep:b=false"},
	"probe_cleanup":       {"app_id:s|l!"},
	"apply_build":         {"app_id:s!", "version_id:s!"},
	"verify_deploy":       {"app_id:s!", "expected_version:s=", "expected_assembly_id:s=", "since_minutes:i=30"},
	"list_user_lists":     {"name:s="},
	"configure_user_list": {"list_id:s=", "app_id:s=", "self_registration:b|n=null", "password_login:b|n=null"},
	"list_app_users":      {"app_id:s!"},
	"token_access":        {"app_id:s!", "user:s|l=", "enabled:b|n=null"},
	"export_app":          {"app_id:s!", "output:s="},
	"export_extension":    {"app_id:s!", "extension:s!", "output:s="},
	"list_app_tasks":      {"app_id:s="},
	"list_branches":       {"project_id:s=", "name:s="},
	"merge_branch":        {"branch_id:s!"},
}

// paramSignature renders one parameter of a declared schema the way
// specParams writes it.
func paramSignature(name string, p *jsonx.Object, isRequired bool) string {
	short := map[string]string{"string": "s", "integer": "i", "number": "f", "boolean": "b", "array": "l", "null": "n"}
	var types []string
	if variants, ok := p.Value("anyOf").([]any); ok {
		for _, v := range variants {
			types = append(types, short[v.(*jsonx.Object).Str("type")])
		}
	} else {
		types = append(types, short[p.Str("type")])
	}
	sig := name + ":" + strings.Join(types, "|")
	if isRequired {
		return sig + "!"
	}
	def, _ := jsonx.Compact(p.Value("default"))
	return sig + "=" + strings.Trim(string(def), `"`)
}

// TestToolParametersMatchTheSpec freezes the parameter names, types,
// defaults and required sets of the 30 tools (spec §1.4); the catalog must
// have all of them.
func TestToolParametersMatchTheSpec(t *testing.T) {
	ctx := context.Background()
	have := map[string]bool{}
	for _, c := range coreTools() {
		want, known := specParams[c.Tool]
		if !known {
			continue
		}
		have[c.Tool] = true
		schema := InputSchema(ctx, c)
		req := map[string]bool{}
		if list, ok := schema.Value("required").([]any); ok {
			for _, r := range list {
				req[r.(string)] = true
			}
		}
		props := schema.Obj("properties")
		var got []string
		for _, name := range props.Keys() {
			if name != envFileParam {
				got = append(got, paramSignature(name, props.Obj(name), req[name]))
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s:\n got  %v\n want %v", c.Tool, got, want)
		}
	}
	for name := range specParams {
		if !have[name] {
			t.Errorf("the catalog has no %s tool", name)
		}
	}
}

// TestAnnotationsTellWhatAToolDoes: list, get and find tools are
// read-only; tools that delete, apply or deploy are destructive; nothing
// is both.
func TestAnnotationsTellWhatAToolDoes(t *testing.T) {
	for _, c := range coreTools() {
		name := c.Tool
		switch {
		case strings.HasPrefix(name, "list_") || strings.HasPrefix(name, "get_") || strings.HasPrefix(name, "find_"):
			if !c.ReadOnly || c.Destructive {
				t.Errorf("%s must be read-only", name)
			}
		case strings.HasPrefix(name, "delete_") || name == "deploy" || name == "apply_build" || name == "probe_cleanup":
			if !c.Destructive {
				t.Errorf("%s must be destructive", name)
			}
		case strings.HasPrefix(name, "export_") || name == "build_assembly":
			if c.ReadOnly || !c.WritesFiles {
				t.Errorf("%s writes a file: it is not read-only", name)
			}
		}
		if c.ReadOnly && c.Destructive {
			t.Errorf("%s is read-only and destructive at once", name)
		}
	}
}
