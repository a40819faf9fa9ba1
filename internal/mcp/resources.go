package mcp

import (
	"context"
	"net/url"
	"strings"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// Resource addresses. The stand is always the server's own: a resource
// has no env_file.
const (
	appsURI            = "elemctl://apps"
	projectsURI        = "elemctl://projects"
	appURIPrefix       = "elemctl://apps/"
	projectURIPrefix   = "elemctl://projects/"
	buildsURISuffix    = "/builds"
	appURITemplate     = appURIPrefix + "{id}"
	buildsURITemplate  = projectURIPrefix + "{id}" + buildsURISuffix
	resourceMIMEType   = "application/json"
	resourceListTool   = "list_apps"
	resourceProjects   = "list_projects"
	resourceAppTool    = "get_app"
	resourceBuildsTool = "list_builds"
)

// addResources declares the stand's applications and projects as
// read-only context: two listings, a template for one application and one
// for a project's builds, and – filled in by a resources/list hook – one
// resource per live application and per project. Each read is the answer
// of the tool it names, run the way a call without env_file runs (the same
// client cache, the same secret scrubbing), so a resource and a tool never
// disagree. A resource whose tool the catalog lacks is left out.
func (s *Server) addResources(ctx context.Context) {
	if s.command(resourceListTool) != nil {
		s.mcp.resources.add(mcpgo.NewResource(appsURI, i18n.T(ctx, "mcp.resource.apps-name"),
			mcpgo.WithResourceDescription(i18n.T(ctx, "mcp.resource.apps-description")),
			mcpgo.WithMIMEType(resourceMIMEType)),
			s.readTool(resourceListTool, func(context.Context, string) (map[string]any, error) { return nil, nil }))
	}
	if s.command(resourceProjects) != nil {
		s.mcp.resources.add(mcpgo.NewResource(projectsURI, i18n.T(ctx, "mcp.resource.projects-name"),
			mcpgo.WithResourceDescription(i18n.T(ctx, "mcp.resource.projects-description")),
			mcpgo.WithMIMEType(resourceMIMEType)),
			s.readTool(resourceProjects, func(context.Context, string) (map[string]any, error) { return nil, nil }))
	}
	if s.command(resourceAppTool) != nil {
		s.mcp.templates.add(mcpgo.NewResourceTemplate(appURITemplate, i18n.T(ctx, "mcp.resource.app-template-name"),
			mcpgo.WithTemplateDescription(i18n.T(ctx, "mcp.resource.app-template-description")),
			mcpgo.WithTemplateMIMEType(resourceMIMEType)),
			s.readTool(resourceAppTool, func(ctx context.Context, uri string) (map[string]any, error) {
				id, err := uriID(ctx, uri, appURIPrefix, "")
				return map[string]any{"app_id": id}, err
			}))
	}
	if s.command(resourceBuildsTool) != nil {
		s.mcp.templates.add(mcpgo.NewResourceTemplate(buildsURITemplate, i18n.T(ctx, "mcp.resource.builds-template-name"),
			mcpgo.WithTemplateDescription(i18n.T(ctx, "mcp.resource.builds-template-description")),
			mcpgo.WithTemplateMIMEType(resourceMIMEType)),
			s.readTool(resourceBuildsTool, func(ctx context.Context, uri string) (map[string]any, error) {
				id, err := uriID(ctx, uri, projectURIPrefix, buildsURISuffix)
				return map[string]any{"project_id": id}, err
			}))
	}
	s.mcp.moreResources = s.listStandResources
}

// uriID is the one path segment between prefix and suffix of a resource
// address, percent-decoded (an application may be named, not only
// numbered).
func uriID(ctx context.Context, uri, prefix, suffix string) (string, error) {
	if id, shaped := uriSegment(uri, prefix, suffix); shaped {
		if decoded, err := url.PathUnescape(id); err == nil && validID(decoded) {
			return decoded, nil
		}
	}
	return "", platform.ConfigErrorf(ctx, "mcp.resource.bad-uri", "uri", clip(uri, 120))
}

// uriSegment is the raw segment between prefix and suffix when uri has
// that shape (one segment, no slash).
func uriSegment(uri, prefix, suffix string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, prefix)
	if ok {
		rest, ok = strings.CutSuffix(rest, suffix)
	}
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	return rest, true
}

// checkResourceURI refuses, before any work, an address shaped like one
// of the templates whose id cannot name anything: empty, badly escaped,
// over maxIDLength or with control characters. Addresses of another shape
// are left to the templates (no match is "resource not found").
func (s *Server) checkResourceURI(ctx context.Context, uri string) error {
	for _, t := range []struct{ prefix, suffix string }{{appURIPrefix, ""}, {projectURIPrefix, buildsURISuffix}} {
		if _, shaped := uriSegment(uri, t.prefix, t.suffix); shaped {
			_, err := uriID(ctx, uri, t.prefix, t.suffix)
			return err
		}
	}
	return nil
}

// clip keeps a value the client sent short and on one line in a message:
// control characters go, and past keep bytes the rest is "…".
func clip(v string, keep int) string {
	v = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, v)
	if len(v) <= keep {
		return v
	}
	for keep > 0 && !utf8.RuneStart(v[keep]) {
		keep--
	}
	return v[:keep] + "…"
}

// toolError is a tool's failure as a resource read sees it: the message
// and the error object of the answer.
type toolError struct {
	message string
	answer  *jsonx.Object
}

func (e *toolError) Error() string { return e.message }

// isNotFound tells whether a resource's tool failed because the id it was
// given names nothing: the platform's 404, or no application of that name.
func isNotFound(ctx context.Context, err error, args map[string]any) bool {
	te, ok := err.(*toolError)
	if !ok {
		return false
	}
	if te.answer != nil {
		if status, ok := te.answer.Int("status"); ok && status == 404 {
			return true
		}
	}
	ref, _ := args["app_id"].(string)
	return ref != "" && te.message == i18n.T(ctx, "client.app-not-found", "ref", ref)
}

// resourceNotFoundCode is the code of "resource not found": -32002, or
// invalid params for clients of the protocol without sessions, whose
// revision says so.
func resourceNotFoundCode(ctx context.Context) int {
	if mcpgo.IsModernProtocol(requestProtocolVersion(ctx)) {
		return mcpgo.INVALID_PARAMS
	}
	return mcpgo.RESOURCE_NOT_FOUND
}

// readTool reads a resource as the answer of a tool with the arguments
// args derives from the address.
func (s *Server) readTool(tool string, args func(ctx context.Context, uri string) (map[string]any, error)) resourceHandler {
	return func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		ctx = s.withLang(ctx)
		in, err := args(ctx, req.Params.URI)
		if err != nil {
			return nil, err
		}
		answer, err := s.toolAnswer(ctx, tool, in)
		if err != nil {
			if isNotFound(ctx, err, in) {
				failWith(ctx, resourceNotFoundCode(ctx))
			}
			return nil, err
		}
		text, err := jsonText(answer)
		if err != nil {
			return nil, err
		}
		return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: resourceMIMEType, Text: text}}, nil
	}
}

// toolAnswer runs a tool through its ordinary handler without env_file and
// returns its answer: the object, or the list of a list tool. A tool error
// comes back as an error carrying the elemctl message (already scrubbed of
// secrets).
func (s *Server) toolAnswer(ctx context.Context, tool string, args map[string]any) (any, error) {
	c := s.command(tool)
	if c == nil {
		return nil, platform.ConfigErrorf(ctx, "mcp.resource.bad-uri", "uri", tool)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name = tool
	if args != nil {
		req.Params.Arguments = args
	}
	res, err := s.handler(c)(ctx, req)
	if err != nil {
		return nil, err
	}
	obj, _ := res.StructuredContent.(*jsonx.Object)
	if res.IsError {
		msg := mcpgo.GetTextFromContent(firstContent(res))
		if obj != nil && obj.Str("error") != "" {
			msg = obj.Str("error")
		}
		return nil, &toolError{message: msg, answer: obj}
	}
	if obj == nil {
		return nil, nil
	}
	if obj.Len() == 1 && obj.Has("result") {
		// A list tool's structuredContent wraps the list.
		return obj.Value("result"), nil
	}
	return obj, nil
}

func firstContent(res *mcpgo.CallToolResult) mcpgo.Content {
	if len(res.Content) == 0 {
		return mcpgo.NewTextContent("")
	}
	return res.Content[0]
}

// command is the command behind a registered tool name.
func (s *Server) command(tool string) *command.Command {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	return s.tools[tool]
}

// listStandResources are one resource per live application and one per
// project's builds, for resources/list. The listing is best effort: when the
// stand cannot be reached the static resources still come back, and the
// reason goes to the server log (reading elemctl://apps shows it too).
func (s *Server) listStandResources(ctx context.Context) []mcpgo.Resource {
	var out []mcpgo.Resource
	if s.command(resourceListTool) != nil && s.command(resourceAppTool) != nil {
		answer, err := s.toolAnswer(ctx, resourceListTool, nil)
		if err != nil {
			s.diagnostic(i18n.T(ctx, "mcp.resource.list-failed", "error", err.Error()))
		} else if obj, ok := answer.(*jsonx.Object); ok {
			for _, app := range jsonx.Objects(obj.Value("applications")) {
				id, name := app.Str("id"), app.Str("name")
				if id == "" {
					continue
				}
				if name == "" {
					name = id
				}
				out = append(out, mcpgo.NewResource(appURIPrefix+url.PathEscape(id), name,
					mcpgo.WithResourceDescription(i18n.T(ctx, "mcp.resource.app-description",
						"name", name, "status", app.Str("status"), "version", app.Str("project-version"))),
					mcpgo.WithMIMEType(resourceMIMEType)))
			}
		}
	}
	if s.command(resourceProjects) != nil && s.command(resourceBuildsTool) != nil {
		answer, err := s.toolAnswer(ctx, resourceProjects, nil)
		if err != nil {
			s.diagnostic(i18n.T(ctx, "mcp.resource.list-failed", "error", err.Error()))
			return out
		}
		list, _ := answer.([]any)
		for _, p := range jsonx.Objects(list) {
			id, name := p.Str("id"), p.Str("name")
			if id == "" {
				continue
			}
			if name == "" {
				name = id
			}
			out = append(out, mcpgo.NewResource(projectURIPrefix+url.PathEscape(id)+buildsURISuffix,
				i18n.T(ctx, "mcp.resource.builds-name", "name", name),
				mcpgo.WithResourceDescription(i18n.T(ctx, "mcp.resource.builds-description", "name", name)),
				mcpgo.WithMIMEType(resourceMIMEType)))
		}
	}
	return out
}
