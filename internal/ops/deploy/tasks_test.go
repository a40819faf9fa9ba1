package deploy

import (
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// A task the platform stamped in the millisecond the apply was sent is
// the apply's: the stamp, cut to the millisecond, is not before it.
func TestTasksOfTheSameMillisecondCount(t *testing.T) {
	since := time.Date(2026, 12, 3, 17, 0, 0, 123_456_789, time.UTC)
	same := jsonx.New("id", "a", "status", "Failed", "start-date", "2026-12-03T17:00:00.123Z")
	earlier := jsonx.New("id", "b", "status", "Failed", "start-date", "2026-12-03T17:00:00.122Z")
	tasks := []*jsonx.Object{earlier, same}
	if got := tasksSince(tasks, since); len(got) != 1 || got[0] != same {
		t.Errorf("tasksSince: %v, want the task of the same millisecond only", got)
	}
	if got := failedTasks(tasks, since); len(got) != 1 || got[0] != same {
		t.Errorf("failedTasks: %v, want the task of the same millisecond only", got)
	}
}
