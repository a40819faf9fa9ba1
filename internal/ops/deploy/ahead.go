package deploy

import (
	"context"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// beside is work started beside what comes before its outcome is needed:
// over a network each read is a round trip, or a wait, the user would
// otherwise sit through in turn.
type beside[T any] struct {
	cancel context.CancelFunc
	done   chan struct{}
	value  T
}

// goBeside starts fn at once; wait gives its outcome.
func goBeside[T any](ctx context.Context, fn func(context.Context) T) *beside[T] {
	ctx, cancel := context.WithCancel(ctx)
	b := &beside[T]{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(b.done)
		b.value = fn(ctx)
	}()
	return b
}

// wait is the outcome once it is in; the zero value for no work (nil).
func (b *beside[T]) wait() T {
	var zero T
	if b == nil {
		return zero
	}
	<-b.done
	return b.value
}

// stop ends the work if it is still going (what it was started for
// failed first, or did not need it) and waits for it, so nothing of the
// operation outlives it.
func (b *beside[T]) stop() {
	if b != nil {
		b.cancel()
		<-b.done
	}
}

// listed is a build list as a read gave it.
type listed struct {
	builds []*jsonx.Object
	err    error
}

// buildsAhead is a project's build list read beside what comes before the
// list is needed: a deploy's reads before it builds (the application's
// card, an extension's rows, an application named rather than given by
// id), a probe's wait for its application to go before its build is
// deleted.
type buildsAhead struct {
	projectID string
	read      *beside[listed]
	taken     bool // its outcome was used
}

// readBuildsAhead starts reading the build list of projectID: what the
// schema guard and the next build number read (see builds), and what a
// build's card is found in before it is deleted (see take). Only a deploy
// with its own build version to an application that runs no build of the
// project yet reads it without needing it.
func (o *Ops) readBuildsAhead(ctx context.Context, projectID string) *buildsAhead {
	return &buildsAhead{projectID: projectID, read: goBeside(ctx, func(ctx context.Context) listed {
		builds, err := o.Client.ListBuilds(ctx, projectID)
		return listed{builds, err}
	})}
}

// builds is the list of projectID: the one read ahead the first time,
// when that read got an answer, else read now. A read made now is what
// the list's user had before the read ahead: a second user of a failed
// read reads again, and a read turned away while the server starts waits
// for the server through call, as every request of a deploy does. With
// no read ahead (nil), the list is read now.
func (o *Ops) builds(ctx context.Context, a *buildsAhead, projectID string) ([]*jsonx.Object, error) {
	if a != nil && a.projectID == projectID {
		if l, first := a.take(); first && !(platform.IsServerStarting(l.err) && o.ServerStart > 0) {
			return l.builds, l.err
		}
	}
	return o.listBuilds(ctx, projectID)
}

// take is the outcome of the read ahead, once it is in, for its first
// user only (first false for a later one).
func (a *buildsAhead) take() (l listed, first bool) {
	if a == nil || a.taken {
		return listed{}, false
	}
	a.taken = true
	return a.read.wait(), true
}

// stop ends the read ahead (see beside.stop).
func (a *buildsAhead) stop() {
	if a != nil {
		a.read.stop()
	}
}
