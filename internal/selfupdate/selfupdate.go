// Package selfupdate replaces the running elemctl with a release: it reads
// the release feed, picks the archive of this system and architecture,
// checks it against the release's SHA256SUMS, and puts the binary in place
// of the running one atomically, so that a failure at any step leaves the
// old binary as it was. Processes that still run the old binary (the MCP,
// LSP and DAP servers of editors and agents) are named, or stopped on
// request, so their clients start them again on the new one.
package selfupdate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"aead.dev/minisign"

	"github.com/elemctl/elemctl/internal/dist"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/releasekey"
)

// FeedVariable names another release feed than DefaultFeed.
const FeedVariable = "ELEMCTL_UPDATE_URL"

// MaxDownload bounds what one download may bring, so a wrong address
// cannot fill the memory.
const MaxDownload = 512 << 20

// Getter fetches an address; *platform.Fetcher is the one used, with the
// transport rules of the Console API client.
type Getter interface {
	Get(ctx context.Context, url string, header http.Header) (*platform.Response, error)
}

// Options describe one self-update.
type Options struct {
	// Current is the running binary's version.
	Current string
	// Want is the version asked for (--version); "" means the newest
	// release, and never an older one than Current.
	Want string
	// Check only reports what an update would do.
	Check bool
	// Stop ends holders after the update.
	Stop StopMode
	// Feed is the release feed's address; "" means DefaultFeed.
	Feed string
	Get  Getter
	// Executable is the binary to replace; "" means the running one.
	Executable string
	// Log receives progress lines; nil discards them.
	Log func(string)

	// What tests replace.
	trusted      []minisign.PublicKey
	goos, goarch string
	fs           fileSystem
	list         func() ([]process, error)
	stop         func(pid int, grace time.Duration) error
	self         int
}

// Holder is a process that runs the binary.
type Holder struct {
	PID     int
	Command string
}

// Result is what happened.
type Result struct {
	Updated bool
	// From is the version before; To the version after (with --check: the
	// one an update would bring; unchanged when there is nothing to do).
	From, To string
	// Latest is the newest release of the feed ("" when it has none).
	Latest string
	Path   string
	// Archive is the release archive of this platform, when one was chosen.
	Archive string
	Check   bool
	// Available tells, with Check, whether an update would change anything.
	Available bool
	Stopped   []Holder
	// Holders still run the old binary.
	Holders []Holder
	// ManagedBy is the installer that owns the binary, if one does.
	ManagedBy *Manager
}

// Answer is the command's JSON answer. updated, from and to are the keys
// of the reference tool's answer.
func (r *Result) Answer() *jsonx.Object {
	o := jsonx.New("updated", r.Updated, "from", r.From, "to", r.To, "latest", r.Latest, "path", r.Path)
	if r.Archive != "" {
		o.Set("archive", r.Archive)
	}
	if r.ManagedBy != nil {
		o.Set("managed_by", r.ManagedBy.Name).Set("update_command", r.ManagedBy.Update)
	}
	if r.Check {
		o.Set("check", true).Set("available", r.Available)
	} else {
		o.Set("stopped", holderList(r.Stopped))
	}
	o.Set("holders", holderList(r.Holders))
	return o
}

func holderList(hs []Holder) []any {
	out := make([]any, 0, len(hs))
	for _, h := range hs {
		out = append(out, jsonx.New("pid", h.PID, "command", h.Command))
	}
	return out
}

// graceToStop is how long a stopped server gets to end before it is killed.
const graceToStop = 5 * time.Second

// Run updates the binary (or, with Check, tells what it would do).
func Run(ctx context.Context, o Options) (*Result, error) {
	o.defaults()
	cur, ok := parseVersion(o.Current)
	if !ok {
		// A build stamped with something else than a number: any release
		// is newer.
		cur, _ = parseVersion("0.0.0")
		cur.text = o.Current
	}
	var want semver
	if o.Want != "" {
		if want, ok = parseVersion(o.Want); !ok {
			return nil, platform.ConfigErrorf(ctx, "selfupdate.bad-version", "version", o.Want)
		}
	}
	exe, err := executable(o.Executable)
	if err != nil {
		return nil, fail(ctx, "selfupdate.no-executable", err)
	}
	// A copy another installer owns is left to it, before any download.
	managed := ManagedBy(exe, o.goos, o.goarch)
	if managed != nil && !o.Check {
		return nil, platform.NewError(ctx, platform.KindGeneral, "selfupdate.managed",
			"path", exe, "manager", managed.Name, "command", managed.Update)
	}
	feed, err := url.Parse(o.Feed)
	if err != nil || (feed.Scheme != "http" && feed.Scheme != "https") || feed.Host == "" {
		return nil, platform.ConfigErrorf(ctx, "selfupdate.bad-feed", "url", redact(o.Feed), "variable", FeedVariable)
	}

	o.log(ctx, "selfupdate.reading-feed", "url", feed.Redacted())
	releases, err := o.readFeed(ctx, feed)
	if err != nil {
		return nil, err
	}
	latest := newest(releases)
	res := &Result{From: cur.text, To: cur.text, Path: exe, Check: o.Check, ManagedBy: managed}
	if latest != nil {
		res.Latest = latest.version.text
	}
	var target *release
	if o.Want != "" {
		if target = find(releases, want); target == nil {
			return nil, platform.NewError(ctx, platform.KindGeneral, "selfupdate.no-such-version", "version", want.text, "latest", orNone(res.Latest))
		}
	} else if target = latest; target == nil {
		return nil, platform.NewError(ctx, platform.KindGeneral, "selfupdate.no-releases", "url", feed.Redacted())
	}

	switch c := target.version.compare(cur); {
	case c == 0:
		o.log(ctx, "selfupdate.up-to-date", "version", cur.text)
		o.settleHolders(ctx, res, exe)
		return res, nil
	case c < 0 && o.Want == "":
		// No downgrade unless asked for by version.
		o.log(ctx, "selfupdate.newer-installed", "version", cur.text, "latest", target.version.text)
		o.settleHolders(ctx, res, exe)
		return res, nil
	}

	res.Archive = dist.ArchiveName(o.goos, o.goarch)
	archiveURL, ok := target.assets[res.Archive]
	if !ok {
		return nil, platform.NewError(ctx, platform.KindGeneral, "selfupdate.no-archive",
			"version", target.version.text, "platform", o.goos+"/"+o.goarch, "name", res.Archive)
	}
	sumsURL, ok := target.assets[dist.SumsName]
	if !ok {
		return nil, platform.NewError(ctx, platform.KindGeneral, "selfupdate.no-sums", "version", target.version.text)
	}
	sigURL, ok := target.assets[releasekey.SignatureName]
	if !ok {
		return nil, platform.NewError(ctx, platform.KindGeneral, "selfupdate.no-signature", "version", target.version.text, "name", releasekey.SignatureName)
	}
	if o.Check {
		res.To, res.Available = target.version.text, true
		if managed != nil {
			o.log(ctx, "selfupdate.available-managed", "version", target.version.text, "current", cur.text, "manager", managed.Name, "command", managed.Update)
		} else {
			o.log(ctx, "selfupdate.available", "version", target.version.text, "current", cur.text)
		}
		res.Holders = o.holders(ctx, exe)
		return res, nil
	}

	if err := o.install(ctx, exe, target, releaseFiles{archiveURL, sumsURL, sigURL}, res.Archive); err != nil {
		return nil, err
	}
	res.Updated, res.To = true, target.version.text
	o.log(ctx, "selfupdate.replaced", "from", cur.text, "to", target.version.text, "path", exe)
	res.Stopped, res.Holders = o.stopHolders(ctx, exe, false)
	return res, nil
}

// settleHolders fills the holders of a run that changed nothing. With
// --stop-holders it stops those that still run an older binary: the run
// an earlier update advised ("repeat with --stop-holders") finds nothing
// to update, but the old servers are still there to end.
func (o *Options) settleHolders(ctx context.Context, res *Result, exe string) {
	if o.Check || o.Stop == StopNone {
		res.Holders = o.holders(ctx, exe)
		return
	}
	res.Stopped, res.Holders = o.stopHolders(ctx, exe, true)
}

func (o *Options) defaults() {
	if o.Feed == "" {
		o.Feed = DefaultFeed
	}
	if o.goos == "" {
		o.goos, o.goarch = runtime.GOOS, runtime.GOARCH
	}
	if o.fs == nil {
		o.fs = osFileSystem{}
	}
	if o.list == nil {
		o.list = listProcesses
	}
	if o.stop == nil {
		o.stop = stopProcess
	}
	if o.self == 0 {
		o.self = os.Getpid()
	}
}

func (o *Options) log(ctx context.Context, key string, args ...any) {
	if o.Log != nil {
		o.Log(i18n.T(ctx, key, args...))
	}
}

// executable is the real file of the binary (a symbolic link on PATH is
// followed: the file it names is the one replaced).
func executable(given string) (string, error) {
	exe := given
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", err
		}
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Abs(exe)
}

// readFeed fetches and reads the release feed.
func (o *Options) readFeed(ctx context.Context, feed *url.URL) ([]release, error) {
	resp, err := o.Get.Get(ctx, feed.String(), http.Header{"Accept": {"application/vnd.github+json"}})
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, platform.NewError(ctx, platform.KindGeneral, "selfupdate.feed-failed",
			"url", feed.Redacted(), "status", resp.Status, "detail", answerDetail(resp.Body))
	}
	releases, err := parseFeed(resp.Body, feed)
	if err != nil {
		return nil, &platform.Error{Kind: platform.KindGeneral, Err: err,
			Message: i18n.T(ctx, "selfupdate.feed-invalid", "url", feed.Redacted(), "error", err)}
	}
	return releases, nil
}

// download fetches one release file.
func (o *Options) download(ctx context.Context, address string) ([]byte, error) {
	resp, err := o.Get.Get(ctx, address, nil)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, platform.NewError(ctx, platform.KindGeneral, "selfupdate.download-failed",
			"url", redact(address), "status", resp.Status, "detail", answerDetail(resp.Body))
	}
	return resp.Body, nil
}

// install downloads, checks and puts the release's binary in place. Every
// failure before the final rename leaves the old binary untouched and no
// file behind.
// release are the addresses of the files an update downloads.
type releaseFiles struct{ archive, sums, signature string }

func (o *Options) install(ctx context.Context, exe string, target *release, files releaseFiles, archiveName string) (err error) {
	staged, f, err := o.stage(ctx, exe)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(staged)
		}
	}()

	sums, err := o.download(ctx, files.sums)
	if err != nil {
		return err
	}
	signature, err := o.download(ctx, files.signature)
	if err != nil {
		return err
	}
	if err := o.verifySums(ctx, sums, signature, target.version.text); err != nil {
		return err
	}
	want := checksumOf(sums, archiveName)
	if want == "" {
		return platform.NewError(ctx, platform.KindGeneral, "selfupdate.no-checksum", "version", target.version.text, "name", archiveName)
	}
	o.log(ctx, "selfupdate.downloading", "name", archiveName, "version", target.version.text)
	archive, err := o.download(ctx, files.archive)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(archive)
	if got := hex.EncodeToString(sum[:]); got != want {
		return platform.NewError(ctx, platform.KindGeneral, "selfupdate.checksum-mismatch", "name", archiveName, "got", got, "want", want)
	}
	o.log(ctx, "selfupdate.verified", "name", archiveName, "bytes", len(archive))
	binaryName := dist.BinaryName(o.goos)
	bin, err := extractBinary(archive, archiveName, binaryName)
	if err != nil {
		return &platform.Error{Kind: platform.KindGeneral, Err: err,
			Message: i18n.T(ctx, "selfupdate.archive-invalid", "name", archiveName, "binary", binaryName, "error", err)}
	}
	if _, err = f.Write(bin); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(ctx, "selfupdate.cannot-write", err, "path", exe)
	}
	if err = o.tryBinary(ctx, staged, target.version.text); err != nil {
		return err
	}
	if err = replaceBinary(o.fs, o.goos, exe, staged); err != nil {
		return fail(ctx, "selfupdate.replace-failed", err, "path", exe)
	}
	syncDir(filepath.Dir(exe))
	return nil
}

// verifySums checks the release's SHA256SUMS against its signature and the
// keys compiled into this binary: checksums from the same place as the
// archives prove nothing when that place is what was changed.
func (o *Options) verifySums(ctx context.Context, sums, signature []byte, version string) error {
	trusted := o.trusted
	if trusted == nil {
		var err error
		if trusted, err = releasekey.Trusted(); err != nil {
			return fail(ctx, "selfupdate.signature-invalid", err, "version", version)
		}
	}
	err := releasekey.Verify(trusted, sums, signature, version)
	var foreign *releasekey.ForeignKeyError
	var other *releasekey.OtherReleaseError
	switch {
	case err == nil:
		o.log(ctx, "selfupdate.signature-ok", "version", version)
		return nil
	case errors.As(err, &foreign):
		return platform.NewError(ctx, platform.KindGeneral, "selfupdate.signature-foreign",
			"version", version, "key", foreign.KeyID, "trusted", idsOf(trusted))
	case errors.As(err, &other):
		return platform.NewError(ctx, platform.KindGeneral, "selfupdate.signature-other-release",
			"version", version, "comment", other.Comment)
	case errors.Is(err, releasekey.ErrMismatch):
		return platform.NewError(ctx, platform.KindGeneral, "selfupdate.signature-mismatch", "version", version)
	}
	return fail(ctx, "selfupdate.signature-invalid", err, "version", version)
}

func idsOf(keys []minisign.PublicKey) string {
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = releasekey.KeyID(k.ID())
	}
	return strings.Join(ids, ", ")
}

// stage creates the file the new binary is written to: beside the old one
// (a rename within one directory is atomic), with its permissions. It
// fails early when the directory is not writable.
func (o *Options) stage(ctx context.Context, exe string) (string, *os.File, error) {
	mode := os.FileMode(0o755)
	if st, err := os.Stat(exe); err == nil && st.Mode().Perm()&0o111 != 0 {
		mode = st.Mode().Perm()
	}
	ext := ""
	if o.goos == "windows" {
		ext = ".exe"
	}
	staged := filepath.Join(filepath.Dir(exe), stagePrefix+randomHex()+ext)
	f, err := os.OpenFile(staged, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return "", nil, fail(ctx, "selfupdate.cannot-write", err, "path", exe)
	}
	if err := f.Chmod(mode); err != nil && o.goos != "windows" {
		f.Close()
		os.Remove(staged)
		return "", nil, fail(ctx, "selfupdate.cannot-write", err, "path", exe)
	}
	return staged, f, nil
}

// tryBinary runs the new binary before it takes the old one's place: it
// must start on this machine and call itself the version it was
// downloaded as.
func (o *Options) tryBinary(ctx context.Context, path, version string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	got := strings.TrimSpace(out.String())
	if err == nil && got == "elemctl "+version {
		return nil
	}
	detail := got
	if err != nil {
		detail = strings.TrimSpace(err.Error() + " " + got)
	}
	return platform.NewError(ctx, platform.KindGeneral, "selfupdate.try-failed", "version", version, "detail", detail)
}

// holders lists the processes that run exe, other than this one's tree.
func (o *Options) holders(ctx context.Context, exe string) []Holder {
	procs, err := o.list()
	if err != nil {
		o.log(ctx, "selfupdate.no-process-list", "error", err)
		return nil
	}
	var out []Holder
	for _, p := range holdersOf(procs, exe, o.self, o.goos) {
		out = append(out, Holder{PID: p.PID, Command: commandText(p)})
	}
	return out
}

// stopHolders ends the holders the stop mode names and returns them, with
// the holders that still run the binary. With onlyOld, a process known to
// run the current file (not one an update replaced) is left running: it
// would start again on the same version.
func (o *Options) stopHolders(ctx context.Context, exe string, onlyOld bool) (stopped, left []Holder) {
	procs, err := o.list()
	if err != nil {
		o.log(ctx, "selfupdate.no-process-list", "error", err)
		return nil, nil
	}
	// names are the holders of an old binary left running.
	var names []string
	for _, p := range holdersOf(procs, exe, o.self, o.goos) {
		h := Holder{PID: p.PID, Command: commandText(p)}
		if onlyOld && runsCurrentFile(p.Exe, exe, o.goos) {
			left = append(left, h)
			continue
		}
		if o.Stop == StopAll || (o.Stop == StopServers && isServer(p.Args)) {
			err := o.stop(p.PID, graceToStop)
			if err == nil {
				o.log(ctx, "selfupdate.stopped", "pid", p.PID, "command", h.Command)
				stopped = append(stopped, h)
				continue
			}
			o.log(ctx, "selfupdate.stop-failed", "pid", p.PID, "command", h.Command, "error", err)
		}
		left = append(left, h)
		names = append(names, fmt.Sprintf("%d (%s)", h.PID, h.Command))
	}
	if len(names) > 0 {
		o.log(ctx, "selfupdate.still-held", "processes", strings.Join(names, ", "))
	}
	return stopped, left
}

// syncDir makes a rename durable where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// answerDetail is ": " and the message of an HTTP error answer (GitHub's
// "message", for instance of its rate limit), or "".
func answerDetail(body []byte) string {
	if o, ok := (&platform.Response{Body: body}).Value().(*jsonx.Object); ok {
		if m, ok := o.Value("message").(string); ok && m != "" {
			return ": " + m
		}
	}
	return ""
}

// redact hides the credentials of an address.
func redact(address string) string {
	if u, err := url.Parse(address); err == nil {
		return u.Redacted()
	}
	return address
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func fail(ctx context.Context, key string, err error, args ...any) error {
	return &platform.Error{Kind: platform.KindGeneral, Err: err, Message: i18n.T(ctx, key, append(args, "error", err)...)}
}
