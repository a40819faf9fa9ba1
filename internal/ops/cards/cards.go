// Package cards reaches single cards of the platform the way users name
// them: a build by its version or its id, to read or delete it, and an
// application to delete, with the hint its refusal needs. The catalog's
// commands and the deploy operations' clean-ups share them.
package cards

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/hint"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/platform"
)

// FindBuild is the card of a project's build list that ref names by
// version (assembly-version or project-version) or by id; nil if none.
func FindBuild(cards []*jsonx.Object, ref string) *jsonx.Object {
	for _, c := range cards {
		if ref == "" {
			break
		}
		if c.Str("assembly-version") == ref || c.Str("project-version") == ref {
			return c
		}
		for _, k := range []string{"id", "image-id", "assembly-id"} {
			if c.Str(k) == ref {
				return c
			}
		}
	}
	return nil
}

// buildSegments are the spellings a build card may be addressed by, in
// the order they are tried: the version first (what the console
// expects), then the id (what older documentation claimed).
func buildSegments(card *jsonx.Object) []string {
	var out []string
	for _, s := range []string{card.Str("assembly-version"), card.Str("project-version"), buildlist.ID(card)} {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// AddressBuild sends method (GET or DELETE) to the card of the build ref
// names (a version or an id) in project. The build is looked up in the
// project's list first; then each spelling of its address is tried, and
// only a 400 or 404 moves on to the next one. When every spelling is
// refused, the first refusal is the error.
func AddressBuild(ctx context.Context, cl *platform.Client, method, project, ref string) (any, error) {
	cards, err := cl.ListBuilds(ctx, project)
	if err != nil {
		return nil, err
	}
	return AddressListedBuild(ctx, cl, method, project, ref, cards)
}

// AddressListedBuild is AddressBuild with the project's list read before
// (cards).
func AddressListedBuild(ctx context.Context, cl *platform.Client, method, project, ref string, cards []*jsonx.Object) (any, error) {
	card := FindBuild(cards, ref)
	if card == nil {
		return nil, platform.ConfigErrorf(ctx, "client.build-not-found", "ref", ref, "project", project)
	}
	var first error
	for _, seg := range buildSegments(card) {
		v, err := cl.Call(ctx, platform.Request{Method: method, Path: "/projects/" + PathSegment(project) + "/assemblies/" + PathSegment(seg)})
		if err == nil {
			return v, nil
		}
		if !platform.IsAPIStatus(err, http.StatusBadRequest, http.StatusNotFound) {
			return nil, err
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = platform.ConfigErrorf(ctx, "client.build-not-found", "ref", ref, "project", project)
	}
	return nil, first
}

// DeleteApp asks the platform to delete an application (the deletion runs
// on in the background) and returns its answer (nil without a body). The
// refusal for unpublished development changes (400 FAILED_PRECONDITION)
// gets a hint, since no API call can force the deletion. An answer lost on
// the way is read back: the card gone, or deleting, means it arrived; look
// is the command that shows the card, log hears the reading back.
func DeleteApp(ctx context.Context, cl *platform.Client, id string, log func(string), look string) (any, error) {
	v, err := readback.Change{
		Settle: readback.SettleOf(cl),
		What:   i18n.T(ctx, "readback.what-delete", "app", id),
		Send:   func(ctx context.Context) (any, error) { return cl.Delete(ctx, readback.AppPath(id)) },
		Check:  readback.AppGoing(cl, id),
		Look:   look,
		Log:    log,
	}.Do(ctx)
	if err != nil {
		var ae *platform.APIError
		if errors.As(err, &ae) && ae.Status == 400 && strings.Contains(bodyString(ae.Body), "FAILED_PRECONDITION") {
			hint := i18n.T(ctx, "client.delete-precondition-hint")
			ae.Message += " – " + hint
			ae.Hint = hint
		}
		return nil, err
	}
	return v, nil
}

// AppHint is the command that shows an application's card.
func AppHint(id string) hint.Command {
	return hint.Command{Path: []string{"apps", "get"}, Args: []hint.Arg{hint.Pos("app-id", id)}}
}

// bodyString is an error body as text, for looking for markers in it.
func bodyString(body any) string {
	switch b := body.(type) {
	case nil:
		return ""
	case string:
		return b
	}
	raw, err := jsonx.Compact(body)
	if err != nil {
		return ""
	}
	return string(raw)
}

// PathSegment escapes a value for one path segment, leaving only
// unreserved characters as they are.
func PathSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		const hex = "0123456789ABCDEF"
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// Messages are this package's entries of the message catalog, for
// i18n.Register.
var Messages = []i18n.Message{
	{Key: "client.build-not-found",
		RU: "сборка '{ref}' не найдена в проекте {project} (ни по версии, ни по id)",
		EN: "assembly '{ref}' not found in project {project} (neither by version nor by id)",
	},
}
