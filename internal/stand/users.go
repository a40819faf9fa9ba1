package stand

import (
	"net/http"
	"slices"
)

const controlPanelListName = "Список пользователей панели управления"

// consoleUser is the account the integration credentials belong to: the
// first user of the control-panel list.
func (s *Stand) consoleUser() *User {
	for _, u := range s.st.users {
		if l := s.st.userListByID[u.UserListID]; l != nil && l.ControlPanel {
			return u
		}
	}
	return nil
}

func (s *Stand) getMe(q *req) {
	u := s.consoleUser()
	if u == nil {
		refuseMessage(http.StatusNotFound, "User not found").write(q.w)
		return
	}
	writeJSON(q.w, http.StatusOK, map[string]string{"id": u.ID, "login": u.Login, "presentation": u.Presentation, "user-list-id": u.UserListID})
}

// --- users of an application ---

type appUserJSON struct {
	UserListID         string `json:"user-list-id"`
	UserID             string `json:"user-id"`
	Presentation       string `json:"presentation"`
	IsAdmin            bool   `json:"is-admin"`
	TokenAccessEnabled bool   `json:"token-access-enabled"`
}

// connected tells whether the user of the list can sign in to the
// application: control-panel users always can.
func (s *Stand) connected(a *App, listID, userID string) (*User, bool) {
	u := s.st.userByID[userID]
	l := s.st.userListByID[listID]
	if u == nil || l == nil || u.UserListID != listID {
		return nil, false
	}
	return u, l.ControlPanel || slices.Contains(a.UserLists, listID)
}

func (s *Stand) appUserEntry(a *App, u *User) appUserJSON {
	l := s.st.userListByID[u.UserListID]
	pres := u.Presentation
	if l.ControlPanel || pres == "" {
		pres = u.Login
	}
	return appUserJSON{u.UserListID, u.ID, pres, u.IsAdmin, a.TokenAccess[u.UserListID+"/"+u.ID]}
}

func (s *Stand) listAppUsers(q *req) {
	a, err := s.liveApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	out := []appUserJSON{}
	for _, u := range s.st.users {
		if _, ok := s.connected(a, u.UserListID, u.ID); ok {
			out = append(out, s.appUserEntry(a, u))
		}
	}
	s.writeList(q.w, out)
}

func (s *Stand) changeTokenAccess(q *req) {
	a, err := s.liveApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	listID, userID := str(body["user-list-id"]), str(body["user-id"])
	enable, isBool := body["enable-access"].(bool)
	if listID == "" || userID == "" || !isBool {
		refuseInvalid("user-list-id, user-id and enable-access are required").write(q.w)
		return
	}
	u, ok := s.connected(a, listID, userID)
	if !ok {
		refuseMessage(http.StatusInternalServerError, "Can't change user token access").write(q.w)
		return
	}
	if a.TokenAccess == nil {
		a.TokenAccess = map[string]bool{}
	}
	a.TokenAccess[listID+"/"+userID] = enable
	s.changed()
	writeJSON(q.w, http.StatusOK, s.appUserEntry(a, u))
}

// --- user lists connected to an application ---

func (s *Stand) listAppUserLists(q *req) {
	a, err := s.liveApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	writeJSON(q.w, http.StatusOK, append([]string{}, a.UserLists...))
}

// appUserListLink reads the application and the user-list id of a POST or
// DELETE on /applications/{id}/userlists. The body is the stand's own
// choice (the spec records none): {"user-list-id": "<id>"}, "id" also
// accepted; without an id the call is 400.
func (s *Stand) appUserListLink(q *req) (*App, string, bool) {
	a, err := s.liveApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return nil, "", false
	}
	body, ok := q.decodeJSON()
	if !ok {
		return nil, "", false
	}
	id := str(body["user-list-id"])
	if id == "" {
		id = str(body["id"])
	}
	if id == "" {
		refuseInvalid("user-list-id must be set").write(q.w)
		return nil, "", false
	}
	return a, id, true
}

func (s *Stand) connectAppUserList(q *req) {
	a, id, ok := s.appUserListLink(q)
	if !ok {
		return
	}
	if _, err := s.userList(id); err != nil {
		answer(q.w, err)
		return
	}
	if !slices.Contains(a.UserLists, id) {
		a.UserLists = append(a.UserLists, id)
		s.changed()
	}
	writeNoContent(q.w)
}

func (s *Stand) disconnectAppUserList(q *req) {
	a, id, ok := s.appUserListLink(q)
	if !ok {
		return
	}
	i := slices.Index(a.UserLists, id)
	if i < 0 {
		answer(q.w, userListNotFound(id))
		return
	}
	a.UserLists = slices.Delete(a.UserLists, i, i+1)
	s.changed()
	writeNoContent(q.w)
}

// --- user lists ---

type userListEntryJSON struct {
	ID           string `json:"id"`
	Presentation string `json:"presentation"`
	SpaceID      string `json:"space-id"`
}

type selfRegistrationJSON struct {
	Enabled       bool `json:"enabled"`
	PhoneRequired bool `json:"phone-required"`
	EmailRequired bool `json:"email-required"`
}

type accountServiceJSON struct {
	AccountServiceID   string         `json:"account-service-id"`
	AccountServiceType string         `json:"account-service-type"`
	LocalID            string         `json:"local-id"`
	Enabled            bool           `json:"enabled"`
	CreateUserOnAuth   bool           `json:"create-user-on-auth"`
	AdditionalSettings map[string]any `json:"additional-settings"`
}

func accountServiceCard(a AccountService) accountServiceJSON {
	extra := a.AdditionalSettings
	if extra == nil {
		extra = map[string]any{}
	}
	return accountServiceJSON{a.ID, a.Type, a.LocalID, a.Enabled, a.CreateUserOnAuth, extra}
}

func (s *Stand) userListCard(l *UserList) map[string]any {
	services := []accountServiceJSON{}
	for _, a := range l.AccountServices {
		services = append(services, accountServiceCard(a))
	}
	return map[string]any{
		"id":                                l.ID,
		"presentation":                      l.Presentation,
		"space-id":                          l.SpaceID,
		"self-registration":                 selfRegistrationJSON(l.SelfRegistration),
		"password-policy":                   map[string]any{"min-length": 8, "require-digits": true, "require-letters": true, "max-age-days": 0},
		"password-policy-enabled":           l.PasswordPolicyEnabled,
		"account-services-settings":         services,
		"confirmations":                     map[string]any{"email": false, "phone": false},
		"sms-gateway-settings":              map[string]any{"enabled": false},
		"email-gateway-settings":            map[string]any{"enabled": false},
		"include-personal-data-in-messages": l.IncludePersonalData,
	}
}

func (s *Stand) listUserLists(q *req) {
	out := make([]userListEntryJSON, 0, len(s.st.userLists))
	for _, l := range s.st.userLists {
		out = append(out, userListEntryJSON{l.ID, l.Presentation, l.SpaceID})
	}
	s.writeList(q.w, out)
}

func (s *Stand) userList(id string) (*UserList, error) {
	l := s.st.userListByID[id]
	if l == nil {
		return nil, userListNotFound(id)
	}
	return l, nil
}

// userListNotFound is the console's answer for a user list it does not
// have, or not as the request needs it (not connected to the application).
func userListNotFound(id string) error {
	return refuseMessage(http.StatusNotFound, "User list %q not found", id)
}

func (s *Stand) getUserList(q *req) {
	l, err := s.userList(q.param(0))
	answerCard(q, l, err, func(l *UserList) any { return s.userListCard(l) })
}

// createUserList wants the whole card; anything less is the console's
// 500 "Failed to parse json".
func (s *Stand) createUserList(q *req) {
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	pres := str(body["presentation"])
	sr, srOK := selfRegistrationFrom(body["self-registration"])
	_, ppOK := body["password-policy-enabled"].(bool)
	if pres == "" || !srOK || !ppOK {
		refuseMessage(http.StatusInternalServerError, "Failed to parse json").write(q.w)
		return
	}
	spaceID := str(body["space-id"])
	if s.st.spaceByID[spaceID] == nil {
		spaceID = s.defaultSpace(q.now).ID
	}
	l := &UserList{ID: newID(), Presentation: pres, SpaceID: spaceID, SelfRegistration: sr}
	l.PasswordPolicyEnabled, _ = body["password-policy-enabled"].(bool)
	l.IncludePersonalData, _ = body["include-personal-data-in-messages"].(bool)
	s.st.addUserList(l)
	s.changed()
	writeJSON(q.w, http.StatusOK, s.userListCard(l))
}

func (s *Stand) deleteUserList(q *req) {
	l, err := s.userList(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	if l.ControlPanel {
		refuseInvalid("the control-panel user list cannot be deleted").write(q.w)
		return
	}
	s.st.userLists = slices.DeleteFunc(s.st.userLists, func(x *UserList) bool { return x == l })
	delete(s.st.userListByID, l.ID)
	s.st.users = slices.DeleteFunc(s.st.users, func(u *User) bool {
		if u.UserListID == l.ID {
			delete(s.st.userByID, u.ID)
			return true
		}
		return false
	})
	for _, a := range s.st.apps {
		a.UserLists = slices.DeleteFunc(a.UserLists, func(id string) bool { return id == l.ID })
	}
	s.changed()
	writeNoContent(q.w)
}

type accessTokenJSON struct {
	ClientID     string `json:"client-id"`
	ClientSecret string `json:"client-secret"`
}

type listUserJSON struct {
	ID           string            `json:"id"`
	Login        string            `json:"login"`
	Presentation string            `json:"presentation"`
	Email        string            `json:"email"`
	AccessTokens []accessTokenJSON `json:"access-tokens"`
}

func (s *Stand) listUserListUsers(q *req) {
	l, err := s.userList(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	out := []listUserJSON{}
	for _, u := range s.st.users {
		if u.UserListID != l.ID {
			continue
		}
		tokens := []accessTokenJSON{}
		for _, t := range u.AccessTokens {
			tokens = append(tokens, accessTokenJSON(t))
		}
		out = append(out, listUserJSON{u.ID, u.Login, u.Presentation, u.Email, tokens})
	}
	s.writeList(q.w, out)
}

// --- self-registration ---

func selfRegistrationFrom(v any) (SelfRegistration, bool) {
	m, _ := v.(map[string]any)
	e, ok1 := m["enabled"].(bool)
	p, ok2 := m["phone-required"].(bool)
	em, ok3 := m["email-required"].(bool)
	return SelfRegistration{e, p, em}, ok1 && ok2 && ok3
}

func (s *Stand) getSelfRegistration(q *req) {
	l, err := s.userList(q.param(0))
	answerCard(q, l, err, func(l *UserList) any { return selfRegistrationJSON(l.SelfRegistration) })
}

// putSelfRegistration wants the whole object.
func (s *Stand) putSelfRegistration(q *req) {
	l, err := s.userList(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	sr, whole := selfRegistrationFrom(body)
	if !whole {
		refuseInvalid("enabled, phone-required and email-required are required").write(q.w)
		return
	}
	l.SelfRegistration = sr
	s.changed()
	writeNoContent(q.w)
}

// --- account services ---

func (s *Stand) listAccountServices(q *req) {
	l, err := s.userList(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	out := []accountServiceJSON{}
	for _, a := range l.AccountServices {
		out = append(out, accountServiceCard(a))
	}
	s.writeList(q.w, out)
}

// accountServiceFrom reads a whole account-service entry. The response
// parsing rules travel under userPropertiesCalculationRules; the schema's
// name calculation-rules is refused.
func accountServiceFrom(body map[string]any) (AccountService, map[string]any, error) {
	if _, bad := body["calculation-rules"]; bad {
		return AccountService{}, nil, refuseInvalid("Unknown property \"calculation-rules\"")
	}
	typ := str(body["account-service-type"])
	enabled, ok1 := body["enabled"].(bool)
	create, ok2 := body["create-user-on-auth"].(bool)
	if typ == "" || !ok1 || !ok2 {
		return AccountService{}, nil, refuseInvalid("account-service-type, enabled and create-user-on-auth are required")
	}
	extra, _ := body["additional-settings"].(map[string]any)
	var rules map[string]any
	if v, ok := body["userPropertiesCalculationRules"]; ok {
		rules, ok = v.(map[string]any)
		if !ok {
			return AccountService{}, nil, refuseInvalid("userPropertiesCalculationRules must be an object")
		}
	}
	return AccountService{ID: str(body["account-service-id"]), Type: typ, LocalID: str(body["local-id"]),
		Enabled: enabled, CreateUserOnAuth: create, AdditionalSettings: extra}, rules, nil
}

func (s *Stand) addAccountService(q *req) {
	l, err := s.userList(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	svc, rules, err := accountServiceFrom(body)
	if err != nil {
		answer(q.w, err)
		return
	}
	if svc.ID == "" {
		svc.ID = newID()
	}
	for _, a := range l.AccountServices {
		if a.ID == svc.ID {
			refuseCode(http.StatusConflict, "ALREADY_EXISTS", "Account service %q already exists", svc.ID).write(q.w)
			return
		}
	}
	svc.CalculationRules = rules
	l.AccountServices = append(l.AccountServices, svc)
	s.changed()
	writeJSON(q.w, http.StatusOK, accountServiceCard(svc))
}

// accountService finds a user list and the index of one of its account
// services.
func (s *Stand) accountService(listID, serviceID string) (*UserList, int, error) {
	l, err := s.userList(listID)
	if err != nil {
		return nil, 0, err
	}
	i := slices.IndexFunc(l.AccountServices, func(a AccountService) bool { return a.ID == serviceID })
	if i < 0 {
		return nil, 0, refuseMessage(http.StatusNotFound, "Account service %q not found", serviceID)
	}
	return l, i, nil
}

// putAccountService replaces a whole entry. Rules given are stored; a PUT
// without them keeps the stored ones (a GET never returns them, so a
// read-modify-write must not wipe them).
func (s *Stand) putAccountService(q *req) {
	l, i, err := s.accountService(q.param(0), q.param(1))
	if err != nil {
		answer(q.w, err)
		return
	}
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	svc, rules, err := accountServiceFrom(body)
	if err != nil {
		answer(q.w, err)
		return
	}
	svc.ID = l.AccountServices[i].ID
	svc.CalculationRules = l.AccountServices[i].CalculationRules
	if rules != nil {
		svc.CalculationRules = rules
	}
	l.AccountServices[i] = svc
	s.changed()
	writeJSON(q.w, http.StatusOK, accountServiceCard(svc))
}

func (s *Stand) deleteAccountService(q *req) {
	l, i, err := s.accountService(q.param(0), q.param(1))
	if err != nil {
		answer(q.w, err)
		return
	}
	l.AccountServices = slices.Delete(l.AccountServices, i, i+1)
	s.changed()
	writeNoContent(q.w)
}
