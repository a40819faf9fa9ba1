package command

import "github.com/elemctl/elemctl/internal/plugin/manifest"

// cliLibraryCommands are the commands the command-line library adds to
// every tree itself.
var cliLibraryCommands = []string{"help", "completion"}

// PluginTaken are the names cat uses – its commands, the faces' own among
// them, and the command-line library's – which plugin commands may not
// take.
func PluginTaken(cat *Catalog) manifest.Taken {
	t := manifest.Taken{Commands: map[string]bool{}, Tools: map[string]bool{}, LSP: map[string]bool{}}
	for _, name := range cliLibraryCommands {
		t.Commands[name] = true
	}
	for _, g := range cat.Groups() {
		t.Commands[g.Name] = true
	}
	for _, c := range cat.Commands() {
		if len(c.Path) > 0 {
			t.Commands[c.Path[0]] = true
		}
		if c.Tool != "" {
			t.Tools[c.Tool] = true
		}
		if c.LSP != "" {
			t.LSP[c.LSP] = true
		}
	}
	return t
}
