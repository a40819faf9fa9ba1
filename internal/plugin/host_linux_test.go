package plugin_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// A child the plugin leaves behind, holding its stderr, is stopped with it
// as soon as the plugin exits: the call does not wait on the child, and
// nothing of the plugin outlives the call.
func TestLeftoverChildIsStoppedWithThePlugin(t *testing.T) {
	w := testPluginWorld(t, nil, nil)
	pids := pidFile(t)
	start := time.Now()
	ans, err := w.run(command.CLI, "leave-child", nil)
	took := time.Since(start)
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
	assertGone(t, pids)
	// The child is not ours to reap (it passed to init when the plugin
	// exited): dead is enough, a zombie or gone. The kill was sent; its
	// delivery may take the kernel a moment.
	deadline := time.Now().Add(2 * time.Second)
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(int(child)) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the plugin's child %d outlived the call: %s", child, stat)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Before, the call waited a second for the child to let stderr go.
	if took > 900*time.Millisecond {
		t.Errorf("the call took %v: it waited on the child", took)
	}
}
