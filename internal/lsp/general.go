package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/elemctl/elemctl/internal/i18n"
)

// InitializationOptions are what a client may pass in initialize.
type InitializationOptions struct {
	// CommandPrefix replaces "elemctl" in every command id, so two servers
	// (or two workspace folders) never advertise the same names: VS Code
	// registers each advertised id as a global command.
	CommandPrefix string `json:"commandPrefix"`
}

// initialize reads the client's initialize request part by part: a field
// of an unexpected shape costs only that field, never the session (new
// clients send unions where protocol v0.12.0 has narrower types).
func (s *Server) initialize(ctx context.Context, params json.RawMessage) (any, error) {
	var top map[string]json.RawMessage
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &top); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, i18n.T(ctx, "lsp.bad-initialize", "error", err))
		}
	}
	part := func(name string, v any) {
		if raw, ok := top[name]; ok && len(raw) > 0 && string(raw) != "null" {
			_ = json.Unmarshal(raw, v)
		}
	}
	var caps struct {
		Window struct {
			WorkDoneProgress bool `json:"workDoneProgress"`
		} `json:"window"`
	}
	part("capabilities", &caps)
	var folders []struct {
		URI string `json:"uri"`
	}
	part("workspaceFolders", &folders)
	var rootURI, rootPath, locale string
	part("rootUri", &rootURI)
	part("rootPath", &rootPath)
	part("locale", &locale)
	var init InitializationOptions
	part("initializationOptions", &init)

	var dirs []string
	for _, f := range folders {
		if p, err := PathFromURI(f.URI); err == nil {
			dirs = append(dirs, p)
		}
	}
	if len(dirs) == 0 {
		for _, r := range []string{rootURI, rootPath} {
			if p, err := PathFromURI(r); err == nil && r != "" {
				dirs = append(dirs, p)
				break
			}
		}
	}
	prefix := strings.Trim(strings.TrimSpace(init.CommandPrefix), ".")
	if prefix == "" || strings.ContainsAny(prefix, " \t\r\n") {
		prefix = DefaultPrefix
	}
	s.mu.Lock()
	if l, ok := i18n.FromLocale(locale); ok && s.opts.AdoptClientLocale {
		s.lang = l
	}
	s.initialized = true
	s.prefix = prefix
	s.clientProgress = caps.Window.WorkDoneProgress
	s.folders = dirs
	s.mu.Unlock()

	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: s.Commands()},
			CodeLensProvider:       &protocol.CodeLensOptions{},
		},
		ServerInfo: &protocol.ServerInfo{Name: ServerName, Version: s.opts.Version},
	}, nil
}

// defaultDir is the directory of a call without cwd: the first workspace
// folder, else the server's own directory.
func (s *Server) defaultDir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.folders) > 0 {
		return s.folders[0]
	}
	return s.opts.Dir
}

// folderOf is the workspace folder holding p (the deepest one), or "".
func (s *Server) folderOf(p string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	best := ""
	for _, f := range s.folders {
		if within(p, f, onWindows) && len(f) > len(best) {
			best = f
		}
	}
	return best
}

// descriptorNames are the project descriptors that get code lenses.
var descriptorNames = []string{"Проект.yaml", "Project.yaml"}

// codeLens puts the lenses of the commands that declare one (Deploy, Probe,
// Verify) on the first line of a project descriptor, in the commands'
// order. Their argument is {cwd, projectDir}: the workspace folder (where
// .env is looked for) and the descriptor's directory.
func (s *Server) codeLens(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, i18n.T(ctx, "lsp.bad-params", "error", err))
	}
	lenses := []protocol.CodeLens{}
	file, err := PathFromURI(p.TextDocument.URI)
	if err != nil {
		// untitled:, git: and other documents have no project.
		return lenses, nil
	}
	base := filepath.Base(file)
	if onWindows {
		base = file[strings.LastIndexAny(file, `\/`)+1:]
	}
	isDescriptor := false
	for _, n := range descriptorNames {
		if base == n {
			isDescriptor = true
		}
	}
	if !isDescriptor {
		return lenses, nil
	}
	projectDir := filepath.Dir(file)
	cwd := s.folderOf(projectDir)
	if cwd == "" {
		cwd = projectDir
	}
	s.mu.Lock()
	prefix := s.prefix
	s.mu.Unlock()
	arg := map[string]any{"cwd": cwd, "projectDir": projectDir}
	var ids []string
	for id, c := range s.commands {
		if c.Lens != "" {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int {
		return cmp.Or(cmp.Compare(s.commands[a].Order, s.commands[b].Order), cmp.Compare(a, b))
	})
	for _, id := range ids {
		lenses = append(lenses, protocol.CodeLens{
			Range:   protocol.Range{},
			Command: &protocol.Command{Title: i18n.T(ctx, s.commands[id].Lens), Command: prefix + "." + id, Arguments: []any{arg}},
		})
	}
	return lenses, nil
}
