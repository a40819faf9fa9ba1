package registry

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// Commands that write registry lines.
const (
	CommandDeploy      = "deploy"
	CommandBuildUpload = "builds upload"
	CommandProbe       = "probe"
)

// Upload routes. RouteProject is an upload into a project by id (the
// server numbers the build); RouteNoProjectID is one without a project id
// (the build keeps its archive version).
const (
	RouteProject     = "project"
	RouteNoProjectID = "no-project-id"
	// routeVendorName is what older lines call RouteNoProjectID.
	routeVendorName = "vendor-name"
)

// Entry is one line of uploads.jsonl. The field order is the file's.
type Entry struct {
	AssemblyID string  `json:"assembly-id"`
	ProjectID  string  `json:"project-id"`
	Version    string  `json:"version"`
	Branch     string  `json:"branch"`
	Commit     string  `json:"commit"`
	Dirty      *bool   `json:"dirty"`
	ProjectDir *string `json:"project-dir"`
	File       *string `json:"file"`
	Stand      string  `json:"stand"`
	Command    string  `json:"command"`
	UploadedAt string  `json:"uploaded-at"`
	Elemctl    string  `json:"elemctl"`
	// AppID is the deploy target or the probe's application; written as
	// null when there is none.
	AppID string `json:"app-id"`
	Route string `json:"route"`
}

// MarshalJSON writes the entry in the file's field order, with a null
// app-id when the upload had no application.
func (e Entry) MarshalJSON() ([]byte, error) {
	type plain Entry
	out := struct {
		plain
		AppID *string `json:"app-id"`
		Route string  `json:"route"`
	}{plain: plain(e), Route: e.Route}
	if e.AppID != "" {
		out.AppID = &e.AppID
	}
	// The embedded struct's app-id and route are shadowed by the outer
	// fields, which encoding/json places where the embedded ones stood.
	return marshalNoEscape(out)
}

// Stamp formats t the way uploaded-at is written: local time with its
// offset, to the second (2025-03-01T14:05:09+03:00).
func Stamp(t time.Time) string { return t.Format("2006-01-02T15:04:05-07:00") }

// Bool and String make the optional fields of an Entry.
func Bool(b bool) *bool       { return &b }
func String(s string) *string { return &s }

// RouteOf is the route a line stands for: legacy "vendor-name" reads as
// no-project-id, and a line without a route is judged by its command
// (a probe never names a project).
func RouteOf(route, command string) string {
	switch route {
	case RouteProject, RouteNoProjectID:
		return route
	case routeVendorName:
		return RouteNoProjectID
	case "":
		if command == CommandProbe {
			return RouteNoProjectID
		}
		return RouteProject
	}
	return route
}

// line renders e as one registry line with its newline.
func (e Entry) line() ([]byte, error) {
	b, err := marshalNoEscape(e)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// parseLine reads one registry line. Lines that are not JSON objects are
// refused; a field of an unexpected type counts as absent rather than
// losing the whole line. Keys match exactly, as in every other reader of
// the file.
// raw and line are the same text.
func parseLine(raw []byte, line string) (Entry, bool) {
	if !strings.HasPrefix(line, "{") {
		return Entry{}, false
	}
	e, ok := scanLine(raw, line)
	if !ok {
		e, ok = parseLoose(raw)
	}
	if !ok {
		return Entry{}, false
	}
	e.Route = RouteOf(e.Route, e.Command)
	return e, true
}

// parseLoose reads any JSON object line field by field.
func parseLoose(line []byte) (Entry, bool) {
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil || m == nil {
		return Entry{}, false
	}
	str := func(k string) string { s, _ := m[k].(string); return s }
	optStr := func(k string) *string {
		if s, ok := m[k].(string); ok {
			return &s
		}
		return nil
	}
	e := Entry{AssemblyID: str("assembly-id"), ProjectID: str("project-id"), Version: str("version"),
		Branch: str("branch"), Commit: str("commit"), ProjectDir: optStr("project-dir"), File: optStr("file"),
		Stand: str("stand"), Command: str("command"), UploadedAt: str("uploaded-at"), Elemctl: str("elemctl"),
		AppID: str("app-id"), Route: str("route")}
	if b, ok := m["dirty"].(bool); ok {
		e.Dirty = &b
	}
	return e, true
}
