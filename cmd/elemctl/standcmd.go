package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/atomicfile"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/spelling"
	"github.com/elemctl/elemctl/internal/stand"
)

// standSeeds are the words --seed takes.
var standSeeds = []string{"demo"}

// standCommand runs the emulated stand on loopback until interrupted.
func (a *app) standCommand(ctx context.Context, cmd *cobra.Command) {
	var addr, writeEnv, seed, state, faultsFile, logFile, tlsCA string
	var speed float64
	var apps, deletedApps, builds, unpackedMiB int
	var durations stand.Durations
	var latency time.Duration
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if seed != "" && !slices.Contains(standSeeds, seed) {
			return fmt.Errorf("%s%s", i18n.T(ctx, "cli.bad-choice", "name", "--seed", "value", seed, "choices", strings.Join(standSeeds, ", ")),
				spelling.DidYouMean(ctx, seed, standSeeds))
		}
		for _, n := range []struct {
			name  string
			value int
		}{{"--apps", apps}, {"--deleted-apps", deletedApps}, {"--builds", builds}, {"--unpacked-limit", unpackedMiB}} {
			if n.value < 0 {
				return fmt.Errorf("%s", i18n.T(ctx, "cli.stand-negative-count", "name", n.name, "value", n.value))
			}
		}
		var faults *stand.FaultSet
		if faultsFile != "" {
			set, err := stand.LoadFaults(faultsFile)
			if err != nil {
				return &handlerError{&platform.Error{Kind: platform.KindGeneral, Message: err.Error(), Err: err}}
			}
			faults = &set
		}
		opts := stand.Options{Speed: speed, StateFile: state, Durations: durations,
			Limits: stand.Limits{UnpackedSize: int64(unpackedMiB) << 20}, TLS: tlsCA != "", Latency: latency}
		if logFile != "" {
			log, closeLog, err := a.openStandLog(logFile)
			if err != nil {
				return &handlerError{&platform.Error{Kind: platform.KindGeneral, Message: err.Error(), Err: err}}
			}
			defer closeLog()
			opts.Log = log
		}
		s, err := stand.New(opts)
		if err != nil {
			return &handlerError{err}
		}
		defer s.Close()
		if faults != nil {
			if err := s.SetFaults(*faults); err != nil {
				return &handlerError{err}
			}
		}
		// The demo: seeded once (a restored stand already has it), and
		// named again on every start, so --write-env writes the same ids.
		var demo *stand.DemoInfo
		if seed == "demo" {
			info, err := s.SeedDemo()
			if err != nil {
				return &handlerError{err}
			}
			demo = &info
		} else if info, ok := s.Demo(); ok {
			demo = &info
		}
		// Bulk data: at least as much as asked, so a restart with
		// --state adds nothing twice.
		var bulk *stand.BulkInfo
		if apps > 0 || deletedApps > 0 || builds > 0 && demo == nil {
			info, err := s.EnsureApps(apps, deletedApps)
			if err != nil {
				return &handlerError{err}
			}
			bulk = &info
		}
		if builds > 0 {
			var project string
			if demo != nil {
				project = demo.ProjectID
			} else {
				project = bulk.ProjectID
			}
			if err := s.EnsureBuilds(project, builds); err != nil {
				return &handlerError{err}
			}
		}
		base, err := listenStand(ctx, s, addr, cmd.Flags().Changed("addr"), a.progress)
		if err != nil {
			return &handlerError{err}
		}
		answer := jsonx.New("base-url", base, "client-id", s.ClientID(), "client-secret", s.ClientSecret())
		if demo != nil {
			answer.Set("space-id", demo.SpaceID).Set("project-id", demo.ProjectID).Set("app-id", demo.AppID).Set("app-name", demo.AppName)
		}
		if bulk != nil {
			answer.Set("bulk-project-id", bulk.ProjectID)
		}
		answer.Set("faults-url", base+"/stand/faults")
		// The CA file before the .env that names it: a script waiting for
		// the .env finds both.
		var caFile string
		if tlsCA != "" {
			abs, err := writeStandCA(tlsCA, s.CACertPEM())
			if err != nil {
				return &handlerError{err}
			}
			caFile = abs
			answer.Set("ca-file", caFile)
		}
		if writeEnv != "" {
			if err := writeStandEnv(writeEnv, base, s.ClientID(), s.ClientSecret(), caFile, demo, bulk); err != nil {
				return &handlerError{err}
			}
			abs, _ := filepath.Abs(writeEnv)
			answer.Set("env-file", abs)
		}
		if err := a.printAnswer(answer); err != nil {
			return &handlerError{err}
		}
		if faults != nil {
			a.progress(i18n.T(ctx, "cli.stand-faults-loaded", "count", len(faults.Faults), "file", faultsFile, "seed", faults.Seed))
		}
		a.progress(i18n.T(ctx, "cli.stand-serving", "url", base))
		<-cmd.Context().Done()
		a.progress(i18n.T(ctx, "cli.stand-stopped"))
		return nil
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", i18n.T(ctx, "cli.flag.stand-addr"))
	f.StringVar(&writeEnv, "write-env", "", i18n.T(ctx, "cli.flag.stand-write-env"))
	f.StringVar(&tlsCA, "tls-ca", "", i18n.T(ctx, "cli.flag.stand-tls-ca"))
	f.Var(standDuration{ctx: ctx, name: "latency", d: &latency, zeroOK: true}, "latency", i18n.T(ctx, "cli.flag.stand-latency"))
	f.StringVar(&seed, "seed", "", i18n.T(ctx, "cli.flag.stand-seed"))
	completeFlagValues(cmd, "seed", standSeeds)
	f.StringVar(&state, "state", "", i18n.T(ctx, "cli.flag.stand-state"))
	f.Float64Var(&speed, "speed", 1, i18n.T(ctx, "cli.flag.stand-speed"))
	f.StringVar(&faultsFile, "faults", "", i18n.T(ctx, "cli.flag.stand-faults"))
	f.IntVar(&apps, "apps", 0, i18n.T(ctx, "cli.flag.stand-apps"))
	f.IntVar(&deletedApps, "deleted-apps", 0, i18n.T(ctx, "cli.flag.stand-deleted-apps"))
	f.IntVar(&builds, "builds", 0, i18n.T(ctx, "cli.flag.stand-builds"))
	f.IntVar(&unpackedMiB, "unpacked-limit", int(stand.DefaultLimits.UnpackedSize>>20), i18n.T(ctx, "cli.flag.stand-unpacked-limit"))
	for _, d := range []struct {
		name   string
		target *time.Duration
		def    time.Duration
		what   string
	}{
		{"create-time", &durations.Create, stand.DefaultDurations.Create, "cli.stand-op-create"},
		{"apply-time", &durations.Apply, stand.DefaultDurations.Apply, "cli.stand-op-apply"},
		{"start-time", &durations.Start, stand.DefaultDurations.Start, "cli.stand-op-start"},
		{"stop-time", &durations.Stop, stand.DefaultDurations.Stop, "cli.stand-op-stop"},
		{"delete-time", &durations.Delete, stand.DefaultDurations.Delete, "cli.stand-op-delete"},
	} {
		*d.target = d.def
		f.Var(standDuration{ctx: ctx, name: d.name, d: d.target}, d.name, i18n.T(ctx, "cli.flag.stand-op-time", "operation", i18n.T(ctx, d.what)))
	}
	f.StringVar(&logFile, "log", "", i18n.T(ctx, "cli.flag.stand-log"))
	_ = f.MarkHidden("no-proxy")
}

// standDuration is a duration option of the stand: "30s", "1m30s" or a
// number of seconds, above zero (or zero too, with zeroOK).
type standDuration struct {
	ctx    context.Context // the language of a refusal
	name   string
	d      *time.Duration
	zeroOK bool
}

func (v standDuration) String() string {
	if v.d == nil {
		return ""
	}
	if *v.d == 0 {
		// As pflag writes a zero, so help shows no "(default 0s)".
		return "0"
	}
	return v.d.String()
}

func (v standDuration) Set(text string) error {
	d, err := stand.ParseDuration(text)
	if err != nil || d < 0 || d == 0 && !v.zeroOK {
		expected := "cli.stand-duration-expected"
		if v.zeroOK {
			expected = "cli.stand-duration-or-zero-expected"
		}
		return &command.UsageError{BindError: &command.BindError{Message: i18n.T(v.ctx, "cli.parse.invalid-value",
			"value", text, "flag", "--"+v.name, "expected", i18n.T(v.ctx, expected))}}
	}
	*v.d = d
	return nil
}

func (standDuration) Type() string { return "duration" }

// openStandLog opens the request log: appended to FILE, or stderr for "-".
func (a *app) openStandLog(path string) (io.Writer, func(), error) {
	if path == "-" {
		return a.stderr, func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// listenStand serves the stand at addr. Without an explicit --addr a
// restored stand takes the address it served on before, so the base URL of
// an existing .env stays right; when that one is taken, a free port is
// taken and the user is told.
func listenStand(ctx context.Context, s *stand.Stand, addr string, explicit bool, progress func(string)) (string, error) {
	if last := s.LastAddress(); !explicit && last != "" && last != addr {
		base, err := s.Listen(last)
		if err == nil {
			return base, nil
		}
		progress(i18n.T(ctx, "cli.stand-address-taken", "address", last))
	}
	base, err := s.Listen(addr)
	if err != nil {
		return "", &platform.Error{Kind: platform.KindGeneral, Err: err,
			Message: i18n.T(ctx, "cli.stand-listen-failed", "address", addr, "error", err.Error())}
	}
	return base, nil
}

// writeStandEnv writes a ready .env for the stand; the file holds the
// client secret, so it is private to the user. caFile ("" none) is the
// stand's certificate to trust, an absolute path.
func writeStandEnv(path, base, id, secret, caFile string, demo *stand.DemoInfo, bulk *stand.BulkInfo) error {
	var b strings.Builder
	fmt.Fprintf(&b, "ELEMENT_BASE_URL=%s\nELEMENT_CLIENT_ID=%s\nELEMENT_CLIENT_SECRET=%s\n", base, id, secret)
	// A local stand is never reached through the environment's proxy.
	b.WriteString("ELEMCTL_NO_PROXY=1\n")
	if caFile != "" {
		// Unquoted: the .env's values are taken literally, backslashes of a
		// Windows path included.
		fmt.Fprintf(&b, "ELEMENT_CA_FILE=%s\n", caFile)
	}
	switch {
	case demo != nil:
		fmt.Fprintf(&b, "ELEMENT_APP_ID=%s\nELEMENT_PROJECT_ID=%s\nELEMENT_SPACE_ID=%s\n", demo.AppID, demo.ProjectID, demo.SpaceID)
	case bulk != nil:
		fmt.Fprintf(&b, "ELEMENT_PROJECT_ID=%s\nELEMENT_SPACE_ID=%s\n", bulk.ProjectID, bulk.SpaceID)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return &platform.Error{Kind: platform.KindGeneral, Message: err.Error(), Err: err}
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return &platform.Error{Kind: platform.KindGeneral, Message: err.Error(), Err: err}
	}
	return nil
}

// writeStandCA writes the stand's certificate, the CA its clients trust,
// to path (0644: it is public) and returns the absolute path.
func writeStandCA(path string, certPEM []byte) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	fail := func(err error) (string, error) {
		return "", &platform.Error{Kind: platform.KindGeneral, Message: err.Error(), Err: err}
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fail(err)
	}
	if err := atomicfile.Write(abs, certPEM, 0o644); err != nil {
		return fail(err)
	}
	return abs, nil
}
