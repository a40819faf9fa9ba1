package stand_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
)

func broken(version string, files map[string]string) stand.ArchiveSpec {
	spec := sample(version)
	spec.Files = files
	return spec
}

func failedTasks(c *client, appID string) []map[string]any {
	var out []map[string]any
	for _, t := range c.appTasks(appID) {
		if t["status"] == "Failed" {
			out = append(out, t)
		}
	}
	return out
}

func TestFailedApplyRollsBackSilently(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	projectID, good := artifactProject(up), up["image-id"].(string)
	id := c.createApp("crm", good)

	bad := c.uploadInto(projectID, broken("1.0-2", map[string]string{
		"Основное/Модуль.xbsl": "метод А()\n    #error Тип \"Х\" не виден\n;\n",
		"Основное/Другой.xbsl": "#error Второй\n#errorous is not a marker\n",
	}))
	c.apply(id, bad["id"].(string))
	card := c.waitStatus(id, "Running")
	if src := card["source"].(map[string]any); src["project-version-id"] != good || src["project-version"] != "1.0-1" {
		t.Fatalf("after a failed apply the card names %v", src)
	}
	if card["error"] != nil {
		t.Fatalf("a rolled-back app shows an error: %v", card["error"])
	}
	failed := failedTasks(c, id)
	if len(failed) != 1 || failed[0]["operation-type"] != "UpdateApplication" {
		t.Fatalf("failed tasks %v", failed)
	}
	want := "Ошибка обновления приложения: acme/crm/Основное/Другой.xbsl [1:1]: <Сервер> Второй\n" +
		"acme/crm/Основное/Модуль.xbsl [2:5]: <Сервер> Тип \"Х\" не виден"
	if failed[0]["error-message"] != want {
		t.Fatalf("error-message\n%q\nwant\n%q", failed[0]["error-message"], want)
	}

	// Export answers with the build uploaded for the failed update.
	if v := manifestOf(t, c.must(200, "POST", "/applications/"+id+"/project/export", nil))["Version"]; v != "1.0-2" {
		t.Fatalf("export after a failed update: Version %q", v)
	}

	// A good apply moves the card and the export back to the running build.
	fixed := c.uploadInto(projectID, sample("1.0-3"))
	c.apply(id, fixed["id"].(string))
	card = c.waitStatus(id, "Running")
	if card["source"].(map[string]any)["project-version"] != "1.0-3" {
		t.Fatalf("after a good apply: %v", card["source"])
	}
	if v := manifestOf(t, c.must(200, "POST", "/applications/"+id+"/project/export", nil))["Version"]; v != "1.0-3" {
		t.Fatalf("export after a good update: Version %q", v)
	}
	if last := c.appTasks(id); last[len(last)-1]["status"] != "Completed" {
		t.Fatalf("last task %v", last[len(last)-1])
	}

	// The second body form: project id and version.
	c.must(200, "POST", "/applications/"+id+"/project/update", map[string]any{"source": map[string]any{
		"type": "repository", "project-id": projectID, "assembly-version": "1.0-1"}})
	if src := c.waitStatus(id, "Running")["source"].(map[string]any); src["project-version"] != "1.0-1" {
		t.Fatalf("apply by project and version: %v", src)
	}
	if st, _ := c.do("POST", "/applications/"+id+"/project/update", map[string]any{"source": map[string]any{
		"type": "repository", "project-id": projectID, "assembly-version": "1.0-99"}}); st != 404 {
		t.Fatalf("apply of an unknown version: HTTP %d", st)
	}
}

func TestFailedApplyCanLeaveError(t *testing.T) {
	s, c := start(t, stand.Options{})
	s.SetApplyLeavesError(true)
	up := c.uploadNew("", sample("1.0-1"))
	id := c.createApp("crm", up["image-id"].(string))
	bad := c.uploadInto(artifactProject(up), broken("x", map[string]string{"М.xbsl": "  #error Плохо"}))
	c.apply(id, bad["id"].(string))
	card := c.waitStatus(id, "Error")
	if card["error"] != "Неизвестная ошибка. Обратитесь к администратору" {
		t.Fatalf("error %v", card["error"])
	}
	// Error is final: stop and start do not cure it.
	c.must(200, "PUT", "/applications/"+id+"/status/stop", nil)
	c.waitStatus(id, "Error")
	c.must(200, "PUT", "/applications/"+id+"/status/start", nil)
	c.waitStatus(id, "Error")
	// A good build does.
	c.apply(id, up["image-id"].(string))
	c.waitStatus(id, "Running")
}

func TestCompileErrorOnCreate(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", broken("1.0-1", map[string]string{"Основное/Форма.xbsl": "\n\n\t#error Тип \"Х\" не виден"}))
	card := c.obj("POST", "/applications", map[string]any{"display-name": "bad",
		"source": map[string]any{"type": "repository", "project-version-id": up["image-id"]}})
	id := card["id"].(string)
	card = c.waitStatus(id, "Error")
	if card["error"] != "Неизвестная ошибка. Обратитесь к администратору" || card["uri"] != nil {
		t.Fatalf("card %v", card)
	}
	failed := failedTasks(c, id)
	want := "Ошибка создания приложения: acme/crm/Основное/Форма.xbsl [3:2]: <Сервер> Тип \"Х\" не виден"
	if len(failed) != 1 || failed[0]["operation-type"] != "CreateApplication" || failed[0]["error-message"] != want {
		t.Fatalf("failed tasks %v", failed)
	}
}

func TestUnknownCompatibilityMode(t *testing.T) {
	_, c := start(t, stand.Options{})
	spec := sample("1.0-1")
	spec.CompatibilityMode = "9.9"
	spec.Files = map[string]string{"Основное/Справочник.yaml": "ВидЭлемента: Справочник\n"}
	up := c.uploadNew("", spec)
	card := c.obj("POST", "/applications", map[string]any{"display-name": "compat",
		"source": map[string]any{"type": "repository", "project-version-id": up["image-id"]}})
	id := card["id"].(string)
	c.waitStatus(id, "Error")
	lines := strings.Split(failedTasks(c, id)[0]["error-message"].(string), "\n")
	if lines[0] != "Ошибка создания приложения: Неизвестный режим совместимости 9.9" || len(lines) < 3 {
		t.Fatalf("compatibility refusal %q", lines)
	}
	for _, l := range lines[1:] {
		if strings.Contains(l, "Неизвестный режим совместимости") {
			t.Fatalf("derived line repeats the refusal: %q", l)
		}
	}

	// The same archive compiles on a stand that knows the mode; 8.0 is known by default.
	_, c2 := start(t, stand.Options{CompatibilityModes: []string{"9.9"}})
	c2.createApp("compat", c2.uploadNew("", spec)["image-id"].(string))
	spec.CompatibilityMode = "8.0"
	c.createApp("known", c.uploadInto(artifactProject(up), spec)["id"].(string))
}

func TestLanguagesWithoutLocalizationFailCreate(t *testing.T) {
	_, c := start(t, stand.Options{})
	spec := stand.ArchiveSpec{Vendor: "acme", Name: "lang", Version: "1.0-1",
		Descriptor: "Ид: 33333333-2222-4333-8444-555555555555\nИмя: lang\nПоставщик: acme\nВерсия: 1.0\nПредставление: Языки\nЯзыкРазработки: Русский\nЯзыкПоУмолчанию: Русский\nЯзыкиЛокализации: []\n"}
	up := c.uploadNew("", spec)
	card := c.obj("POST", "/applications", map[string]any{"display-name": "lang",
		"source": map[string]any{"type": "repository", "project-version-id": up["image-id"]}})
	c.waitStatus(card["id"].(string), "Error")
	if msg := failedTasks(c, card["id"].(string))[0]["error-message"]; msg != "Ошибка создания приложения: Contact administrator for details" {
		t.Fatalf("message %q", msg)
	}
}

func TestExportRepacksWithDirectoryEntries(t *testing.T) {
	_, c := start(t, stand.Options{})
	spec := sample("1.0.0-i1")
	spec.CommitID = "abc123"
	spec.Files = map[string]string{"Основное/Задача.yaml": "ВидЭлемента: Справочник\n", "Основное/Модули/М.xbsl": "метод А()\n;\n"}
	first := c.uploadNew("", spec)
	projectID := artifactProject(first)
	id := c.createApp("exp", first["image-id"].(string))
	archive := c.must(200, "POST", "/applications/"+id+"/project/export", nil)
	names := zipNames(t, archive)
	if names[0] != "Assembly.yaml" {
		t.Fatalf("first entry %q", names[0])
	}
	for _, want := range []string{"acme/", "acme/crm/", "acme/crm/Основное/", "acme/crm/Основное/Модули/", "acme/crm/Основное/Модули/М.xbsl", "acme/crm/Проект.yaml"} {
		if !contains(names, want) {
			t.Fatalf("entry %q missing from %v", want, names)
		}
	}
	// A build that created its project keeps its own manifest.
	if m := manifestOf(t, archive); m["Version"] != "1.0.0-i1" || m["CommitId"] != "abc123" {
		t.Fatalf("manifest %v", m)
	}
	// A build uploaded into the project carries the server's version and time.
	into := c.uploadInto(projectID, sample("1.0.0-i1"))
	c.apply(id, into["id"].(string))
	c.waitStatus(id, "Running")
	m := manifestOf(t, c.must(200, "POST", "/applications/"+id+"/project/export", nil))
	if m["Version"] != "1.0.0-1" || m["Created"] == "" || len(m["Created"]) != len("2026.09.02 10:00:00") {
		t.Fatalf("manifest of an into-project build %v", m)
	}
	if st, body := c.do("POST", "/applications/nope/project/export", nil); st != 404 || !strings.Contains(string(body), `"error"`) {
		t.Fatalf("export of a missing app: HTTP %d %s", st, body)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func zipReader(t *testing.T, v any) *zip.Reader {
	t.Helper()
	s, ok := v.(string)
	if !ok {
		t.Fatalf("export answer is not raw bytes: %T", v)
	}
	zr, err := zip.NewReader(strings.NewReader(s), int64(len(s)))
	if err != nil {
		t.Fatalf("export is not a ZIP: %v", err)
	}
	return zr
}

func zipNames(t *testing.T, v any) []string {
	var out []string
	for _, f := range zipReader(t, v).File {
		out = append(out, f.Name)
	}
	return out
}

func manifestOf(t *testing.T, v any) map[string]string {
	t.Helper()
	for _, f := range zipReader(t, v).File {
		if f.Name != "Assembly.yaml" {
			continue
		}
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		m := map[string]string{}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if k, v, ok := strings.Cut(string(line), ":"); ok {
				m[k] = strings.TrimSpace(v)
			}
		}
		return m
	}
	t.Fatal("no Assembly.yaml in the export")
	return nil
}

// The console dates a task's start only (spec §3.5); the end the stand
// recorded is on its control endpoint, and the application's card dates
// the apply's end in its date-updated.
func TestTasksShowTheirEndOnlyOnTheControl(t *testing.T) {
	s, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	id := c.createApp("crm", up["image-id"].(string))
	c.waitStatus(id, "Running")
	next := c.uploadInto(artifactProject(up), sample("1.0-2"))
	c.apply(id, next["id"].(string))
	card := c.waitStatus(id, "Running")
	for _, task := range c.appTasks(id) {
		if _, ok := task["end-date"]; ok || task["start-date"] == nil {
			t.Fatalf("the console lists a task as %v", task)
		}
	}
	req, _ := http.NewRequest("GET", c.base+"/stand/tasks", nil)
	req.SetBasicAuth(s.ClientID(), s.ClientSecret())
	resp, data, err := c.try(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /stand/tasks: %v %v", resp, err)
	}
	var records []map[string]any
	if err := json.Unmarshal(data, &records); err != nil {
		t.Fatal(err)
	}
	var apply map[string]any
	for _, r := range records {
		if r["application-id"] == id && r["operation-type"] == "UpdateApplication" {
			apply = r
		}
	}
	if apply == nil || apply["status"] != "Completed" {
		t.Fatalf("the stand's tasks %s", data)
	}
	start, err1 := time.Parse(time.RFC3339, apply["start-date"].(string))
	end, err2 := time.Parse(time.RFC3339, apply["end-date"].(string))
	updated, err3 := time.Parse(time.RFC3339, card["date-updated"].(string))
	if err1 != nil || err2 != nil || err3 != nil || !end.After(start) || !updated.Equal(end) {
		t.Fatalf("apply from %v to %v, card updated %v", apply["start-date"], apply["end-date"], card["date-updated"])
	}
}
