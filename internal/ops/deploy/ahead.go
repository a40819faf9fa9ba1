package deploy

import (
	"context"
	"errors"

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
}

// readBuildsAhead starts reading the build list of projectID. It makes no
// request that would not be made anyway: the list is what the schema
// guard and the next build number read (see builds), and what a build's
// card is found in before it is deleted (see take).
func (o *Ops) readBuildsAhead(ctx context.Context, projectID string) *buildsAhead {
	ctx, cancel := context.WithCancel(ctx)
	a := &buildsAhead{projectID: projectID, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.builds, a.err = o.Client.ListBuilds(ctx, projectID)
	}()
	return a
}

// builds is the list read ahead, once it is in. A read turned away while
// the server starts is made again through call, which waits for the
// server as every other request of the deploy does; any other outcome is
// the one a read made now would have had the moment it was sent. With
// no read ahead (nil), the list is read now.
func (o *Ops) builds(ctx context.Context, a *buildsAhead, projectID string) ([]*jsonx.Object, error) {
	if a == nil || a.projectID != projectID {
		return o.listBuilds(ctx, projectID)
	}
	<-a.done
	if a.err != nil && platform.IsServerStarting(a.err) && o.ServerStart > 0 {
		return o.listBuilds(ctx, projectID)
	}
	return a.builds, a.err
}

// take is the list read ahead, once it is in, for one use: false when the
// read failed or was taken before, so an attempt made again reads the
// list again.
func (a *buildsAhead) take() ([]*jsonx.Object, bool) {
	if a == nil {
		return nil, false
	}
	<-a.done
	builds, ok := a.builds, a.err == nil
	a.builds, a.err = nil, errTaken
	return builds, ok
}

// errTaken marks a list read ahead that was used.
var errTaken = errors.New("the list read ahead was used")

// stop ends a read the deploy no longer needs (it failed before) and
// waits for it, so nothing of the deploy outlives it.
func (a *buildsAhead) stop() {
	if a == nil {
		return
	}
	a.cancel()
	<-a.done
}
