package platform_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// newClient connects a client to a stand with a private token cache.
func newClient(t *testing.T, s *stand.Stand, tune ...func(*platform.Config)) *platform.Client {
	t.Helper()

	ctx := context.Background()
	cfg := &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(),
		TLSVerify: true, TLSStrict: true, Timeout: 10 * time.Second}
	for _, f := range tune {
		f(cfg)
	}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: t.TempDir(), ReadRetryPauses: []time.Duration{time.Millisecond, time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// apiCalls counts requests to one method and path.
func apiCalls(s *stand.Stand, method, path string) int {
	n := 0
	for _, c := range s.Calls() {
		if c.Method == method && c.Path == path {
			n++
		}
	}
	return n
}

func TestTokenIsReusedWithinItsHour(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	cl := newClient(t, s)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if _, err := cl.ListApps(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.TokenCalls(); n != 1 {
		t.Fatalf("token endpoint called %d times, want 1", n)
	}
}

func TestRefusedTokenIsRenewedOnceAndTheRequestRepeated(t *testing.T) {
	for _, code := range []int{401, 400} {
		t.Run(map[int]string{401: "401", 400: "stale-token 400"}[code], func(t *testing.T) {
			s := standtest.Start(t, stand.Options{})
			s.SetStaleTokenAnswer(code)
			cl := newClient(t, s)
			ctx := context.Background()
			if _, err := cl.ListApps(ctx); err != nil {
				t.Fatal(err)
			}
			s.ExpireTokens()
			if _, err := cl.ListApps(ctx); err != nil {
				t.Fatalf("after the refusal: %v", err)
			}
			if n := s.TokenCalls(); n != 2 {
				t.Errorf("token endpoint called %d times, want 2", n)
			}
			if n := apiCalls(s, "GET", "/console/api/v2/applications"); n != 3 {
				t.Errorf("applications read %d times, want 3 (1 + refused + repeated)", n)
			}
		})
	}
}

func TestOrdinary400IsNotRetried(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	cl := newClient(t, s)
	ctx := context.Background()
	// Creating from a build nobody has is the platform's ordinary 400.
	_, err := cl.Post(ctx, "/applications", jsonx.New("source", jsonx.New("type", "repository", "project-version-id", "00000000-0000-4000-8000-000000000000"), "display-name", "x", "publication-context", "x", "development-mode", true))
	if !platform.IsAPIStatus(err, 400) {
		t.Fatalf("want a 400, got %v", err)
	}
	if n := s.TokenCalls(); n != 1 {
		t.Errorf("token endpoint called %d times, want 1", n)
	}
	if n := apiCalls(s, "POST", "/console/api/v2/applications"); n != 1 {
		t.Errorf("create sent %d times, want 1", n)
	}
}

func TestUnknownHandler401IsNotRetriedAndNamesTheMethod(t *testing.T) {
	t.Parallel()
	s := standtest.Start(t, stand.Options{})
	s.SetAPI21(false)
	cl := newClient(t, s)
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	_, err := cl.Call(ctx, platform.Request{Method: "GET", API: platform.API21, Path: "/applications/x/project", MayBeUnknown: true})
	if !platform.IsUnknownMethod(err) || !platform.IsAPIStatus(err, 401) {
		t.Fatalf("want an unknown-method 401, got %v", err)
	}
	if !strings.Contains(err.Error(), "does not know the method GET") || !strings.Contains(err.Error(), "2.1") {
		t.Errorf("message: %v", err)
	}
	if n := s.TokenCalls(); n != 1 {
		t.Errorf("token renewed for a missing handler: %d token calls", n)
	}
	// On an ordinary 2.0 call the same answer stays a plain 401.
	_, err = cl.Get(ctx, "/no-such-thing", nil)
	var ae *platform.APIError
	if !errors.As(err, &ae) || ae.Status != 401 || !strings.HasPrefix(ae.Message, "Console API responded 401 to GET ") {
		t.Fatalf("plain 401: %v", err)
	}
}

func TestServerStartingIsRecognised(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	cl := newClient(t, s)
	s.SetStarting(time.Minute)
	_, err := cl.ListApps(context.Background())
	if !platform.IsServerStarting(err) || !platform.IsAPIStatus(err, 404) {
		t.Fatalf("want server-starting 404, got %v", err)
	}
	if !strings.Contains(err.Error(), s.URL()+"/console") {
		t.Errorf("the message should name %s/console: %v", s.URL(), err)
	}
	s.SetStarting(0)
	if _, err := cl.ListApps(context.Background()); err != nil {
		t.Fatalf("after start: %v", err)
	}
}

func TestWrappedListsAreNormalised(t *testing.T) {
	s := standtest.Start(t, stand.Options{Wrap: true})
	if _, err := s.SeedDemo(); err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	apps, err := cl.ListApps(context.Background())
	if err != nil || len(apps) != 1 {
		t.Fatalf("apps %d, err %v", len(apps), err)
	}
}

func TestAPIErrorShape(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	cl := newClient(t, s)
	ctx = i18n.WithLang(ctx, i18n.EN)
	_, err := cl.GetApp(ctx, "01900000-0000-7000-8000-0000000000ff")
	var ae *platform.APIError
	if !errors.As(err, &ae) || ae.Status != 404 {
		t.Fatalf("got %v", err)
	}
	want := "Console API responded 404 to GET " + s.URL() + "/console/api/v2/applications/01900000-0000-7000-8000-0000000000ff"
	if !strings.HasPrefix(ae.Message, want) {
		t.Errorf("message %q, want prefix %q", ae.Message, want)
	}
	obj := platform.ErrorObject(err)
	if got := strings.Join(obj.Keys(), ","); got != "error,status,method,url,body" {
		t.Errorf("error object keys %s", got)
	}
	ctx = i18n.WithLang(ctx, i18n.RU)
	_, err = cl.GetApp(ctx, "01900000-0000-7000-8000-0000000000ff")
	if !strings.HasPrefix(err.Error(), "Console API ответил 404 на GET ") {
		t.Errorf("ru message: %v", err)
	}
}

func TestResolveApp(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	info, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	ctx := context.Background()
	id, err := cl.ResolveApp(ctx, strings.ToUpper(info.AppName))
	if err != nil || id != info.AppID {
		t.Fatalf("by name, any case: %q %v", id, err)
	}
	if id, err := cl.ResolveApp(ctx, "01900000-0000-7000-8000-0000000000aa"); err != nil || id != "01900000-0000-7000-8000-0000000000aa" {
		t.Fatalf("a UUID passes through: %q %v", id, err)
	}
	calls := len(s.Calls())
	_, _ = cl.ResolveApp(ctx, "01900000-0000-7000-8000-0000000000aa")
	if len(s.Calls()) != calls {
		t.Errorf("a UUID made a request")
	}
	if _, err := cl.ResolveApp(ctx, "nope"); err == nil || !platform.IsConfig(err) {
		t.Fatalf("unknown name: %v", err)
	}

	// Two live applications with one name: ambiguity lists both ids.
	src := jsonx.New("type", "repository", "project-version-id", firstBuild(t, cl, info.ProjectID))
	var ids []string
	for i := 0; i < 2; i++ {
		v, err := cl.Post(ctx, "/applications", jsonx.New("source", src, "display-name", "twin", "publication-context", "twin-"+string(rune('a'+i)), "development-mode", true))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.(*jsonx.Object).Str("id"))
	}
	_, err = cl.ResolveApp(ctx, "twin")
	if err == nil || !platform.IsConfig(err) || !strings.Contains(err.Error(), ids[0]) || !strings.Contains(err.Error(), ids[1]) {
		t.Fatalf("ambiguity should list both ids: %v", err)
	}

	// A deleted namesake is skipped.
	deadline := time.Now().Add(5 * time.Second)
	for {
		// A just-created application is busy until it is ready.
		_, err := cl.Delete(ctx, "/applications/"+ids[1])
		if err == nil {
			break
		}
		if !platform.IsBusy(err) || time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	for {
		id, err := cl.ResolveApp(ctx, "twin")
		if err == nil {
			if id != ids[0] {
				t.Fatalf("resolved to %s, want %s", id, ids[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the deleted twin still counts: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func firstBuild(t *testing.T, cl *platform.Client, project string) string {
	t.Helper()
	builds, err := cl.List(context.Background(), platform.Request{Path: "/projects/" + project + "/assemblies"}, "assemblies")
	if err != nil || len(builds) == 0 {
		t.Fatalf("builds of %s: %d %v", project, len(builds), err)
	}
	return builds[0].Str("id")
}

func TestBrokenConnectionIsRepeatedForGETOnly(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	cl := newClient(t, s)
	ctx := context.Background()
	s.BreakNextResponses("GET", "/console/api/v2/applications", 2)
	if _, err := cl.ListApps(ctx); err != nil {
		t.Fatalf("a GET should survive two broken answers: %v", err)
	}
	if n := apiCalls(s, "GET", "/console/api/v2/applications"); n != 3 {
		t.Errorf("GET sent %d times, want 3", n)
	}
	s.BreakNextResponses("POST", "/console/api/v2/applications", 1)
	_, err := cl.Post(ctx, "/applications", jsonx.New("display-name", "x"))
	if !platform.IsTransport(err) {
		t.Fatalf("a POST is never repeated blindly: %v", err)
	}
	if n := apiCalls(s, "POST", "/console/api/v2/applications"); n != 1 {
		t.Errorf("POST sent %d times, want 1", n)
	}
}

func TestTokenFileCache(t *testing.T) {
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	dir := t.TempDir()
	cfg := &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(), TLSVerify: true, Timeout: 5 * time.Second}
	for i := 0; i < 2; i++ {
		cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cl.ListApps(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.TokenCalls(); n != 1 {
		t.Fatalf("a second process should reuse the cached token: %d token calls", n)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "elemctl-token-*.json"))
	if len(files) != 1 || len(filepath.Base(files[0])) != len("elemctl-token-")+16+len(".json") {
		t.Fatalf("cache files %v", files)
	}
	if runtime.GOOS != "windows" {
		st, _ := os.Stat(files[0])
		if st.Mode().Perm() != 0o600 {
			t.Errorf("cache file mode %v, want 0600", st.Mode().Perm())
		}
	}
}

// A cache file is used as long as it holds a token and a future expiry,
// however it is spaced; one that is broken, expired or of another shape is
// passed over, the platform asked and the file written anew.
func TestTokenFileCacheReadsWhatItHoldsAndPassesOverTheRest(t *testing.T) {
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	dir := t.TempDir()
	cfg := &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(), TLSVerify: true, Timeout: 5 * time.Second}
	list := func() {
		t.Helper()
		cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		if _, err := cl.ListApps(ctx); err != nil {
			t.Fatal(err)
		}
	}
	list()
	files, _ := filepath.Glob(filepath.Join(dir, "elemctl-token-*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonx.Decode(data)
	written, _ := v.(*jsonx.Object)
	if err != nil || written == nil || written.Str("token") == "" {
		// Its text is not printed: it holds the token.
		t.Fatalf("the cache file of %d bytes holds no token: %v", len(data), err)
	}
	exp, err := strconv.ParseFloat(fmt.Sprint(written.Value("expires")), 64)
	if now := float64(time.Now().Unix()); err != nil || exp < now+60 || exp > now+24*3600 {
		t.Fatalf("the cache file's expiry %v is not a time in the coming day", written.Value("expires"))
	}
	token := written.Str("token")
	future := fmt.Sprint(time.Now().Add(time.Hour).Unix()) + ".25"
	cases := []struct {
		name, text string
		used       bool
	}{
		{"spaced, a fraction of a second", "{\n  \"token\": \"" + token + "\",\n  \"expires\": " + future + "\n}\n", true},
		{"keys in another order", `{"expires":` + future + `,"token":"` + token + `"}`, true},
		{"expired", `{"token":"` + token + `","expires":` + fmt.Sprint(time.Now().Add(-time.Minute).Unix()) + `}`, false},
		{"not JSON", `{"token":"` + token, false},
		{"no token", `{"expires":` + future + `}`, false},
		{"expiry as text", `{"token":"` + token + `","expires":"` + future + `"}`, false},
		{"an array", `["` + token + `"]`, false},
		{"empty", ``, false},
	}
	for _, c := range cases {
		if err := os.WriteFile(files[0], []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		before := s.TokenCalls()
		list()
		if asked := s.TokenCalls() > before; asked == c.used {
			t.Errorf("%s: asked the platform for a token: %v, want %v", c.name, asked, !c.used)
		}
		again, _ := os.ReadFile(files[0])
		if !c.used && !strings.Contains(string(again), `"token"`) {
			t.Errorf("%s: the cache file was not written anew (%d bytes)", c.name, len(again))
		}
	}
}

// The file cache is keyed by the secret too: a process with another
// secret for the same stand and client id asks the platform, which refuses
// a wrong one, and the cached token of the right one stays usable.
func TestTokenFileCacheIsKeyedBySecret(t *testing.T) {
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	dir := t.TempDir()
	connect := func(secret string) (*platform.Client, error) {
		cfg := &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: secret, TLSVerify: true, Timeout: 5 * time.Second}
		cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: dir})
		if err == nil {
			t.Cleanup(cl.Close)
		}
		return cl, err
	}
	good, err := connect(s.ClientSecret())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := good.ListApps(context.Background()); err != nil {
		t.Fatal(err)
	}
	const changed = "changed-secret-0f0f0f0f"
	other, err := connect(changed)
	if err != nil {
		t.Fatal(err)
	}
	_, err = other.ListApps(context.Background())
	var ae *platform.APIError
	if !errors.As(err, &ae) || ae.Status != 401 {
		t.Fatalf("a changed secret was answered from the cache of the old one: %v", err)
	}
	if n := s.TokenCalls(); n != 2 {
		t.Errorf("token endpoint called %d times, want 2 (one per secret)", n)
	}
	again, err := connect(s.ClientSecret())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := again.ListApps(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := s.TokenCalls(); n != 2 {
		t.Errorf("the right secret's cached token was lost: %d token calls", n)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "elemctl-token-*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if strings.Contains(f, s.ClientSecret()) || strings.Contains(string(data), s.ClientSecret()) || strings.Contains(string(data), changed) {
			t.Errorf("the secret is written into the cache: %s", f)
		}
	}
}

func TestWrongSecretNeverShowsInTheError(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	const secret = "wrong-secret-f00d"
	cl := newClient(t, s, func(c *platform.Config) { c.ClientSecret = secret })
	_, err := cl.ListApps(context.Background())
	if err == nil {
		t.Fatal("a wrong secret was accepted")
	}
	out, _ := jsonx.Marshal(platform.ErrorObject(err))
	if strings.Contains(string(out), secret) {
		t.Fatalf("the secret leaked: %s", out)
	}
}

func TestTLSVerifyOffWarns(t *testing.T) {
	ctx := context.Background()
	var warned []string
	_, err := platform.NewClient(ctx, &platform.Config{BaseURL: "https://x.test", ClientID: "a", ClientSecret: "b", Timeout: time.Second},
		platform.ClientOptions{Warn: func(s string) { warned = append(warned, s) }, TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "ELEMENT_TLS_VERIFY=false") {
		t.Fatalf("warnings %v", warned)
	}
	_, err = platform.NewClient(ctx, &platform.Config{BaseURL: "https://x.test", ClientID: "a", ClientSecret: "b", TLSVerify: true, CAFile: filepath.Join(t.TempDir(), "none.pem")}, platform.ClientOptions{})
	if !platform.IsConfig(err) {
		t.Fatalf("a missing CA file is a config error: %v", err)
	}
}

// ListKeeping gives what List gives, filtered, bare or wrapped, and keep
// sees every card once.
func TestListKeepingFiltersAsItReads(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		cl, all := seededClient(t, stand.Options{Wrap: wrap}, 300, 40)
		ctx := context.Background()
		var want []string
		for _, a := range all {
			if !platform.IsDeletedApp(a) {
				want = append(want, a.Str("id")+" "+a.Str("name")+" "+a.Str("status"))
			}
		}
		seen := 0
		live, err := cl.ListAppsKeeping(ctx, func(a *jsonx.RawObject) bool {
			seen++
			return !platform.IsDeletedApp(a)
		})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range live {
			got = append(got, a.Str("id")+" "+a.Str("name")+" "+a.Str("status"))
		}
		if seen != len(all) || len(want) != 40 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("wrap=%v: keep saw %d of %d cards; kept %d cards, want the %d live ones:\n%s", wrap, seen, len(all), len(got), len(want), strings.Join(got, "\n"))
		}
	}
}

// A list whose answer breaks off mid-way is read again, and what the
// visitor counted of the broken answer is started over: it sees every card
// of one whole answer, once.
func TestListEachStartsOverAfterABrokenAnswer(t *testing.T) {
	for _, effect := range []stand.Effect{stand.EffectTruncate, stand.EffectStatus} {
		s := standtest.Start(t, stand.Options{})
		if err := s.SeedApps(400, 30); err != nil {
			t.Fatal(err)
		}
		cl := newClient(t, s)
		all, err := cl.ListApps(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		fault := stand.Fault{Name: "cut", Method: "GET", Path: "/console/api/v2/applications", Nth: 1, Effect: effect}
		if effect == stand.EffectStatus {
			fault.Status = http.StatusBadGateway
		}
		if err := s.AddFault(fault); err != nil {
			t.Fatal(err)
		}
		begun, seen := 0, 0
		var ids []string
		err = cl.ListEach(context.Background(), platform.Request{Path: "/applications"}, func() { begun++; seen = 0; ids = nil },
			func(_ string, card *jsonx.RawObject) error {
				seen++
				ids = append(ids, card.Str("id"))
				return nil
			}, "applications")
		if err != nil {
			t.Fatalf("%s: %v", effect, err)
		}
		if len(s.Firings()) != 1 || begun < 2 && effect == stand.EffectTruncate || seen != len(all) || ids[len(ids)-1] != all[len(all)-1].Str("id") {
			t.Fatalf("%s: fired %d, begun %d times, saw %d cards of %d", effect, len(s.Firings()), begun, seen, len(all))
		}
	}
}

// A long answer is received a piece ahead of its reading: every card comes
// to the visitor once and in order, however the answer is cut into pieces
// on the way, in a short answer and in one long enough (past 8 MiB) for the
// pieces to grow – from its length told, or as it comes when it is not.
func TestListEachReadsALongAnswerInOrder(t *testing.T) {
	for _, c := range []struct {
		name  string
		cards int
		told  bool
	}{{"short, in odd pieces", 30000, false}, {"long, in odd pieces", 150000, false}, {"long, its length told", 150000, true}} {
		t.Run(c.name, func(t *testing.T) {
			text := longList(c.cards, func(i int) string {
				return fmt.Sprintf(`{"id":"app-%06d","status":"Running","name":"приложение %d"}`, i, i)
			})
			cl := answeringClient(t, func(w http.ResponseWriter, _ *http.Request) {
				if c.told {
					w.Header().Set("Content-Length", fmt.Sprint(len(text)))
					w.Write([]byte(text))
					return
				}
				// Pieces of odd sizes, each sent at once: the cards are
				// cut anywhere, a multi-byte letter too.
				for rest, n := text, 1; rest != ""; n = n*7%100003 + 1 {
					piece := rest[:min(n, len(rest))]
					rest = rest[len(piece):]
					w.Write([]byte(piece))
					w.(http.Flusher).Flush()
				}
			})
			next := 0
			err := cl.ListEach(context.Background(), platform.Request{Path: "/applications"}, func() { next = 0 },
				func(_ string, card *jsonx.RawObject) error {
					if want := fmt.Sprintf("app-%06d", next); card.Str("id") != want || card.Str("name") != fmt.Sprintf("приложение %d", next) {
						return fmt.Errorf("card %d is %s", next, card.Text())
					}
					next++
					return nil
				})
			if err != nil || next != c.cards {
				t.Fatalf("%d cards of %d seen: %v", next, c.cards, err)
			}
		})
	}
}

// A visitor that stops ends the call at once, though the answer is still
// coming: nothing keeps reading it, and the connection is given up.
func TestListEachStopsReadingWhenTheVisitorStops(t *testing.T) {
	released := make(chan struct{})
	finish := make(chan struct{})
	cl := answeringClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`[{"id":"a"},{"id":"b"},`))
		w.(http.Flusher).Flush()
		select { // the rest never comes
		case <-r.Context().Done():
			close(released)
		case <-finish:
		}
	})
	// Before the server's own cleanup, which waits for its handlers.
	t.Cleanup(func() { close(finish) })
	stopAtFirstCard(t, cl, 0, "the call waited for the rest of an answer its visitor had stopped")
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("the connection of the stopped answer was kept")
	}
}

// A visitor that stops at the first card of a long answer that came at
// once ends the call at once too: the pieces received ahead of it, every
// buffer of them waiting, are dropped.
func TestListEachStopsWithEveryPieceReceived(t *testing.T) {
	doc := longList(40000, func(i int) string { return fmt.Sprintf(`{"id":"app-%05d","status":"Deleted"}`, i) })
	cl := answeringClient(t, func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(doc)) })
	// Meanwhile the pieces fill (on a loaded machine maybe not all: the
	// test then proves less, it does not fail).
	stopAtFirstCard(t, cl, 100*time.Millisecond, "the call waited on the pieces received ahead of a stopped visitor")
}

// longList is a JSON array of n cards, card(i) the i-th.
func longList(n int, card func(i int) string) string {
	var doc strings.Builder
	doc.WriteString("[")
	for i := range n {
		if i > 0 {
			doc.WriteString(",")
		}
		doc.WriteString(card(i))
	}
	doc.WriteString("]")
	return doc.String()
}

// stopAtFirstCard lists with a visitor that stops at the first card, after
// a pause, and fails with waited unless the call returns the visitor's
// error within ten seconds.
func stopAtFirstCard(t *testing.T, cl *platform.Client, pause time.Duration, waited string) {
	t.Helper()
	stop := errors.New("enough")
	returned := make(chan error, 1)
	go func() {
		returned <- cl.ListEach(context.Background(), platform.Request{Path: "/applications"}, func() {},
			func(string, *jsonx.RawObject) error {
				time.Sleep(pause)
				return stop
			})
	}()
	select {
	case err := <-returned:
		if !errors.Is(err, stop) {
			t.Fatalf("the visitor's error was not returned: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal(waited)
	}
}

// A card is read only as far as it is needed: ListPicking keeps what pick
// makes of the cards it wants, and a list that is no JSON is empty, as List
// has it.
func TestListPicking(t *testing.T) {
	cl, all := seededClient(t, stand.Options{Wrap: true}, 50, 7)
	names, err := platform.ListPicking(context.Background(), cl, platform.Request{Path: "/applications"}, nil,
		func(a *jsonx.RawObject) (string, bool, error) {
			return platform.AppName(a), !platform.IsDeletedApp(a), nil
		}, "applications")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, a := range all {
		if !platform.IsDeletedApp(a) {
			want = append(want, platform.AppName(a))
		}
	}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("picked %v, want %v", names, want)
	}
	// Lists under several keys: "items" first, then the keys in order; a
	// key given twice gathers both its lists; an empty list is no list.
	for answer, want := range map[string]string{
		`{"applications":[{"id":"a"}],"items":[{"id":"b"},{"id":"c"}],"applications":[{"id":"d"}]}`: "b,c",
		`{"applications":[{"id":"a"}],"other":[{"id":"x"}],"applications":[{"id":"d"}]}`:            "a,d",
		`{"items":[],"applications":[{"id":"a"},{"id":"e"}]}`:                                       "a,e",
		`{"other":[{"id":"x"}]}`: "",
	} {
		several := answeringClient(t, func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(answer)) })
		ids, err := platform.ListPicking(context.Background(), several, platform.Request{Path: "/applications"}, nil,
			func(a *jsonx.RawObject) (string, bool, error) { return a.Str("id"), true, nil }, "applications")
		if err != nil || strings.Join(ids, ",") != want {
			t.Errorf("%s: picked %v (%v), want %s", answer, ids, err, want)
		}
	}
	plain := answeringClient(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(`[{"id":"a"},{"id":"b\x"}]`))
	})
	kept, err := plain.ListKeeping(context.Background(), platform.Request{Path: "/applications"}, func(*jsonx.RawObject) bool { return true })
	listed, lerr := plain.List(context.Background(), platform.Request{Path: "/applications"})
	if err != nil || lerr != nil || len(kept) != 0 || len(listed) != 0 {
		t.Fatalf("a list with a bad escape: kept %v (%v), List %v (%v)", kept, err, listed, lerr)
	}
}

// answeringClient is a client of a server that gives a token and answers
// every other request with answer: for answers no stand gives (a bad
// escape, a body of a set length).
func answeringClient(t *testing.T, answer http.HandlerFunc) *platform.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/console/sys/token" {
			w.Write([]byte(`{"id_token":"t"}`))
			return
		}
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	cl, err := platform.NewClient(context.Background(), &platform.Config{BaseURL: srv.URL, ClientID: "a", ClientSecret: "b", TLSVerify: true, NoProxy: true},
		platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// An answer of known length is read into one buffer of that length: it is
// not held twice while a buffer grows.
func TestReadBodyHoldsAKnownLengthOnce(t *testing.T) {
	body := []byte(strings.Repeat("x", 4<<20))
	cl := answeringClient(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
	if _, err := cl.Do(context.Background(), platform.Request{Path: "/x"}); err != nil { // the connection and token
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	resp, err := cl.Do(context.Background(), platform.Request{Path: "/x"})
	runtime.ReadMemStats(&after)
	if err != nil || len(resp.Body) != len(body) {
		t.Fatal(err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > uint64(len(body))*5/4 {
		t.Errorf("reading %d bytes allocated %d", len(body), allocated)
	}
}

// An application named by reference is found among hundreds of deleted
// ones (the list is filtered as it is read); an unknown name is an error.
func TestResolveAppAmongDeleted(t *testing.T) {
	cl, all := seededClient(t, stand.Options{}, 500, 5)
	ctx := context.Background()
	var liveOne *jsonx.Object
	for _, a := range all {
		if !platform.IsDeletedApp(a) {
			liveOne = a
			break
		}
	}
	if liveOne == nil {
		t.Fatal("no live application seeded")
	}
	id, err := cl.ResolveApp(ctx, strings.ToUpper(liveOne.Str("name")))
	if err != nil || id != liveOne.Str("id") {
		t.Fatalf("resolved %q to %q, %v; want %q", liveOne.Str("name"), id, err, liveOne.Str("id"))
	}
	if _, err := cl.ResolveApp(ctx, "no-such-application"); err == nil {
		t.Fatal("an unknown name resolved")
	}
}

// seededClient is a client of a stand seeded with total applications of
// which live are not deleted, and the whole list as List reads it.
func seededClient(t *testing.T, opts stand.Options, total, live int) (*platform.Client, []*jsonx.Object) {
	t.Helper()
	s := standtest.Start(t, opts)
	if err := s.SeedApps(total, live); err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	all, err := cl.ListApps(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cl, all
}
