package command

import (
	"context"
	"strings"
	"testing"
)

type fillInput struct {
	Name     string   `arg:"name"`
	Count    int      `arg:"count"`
	Ratio    float64  `arg:"ratio"`
	Tags     []string `arg:"tags"`
	On       bool     `arg:"on"`
	OnGiven  bool     `arg:"on,given"`
	Maybe    *bool    `arg:"maybe"`
	Override *string  `arg:"override"`
	Unset    *string  `arg:"unset"`
	untagged string
}

// Every kind of field is filled from the values bound under its key; a
// tri-state and an override stay nil when nobody gave them.
func TestFillReadsEveryKindOfField(t *testing.T) {
	in := NewValues()
	in.Set("name", "crm")
	in.Set("count", int64(3))
	in.Set("ratio", 0.5)
	in.Set("tags", []string{"a", "b"})
	in.Default("on", true)
	in.Set("maybe", false)
	in.Set("override", "")
	var got fillInput
	Fill(&got, in)
	if got.Name != "crm" || got.Count != 3 || got.Ratio != 0.5 || strings.Join(got.Tags, ",") != "a,b" ||
		!got.On || got.OnGiven || got.Maybe == nil || *got.Maybe || got.Override == nil || *got.Override != "" ||
		got.Unset != nil || got.untagged != "" {
		t.Errorf("filled %+v", got)
	}
}

// The catalog's check refuses a typed input that reads an argument the
// command does not declare: a mistyped key fails the tests instead of
// reading as zero.
func TestTheCatalogRefusesAnInputNamingNoArgument(t *testing.T) {
	type input struct {
		AppID string `arg:"app-id"`
		Typo  string `arg:"projet-id"`
	}
	c := Handle(&Command{Path: []string{"x"}, Args: []Argument{{Name: "app-id"}}, ToolArgs: []Argument{{Name: "project_id"}}},
		func(context.Context, *Context, input) (any, error) { return nil, nil })
	good := Handle(&Command{Path: []string{"y"}, Args: []Argument{{Name: "app-id"}}},
		func(context.Context, *Context, struct {
			AppID string `arg:"app-id"`
		}) (any, error) {
			return nil, nil
		})
	cat := &Catalog{}
	cat.Add(good, c)
	err := cat.Check()
	if err == nil || !strings.Contains(err.Error(), "projet-id") || strings.Contains(err.Error(), "app-id") || !strings.Contains(err.Error(), "x reads") {
		t.Fatalf("the catalog took the command: %v", err)
	}
}

// A command whose input reads only what it declares, in either of its
// argument lists, is taken.
func TestTheCatalogTakesAnInputOfDeclaredArguments(t *testing.T) {
	type input struct {
		AppID     string `arg:"app-id"`
		ProjectID string `arg:"project-id"`
	}
	var got input
	c := Handle(&Command{Path: []string{"x"}, Args: []Argument{{Name: "app-id"}}, ToolArgs: []Argument{{Name: "project_id"}}},
		func(_ context.Context, _ *Context, in input) (any, error) { got = in; return nil, nil })
	cat := &Catalog{}
	cat.Add(c)
	if err := cat.Check(); err != nil {
		t.Fatal(err)
	}
	in := NewValues()
	in.Set("app-id", "a")
	in.Set("project-id", "p")
	if _, err := c.Run(context.Background(), &Context{}, in); err != nil || got.AppID != "a" || got.ProjectID != "p" {
		t.Errorf("ran with %+v: %v", got, err)
	}
}
