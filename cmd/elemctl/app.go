package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/platform/clientcache"
)

// Exit codes.
const (
	exitOK        = 0
	exitFailure   = 1
	exitUsage     = 2
	exitInterrupt = 130
)

// connectionFlags are refused by local commands.
var connectionFlags = []string{"base-url", "client-id", "client-secret", "env-file", "timeout"}

// app is one run of the CLI.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	catalog        *command.Catalog

	// global flags
	baseURL, clientID, clientSecret, envFile, lang string
	timeout                                        float64
	jsonOut, quiet, showVersion                    bool

	errMu       sync.Mutex // serialises stderr lines from concurrent progress
	pendingMu   sync.Mutex
	pendingText string
	// interruptedAgain is closed by a second interrupt.
	interruptedAgain chan struct{}
	cacheOnce        sync.Once
	cache            *clientcache.Cache
	status           *statusLine
}

// Commands keep the order orderTree gives them (cobra would sort them).
func init() { cobra.EnableCommandSorting = false }

// cliOrder is the order of the reference's command tree (spec cli.md §2),
// per group ("" is the root). Help lists commands in it, and the action
// lists of errors and of the action-first hint follow it, so the action
// the hint suggests is a group's harmless first one (list), not the
// alphabetically first (delete). Commands it does not name (plugin
// commands, completion, help) follow in the order they were added.
var cliOrder = map[string][]string{
	"": {"token", "apps", "spaces", "projects", "builds", "build", "inspect", "deploy", "user-lists", "probe",
		"verify-deploy", "branches", "dumps", "tasks", "tech", "debug-adapter", "plugins", "self-update", "mcp", "lsp", "dap", "stand"},
	"apps": {"list", "get", "find", "create", "ensure", "apply", "delete", "start", "stop", "debug", "users",
		"token-access", "export", "export-extension"},
	"spaces":        {"list"},
	"projects":      {"list", "get", "delete"},
	"builds":        {"list", "get", "upload", "delete"},
	"user-lists":    {"list", "get", "self-registration", "password-login", "calculation-rules"},
	"branches":      {"list", "get", "create", "update", "delete", "merge"},
	"dumps":         {"create", "get"},
	"tasks":         {"list", "get-group"},
	"tech":          {"get", "set"},
	"debug-adapter": {"extract"},
	"mcp":           {"install"},
}

// orderTree puts the root's and each group's commands in cliOrder.
func orderTree(root *cobra.Command) {
	order := func(c *cobra.Command, key string) {
		rank := map[string]int{}
		for i, name := range cliOrder[key] {
			rank[name] = i + 1
		}
		children := c.Commands()
		sorted := slices.Clone(children)
		slices.SortStableFunc(sorted, func(x, y *cobra.Command) int {
			rx, ry := rank[x.Name()], rank[y.Name()]
			switch {
			case rx == 0 && ry == 0:
				return 0
			case rx == 0:
				return 1
			case ry == 0:
				return -1
			}
			return rx - ry
		})
		if slices.Equal(children, sorted) {
			return
		}
		c.RemoveCommand(children...)
		c.AddCommand(sorted...)
	}
	order(root, "")
	for _, c := range root.Commands() {
		if _, ok := cliOrder[c.Name()]; ok {
			order(c, c.Name())
		}
	}
}

func newApp(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, catalog: command.Core()}
}

// handlerError marks an error raised by a command (exit 1 with error JSON),
// as opposed to a refused command line (exit 2 with usage text).
type handlerError struct{ err error }

func (e *handlerError) Error() string { return e.err.Error() }
func (e *handlerError) Unwrap() error { return e.err }

// exitError carries an exit code decided by a command's answer.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func (a *app) run(args []string) int {
	// Signals are caught from the start: one that comes while the command
	// tree is still being built stops the command before it begins.
	ctx, stop := a.stopOnSignals()
	defer stop()
	if a.versionAsked(args) {
		// Answered before the command tree is built: scripts call it often.
		io.WriteString(a.stdout, versionLine())
		return exitOK
	}
	i18n.SetLang(i18n.Detect(prescanLang(args), a.getenv))
	if handled, code := a.jvmStandIn(args); handled {
		return code
	}
	root := a.buildRoot()
	if isCompletion(args) {
		// The last word is the one the shell completes: a prefix of
		// several options is what it asks the candidates of.
		if head, err := expandAbbreviations(root, args[:len(args)-1]); err == nil {
			args = append(head, args[len(args)-1])
		}
	} else {
		expanded, err := expandAbbreviations(root, args)
		if err != nil {
			fmt.Fprintln(a.stderr, i18n.T("cli.usage-error", "error", err))
			return exitUsage
		}
		args = expanded
	}
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)

	failed, err := root.ExecuteContextC(ctx)
	if a.status != nil {
		a.status.clear()
	}
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var he *handlerError
	if errors.As(err, &he) {
		if ctx.Err() != nil && errors.Is(he.err, context.Canceled) {
			if he.err.Error() == context.Canceled.Error() {
				// Nothing more to say than that it stopped.
				he.err = platform.NewError(platform.KindGeneral, "cli.interrupted")
			}
			a.printError(he.err)
			return exitInterrupt
		}
		a.printError(he.err)
		return exitFailure
	}
	// Anything else is cobra refusing the command line: the usage of the
	// command it was given, then why.
	if failed != nil {
		fmt.Fprintf(a.stderr, "%s: %s\n", i18n.T("cli.help.usage"), useLine(failed))
	}
	fmt.Fprintln(a.stderr, i18n.T("cli.usage-error", "error", err))
	if hint := actionFirstHint(root, args); hint != "" {
		fmt.Fprintln(a.stderr, hint)
	}
	return exitUsage
}

// stopOnSignals is the context of a run: Ctrl-C, SIGTERM or SIGHUP (the
// terminal closed, the SSH session dropped) stops it, and the command
// cleans up what it made. A second signal tells what that cleanup still
// has to do and how to finish it later, and closes a.interruptedAgain (a
// server stops waiting for its calls); a third ends elemctl at once.
func (a *app) stopOnSignals() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	a.interruptedAgain = make(chan struct{})
	signals := make(chan os.Signal, 3)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		count := 0
		for {
			select {
			case <-signals:
				count++
				if count == 1 {
					cancel()
					continue
				}
				a.tellPending(count > 2)
				if count == 2 {
					close(a.interruptedAgain)
				}
				if count > 2 {
					os.Exit(exitInterrupt)
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
		cancel()
	}
}

// tellPending says what the interrupted command still cleans up, or that
// it is stopping.
func (a *app) tellPending(now bool) {
	a.pendingMu.Lock()
	text := a.pendingText
	a.pendingMu.Unlock()
	if text == "" {
		text = i18n.T("cli.stopping")
	}
	if !now {
		text += i18n.T("cli.stop-again")
	}
	a.errMu.Lock()
	defer a.errMu.Unlock()
	if a.status != nil {
		a.status.clearLocked()
	}
	fmt.Fprintln(a.stderr, text)
}

// pending keeps what a forced stop would leave behind (Context.Pending).
func (a *app) pending(text string) {
	a.pendingMu.Lock()
	a.pendingText = text
	a.pendingMu.Unlock()
}

func (a *app) printError(err error) {
	out, mErr := jsonx.Marshal(command.ErrorObject(err))
	if mErr != nil {
		out = []byte(err.Error() + "\n")
	}
	a.errMu.Lock()
	defer a.errMu.Unlock()
	a.stderr.Write(out)
}

// prescanLang finds --lang before the parser exists, so help is localized.
func prescanLang(args []string) string {
	for i, arg := range args {
		if arg == "--" {
			break
		}
		if arg == "--lang" && i+1 < len(args) {
			if _, ok := i18n.Parse(args[i+1]); ok {
				return args[i+1]
			}
		}
		if v, ok := strings.CutPrefix(arg, "--lang="); ok {
			if _, ok := i18n.Parse(v); ok {
				return v
			}
		}
	}
	return ""
}

// buildRoot builds the whole command tree.
func (a *app) buildRoot() *cobra.Command {
	root := a.newRoot()
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if a.lang != "" {
			l, ok := i18n.Parse(a.lang)
			if !ok || (a.lang != "ru" && a.lang != "en") {
				return fmt.Errorf("%s", i18n.T("cli.bad-lang", "value", a.lang))
			}
			i18n.SetLang(l)
		}
		if f := cmd.Flags().Lookup("timeout"); f != nil && f.Changed && a.timeout <= 0 {
			return fmt.Errorf("%s", i18n.T("cli.parse.invalid-value", "value", f.Value.String(), "flag", "--timeout",
				"expected", i18n.T("cli.parse.expected-number-positive")))
		}
		a.reportPluginFailures(cmd)
		return nil
	}
	localizeHelp(root)
	root.SetFlagErrorFunc(localizeFlagError)
	a.loadPlugins()

	groups := map[string]*cobra.Command{}
	for _, g := range a.catalog.Groups() {
		gc := a.groupCommand(g)
		groups[g.Name] = gc
		root.AddCommand(gc)
	}
	for _, c := range a.catalog.Commands() {
		if len(c.Path) == 0 {
			continue
		}
		parent := root
		for _, seg := range c.Path[:len(c.Path)-1] {
			gc, ok := groups[seg]
			if !ok {
				gc = a.groupCommand(command.Group{Name: seg})
				groups[seg] = gc
				root.AddCommand(gc)
			}
			parent = gc
		}
		parent.AddCommand(a.leafCommand(c))
	}
	root.AddCommand(a.faceCommands()...)
	orderTree(root)
	localizeScaffolding(root)
	addExamples(root)
	return root
}

// newRoot is the root command with the global options and no subcommands.
func (a *app) newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "elemctl",
		Short:         i18n.T("cli.help.root"),
		SilenceUsage:  true,
		SilenceErrors: true,
		// elemctl alone prints help on stderr and fails.
		RunE: func(cmd *cobra.Command, args []string) error {
			// An unknown command is refused even with --version after it:
			// there --version would be that command's own option.
			if len(args) > 0 {
				if err := a.refuseUnknownWithFailures(args[0]); err != nil {
					return err
				}
				return fmt.Errorf("%s", i18n.T("cli.unknown-command", "name", args[0]))
			}
			if a.showVersion {
				io.WriteString(a.stdout, versionLine())
				return nil
			}
			cmd.SetOut(a.stderr)
			_ = cmd.Help()
			return &exitError{code: exitFailure}
		},
		Args: cobra.ArbitraryArgs,
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.baseURL, "base-url", "", i18n.T("cli.flag.base-url"))
	pf.StringVar(&a.clientID, "client-id", "", i18n.T("cli.flag.client-id"))
	pf.StringVar(&a.clientSecret, "client-secret", "", i18n.T("cli.flag.client-secret"))
	pf.StringVar(&a.envFile, "env-file", "", i18n.T("cli.flag.env-file"))
	pf.Float64Var(&a.timeout, "timeout", 0, i18n.T("cli.flag.timeout"))
	pf.StringVar(&a.lang, "lang", "", i18n.T("cli.flag.lang"))
	pf.BoolVar(&a.jsonOut, "json", false, i18n.T("cli.flag.json"))
	pf.BoolVar(&a.quiet, "quiet", false, i18n.T("cli.flag.quiet"))
	root.Flags().BoolVar(&a.showVersion, "version", false, i18n.T("cli.flag.version"))
	return root
}

// isCompletion tells a shell's completion request from a command line.
func isCompletion(args []string) bool {
	return len(args) > 1 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// versionLine is what --version prints.
func versionLine() string { return "elemctl " + versionText() + "\n" }

// versionAsked tells whether --version comes among the global options
// before any command (after one, as in "self-update --version X", it is
// that command's own). It reads the options with the root's own
// definitions and abbreviations, so it agrees with the parser.
func (a *app) versionAsked(args []string) bool {
	root := a.newRoot()
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
		if !strings.HasPrefix(args[i], "--") || args[i] == "--" {
			return false
		}
		flag, err := findFlag(root, name)
		if err != nil || flag == nil {
			return false
		}
		if flag.Name == "version" {
			return !hasValue || value == "true"
		}
		if flag.NoOptDefVal == "" && !hasValue {
			i++ // its value
		}
	}
	return false
}

func (a *app) groupCommand(g command.Group) *cobra.Command {
	gc := &cobra.Command{
		Use:   g.Name,
		Short: i18n.T(g.Help),
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("%s", i18n.T("cli.group-needs-action", "group", g.Name, "actions", strings.Join(actionNames(cmd), ", ")))
			}
			return fmt.Errorf("%s", i18n.T("cli.unknown-action", "group", g.Name, "name", args[0], "actions", strings.Join(actionNames(cmd), ", ")))
		},
	}
	if g.Description != "" {
		gc.Long = i18n.T(g.Description)
	}
	return gc
}

func actionNames(group *cobra.Command) []string {
	var out []string
	for _, c := range group.Commands() {
		if c.IsAvailableCommand() {
			out = append(out, c.Name())
		}
	}
	return out
}

// actionFirstHint answers the common slip "elemctl <group> --flag ...".
func actionFirstHint(root *cobra.Command, args []string) string {
	if len(args) < 2 {
		return ""
	}
	group, flag := args[0], args[1]
	if !strings.HasPrefix(flag, "-") || flag == "-h" || flag == "--help" {
		return ""
	}
	for _, c := range root.Commands() {
		if c.Name() == group && c.HasSubCommands() {
			actions := actionNames(c)
			if len(actions) == 0 {
				return ""
			}
			return i18n.T("cli.action-first", "group", group, "first", actions[0], "actions", strings.Join(actions, ", "))
		}
	}
	return ""
}

// leafCommand renders one catalog command – core or plugin – as a cobra
// command: its options declared and its words bound by the catalog's one
// word binder.
func (a *app) leafCommand(c *command.Command) *cobra.Command {
	use := c.Path[len(c.Path)-1]
	var posHelp []string
	for _, arg := range c.Args {
		if arg.Positional && !arg.Fixed {
			use += " " + usageMetavar(arg)
			if help := i18n.T(arg.Help); help != "" {
				posHelp = append(posHelp, fmt.Sprintf("  %-14s %s", command.Metavar(arg), help))
			}
		}
	}
	short := i18n.T(c.Help)
	cc := &cobra.Command{Use: use, Short: short, Args: cobra.ArbitraryArgs}
	if len(posHelp) > 0 {
		cc.Long = short + "\n\n" + i18n.T("cli.help.positionals") + ":\n" + strings.Join(posHelp, "\n")
	}
	cc.Annotations = map[string]string{}
	if c.Source != "" {
		cc.Annotations[pluginAnnotation] = c.Source
	}
	if c.Local {
		cc.Annotations[localAnnotation] = "true"
	}
	binder := command.NewWordBinder(c, cc.Flags())
	for _, arg := range c.Args {
		if arg.Positional || arg.Type == command.Bool || len(arg.Choices) == 0 {
			continue
		}
		choices := arg.Choices
		_ = cc.RegisterFlagCompletionFunc(arg.Name, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return choices, cobra.ShellCompDirectiveNoFileComp
		})
	}
	if wantsAppCompletion(c) {
		cc.ValidArgsFunction = a.completeAppNames
		if cc.Flags().Lookup("app-id") != nil {
			_ = cc.RegisterFlagCompletionFunc("app-id", a.completeAppNames)
		}
	}
	cc.RunE = func(cmd *cobra.Command, args []string) error {
		in, err := binder.Bind(args)
		var usage *command.UsageError
		switch {
		case errors.As(err, &usage):
			return usage
		case err != nil:
			return &handlerError{err}
		}
		return a.execute(cmd.Context(), c, in)
	}
	return cc
}

// usageMetavar is a positional in a usage line, as argparse writes it:
// NAME, [NAME], NAME [NAME ...], [NAME ...]. One an option may stand for
// is optional on the line.
func usageMetavar(arg command.Argument) string {
	name := command.Metavar(arg)
	required := arg.Required && arg.CLIAlias == ""
	switch {
	case arg.Multiple && required:
		return name + " [" + name + " ...]"
	case arg.Multiple:
		return "[" + name + " ...]"
	case required:
		return name
	}
	return "[" + name + "]"
}

// execute runs a catalog command and prints its answer.
func (a *app) execute(ctx context.Context, c *command.Command, in command.Values) error {
	if c.Local {
		if given := a.givenConnectionFlags(); len(given) > 0 {
			return &handlerError{platform.ConfigErrorf("cli.local-refuses-connection", "command", c.Name(), "flags", strings.Join(given, ", "))}
		}
	}
	wd, _ := os.Getwd()
	run := &command.Call{
		Command: c, Surface: command.CLI, Naming: command.CLINames,
		Dir: wd, FaceEnvFile: a.envFile, Stands: a.stands(), Getenv: a.getenv, Version: versionText(),
		Log: a.progress, Pending: a.pending, Diagnostic: a.warn, Secrets: []string{a.clientSecret},
		Connection: command.Connection{BaseURL: a.baseURL, ClientID: a.clientID, Timeout: a.timeout, SecretGiven: a.clientSecret != ""},
	}
	if !a.quiet && isTerminal(a.stderr) {
		a.status = newStatusLine(a.stderr, &a.errMu)
		run.Status = a.status.set
	}
	result, err := run.Run(ctx, in)
	if err != nil {
		if note := run.SecretNote(err.Error() + " " + command.ErrorObject(err).Str("hint")); note != "" {
			a.progress(note)
		}
		return &handlerError{err}
	}
	answer := command.Render(result, command.CLIDialect)
	if out, mErr := jsonx.Marshal(answer.Value); mErr == nil {
		if note := run.SecretNote(string(out)); note != "" {
			a.progress(note)
		}
	}
	if err := a.printAnswer(answer.Value); err != nil {
		return &handlerError{err}
	}
	for _, line := range answer.Notes {
		a.progress(line)
	}
	if !a.jsonOut {
		for _, line := range answer.Verdict {
			a.progress(line)
		}
	}
	if code := answer.ExitCode(); code != 0 {
		return &exitError{code: code}
	}
	return nil
}

func (a *app) printAnswer(answer any) error {
	out, err := jsonx.Marshal(answer)
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(out)
	return err
}

func (a *app) givenConnectionFlags() []string {
	var out []string
	vals := map[string]bool{
		"base-url": a.baseURL != "", "client-id": a.clientID != "", "client-secret": a.clientSecret != "",
		"env-file": a.envFile != "", "timeout": a.timeout != 0,
	}
	for _, f := range connectionFlags {
		if vals[f] {
			out = append(out, "--"+f)
		}
	}
	return out
}

// progress prints one line of the progress channel (silenced by --quiet).
func (a *app) progress(line string) {
	if a.quiet {
		return
	}
	a.errMu.Lock()
	defer a.errMu.Unlock()
	if a.status != nil {
		a.status.clearLocked()
	}
	fmt.Fprintln(a.stderr, line)
}

// stands is the CLI's stand: the global connection options, the
// environment and the .env, read on first use.
func (a *app) stands() *clientcache.Cache {
	a.cacheOnce.Do(func() {
		wd, _ := os.Getwd()
		a.cache = clientcache.New(clientcache.Options{
			Dir: wd, Getenv: a.getenv, EnvFile: a.envFile, Overrides: a.overrides(),
			ClientOptions: platform.ClientOptions{UserAgent: "elemctl/" + versionText(), Warn: a.warn},
		})
	})
	return a.cache
}

// platformClient is the client of the CLI's stand.
func (a *app) platformClient() (*platform.Client, error) {
	_, cl, cfgErr, clientErr := a.stands().Resolve("", "")
	if cfgErr != nil {
		return nil, cfgErr
	}
	return cl, clientErr
}

// warn prints a warning of the transport itself (TLS verification off):
// --quiet does not hide it.
func (a *app) warn(line string) {
	a.errMu.Lock()
	defer a.errMu.Unlock()
	fmt.Fprintln(a.stderr, line)
}
