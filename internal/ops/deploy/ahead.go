package deploy

import (
	"context"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// buildsAhead is a project's build list read beside what comes before the
// list is needed: a deploy's reads before it builds (the application's
// card, an extension's rows, an application named rather than given by
// id), a probe's wait for its application to go before its build is
// deleted. Over a network each is a round trip, or a wait, the user
// would otherwise sit through in turn.
type buildsAhead struct {
	projectID string
	cancel    context.CancelFunc
	done      chan struct{}
	builds    []*jsonx.Object
	err       error
	taken     bool // its outcome was used
}

// readBuildsAhead starts reading the build list of projectID: what the
// schema guard and the next build number read (see builds), and what a
// build's card is found in before it is deleted (see take). Only a deploy
// with its own build version to an application that runs no build of the
// project yet reads it without needing it.
func (o *Ops) readBuildsAhead(ctx context.Context, projectID string) *buildsAhead {
	ctx, cancel := context.WithCancel(ctx)
	a := &buildsAhead{projectID: projectID, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.builds, a.err = o.Client.ListBuilds(ctx, projectID)
	}()
	return a
}

// builds is the list of projectID: the one read ahead the first time,
// when that read got an answer, else read now. A read made now is what
// the list's user had before the read ahead: a second user of a failed
// read reads again, and a read turned away while the server starts waits
// for the server through call, as every request of a deploy does. With
// no read ahead (nil), the list is read now.
func (o *Ops) builds(ctx context.Context, a *buildsAhead, projectID string) ([]*jsonx.Object, error) {
	if a != nil && a.projectID == projectID {
		if builds, first, err := a.take(); first && !(platform.IsServerStarting(err) && o.ServerStart > 0) {
			return builds, err
		}
	}
	return o.listBuilds(ctx, projectID)
}

// take is the outcome of the read ahead, once it is in, for its first
// user only (first false for a later one).
func (a *buildsAhead) take() (builds []*jsonx.Object, first bool, err error) {
	if a == nil {
		return nil, false, nil
	}
	<-a.done
	builds, first, err = a.builds, !a.taken, a.err
	a.builds, a.err, a.taken = nil, nil, true
	return builds, first, err
}

// stop ends the read if it is still going (what it was read for failed
// first, or did not need it) and waits for it, so nothing of the
// operation outlives it.
func (a *buildsAhead) stop() {
	if a == nil {
		return
	}
	a.cancel()
	<-a.done
}
