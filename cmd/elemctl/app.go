package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/options"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/platform/clientcache"
	"github.com/elemctl/elemctl/internal/plugin"
	"github.com/elemctl/elemctl/internal/spelling"
)

// Exit codes.
const (
	exitOK        = 0
	exitFailure   = 1
	exitUsage     = 2
	exitInterrupt = 130
)

// app is one run of the CLI.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	catalog        *command.Catalog
	// plugins is what loading the plugins added to the catalog.
	plugins *plugin.Loaded

	// The values of the global options (options.Global) by name, and
	// --version.
	text        map[string]*string
	number      map[string]*float64
	switches    map[string]*bool
	showVersion bool

	errMu       sync.Mutex // serialises stderr lines from concurrent progress
	pendingMu   sync.Mutex
	pendingText string
	pendingLang i18n.Lang // what an interrupt is answered in
	// interruptedAgain is closed by a second interrupt.
	interruptedAgain chan struct{}
	// signalsCaught is closed once the signals stopOnSignals catches are
	// subscribed to.
	signalsCaught chan struct{}
	cacheOnce     sync.Once
	cache         *clientcache.Cache
	status        *statusLine
	// unready holds, for each catalog command of the tree whose options
	// are not declared yet, what declares them (see ready).
	unready map[*cobra.Command]func()
}

// Commands keep the order orderTree gives them. cobra would sort them, and
// has its sorting as a process-wide switch only: this is the one place it
// can be turned off before any tree is built.
func init() { cobra.EnableCommandSorting = false }

func newApp(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, catalog: catalog.Core()}
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
	// The messages' language: --lang, ELEMCTL_LANG, the locale.
	ctx := a.speak(context.Background(), i18n.Detect(prescanLang(args), a.getenv))
	// Signals are caught from the start: the subscription runs while the
	// command tree is built, the command waits for it, and a signal caught
	// before the command begins stops it there.
	ctx, stop := a.stopOnSignals(ctx)
	defer stop()
	if a.versionAsked(ctx, args) {
		// Answered before the command tree is built: scripts call it often.
		io.WriteString(a.stdout, versionLine())
		return exitOK
	}
	if handled, code := a.jvmStandIn(ctx, args); handled {
		return code
	}
	root := a.buildRoot(ctx)
	if isCompletion(args) {
		// The shell asks about any command and its options.
		a.readyAll()
		// The last word is the one the shell completes: a prefix of
		// several options is what it asks the candidates of.
		if head, err := a.expandAbbreviations(ctx, root, args[:len(args)-1]); err == nil {
			args = append(head, args[len(args)-1])
		}
	} else {
		expanded, err := a.expandAbbreviations(ctx, root, args)
		if err != nil {
			fmt.Fprintln(a.stderr, i18n.T(ctx, "cli.usage-error", "error", err))
			return exitUsage
		}
		args = expanded
		// An abbreviated --lang counts once it is spelled out.
		ctx = a.speak(ctx, i18n.Detect(prescanLang(args), a.getenv))
		// The command cobra finds in the words is the one it runs: its
		// options are declared before cobra reads them.
		if target, _, err := root.Find(args); err == nil {
			a.ready(target)
		}
	}
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)

	<-a.signalsCaught
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
				he.err = platform.NewError(ctx, platform.KindGeneral, "cli.interrupted")
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
		fmt.Fprintf(a.stderr, "%s: %s\n", i18n.T(ctx, "cli.help.usage"), useLine(ctx, failed))
	}
	fmt.Fprintln(a.stderr, i18n.T(ctx, "cli.usage-error", "error", err))
	if hint := actionFirstHint(ctx, root, args); hint != "" {
		fmt.Fprintln(a.stderr, hint)
	}
	return exitUsage
}

// stopOnSignals is the context of a run: Ctrl-C, SIGTERM or SIGHUP (the
// terminal closed, the SSH session dropped) stops it, and the command
// cleans up what it made. A second signal tells what that cleanup still
// has to do and how to finish it later, and closes a.interruptedAgain (a
// server stops waiting for its calls); a third ends elemctl at once.
func (a *app) stopOnSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	a.interruptedAgain = make(chan struct{})
	signals := make(chan os.Signal, 3)
	// Subscribing takes a round trip to the runtime's signal thread per
	// signal, about a millisecond in all: the command tree is built
	// meanwhile, and the command starts once it is done (run waits for
	// signalsCaught). A signal before then ends elemctl as one during the
	// subscription itself always could, before anything was done.
	a.signalsCaught = make(chan struct{})
	go func() {
		signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		close(a.signalsCaught)
	}()
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
		// The signals stay caught up to the exit (no signal.Stop): one that
		// comes as elemctl ends must not kill it by the signal instead of
		// its exit code. The channel's buffer takes them and the runtime
		// drops what does not fit.
		close(done)
		cancel()
	}
}

// speak sets the language of the run's messages, interrupts' included.
func (a *app) speak(ctx context.Context, l i18n.Lang) context.Context {
	a.pendingMu.Lock()
	a.pendingLang = l
	a.pendingMu.Unlock()
	return i18n.WithLang(ctx, l)
}

// tellPending says what the interrupted command still cleans up, or that
// it is stopping.
func (a *app) tellPending(now bool) {
	a.pendingMu.Lock()
	text := a.pendingText
	ctx := i18n.WithLang(context.Background(), a.pendingLang)
	a.pendingMu.Unlock()
	if text == "" {
		text = i18n.T(ctx, "cli.stopping")
	}
	if !now {
		text += i18n.T(ctx, "cli.stop-again")
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
		if arg == options.Lang.Flag() && i+1 < len(args) {
			if _, ok := i18n.Parse(args[i+1]); ok {
				return args[i+1]
			}
		}
		if v, ok := strings.CutPrefix(arg, options.Lang.Flag()+"="); ok {
			if _, ok := i18n.Parse(v); ok {
				return v
			}
		}
	}
	return ""
}

// languages are the words --lang takes.
var languages = []string{"ru", "en"}

// buildRoot builds the whole command tree.
func (a *app) buildRoot(ctx context.Context) *cobra.Command {
	root := a.newRoot(ctx)
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if a.str(options.Lang) != "" {
			if !slices.Contains(languages, a.str(options.Lang)) {
				return fmt.Errorf("%s%s", i18n.T(ctx, "cli.bad-lang", "value", a.str(options.Lang)), spelling.DidYouMean(ctx, a.str(options.Lang), languages))
			}
		}
		a.reportPluginFailures(ctx, cmd)
		return nil
	}
	localizeHelp(ctx, root)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// "elemctl apps lis --brief": the group's action is what is
		// mistyped, not the option the group lacks.
		if words := c.Flags().Args(); c.HasSubCommands() && c != root && len(words) > 0 {
			return unknownAction(ctx, c, words[0])
		}
		return command.FlagErrorAmong(ctx, err, c.Flags())
	})
	a.loadPlugins(ctx)

	a.addTree(ctx, root)
	a.localizeScaffolding(ctx, root)
	completeFlagValues(root, options.Lang.Name, languages)
	return root
}

// addTree renders the catalog under root: its groups, its commands – the
// command line's own face commands with their flags – each among its
// siblings in the order they declare (then the ones that declare none, a
// plugin's, by name). A command path under no group or command gets a
// group of its own.
func (a *app) addTree(ctx context.Context, root *cobra.Command) {
	type node struct {
		cmd   *cobra.Command
		order int
	}
	nodes := map[string]*cobra.Command{"": root}
	children := map[string][]node{}
	place := func(path []string, order int, cc *cobra.Command) {
		nodes[strings.Join(path, " ")] = cc
		parent := strings.Join(path[:len(path)-1], " ")
		children[parent] = append(children[parent], node{cc, order})
	}
	for _, g := range a.catalog.Groups() {
		place([]string{g.Name}, g.Order, a.groupCommand(ctx, g))
	}
	for _, c := range a.catalog.Commands() {
		switch {
		case len(c.Path) == 0:
		case c.Face:
			place(c.Path, c.Order, a.faceCommand(ctx, c))
		default:
			place(c.Path, c.Order, a.leafCommand(ctx, c))
		}
	}
	parents := make([]string, 0, len(children))
	for p := range children {
		parents = append(parents, p)
	}
	sort.Strings(parents)
	for _, p := range parents {
		for p != "" && nodes[p] == nil {
			path := strings.Fields(p)
			place(path, 0, a.groupCommand(ctx, command.Group{Name: path[len(path)-1]}))
			p = strings.Join(path[:len(path)-1], " ")
		}
	}
	for p, list := range children {
		slices.SortStableFunc(list, func(x, y node) int {
			switch {
			case x.order == y.order:
				return 0
			case x.order == 0:
				return 1
			case y.order == 0:
				return -1
			}
			return x.order - y.order
		})
		for _, n := range list {
			nodes[p].AddCommand(n.cmd)
		}
	}
}

// newRoot is the root command with the global options and no subcommands.
func (a *app) newRoot(ctx context.Context) *cobra.Command {
	root := &cobra.Command{
		Use:           "elemctl",
		Short:         i18n.T(ctx, "cli.help.root"),
		SilenceUsage:  true,
		SilenceErrors: true,
		// elemctl alone prints help on stderr and fails.
		RunE: func(cmd *cobra.Command, args []string) error {
			// An unknown command is refused even with --version after it:
			// there --version would be that command's own option.
			if len(args) > 0 {
				if err := a.refuseUnknownWithFailures(ctx, args[0]); err != nil {
					return err
				}
				return unknownCommand(ctx, cmd, args[0])
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
	a.text, a.number, a.switches = map[string]*string{}, map[string]*float64{}, map[string]*bool{}
	for _, o := range options.Global {
		help := i18n.T(ctx, o.Help)
		switch o.Kind {
		case options.Switch:
			a.switches[o.Name] = pf.Bool(o.Name, false, help)
		case options.Number:
			a.number[o.Name] = new(float64)
			pf.Var(&secondsOption{ctx: ctx, dest: a.number[o.Name], name: o.Name}, o.Name, help)
		default:
			a.text[o.Name] = pf.String(o.Name, "", help)
		}
	}
	root.Flags().BoolVar(&a.showVersion, "version", false, i18n.T(ctx, "cli.flag.version"))
	return root
}

// secondsOption is a global option that takes a number of seconds above 0
// (--timeout). Its words are checked as a command's own options are
// (command.CheckWord), so "0", "-1", "nan" and "inf" get one refusal.
type secondsOption struct {
	ctx  context.Context
	dest *float64
	name string
}

func (o *secondsOption) Set(word string) error {
	v, err := command.CheckWord(o.ctx, command.Argument{Name: o.name, Type: command.Float, Bound: command.Positive}, "--"+o.name, word)
	if err != nil {
		return err
	}
	*o.dest = v.(float64)
	return nil
}

// String is the default help shows: none (the help text names it).
func (o *secondsOption) String() string {
	if *o.dest == 0 {
		return ""
	}
	return strconv.FormatFloat(*o.dest, 'g', -1, 64)
}

func (o *secondsOption) Type() string { return "float64" }

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
func (a *app) versionAsked(ctx context.Context, args []string) bool {
	// The option, whole or abbreviated, is a word that begins with --v:
	// without one there is nothing to read.
	if !slices.ContainsFunc(args, func(w string) bool { return strings.HasPrefix(w, "--v") }) {
		return false
	}
	var root *cobra.Command
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
		if !strings.HasPrefix(args[i], "--") || args[i] == "--" {
			return false
		}
		if root == nil {
			// Only a command line that starts with an option needs the
			// root's options to read: most start with a command.
			root = a.newRoot(ctx)
		}
		flag, err := findFlag(ctx, root, name)
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

func (a *app) groupCommand(ctx context.Context, g command.Group) *cobra.Command {
	gc := &cobra.Command{
		Use:   g.Name,
		Short: i18n.T(ctx, g.Help),
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("%s", i18n.T(ctx, "cli.group-needs-action", "group", g.Name, "actions", strings.Join(actionNames(cmd), ", ")))
			}
			return unknownAction(ctx, cmd, args[0])
		},
	}
	if g.Description != "" {
		gc.Long = i18n.T(ctx, g.Description)
	}
	return gc
}

// unknownCommand refuses a word no command of root's has, naming the
// nearest one.
func unknownCommand(ctx context.Context, root *cobra.Command, word string) error {
	return fmt.Errorf("%s%s", i18n.T(ctx, "cli.unknown-command", "name", word), spelling.DidYouMean(ctx, word, actionNames(root)))
}

// unknownAction refuses a word no action of the group has, listing them
// and naming the nearest one.
func unknownAction(ctx context.Context, group *cobra.Command, word string) error {
	actions := actionNames(group)
	return fmt.Errorf("%s%s", i18n.T(ctx, "cli.unknown-action", "group", group.Name(), "name", word, "actions", strings.Join(actions, ", ")),
		spelling.DidYouMean(ctx, word, actions))
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
func actionFirstHint(ctx context.Context, root *cobra.Command, args []string) string {
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
			return i18n.T(ctx, "cli.action-first", "group", group, "first", actions[0], "actions", strings.Join(actions, ", "))
		}
	}
	return ""
}

// leafCommand renders one catalog command – core or plugin – as a cobra
// command: its options declared and its words bound by the catalog's one
// word binder. The options, the positionals' help and the completions are
// declared when the command is reached (see ready): a start declares
// those of the one command it runs, not of the hundred it could.
func (a *app) leafCommand(ctx context.Context, c *command.Command) *cobra.Command {
	use := c.Path[len(c.Path)-1]
	for _, arg := range c.Args {
		if arg.Positional && !arg.Fixed {
			use += " " + usageMetavar(arg)
		}
	}
	cc := &cobra.Command{Use: use, Short: i18n.T(ctx, c.Help), Args: cobra.ArbitraryArgs}
	declare(cc, c)
	var binder *command.WordBinder
	a.whenReached(cc, func() {
		var posHelp []string
		for _, arg := range c.Args {
			if help := i18n.T(ctx, arg.Help); arg.Positional && !arg.Fixed && help != "" {
				posHelp = append(posHelp, fmt.Sprintf("  %-14s %s", command.Metavar(arg), help))
			}
		}
		if len(posHelp) > 0 {
			cc.Long = cc.Short + "\n\n" + i18n.T(ctx, "cli.help.positionals") + ":\n" + strings.Join(posHelp, "\n")
		}
		binder = command.NewWordBinder(ctx, c, cc.Flags())
		addHelpFlag(ctx, cc)
		a.declareCompletion(cc, c)
	})
	cc.RunE = func(cmd *cobra.Command, args []string) error {
		a.ready(cmd)
		in, err := binder.Bind(ctx, args)
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

// whenReached keeps what declares cc's options until cc is reached.
func (a *app) whenReached(cc *cobra.Command, declareOptions func()) {
	if a.unready == nil {
		a.unready = map[*cobra.Command]func(){}
	}
	a.unready[cc] = declareOptions
}

// ready declares cc's options if they are not yet: it is called on the
// command cobra finds in the words before it reads them, on each command
// the abbreviations are looked up in and on the command help is asked of.
func (a *app) ready(cc *cobra.Command) {
	if declareOptions, ok := a.unready[cc]; ok {
		delete(a.unready, cc)
		declareOptions()
	}
}

// readyAll declares the options of every command: for what looks at the
// whole tree (the shell's completion).
func (a *app) readyAll() {
	for cc := range a.unready {
		a.ready(cc)
	}
}

// declare gives a rendered command what its declaration says beyond its
// flags: examples and the annotations help and plugin reports read.
func declare(cc *cobra.Command, c *command.Command) {
	if c.Source != "" {
		annotate(cc, pluginAnnotation, c.Source)
	}
	if c.Local {
		annotate(cc, localAnnotation, "true")
	}
	if c.PlainStderr {
		annotate(cc, plainStderrAnnotation, "true")
	}
	if len(c.Examples) > 0 {
		cc.Example = "  " + strings.Join(c.Examples, "\n  ")
	}
}

// annotate sets one annotation of cc; most commands have none, and no map.
func annotate(cc *cobra.Command, key, value string) {
	if cc.Annotations == nil {
		cc.Annotations = map[string]string{}
	}
	cc.Annotations[key] = value
}

// plainStderrAnnotation marks the commands before which the CLI prints
// nothing of its own on stderr (command.Command.PlainStderr).
const plainStderrAnnotation = "elemctl-plain-stderr"

// faceCommand renders one of the command line's own face commands: the
// declaration gives it its name, help and examples, and the face its
// options and what it runs when the command is reached (see ready), as a
// catalog command's.
func (a *app) faceCommand(ctx context.Context, c *command.Command) *cobra.Command {
	var build func(context.Context, *cobra.Command)
	switch c.Name() {
	case "self-update":
		build = a.selfUpdateCommand
	case "mcp":
		build = a.mcpCommand
	case "mcp install":
		build = a.mcpInstallCommand
	case "lsp":
		build = a.lspCommand
	case "dap":
		build = a.dapCommand
	case "stand":
		build = a.standCommand
	default:
		panic("elemctl: no face command " + c.Name())
	}
	cc := &cobra.Command{Use: c.Path[len(c.Path)-1], Short: i18n.T(ctx, c.Help)}
	declare(cc, c)
	a.whenReached(cc, func() {
		build(ctx, cc)
		addHelpFlag(ctx, cc)
	})
	// Until then it runs what reaching it builds; help lists it as any
	// command that runs.
	cc.RunE = func(cmd *cobra.Command, args []string) error {
		a.ready(cmd)
		return cmd.RunE(cmd, args)
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
			return &handlerError{platform.ConfigErrorf(ctx, "cli.local-refuses-connection", "command", c.Name(), "flags", strings.Join(given, ", "))}
		}
	}
	wd, _ := os.Getwd()
	run := &command.Call{
		Command: c, Catalog: a.catalog, Surface: command.CLI, Naming: command.CLINames,
		Dir: wd, FaceEnvFile: a.str(options.EnvFile), Stands: a.stands(), Getenv: a.getenv, Version: versionText(),
		Log: a.progress, Pending: a.pending, Diagnostic: a.warn, Secrets: []string{a.str(options.ClientSecret)},
		Connection: command.Connection{BaseURL: a.str(options.BaseURL), ClientID: a.str(options.ClientID), Timeout: a.num(options.Timeout), SecretGiven: a.str(options.ClientSecret) != ""},
	}
	if !a.on(options.Quiet) && isTerminal(a.stderr) {
		a.status = newStatusLine(a.stderr, &a.errMu)
		run.Status = a.status.set
	}
	result, err := run.Run(ctx, in)
	if err != nil {
		if note := run.SecretNote(ctx, err.Error()+" "+command.ErrorObject(err).Str("hint")); note != "" {
			a.progress(note)
		}
		return &handlerError{err}
	}
	answer := command.Render(result, command.CLIDialect)
	// The answer is printed as it is written: a long list's text is
	// megabytes. Only one that may show a hint whose note comes first is
	// held whole, to be searched for it.
	var held *bytes.Buffer
	out := a.stdout
	if run.SecretNoteMayFollow() {
		held = &bytes.Buffer{}
		out = held
	}
	if err := jsonx.MarshalTo(out, answer.Value); err != nil {
		return &handlerError{err}
	}
	if held != nil {
		if note := run.SecretNote(ctx, held.String()); note != "" {
			a.progress(note)
		}
		if _, err := a.stdout.Write(held.Bytes()); err != nil {
			return &handlerError{err}
		}
	}
	for _, line := range answer.Notes {
		a.progress(line)
	}
	for _, line := range answer.Verdict {
		a.progress(line)
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
	for _, o := range options.Global {
		if o.Connection && (a.str(o) != "" || a.num(o) != 0 || a.on(o)) {
			out = append(out, o.Flag())
		}
	}
	return out
}

// str, num and on are the values of the global options of the run.
func (a *app) str(o options.Option) string {
	if p := a.text[o.Name]; p != nil {
		return *p
	}
	return ""
}

func (a *app) num(o options.Option) float64 {
	if p := a.number[o.Name]; p != nil {
		return *p
	}
	return 0
}

func (a *app) on(o options.Option) bool {
	if p := a.switches[o.Name]; p != nil {
		return *p
	}
	return false
}

// turnOn turns a global switch on for the rest of the run.
func (a *app) turnOn(o options.Option) {
	if p := a.switches[o.Name]; p != nil {
		*p = true
	}
}

// progress prints one line of the progress channel (silenced by --quiet).
func (a *app) progress(line string) {
	if a.on(options.Quiet) {
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
			Dir: wd, Getenv: a.getenv, EnvFile: a.str(options.EnvFile), Overrides: a.overrides(),
			ClientOptions: platform.ClientOptions{UserAgent: "elemctl/" + versionText(), Warn: a.warn},
		})
	})
	return a.cache
}

// platformClient is the client of the CLI's stand.
func (a *app) platformClient(ctx context.Context) (*platform.Client, error) {
	_, cl, cfgErr, clientErr := a.stands().Resolve(ctx, "", "")
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
