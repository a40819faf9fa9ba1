package stand

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/elemctl/elemctl/internal/atomicfile"
)

// Space is a space of the installation.
type Space struct {
	ID, Name, Presentation string
	Created                time.Time
}

// Project is a project or a project group (Kind "Group").
type Project struct {
	ID   string
	Kind string // Application, Library, Extension or Group
	// SpaceID is the space the project lives in; GroupID names its group entry.
	SpaceID, GroupID string
	// Presentation is the Представление of the last uploaded build's descriptor.
	Presentation string
	// ConfigurationID is the Ид of the descriptor: the project's identity for
	// uploads without a project id.
	ConfigurationID string
	// Vendor and Name are the pair of the last upload; unique per space.
	Vendor, Name   string
	Deleted        bool
	Created        time.Time
	DefaultBuildID string
	// Counters is the highest build number ever given, per base version.
	Counters map[string]int
}

// Build is an uploaded build ("assembly").
type Build struct {
	ID, ProjectID string
	// Version is the assembly-version; Base and Number are its parts
	// ({base}-{number}); Number is 0 for a non-numeric suffix.
	Version, Base string
	Number        int
	Created       time.Time
	CommitID      string
	// Route is "project" (into a project by id), "no-project-id" or "seed".
	Route     string
	Protected bool
	Release   bool
	Deleted   bool
	// Manifest (Assembly.yaml) facts.
	ManifestVersion, Kind, Vendor, Name, ArchiveVersion string
	// Descriptor (Проект.yaml) facts.
	ConfigurationID, Presentation, VendorPresentation, DescriptorVersion string
	// ArchiveKey names the uploaded ZIP in the stand's store (its SHA-256
	// in hex); ArchiveSize is its size. BuildArchive reads it.
	ArchiveKey  string
	ArchiveSize int64
}

// ExtensionRow is an extension applied to an application (v2.1 listing).
type ExtensionRow struct {
	ID                               string // descriptor Ид of the extension
	ProjectID, BuildID               string
	Base, Version                    string
	Enabled                          bool
	Order                            int
	Vendor, VendorPresentation       string
	ProjectName, ProjectPresentation string
}

// Operation is a platform operation in progress on an application. It ends
// at Due; the outcome is decided when it starts and applied lazily.
type Operation struct {
	Kind         string // create, apply, start, stop, delete
	Started, Due time.Time
	BuildID      string
	TaskID       string
	// Failure is the task error-message of a failing operation; "" = success.
	Failure string
	// LeaveError: a failing apply leaves status Error instead of rolling back.
	LeaveError bool
	PrevStatus string
}

// App is an application. A deleted application keeps Status "Deleted".
type App struct {
	ID, Name, DisplayName, PublicationContext string
	Status                                    string
	// Published tells whether the application has its uri.
	Published bool
	Error     string
	SpaceID   string
	ProjectID string
	// BuildID is the build the application runs (source.project-version-id).
	BuildID string
	// CreatedFromBuildID is the build the application was created from.
	CreatedFromBuildID string
	// ExportBuildID is the build uploaded for an update in progress or failed;
	// export answers with it while set.
	ExportBuildID     string
	TechnologyVersion string
	DevelopmentMode   bool
	Created, Updated  time.Time
	DefaultUserList   string
	UserLists         []string
	Drafts            bool
	Extensions        []ExtensionRow
	// TokenAccess holds the token-access flags, keyed "<user-list-id>/<user-id>".
	TokenAccess map[string]bool
	Op          *Operation
}

// Task is an application task.
type Task struct {
	ID, AppID, Status, OperationType, ErrorMessage string
	Start, End                                     time.Time
}

// AccessToken is a user's access token (the console returns the secret).
type AccessToken struct{ ClientID, ClientSecret string }

// User is a user of a user list.
type User struct {
	ID, UserListID, Login, Presentation, Email string
	IsAdmin                                    bool
	AccessTokens                               []AccessToken
}

// SelfRegistration is the self-registration setting of a user list.
type SelfRegistration struct{ Enabled, PhoneRequired, EmailRequired bool }

// AccountService is one entry of a user list's account services settings.
type AccountService struct {
	ID, Type, LocalID         string
	Enabled, CreateUserOnAuth bool
	AdditionalSettings        map[string]any
	// CalculationRules are write-only: accepted on PUT, never returned.
	CalculationRules map[string]any
}

// UserList is a user list: the control-panel list or an application's own.
type UserList struct {
	ID, Presentation, SpaceID string
	ControlPanel              bool
	AppID                     string
	SelfRegistration          SelfRegistration
	PasswordPolicyEnabled     bool
	IncludePersonalData       bool
	AccountServices           []AccountService
}

// Branch is a development-environment branch.
type Branch struct {
	ID, Name, Kind                 string
	ProjectID, AppID, SourceBranch string
	DeletionMark                   bool
	VersionStamp                   string
	Merges                         int
	Created                        time.Time
}

// Dump is an application dump.
type Dump struct {
	ID, AppID, Description          string
	IncludeUsers, IncludeBinaryData bool
	Created, Due                    time.Time
}

// GroupTask is a group task updating the technology version of applications.
type GroupTask struct {
	ID, TechnologyVersion string
	AppIDs                []string
	Created, Due          time.Time
	Done                  bool
}

// Snapshot is a deep copy of the stand's state. It is also the format of
// the state file.
type Snapshot struct {
	Spaces     []Space
	Projects   []Project
	Builds     []Build
	Apps       []App
	Tasks      []Task
	UserLists  []UserList
	Users      []User
	Branches   []Branch
	Dumps      []Dump
	GroupTasks []GroupTask
}

// state is the live model: ordered slices of pointers plus id indexes.
type state struct {
	spaces     []*Space
	projects   []*Project
	builds     []*Build
	apps       []*App
	tasks      []*Task
	userLists  []*UserList
	users      []*User
	branches   []*Branch
	dumps      []*Dump
	groupTasks []*GroupTask

	spaceByID    map[string]*Space
	projectByID  map[string]*Project
	buildByID    map[string]*Build
	appByID      map[string]*App
	taskByID     map[string]*Task
	userListByID map[string]*UserList
	userByID     map[string]*User
	branchByID   map[string]*Branch
	// pending holds applications with an operation in progress.
	pending map[string]*App
}

func newState() *state {
	return &state{
		spaceByID:    map[string]*Space{},
		projectByID:  map[string]*Project{},
		buildByID:    map[string]*Build{},
		appByID:      map[string]*App{},
		taskByID:     map[string]*Task{},
		userListByID: map[string]*UserList{},
		userByID:     map[string]*User{},
		branchByID:   map[string]*Branch{},
		pending:      map[string]*App{},
	}
}

func (st *state) addSpace(v *Space) { st.spaces = append(st.spaces, v); st.spaceByID[v.ID] = v }
func (st *state) addProject(v *Project) {
	st.projects = append(st.projects, v)
	st.projectByID[v.ID] = v
}
func (st *state) addBuild(v *Build) { st.builds = append(st.builds, v); st.buildByID[v.ID] = v }
func (st *state) addTask(v *Task)   { st.tasks = append(st.tasks, v); st.taskByID[v.ID] = v }
func (st *state) addUserList(v *UserList) {
	st.userLists = append(st.userLists, v)
	st.userListByID[v.ID] = v
}
func (st *state) addUser(v *User)     { st.users = append(st.users, v); st.userByID[v.ID] = v }
func (st *state) addBranch(v *Branch) { st.branches = append(st.branches, v); st.branchByID[v.ID] = v }

func (st *state) addApp(v *App) {
	st.apps = append(st.apps, v)
	st.appByID[v.ID] = v
	if v.Op != nil {
		st.pending[v.ID] = v
	}
}

func copyApp(a App) App {
	a.UserLists = slices.Clone(a.UserLists)
	a.Extensions = slices.Clone(a.Extensions)
	a.TokenAccess = maps.Clone(a.TokenAccess)
	if a.Op != nil {
		op := *a.Op
		a.Op = &op
	}
	return a
}

func copyAccountService(s AccountService) AccountService {
	s.AdditionalSettings = deepCopyMap(s.AdditionalSettings)
	s.CalculationRules = deepCopyMap(s.CalculationRules)
	return s
}

// deepCopyMap copies a decoded-JSON map through a JSON round trip.
func deepCopyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return maps.Clone(m)
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// snapshot copies the state deeply.
func (st *state) snapshot() Snapshot {
	var sn Snapshot
	for _, v := range st.spaces {
		sn.Spaces = append(sn.Spaces, *v)
	}
	for _, v := range st.projects {
		p := *v
		p.Counters = maps.Clone(v.Counters)
		sn.Projects = append(sn.Projects, p)
	}
	for _, v := range st.builds {
		sn.Builds = append(sn.Builds, *v)
	}
	for _, v := range st.apps {
		sn.Apps = append(sn.Apps, copyApp(*v))
	}
	for _, v := range st.tasks {
		sn.Tasks = append(sn.Tasks, *v)
	}
	for _, v := range st.userLists {
		l := *v
		l.AccountServices = nil
		for _, s := range v.AccountServices {
			l.AccountServices = append(l.AccountServices, copyAccountService(s))
		}
		sn.UserLists = append(sn.UserLists, l)
	}
	for _, v := range st.users {
		u := *v
		u.AccessTokens = slices.Clone(v.AccessTokens)
		sn.Users = append(sn.Users, u)
	}
	for _, v := range st.branches {
		sn.Branches = append(sn.Branches, *v)
	}
	for _, v := range st.dumps {
		sn.Dumps = append(sn.Dumps, *v)
	}
	for _, v := range st.groupTasks {
		g := *v
		g.AppIDs = slices.Clone(v.AppIDs)
		sn.GroupTasks = append(sn.GroupTasks, g)
	}
	return sn
}

// stateFromSnapshot rebuilds the live model from a snapshot it takes over.
func stateFromSnapshot(sn Snapshot) *state {
	st := newState()
	for i := range sn.Spaces {
		st.addSpace(&sn.Spaces[i])
	}
	for i := range sn.Projects {
		if sn.Projects[i].Counters == nil {
			sn.Projects[i].Counters = map[string]int{}
		}
		st.addProject(&sn.Projects[i])
	}
	for i := range sn.Builds {
		st.addBuild(&sn.Builds[i])
	}
	for i := range sn.Apps {
		st.addApp(&sn.Apps[i])
	}
	for i := range sn.Tasks {
		st.addTask(&sn.Tasks[i])
	}
	for i := range sn.UserLists {
		st.addUserList(&sn.UserLists[i])
	}
	for i := range sn.Users {
		st.addUser(&sn.Users[i])
	}
	for i := range sn.Branches {
		st.addBranch(&sn.Branches[i])
	}
	for i := range sn.Dumps {
		st.dumps = append(st.dumps, &sn.Dumps[i])
	}
	for i := range sn.GroupTasks {
		st.groupTasks = append(st.groupTasks, &sn.GroupTasks[i])
	}
	return st
}

// stateFileVersion guards against reading a file of an incompatible
// layout. Version 1 held the archives inline; they move to the store when
// such a file is loaded.
const stateFileVersion = 2

type stateFile struct {
	Version int
	// ClientID and ClientSecret are the credentials the stand accepts, so a
	// .env written for it keeps working after a restart (the file is
	// private to the user, as the .env is).
	ClientID, ClientSecret string `json:",omitempty"`
	// Address is the host:port the stand last served on.
	Address string `json:",omitempty"`
	// TLSCert and TLSKey are the stand's certificate and its private key
	// in PEM, so a CA file written for it keeps working after a restart
	// (private to the user, as the client secret is).
	TLSCert, TLSKey string `json:",omitempty"`
	State           Snapshot
	// inline are the archives of a version 1 file, by build id.
	inline map[string][]byte
}

// loadStateFile reads the state file at path; nil without error when there
// is none yet.
func loadStateFile(path string) (*stateFile, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("stand: reading state file: %w", err)
	}
	var f stateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("stand: state file %s is not valid: %w", path, err)
	}
	switch f.Version {
	case stateFileVersion:
	case 1:
		var v1 struct {
			State struct {
				Builds []struct {
					ID      string
					Archive []byte
				}
			}
		}
		if err := json.Unmarshal(data, &v1); err != nil {
			return nil, fmt.Errorf("stand: state file %s is not valid: %w", path, err)
		}
		f.inline = map[string][]byte{}
		for _, b := range v1.State.Builds {
			f.inline[b.ID] = b.Archive
		}
	default:
		return nil, fmt.Errorf("stand: state file %s has layout version %d, expected %d", path, f.Version, stateFileVersion)
	}
	return &f, nil
}

// saveStateFile writes the state atomically. It holds the client secret:
// it is the user's alone.
func saveStateFile(path string, f stateFile) error {
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}
