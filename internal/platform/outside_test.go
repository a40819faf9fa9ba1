package platform_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/platform"
)

// An application's own address is asked through the stand's transport:
// the extra CA of ELEMENT_CA_FILE is trusted there too, and redirects are
// followed to the page that answers.
func TestOutsideAddressesUseTheStandsTransport(t *testing.T) {
	ctx := context.Background()
	app := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.Redirect(w, r, "/login", http.StatusFound)
	}))
	defer app.Close()
	newClient := func(caFile string) *platform.Client {
		cfg := &platform.Config{BaseURL: "https://stand.test", ClientID: "client", ClientSecret: testSecret,
			TLSVerify: true, TLSStrict: true, NoProxy: true, Timeout: 5 * time.Second, CAFile: caFile}
		cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		return cl
	}
	resp, err := newClient(writeCA(t, app.Certificate().Raw)).Outside().Get(ctx, app.URL+"/apps/x", nil)
	if err != nil || resp.Status != http.StatusUnauthorized {
		t.Fatalf("with the stand's CA: %v, %v; want 401 after the redirect", resp, err)
	}
	if _, err := newClient("").Outside().Get(ctx, app.URL+"/apps/x", nil); err == nil {
		t.Fatal("without the stand's CA the address must not be trusted")
	}
}

// An unreadable ELEMENT_CA_FILE is refused when the client is built, not
// skipped by one of its requests.
func TestUnreadableCAFileIsRefused(t *testing.T) {
	ctx := context.Background()
	cfg := &platform.Config{BaseURL: "https://stand.test", ClientID: "client", ClientSecret: testSecret,
		TLSVerify: true, Timeout: time.Second, CAFile: t.TempDir()}
	if _, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"}); !platform.IsConfig(err) {
		t.Fatalf("a directory as the CA file: %v", err)
	}
}
