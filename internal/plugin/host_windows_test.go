package plugin_test

import (
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// A child the plugin leaves behind is stopped with it: the plugin runs in
// a job object, and the job is terminated once the plugin exits.
func TestLeftoverChildIsStoppedWithThePlugin(t *testing.T) {
	w := testPluginWorld(t, nil, nil)
	ans, err := w.run(command.CLI, "leave-child", nil)
	if err != nil {
		t.Fatal(err)
	}
	obj, ok := ans.(*jsonx.Object)
	if !ok {
		t.Fatalf("answer %#v", ans)
	}
	child, ok := obj.Int("child")
	if !ok || child <= 0 {
		t.Fatalf("answer %s", compact(t, ans))
	}
	deadline := time.Now().Add(2 * time.Second)
	for running(uint32(child)) {
		if time.Now().After(deadline) {
			t.Fatalf("the plugin's child %d outlived the call", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// running tells whether the process pid still runs.
func running(pid uint32) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code == 259 // STILL_ACTIVE
}
