package assembly

import (
	"context"
	"errors"
	"testing"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// FuzzInspectArchive feeds any bytes to the archive reader and inspect:
// they answer or refuse with a catalog error, never panic, expose only
// safe entry names, and read no more than the limits allow, however the
// archive lies about its sizes. The corpus (testdata/fuzz) holds a real
// build of the demo project.
func FuzzInspectArchive(f *testing.F) {
	ctx := context.Background()
	f.Add(makeZip(f, zipFile{ManifestName, testManifest}))
	f.Add(makeZip(f, zipFile{ManifestName, testManifest},
		zipFile{"Acme/Tasks/Проект.yaml", "Ид: 7c1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f10\nИмя: Tasks\nПредставление: Задачи\n"},
		zipFile{"Acme/Tasks/Основное/Задача.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
		zipFile{"Acme/Tasks/Основное/Подсистема.yaml", "ВидЭлемента: Подсистема\n"},
		zipFile{"../escape.yaml", "x"}, zipFile{"/abs.yaml", "x"}, zipFile{`Acme\Tasks\win.yaml`, "x"},
		zipFile{"Acme/Tasks/Проект.yaml", "duplicate"}))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte{})

	// Small limits keep a bomb the fuzzer finds cheap; the code is the same.
	defer func(entry, total int64) { entryReadLimit, totalReadLimit = entry, total }(entryReadLimit, totalReadLimit)
	entryReadLimit, totalReadLimit = 64<<10, 256<<10

	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := OpenArchive(ctx, "fuzz.xasm", data)
		if err != nil {
			mustBeCatalogError(t, err)
			return
		}
		var read int64
		for _, name := range a.Entries() {
			if !safeEntryName(name) {
				t.Fatalf("an unsafe entry name is exposed: %q", name)
			}
			b, err := a.ReadEntry(ctx, name)
			if err != nil {
				mustBeCatalogError(t, err)
				continue
			}
			if int64(len(b)) > entryReadLimit {
				t.Fatalf("entry %q: %d bytes read past the entry limit %d", name, len(b), entryReadLimit)
			}
			read += int64(len(b))
		}
		if read > totalReadLimit {
			t.Fatalf("%d bytes read past the archive limit %d", read, totalReadLimit)
		}
		out, err := inspectArchive(ctx, a, "fuzz.xasm")
		if err != nil {
			mustBeCatalogError(t, err)
			return
		}
		text, err := jsonx.Marshal(out)
		if err != nil {
			t.Fatalf("the inspect answer does not marshal: %v", err)
		}
		if _, err := jsonx.Decode(text); err != nil {
			t.Fatalf("the inspect answer is not JSON: %v\n%s", err, text)
		}
	})
}

// mustBeCatalogError fails unless err is an *Error with a key and a message.
func mustBeCatalogError(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Key == "" || e.Message == "" {
		t.Fatalf("a refusal that is no catalog error: %T %v", err, err)
	}
}
