package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
)

// An apply that never reached the platform ends the deploy with the hint
// that applies the build – spelled as tool calls, whose parameters the
// agent passes as they are: they apply the build and verify it.
func TestDeployHintNamesToolParameters(t *testing.T) {
	// A short per-request timeout: the apply's answer is looked for that long.
	h := start(t, setup{overrides: platform.Overrides{Timeout: 1}})
	needTools(t, h, "deploy", "apply_build", "verify_deploy")
	fastPolls(h)
	if err := h.stand.AddFault(stand.Fault{Method: "POST", Path: "/console/api/v2/applications/*/project/update", Nth: 1,
		Effect: stand.EffectResetBefore}); err != nil {
		t.Fatal(err)
	}
	res := h.call("deploy", map[string]any{"app_id": h.demo.AppID, "project_id": h.demo.ProjectID, "project_dir": demoProject(t)})
	report := structured(t, res)
	if report.Bool("ok") {
		t.Fatalf("an apply that never reached the platform verified: %s", textOf(res))
	}
	hint := report.Str("hint")
	at := strings.Index(hint, "apply_build ")
	if at < 0 {
		t.Fatalf("the hint names no apply_build call: %q", hint)
	}
	first, second, ok := strings.Cut(hint[at:], ", ")
	if !ok || !strings.HasPrefix(first, "apply_build {") {
		t.Fatalf("the hint is no tool call: %q", hint)
	}
	second = second[strings.Index(second, "verify_deploy "):]
	for _, call := range []string{first, second} {
		tool, raw, _ := strings.Cut(call, " ")
		var args map[string]any
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			t.Fatalf("the parameters of %s are no JSON object: %q", tool, raw)
		}
		if tool == "verify_deploy" {
			// verify_deploy checks, it does not wait: the apply has ended
			// first, as an agent waits for it.
			waitFor(t, "the apply", func() bool {
				for _, a := range h.stand.Snapshot().Apps {
					if a.ID == h.demo.AppID {
						return a.Status == "Running"
					}
				}
				return false
			})
		}
		out := h.ok(tool, args)
		if tool == "verify_deploy" && !out.Bool("ok") {
			t.Errorf("after the hinted calls the build is still not applied: %v", out)
		}
	}
}
