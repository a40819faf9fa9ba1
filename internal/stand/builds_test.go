package stand_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/stand"
)

func spec(vendor, name, id, version string) stand.ArchiveSpec {
	return stand.ArchiveSpec{Vendor: vendor, Name: name, Version: version, ID: id, Presentation: name}
}

func withBase(s stand.ArchiveSpec, base string) stand.ArchiveSpec { s.Base = base; return s }

// The live examples of spec/platform-api.md §5.5, one by one.
func TestNumberingOfUploads(t *testing.T) {
	_, c := start(t, stand.Options{})
	const idA = "a0000000-0000-4000-8000-00000000000a"
	first := c.uploadNew("", spec("acme", "num", idA, "1.0.0-probe-ab12cd34"))
	if first["name"] != "1.0.0-probe-ab12cd34" {
		t.Fatalf("a non-numeric version is kept verbatim: %v", first["name"])
	}
	if _, has := first["assembly-version"]; has {
		t.Fatal("the no-project-id answer carries no assembly-version")
	}
	p := artifactProject(first)
	into := func(version string) string {
		t.Helper()
		return c.uploadInto(p, withBase(spec("acme", "num", idA, version), "1.0.0"))["assembly-version"].(string)
	}
	steps := []struct{ archive, want string }{
		{"1.0.0-i1", "1.0.0-1"},
		{"1.0.0-10001", "1.0.0-2"},
		{"1.0.0-2", "1.0.0-3"}, // already present: the archive's number means nothing
	}
	for _, s := range steps {
		if got := into(s.archive); got != s.want {
			t.Fatalf("archive %s into the project: %s, want %s", s.archive, got, s.want)
		}
	}
	// Jump: after -3 an upload without project id of -500 makes the next -501.
	if got := c.uploadNew("", spec("acme", "num", idA, "1.0.0-500"))["name"]; got != "1.0.0-500" {
		t.Fatalf("no-project-id upload: %v", got)
	}
	if got := into("1.0.0-3"); got != "1.0.0-501" {
		t.Fatalf("after the jump: %s, want 1.0.0-501", got)
	}
	// 1.0.1-7 into a project whose descriptor says 1.0.0 → 1.0.0-502.
	if got := into("1.0.1-7"); got != "1.0.0-502" {
		t.Fatalf("archive 1.0.1-7: %s, want 1.0.0-502", got)
	}
	// A version present refuses the no-project-id route with 409.
	st, body := c.do("POST", "/projects", stand.MakeArchive(spec("acme", "num", idA, "1.0.0-2")))
	if st != 409 || string(body) != `{"code":"ALREADY_EXISTS","message":"Версия сборки 1.0.0-2 уже присутствует в группе проекта"}` {
		t.Fatalf("present version: HTTP %d %s", st, body)
	}
	if got := c.versions(p); !slices.Equal(got, []string{"1.0.0-probe-ab12cd34", "1.0.0-1", "1.0.0-2", "1.0.0-3", "1.0.0-500", "1.0.0-501", "1.0.0-502"}) {
		t.Fatalf("list %v", got)
	}
}

func TestNumberingAfterDeletions(t *testing.T) {
	_, c := start(t, stand.Options{})
	project := func(id, name string, n int) (string, func() string) {
		p := artifactProject(c.uploadNew("", spec("acme", name, id, "1.0.0-1")))
		into := func() string {
			return c.uploadInto(p, withBase(spec("acme", name, id, "x"), "1.0.0"))["assembly-version"].(string)
		}
		for range n - 1 {
			into()
		}
		return p, into
	}
	del := func(p, v string) { t.Helper(); c.must(204, "DELETE", "/projects/"+p+"/assemblies/"+v, nil) }

	// With 1.0.0-4 deleted from the top the next became 1.0.0-5.
	p, into := project("b0000000-0000-4000-8000-00000000000b", "top", 4)
	del(p, "1.0.0-4")
	if got := into(); got != "1.0.0-5" {
		t.Fatalf("after deleting the top: %s, want 1.0.0-5", got)
	}

	// With -50/-51 deleted it became -52 while the list ended at -8.
	p, into = project("c0000000-0000-4000-8000-00000000000c", "holes", 8)
	c.uploadNew("", spec("acme", "holes", "c0000000-0000-4000-8000-00000000000c", "1.0.0-50"))
	c.uploadNew("", spec("acme", "holes", "c0000000-0000-4000-8000-00000000000c", "1.0.0-51"))
	del(p, "1.0.0-50")
	del(p, "1.0.0-51")
	if got := c.versions(p); got[len(got)-1] != "1.0.0-8" {
		t.Fatalf("list ends at %v", got)
	}
	if got := into(); got != "1.0.0-52" {
		t.Fatalf("after deleting -50/-51: %s, want 1.0.0-52", got)
	}

	// A deleted number is free again without project id, and does not rewind.
	p, into = project("d0000000-0000-4000-8000-00000000000d", "reuse", 7)
	del(p, "1.0.0-2")
	if got := c.uploadNew("", spec("acme", "reuse", "d0000000-0000-4000-8000-00000000000d", "1.0.0-2"))["name"]; got != "1.0.0-2" {
		t.Fatalf("re-upload of a deleted number: %v", got)
	}
	if got := into(); got != "1.0.0-8" {
		t.Fatalf("after the re-upload: %s, want 1.0.0-8", got)
	}
}

func TestProjectIdentityAndRenaming(t *testing.T) {
	s, c := start(t, stand.Options{})
	spaces := c.list("/spaces")
	if len(spaces) != 1 || spaces[0]["id"] == "" {
		t.Fatalf("spaces %v", spaces)
	}
	space := spaces[0]["id"].(string)
	const id = "e0000000-0000-4000-8000-00000000000e"
	first := c.uploadNew(space, stand.ArchiveSpec{Vendor: "acme", Name: "crm", Version: "1.0-1", ID: id, Presentation: "Acme CRM"})
	art := first["artifact"].(map[string]any)
	if art["configuration-id"] != id || art["name"] != "Acme CRM" || first["image-id"] == "" {
		t.Fatalf("answer %v", first)
	}
	p := art["artifact-id"].(string)
	// One Ид, whatever the vendor and name: one project, through both routes.
	for _, up := range []map[string]any{
		c.uploadNew("", stand.ArchiveSpec{Vendor: "acme", Name: "crm-next", Version: "1.0-2", ID: id, Presentation: "Acme CRM"}),
		c.uploadNew(space, stand.ArchiveSpec{Vendor: "globex", Name: "crm", Version: "1.0-3", ID: id, Presentation: "Acme CRM"}),
	} {
		if artifactProject(up) != p {
			t.Fatalf("landed in %s, want %s", artifactProject(up), p)
		}
	}
	// A fresh Ид with the pair another project holds is refused, and no project stays.
	before := len(c.list("/projects"))
	st, body := c.do("POST", "/projects", stand.MakeArchive(stand.ArchiveSpec{Vendor: "globex", Name: "crm", Version: "1.0-1", ID: "f0000000-0000-4000-8000-00000000000f"}))
	if st != 409 || !strings.Contains(string(body), "ALREADY_EXISTS") ||
		!strings.Contains(string(body), "Сборка с именем поставщика globex") || !strings.Contains(string(body), "уже зарегистрирована в другом проекте") {
		t.Fatalf("taken pair: HTTP %d %s", st, body)
	}
	if after := len(c.list("/projects")); after != before {
		t.Fatalf("projects %d → %d after a refusal", before, after)
	}
	// The project and its group, side by side.
	var proj, group map[string]any
	for _, e := range c.list("/projects") {
		switch {
		case e["id"] == p:
			proj = e
		case e["project-kind"] == "Group":
			group = e
		}
	}
	if proj["name"] != "Acme CRM" || proj["project-kind"] != "Application" || proj["deleted"] != false ||
		proj["space-id"] != space || !strings.HasSuffix(proj["date-created"].(string), "Z") {
		t.Fatalf("project %v", proj)
	}
	if group["name"] != "Acme CRM(Группа)" || group["id"] != proj["group-id"] {
		t.Fatalf("group %v", group)
	}
	// A build with another Представление renames the project and the group.
	renamed := c.uploadInto(p, stand.ArchiveSpec{Vendor: "acme", Name: "crm", Version: "1.0-9", ID: id, Presentation: "CRM нового поколения"})
	if renamed["project-id"] != p {
		t.Fatalf("build card %v", renamed)
	}
	if got := c.obj("GET", "/projects/"+p, nil)["name"]; got != "CRM нового поколения" {
		t.Fatalf("renamed project: %v", got)
	}
	if got := c.obj("GET", "/projects/"+group["id"].(string), nil)["name"]; got != "CRM нового поколения(Группа)" {
		t.Fatalf("renamed group: %v", got)
	}

	// The live project carrying the Ид is found in another space too.
	other := s.AddSpace("second")
	if got := artifactProject(c.uploadNew(other, stand.ArchiveSpec{Vendor: "acme", Name: "crm", Version: "1.0-20", ID: id, Presentation: "CRM"})); got != p {
		t.Fatalf("upload into another space landed in %s", got)
	}
	// ...but not a deleted one: then a new project is made.
	c.must(204, "DELETE", "/projects/"+p, nil)
	if got := artifactProject(c.uploadNew(other, stand.ArchiveSpec{Vendor: "acme", Name: "crm", Version: "1.0-1", ID: id, Presentation: "CRM"})); got == p {
		t.Fatal("a deleted project took an upload")
	}
	var gone map[string]any
	for _, e := range c.list("/projects") {
		if e["id"] == p {
			gone = e
		}
	}
	if gone["deleted"] != true {
		t.Fatalf("deleted project listed as %v", gone)
	}
	if st, _ := c.do("GET", "/projects/"+p+"/assemblies", nil); st != 404 {
		t.Fatalf("builds of a deleted project: HTTP %d", st)
	}
}

func TestUploadRouteChecks(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	p := artifactProject(up)
	archive := stand.MakeArchive(sample("1.0-1"))
	post := func(path string, body []byte) (int, string) {
		st, data := c.do("POST", path, body)
		return st, string(data)
	}
	if st, _ := post("/projects/"+p+"/assemblies?space-id=not-a-uuid", archive); st != 400 {
		t.Fatalf("malformed space-id: HTTP %d", st)
	}
	if st, _ := post("/projects/"+p+"/assemblies?space-id=01234567-89ab-4def-8123-456789abcdef", archive); st != 404 {
		t.Fatalf("unknown space-id: HTTP %d", st)
	}
	space := c.list("/spaces")[0]["id"].(string)
	card := c.obj("POST", "/projects/"+p+"/assemblies?space-id="+space+"&commit-id=deadbeef&branch-name=dev&commit-message=m&SpaceId=bad", archive)
	if card["commit-id"] != "deadbeef" || card["assembly-version"] != "1.0-2" || card["project-version"] != "1.0-2" ||
		card["id"] == "" || card["image-id"] != card["id"] || card["project-developer"] != "acme" || card["project-name"] != "crm" {
		t.Fatalf("build card %v", card)
	}
	if got := c.obj("GET", "/projects/"+p+"/assemblies/1.0-2", nil)["commit-id"]; got != "deadbeef" {
		t.Fatalf("stored commit-id %v", got)
	}
	if st, _ := post("/projects/"+p+"/assemblies?modified=1", archive); st != 500 {
		t.Fatalf("modified=1: HTTP %d", st)
	}
	// The no-project-id route ignores any query.
	if st, body := post("/projects?space-id=garbage", stand.MakeArchive(sample("1.0-77"))); st != 200 {
		t.Fatalf("space-id on /projects: HTTP %d %s", st, body)
	}
	if st, _ := post("/spaces/01234567-89ab-4def-8123-456789abcdef/projects", archive); st != 404 {
		t.Fatalf("unknown space: HTTP %d", st)
	}
	noPresentation := stand.ArchiveSpec{Vendor: "acme", Name: "bare", Version: "1.0-1",
		Descriptor: "Ид: 99999999-0000-4000-8000-000000000009\nИмя: bare\nПоставщик: acme\nВерсия: 1.0\nЯзыкРазработки: Русский\n"}
	if st, _ := post("/projects", stand.MakeArchive(noPresentation)); st != 500 {
		t.Fatalf("missing Представление: HTTP %d", st)
	}
	if st, _ := post("/projects/"+p+"/assemblies", stand.MakeArchive(noPresentation)); st != 500 {
		t.Fatalf("missing Представление into a project: HTTP %d", st)
	}
	if st, _ := post("/projects", []byte("not a zip")); st != 400 {
		t.Fatalf("not an archive: HTTP %d", st)
	}
}

func TestBuildCardsAndDeletion(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	p, b1 := artifactProject(up), up["image-id"].(string)
	b2 := c.uploadInto(p, sample("x"))["id"].(string)

	list := c.list("/projects/" + p + "/assemblies")
	if len(list) != 2 || list[0]["id"] != b1 || list[1]["id"] != b2 || list[0]["created"].(string) > list[1]["created"].(string) {
		t.Fatalf("build list %v", list)
	}
	for _, key := range []string{"id", "image-id", "assembly-version", "project-version", "created", "commit-id", "branch-name", "project-id", "project-developer", "project-name"} {
		if _, ok := list[0][key]; !ok {
			t.Fatalf("build card lacks %s: %v", key, list[0])
		}
	}
	if got := c.obj("GET", "/projects/"+p+"/assemblies/1.0-2", nil)["id"]; got != b2 {
		t.Fatalf("card by version: %v", got)
	}
	st, body := c.do("GET", "/projects/"+p+"/assemblies/"+b2, nil)
	if st != 404 || string(body) != `{"message":"Assembly with version `+b2+` not found"}` {
		t.Fatalf("card by UUID: HTTP %d %s", st, body)
	}

	// Deleting the build an application was created from: 500 until the app is really gone.
	app := c.createApp("holder", b1)
	if st, _ := c.do("DELETE", "/projects/"+p+"/assemblies/1.0-1", nil); st != 500 {
		t.Fatalf("delete while the app lives: HTTP %d", st)
	}
	// A build that only took part in an apply (rolled back or not) deletes normally.
	c.apply(app, b2)
	c.waitStatus(app, "Running")
	c.apply(app, b1)
	c.waitStatus(app, "Running")
	c.must(204, "DELETE", "/projects/"+p+"/assemblies/1.0-2", nil)
	if st, _ := c.do("GET", "/projects/"+p+"/assemblies/1.0-2", nil); st != 404 {
		t.Fatalf("card of a deleted build: HTTP %d", st)
	}

	s2, c2 := start(t, stand.Options{Durations: stand.Durations{Delete: 80 * 1e9}})
	_ = s2
	up2 := c2.uploadNew("", sample("1.0-1"))
	app2 := c2.createApp("holder", up2["image-id"].(string))
	c2.must(200, "DELETE", "/applications/"+app2, nil)
	if st, _ := c2.do("DELETE", "/projects/"+artifactProject(up2)+"/assemblies/1.0-1", nil); st != 500 {
		t.Fatalf("delete while the app is Deleting: HTTP %d", st)
	}
	c2.waitGone(app2)
	c2.must(204, "DELETE", "/projects/"+artifactProject(up2)+"/assemblies/1.0-1", nil)
	c2.must(204, "DELETE", "/projects/"+artifactProject(up2), nil)
}

// The live example of spec/platform-api.md §5.6.
func TestHousekeepingAfterApply(t *testing.T) {
	_, c := start(t, stand.Options{})
	const id = "ab000000-0000-4000-8000-0000000000ab"
	up := c.uploadNew("", spec("acme", "hk", id, "1.0.0-1")) // creates the project: protected
	p := artifactProject(up)
	into := func(base string) string {
		return c.uploadInto(p, withBase(spec("acme", "hk", id, "x"), base))["id"].(string)
	}
	into("1.0.0")                                       // -2
	b3 := into("1.0.0")                                 // -3
	into("1.0.0")                                       // -4
	c.uploadNew("", spec("acme", "hk", id, "1.0.0-10")) // protected, a jump
	into("1.0.0")                                       // -11
	b12 := into("1.0.0")                                // -12
	b2001 := into("2.0.0")                              // 2.0.0-1
	into("2.0.0")                                       // 2.0.0-2
	nine := []string{"1.0.0-1", "1.0.0-2", "1.0.0-3", "1.0.0-4", "1.0.0-10", "1.0.0-11", "1.0.0-12", "2.0.0-1", "2.0.0-2"}
	if got := c.versions(p); !slices.Equal(got, nine) {
		t.Fatalf("nine builds: %v", got)
	}
	app := c.createApp("hk", up["image-id"].(string))
	// Creating an application deletes nothing.
	if got := c.versions(p); !slices.Equal(got, nine) {
		t.Fatalf("after create: %v", got)
	}
	step := func(build string, want ...string) {
		t.Helper()
		c.apply(app, build)
		c.waitStatus(app, "Running")
		if got := c.versions(p); !slices.Equal(got, want) {
			t.Fatalf("after applying: %v, want %v", got, want)
		}
	}
	step(b3, "1.0.0-1", "1.0.0-3", "1.0.0-10", "1.0.0-12", "2.0.0-1", "2.0.0-2")
	step(b12, "1.0.0-1", "1.0.0-10", "1.0.0-12", "2.0.0-1", "2.0.0-2")
	step(b2001, "1.0.0-1", "1.0.0-10", "1.0.0-12", "2.0.0-1", "2.0.0-2")
}

func TestHousekeepingRemovesTenPerApply(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	p := artifactProject(up)
	var last string
	for range 15 {
		last = c.uploadInto(p, sample("x"))["id"].(string) // -2 … -16
	}
	app := c.createApp("ten", up["image-id"].(string))
	c.apply(app, last)
	c.waitStatus(app, "Running")
	if got := c.versions(p); !slices.Equal(got, []string{"1.0-1", "1.0-12", "1.0-13", "1.0-14", "1.0-15", "1.0-16"}) {
		t.Fatalf("after one apply: %v", got)
	}
	c.apply(app, last)
	c.waitStatus(app, "Running")
	if got := c.versions(p); !slices.Equal(got, []string{"1.0-1", "1.0-16"}) {
		t.Fatalf("after two applies: %v", got)
	}
}

func TestHousekeepingKeepsBuildsOfLiveApps(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	p := artifactProject(up)
	b2 := c.uploadInto(p, sample("x"))["id"].(string)
	b3 := c.uploadInto(p, sample("x"))["id"].(string)
	b4 := c.uploadInto(p, sample("x"))["id"].(string)
	c.createApp("other", b2) // created from -2: kept
	app := c.createApp("main", up["image-id"].(string))
	c.apply(app, b3)
	c.waitStatus(app, "Running")
	_ = b4
	if got := c.versions(p); !slices.Equal(got, []string{"1.0-1", "1.0-2", "1.0-3", "1.0-4"}) {
		t.Fatalf("nothing to remove: %v", got)
	}
}
