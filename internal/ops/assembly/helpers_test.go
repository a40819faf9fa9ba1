package assembly

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

// writeTree creates files (slash-separated paths relative to root) with
// their contents.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// errKey returns the catalog key of an *Error, or "" for any other error.
func errKey(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Key
	}
	return ""
}

// inLang runs f with a context in language l.
func inLang(t *testing.T, l i18n.Lang, f func(ctx context.Context)) {
	t.Helper()
	f(i18n.WithLang(context.Background(), l))
}

func noEnv(string) string { return "" }

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

const demoDescriptor = "Ид: 11111111-2222-3333-4444-555555555555\nИмя: Tasks\nПоставщик: Acme\nВерсия: 2.5\nПредставление: Задачи\nЯзыкРазработки: Русский\n"
