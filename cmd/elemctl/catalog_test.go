package main

import (
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

// The whole program's message tables are indexed on the first lookup; a
// key declared twice anywhere panics there.
func TestMessageKeysAreUnique(t *testing.T) {
	if !i18n.Has("cli.help.root") {
		t.Fatal("the CLI's own messages are not in the catalog")
	}
}
