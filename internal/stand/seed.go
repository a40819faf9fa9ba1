package stand

import (
	"errors"
	"fmt"
	"time"
)

// seedBaseline creates what every installation has: a space, the
// control-panel user list and the console user the credentials belong to.
func (s *Stand) seedBaseline(now time.Time) {
	sp := s.defaultSpace(now)
	panel := &UserList{ID: newID(), Presentation: controlPanelListName, SpaceID: sp.ID, ControlPanel: true,
		PasswordPolicyEnabled: true,
		AccountServices: []AccountService{{ID: newID(), Type: "Local", Enabled: true, CreateUserOnAuth: false,
			AdditionalSettings: map[string]any{}}}}
	s.st.addUserList(panel)
	s.st.addUser(&User{ID: newID(), UserListID: panel.ID, Login: "admin", Presentation: "Администратор", IsAdmin: true,
		AccessTokens: []AccessToken{{ClientID: "admin-" + randomHex(4), ClientSecret: randomHex(16)}}})
	s.changed()
}

// AddSpace adds a space and returns its id.
func (s *Stand) AddSpace(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.settle(now)
	sp := &Space{ID: newID(), Name: name, Presentation: name, Created: now}
	s.st.addSpace(sp)
	s.changed()
	s.saveIfDirty()
	return sp.ID
}

// Facts of the shipped demo project examples/demo/Acme/Tasks (Проект.yaml).
const (
	DemoConfigurationID = "7c1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f10"
	DemoVendor          = "Acme"
	DemoName            = "Tasks"
	DemoPresentation    = "Задачи команды"
	DemoBase            = "1.0"
	DemoAppName         = "tasks-demo"
)

const demoDescriptor = `Ид: 7c1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f10
Имя: Tasks
Поставщик: Acme
Версия: 1.0
Представление: Задачи команды
ВидПроекта: Приложение
ЯзыкРазработки: Русский
ЯзыкПоУмолчанию: Русский
ЯзыкиЛокализации:
    - Русский
РежимСовместимости: 8.0
`

var demoFiles = map[string]string{
	"Основное/Подсистема.yaml": "ВидЭлемента: Подсистема\nИд: 1f0b8c3e-52a4-4e7d-8a19-6c3d2e4f5a01\nИмя: Основное\n",
	"Основное/Задача.yaml": "ВидЭлемента: Справочник\nИд: 2a6d9e14-7b3c-4d58-a0f2-3e1c5b7d9a02\nИмя: Задача\n" +
		"ОбластьВидимости: Глобально\nПредставление: Задача\nРеквизиты:\n    -\n        Ид: 3b7e0f25-8c4d-4e69-b103-4f2d6c8e0b03\n" +
		"        Имя: Описание\n        Тип: Строка\n        Длина: 200\n",
	"Основное/Задачи.xbsl": "@НаКлиенте\nметод ОтметитьВыполненной(Задача: Задача.Ссылка)\n    ОтметитьНаСервере(Задача)\n;\n",
}

// DemoInfo names what SeedDemo created.
type DemoInfo struct{ SpaceID, ProjectID, AppID, AppName string }

// SeedDemo adds the demo: the Acme/Tasks project (builds 1.0-1, uploaded
// without a project id and so creating the project, then 1.0-2 and 1.0-3
// into it), the Running application tasks-demo on 1.0-3 and a
// control-panel user "demo". A second call returns what the first made.
func (s *Stand) SeedDemo() (DemoInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.settle(now)
	defer s.saveIfDirty()
	if info, ok := s.demoLocked(); ok {
		return info, nil
	}
	sp := s.defaultSpace(now)
	spec := ArchiveSpec{Vendor: DemoVendor, Name: DemoName, Descriptor: demoDescriptor, Files: demoFiles, Created: now}
	spec.Version = DemoBase + "-1"
	first, err := s.putWithoutProject(sp, spoolOf(MakeArchive(spec)), now)
	if err != nil {
		return DemoInfo{}, fmt.Errorf("stand: seeding the demo project: %w", err)
	}
	last := first
	for _, v := range []string{"-2", "-3"} {
		spec.Version = DemoBase + v
		if last, err = s.putIntoProject(first.project.ID, spoolOf(MakeArchive(spec)), "", now); err != nil {
			return DemoInfo{}, fmt.Errorf("stand: seeding the demo builds: %w", err)
		}
	}
	a, err := s.newApp(map[string]any{
		"display-name": DemoAppName, "publication-context": DemoAppName,
		"source": map[string]any{"type": "repository", "project-version-id": last.build.ID},
	}, now)
	if err != nil {
		return DemoInfo{}, fmt.Errorf("stand: seeding the demo application: %w", err)
	}
	s.finishOp(a, now)
	s.ensureControlPanelUser("demo", "Демо-пользователь")
	s.ensureOidcSignIn()
	return DemoInfo{sp.ID, first.project.ID, a.ID, DemoAppName}, nil
}

// ensureOidcSignIn gives the control-panel list an OpenID Connect sign-in
// service beside its Local one, as a company's single sign-on would: the
// demo then has a list with one (the control panel's) and a list without
// one (the application's own).
func (s *Stand) ensureOidcSignIn() {
	for _, l := range s.st.userLists {
		if !l.ControlPanel {
			continue
		}
		for _, a := range l.AccountServices {
			if a.Type == "Oidc" {
				return
			}
		}
		l.AccountServices = append(l.AccountServices, AccountService{ID: newID(), Type: "Oidc", Enabled: true,
			CreateUserOnAuth: true, AdditionalSettings: map[string]any{"issuer": "https://sso.example/realms/acme", "client-id": "elemctl-demo"}})
		s.changed()
		return
	}
}

// Demo names the demo SeedDemo made, when its application is still there
// (a stand restored from its state file knows it without seeding again).
func (s *Stand) Demo() (DemoInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(time.Now())
	defer s.saveIfDirty()
	return s.demoLocked()
}

func (s *Stand) demoLocked() (DemoInfo, bool) {
	for _, a := range s.st.apps {
		if a.Status != statusDeleted && a.PublicationContext == DemoAppName {
			return DemoInfo{a.SpaceID, a.ProjectID, a.ID, DemoAppName}, true
		}
	}
	return DemoInfo{}, false
}

func (s *Stand) ensureControlPanelUser(login, presentation string) {
	var panel *UserList
	for _, l := range s.st.userLists {
		if l.ControlPanel {
			panel = l
			break
		}
	}
	if panel == nil {
		panel = &UserList{ID: newID(), Presentation: controlPanelListName, SpaceID: s.defaultSpace(time.Now()).ID, ControlPanel: true}
		s.st.addUserList(panel)
	}
	for _, u := range s.st.users {
		if u.UserListID == panel.ID && u.Login == login {
			return
		}
	}
	s.st.addUser(&User{ID: newID(), UserListID: panel.ID, Login: login, Presentation: presentation,
		AccessTokens: []AccessToken{{ClientID: login + "-" + randomHex(4), ClientSecret: randomHex(16)}}})
	s.changed()
}

// bulkConfigurationID is the Ид of the project bulk applications run.
const bulkConfigurationID = "5e1d0b01-c0de-4a11-8b00-00000000b01c"

// BulkInfo names the bulk project Acme/Bulk, which the seeded
// applications run and which takes seeded builds when there is no demo.
type BulkInfo struct{ SpaceID, ProjectID string }

// SeedApps adds total applications of which live are Running and the rest
// Deleted tombstones (benchmarks: 5000/500). They run one build of the
// bulk project Acme/Bulk.
func (s *Stand) SeedApps(total, live int) error {
	if total < 0 || live < 0 || live > total {
		return errors.New("stand: SeedApps wants 0 <= live <= total")
	}
	_, err := s.seedBulk(func(haveLive, haveDeleted int) (int, int) { return live, total - live })
	return err
}

// EnsureApps makes the bulk project hold at least live Running and deleted
// Deleted applications, adding what is missing (a stand restored from its
// state file adds nothing twice), and names the project.
func (s *Stand) EnsureApps(live, deleted int) (BulkInfo, error) {
	if live < 0 || deleted < 0 {
		return BulkInfo{}, errors.New("stand: EnsureApps wants counts of 0 or more")
	}
	return s.seedBulk(func(haveLive, haveDeleted int) (int, int) {
		return max(live-haveLive, 0), max(deleted-haveDeleted, 0)
	})
}

// seedBulk adds the applications more(live, deleted they are now) asks
// for to the bulk project, made when missing: the tombstones first, as the
// platform lists applications in creation order. Each comes with the tasks
// the platform keeps of it, its creation's and a tombstone's deletion's,
// as a stand that made and deleted them would list.
func (s *Stand) seedBulk(more func(haveLive, haveDeleted int) (live, deleted int)) (BulkInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.settle(now)
	defer s.saveIfDirty()
	p, b, err := s.bulkProject(now)
	if err != nil {
		return BulkInfo{}, err
	}
	haveLive, haveDeleted := 0, 0
	for _, a := range s.st.apps {
		switch {
		case a.ProjectID != p.ID:
		case a.Status == statusDeleted:
			haveDeleted++
		default:
			haveLive++
		}
	}
	live, deleted := more(haveLive, haveDeleted)
	tag := randomHex(3)
	for i := range live + deleted {
		ctx := fmt.Sprintf("bulk-%s-%05d", tag, i+1)
		a := &App{ID: newID(), Name: ctx, DisplayName: ctx, PublicationContext: ctx, SpaceID: p.SpaceID, ProjectID: p.ID,
			BuildID: b.ID, CreatedFromBuildID: b.ID, TechnologyVersion: defaultTechnologyVersion, DevelopmentMode: true,
			Created: now, Updated: now, TokenAccess: map[string]bool{}, Status: statusDeleted}
		if i >= deleted {
			a.Status, a.Published = statusRunning, true
			s.attachUserLists(a, now)
		}
		s.st.addApp(a)
		s.st.addTask(&Task{ID: newID(), AppID: a.ID, Status: taskCompleted, OperationType: "CreateApplication", Start: now, End: now})
		if a.Status == statusDeleted {
			s.st.addTask(&Task{ID: newID(), AppID: a.ID, Status: taskCompleted, OperationType: "DeleteApplication", Start: now, End: now})
		}
	}
	s.changed()
	return BulkInfo{p.SpaceID, p.ID}, nil
}

// bulkProject finds the bulk project and its latest build, making them
// when missing. The stand's lock is held.
func (s *Stand) bulkProject(now time.Time) (*Project, *Build, error) {
	sp := s.defaultSpace(now)
	p := s.projectByConfiguration(bulkConfigurationID, sp.ID)
	var b *Build
	if p != nil {
		b = s.latestBuild(p.ID)
	}
	if b == nil {
		up, err := s.putWithoutProject(sp, spoolOf(MakeArchive(ArchiveSpec{Vendor: "Acme", Name: "Bulk", Version: "1.0-1",
			ID: bulkConfigurationID, Presentation: "Массовые приложения", Created: now})), now)
		if err != nil {
			return nil, nil, fmt.Errorf("stand: seeding the bulk project: %w", err)
		}
		p, b = up.project, up.build
	}
	return p, b, nil
}

// SeedBuilds uploads n builds into a project by id (numbers assigned by the
// server's rule) and returns their ids (benchmarks: 2000). The builds
// repeat the project's latest build archive.
func (s *Stand) SeedBuilds(projectID string, n int) ([]string, error) {
	return s.seedBuilds(projectID, func(int) int { return n })
}

// EnsureBuilds makes a project hold at least n live builds, adding what is
// missing as SeedBuilds does.
func (s *Stand) EnsureBuilds(projectID string, n int) error {
	_, err := s.seedBuilds(projectID, func(have int) int { return max(n-have, 0) })
	return err
}

func (s *Stand) seedBuilds(projectID string, more func(have int) int) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.settle(now)
	defer s.saveIfDirty()
	p, err := s.liveProject(projectID)
	if err != nil || p.Kind == kindGroup {
		return nil, errors.New("stand: no live project " + projectID)
	}
	n := more(len(s.liveBuilds(p.ID)))
	if n <= 0 {
		return nil, nil
	}
	var data []byte
	if b := s.latestBuild(p.ID); b != nil {
		if data, err = s.buildBytes(b); err != nil {
			return nil, fmt.Errorf("stand: seeding builds: %w", err)
		}
	} else {
		data = MakeArchive(ArchiveSpec{Vendor: p.Vendor, Name: p.Name, Version: "1.0-1", ID: p.ConfigurationID, Presentation: p.Presentation, Created: now})
	}
	body := spoolOf(data)
	a, err := s.readUpload(body)
	if err != nil {
		return nil, fmt.Errorf("stand: seeding builds: %w", err)
	}
	ids := make([]string, 0, n)
	for range n {
		up, err := s.putParsedIntoProject(p, a, body, "", now)
		if err != nil {
			return ids, fmt.Errorf("stand: seeding builds: %w", err)
		}
		ids = append(ids, up.build.ID)
	}
	return ids, nil
}
