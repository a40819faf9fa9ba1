package cards

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages, platform.Messages, readback.Messages)
	os.Exit(m.Run())
}

// treeStand is a stand with the demo and a client for it.
func treeStand(t *testing.T) (*stand.Stand, stand.DemoInfo, *platform.Client) {
	t.Helper()
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cfg := &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(),
		TLSVerify: true, TLSStrict: true, Timeout: 10 * time.Second}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return s, demo, cl
}

func TestAddressBuildByID(t *testing.T) {
	s, demo, cl := treeStand(t)
	ctx := context.Background()
	var id string
	for _, b := range s.Snapshot().Builds {
		if b.ProjectID == demo.ProjectID && b.Version == "1.0-2" {
			id = b.ID
		}
	}
	v, err := AddressBuild(ctx, cl, http.MethodGet, demo.ProjectID, id)
	if err != nil {
		t.Fatal(err)
	}
	if card, _ := v.(*jsonx.Object); card.Str("assembly-version") != "1.0-2" {
		t.Fatalf("card %v", v)
	}
	// The id is found in the list and the card addressed by the version:
	// the console answers a UUID segment with 404.
	for _, c := range s.Calls() {
		if strings.HasSuffix(c.Path, "/assemblies/"+id) {
			t.Errorf("the build was addressed by its id: %s", c.Path)
		}
	}
	if _, err := AddressBuild(ctx, cl, http.MethodDelete, demo.ProjectID, id); err != nil {
		t.Fatal(err)
	}
	_, err = AddressBuild(ctx, cl, http.MethodGet, demo.ProjectID, id)
	if !platform.IsConfig(err) {
		t.Fatalf("a deleted build: want the local not-found error, got %v", err)
	}
}

func TestBuildSegmentsOrder(t *testing.T) {
	card := jsonx.New("image-id", "u-1", "assembly-version", "1.0-7", "project-version", "1.0-7")
	if got := strings.Join(buildSegments(card), " "); got != "1.0-7 u-1" {
		t.Fatalf("segments %q", got)
	}
	card = jsonx.New("id", "u-2", "project-version", "2.0-1")
	if got := strings.Join(buildSegments(card), " "); got != "2.0-1 u-2" {
		t.Fatalf("segments %q", got)
	}
}
