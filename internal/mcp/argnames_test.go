package mcp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// Messages that tell what to pass name the arguments as the tool spells
// them: version_id, never the command line's --version-id; a tool that
// takes the newest build unless one is named says so instead of offering
// --latest-build; an apply to do is the apply_build call.
func TestMessagesNameTheToolsParameters(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	needTools(t, h, "create_app", "ensure_app", "list_builds")
	fastPolls(h)

	refusal := h.fails("create_app", map[string]any{"name": "crm-x", "project_id": h.demo.ProjectID,
		"version_id": "01900000-0000-7000-8000-0000000000aa"})
	if !strings.Contains(refusal, "передайте её как version_id, или пустой version_id возьмёт новейшую сборку проекта") {
		t.Errorf("the refusal should offer version_id and an empty version_id: %s", refusal)
	}
	for _, flag := range []string{"--version-id", "--latest-build"} {
		if strings.Contains(refusal, flag) {
			t.Errorf("the refusal names the command line's %s: %s", flag, refusal)
		}
	}

	var older string
	for _, b := range jsonx.Objects(h.ok("list_builds", map[string]any{"project_id": h.demo.ProjectID}).Value("builds")) {
		if b.Str("assembly-version") == "1.0-2" {
			older = b.Str("id")
		}
	}
	if older == "" {
		t.Fatal("the demo has no build 1.0-2")
	}
	ensured := h.ok("ensure_app", map[string]any{"name": h.demo.AppName, "version_id": older})
	log := fmt.Sprint(ensured.Value("log"))
	if ensured.Value("applied") != false || !strings.Contains(log, "сборка НЕ применена. Применить: apply_build {") ||
		!strings.Contains(log, `"version_id":"`+older+`"`) || strings.Contains(log, "--apply") || strings.Contains(log, "elemctl apps apply") {
		t.Errorf("ensure_app of another build should offer apply_build and no --apply: %v\n%s", ensured, log)
	}
}
