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
	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
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

	errMu sync.Mutex // serialises stderr lines from concurrent progress
	cfg   struct {
		once sync.Once
		cfg  *platform.Config
		err  error
	}
	client struct {
		once sync.Once
		cl   *platform.Client
		err  error
	}
	status *statusLine
	// usageErr is set when cobra refused the command line.
	ranHandler bool
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
	args, err := expandAbbreviations(root, args)
	if err != nil {
		fmt.Fprintln(a.stderr, i18n.T("cli.usage-error", "error", err))
		return exitUsage
	}
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
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
		a.printError(he.err)
		if ctx.Err() != nil && errors.Is(he.err, context.Canceled) {
			return exitInterrupt
		}
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
		a.reportPluginFailures(cmd)
		return nil
	}
	localizeHelp(root)
	root.SetFlagErrorFunc(localizeFlagError)
	for _, hook := range catalogHooks {
		hook(a)
	}

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

// leafCommand renders one catalog command as a cobra command.
func (a *app) leafCommand(c *command.Command) *cobra.Command {
	if c.Source != "" {
		// Plugin commands follow the manifest's command-line rules.
		return a.pluginLeaf(c)
	}
	use := c.Path[len(c.Path)-1]
	var positionals []command.Argument
	for _, arg := range c.Args {
		if arg.Positional {
			positionals = append(positionals, arg)
			use += " " + metavar(arg)
		}
	}
	cc := &cobra.Command{
		Use:   use,
		Short: i18n.T(c.Help),
		Args:  positionalValidator(positionals),
	}
	flags := cc.Flags()
	for _, arg := range c.Args {
		name := arg.Name
		if arg.Positional {
			if arg.CLIAlias == "" {
				continue
			}
			name = strings.TrimPrefix(arg.CLIAlias, "--")
		}
		help := i18n.T(arg.Help)
		switch arg.Type {
		case command.Bool:
			def, _ := arg.Default.(bool)
			flags.Bool(name, def, help)
		case command.Int:
			def, _ := arg.Default.(int)
			flags.Int(name, def, help)
		case command.Float:
			def, _ := arg.Default.(float64)
			flags.Float64(name, def, help)
		default:
			if arg.Multiple && !arg.Positional {
				flags.StringArray(name, nil, help)
			} else {
				def, _ := arg.Default.(string)
				flags.String(name, def, help)
			}
		}
		if arg.Hidden {
			_ = flags.MarkHidden(name)
		}
		if arg.Positional || arg.Type == command.Bool {
			continue
		}
		if len(arg.Choices) > 0 {
			choices := arg.Choices
			_ = cc.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return choices, cobra.ShellCompDirectiveNoFileComp
			})
		}
	}
	if wantsAppCompletion(c) {
		cc.ValidArgsFunction = a.completeAppNames
		if flags.Lookup("app-id") != nil {
			_ = cc.RegisterFlagCompletionFunc("app-id", a.completeAppNames)
		}
	}
	cc.RunE = func(cmd *cobra.Command, args []string) error {
		in, err := a.values(c, cmd, args)
		if err != nil {
			return err
		}
		return a.execute(cmd.Context(), c, in)
	}
	return cc
}

func metavar(arg command.Argument) string {
	mv := arg.Metavar
	if mv == "" {
		mv = strings.ToUpper(strings.ReplaceAll(arg.KeyName(), "-", "_"))
	}
	if arg.Multiple {
		mv += "..."
	}
	if !arg.Required {
		mv = "[" + mv + "]"
	}
	return mv
}

// positionalValidator checks the count of positionals; which of them are
// required is decided per argument (a CLI alias may stand in).
func positionalValidator(pos []command.Argument) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		max := len(pos)
		for _, p := range pos {
			if p.Multiple {
				return nil
			}
		}
		if len(args) > max {
			return fmt.Errorf("%s", i18n.T("cli.too-many-args", "args", strings.Join(args[max:], " ")))
		}
		return nil
	}
}

// values turns the parsed command line into the handler's inputs.
func (a *app) values(c *command.Command, cmd *cobra.Command, args []string) (command.Values, error) {
	in := command.NewValues()
	flags := cmd.Flags()
	pos := 0
	// Like argparse, an optional positional in front of a required one
	// ("[APP_ID] VERSION_ID") takes a value only when there are more
	// values than required positionals.
	spare := len(args) - requiredPositionals(c.Args)
	for _, arg := range c.Args {
		key := arg.KeyName()
		if arg.Positional {
			var given []string
			switch {
			case arg.Multiple:
				given = args[min(pos, len(args)):]
				pos = len(args)
			case pos < len(args) && (arg.Required || spare > 0):
				given = []string{args[pos]}
				pos++
				if !arg.Required {
					spare--
				}
			}
			alias := ""
			if arg.CLIAlias != "" {
				alias, _ = flags.GetString(strings.TrimPrefix(arg.CLIAlias, "--"))
			}
			switch {
			case len(given) > 0 && alias != "" && given[0] != alias:
				return in, &handlerError{platform.ConfigErrorf("cli.given-twice", "a", given[0], "b", alias, "flag", arg.CLIAlias)}
			case len(given) > 0:
				if arg.Multiple {
					in.Set(key, given)
				} else {
					in.Set(key, given[0])
				}
			case alias != "":
				in.Set(key, alias)
			case arg.Required:
				return in, fmt.Errorf("%s", i18n.T("cli.missing-positional", "name", metavar(arg)))
			default:
				if arg.Default != nil {
					in.Default(key, arg.Default)
				}
			}
			continue
		}
		f := flags.Lookup(arg.Name)
		if f == nil {
			continue
		}
		if !f.Changed {
			if arg.Required {
				return in, fmt.Errorf("%s", i18n.T("cli.missing-flag", "name", "--"+arg.Name))
			}
			if arg.Default != nil {
				in.Default(key, arg.Default)
			}
			continue
		}
		v, err := flagValue(flags, arg)
		if err != nil {
			return in, err
		}
		if len(arg.Choices) > 0 {
			for _, s := range asStrings(v) {
				if !contains(arg.Choices, s) {
					return in, fmt.Errorf("%s", i18n.T("cli.bad-choice", "name", "--"+arg.Name, "value", s, "choices", strings.Join(arg.Choices, ", ")))
				}
			}
		}
		in.Set(key, v)
	}
	return in, nil
}

func requiredPositionals(args []command.Argument) int {
	n := 0
	for _, a := range args {
		if a.Positional && a.Required && !a.Multiple {
			n++
		}
	}
	return n
}

func flagValue(flags *pflag.FlagSet, arg command.Argument) (any, error) {
	switch arg.Type {
	case command.Bool:
		return flags.GetBool(arg.Name)
	case command.Int:
		return flags.GetInt(arg.Name)
	case command.Float:
		return flags.GetFloat64(arg.Name)
	}
	if arg.Multiple {
		return flags.GetStringArray(arg.Name)
	}
	return flags.GetString(arg.Name)
}

func asStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []string:
		return x
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// execute runs a catalog command and prints its answer.
func (a *app) execute(ctx context.Context, c *command.Command, in command.Values) error {
	if c.Local {
		if given := a.givenConnectionFlags(); len(given) > 0 {
			return &handlerError{platform.ConfigErrorf("cli.local-refuses-connection", "command", c.Name(), "flags", strings.Join(given, ", "))}
		}
	}
	cc := a.context()
	answer, err := c.Run(ctx, cc, in)
	if err != nil {
		return &handlerError{err}
	}
	if err := a.printAnswer(answer); err != nil {
		return &handlerError{err}
	}
	for _, line := range cc.Summaries() {
		a.progress(line)
	}
	if code := cc.Exit(answer); code != 0 {
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

// context builds the command context of the CLI face.
func (a *app) context() *command.Context {
	wd, _ := os.Getwd()
	cc := &command.Context{
		Surface: command.CLI,
		Getenv:  a.getenv,
		Dir:     wd,
		EnvFile: a.envFile,
		Version: versionText(),
		LogFunc: a.progress,
	}
	if !a.quiet && isTerminal(a.stderr) {
		a.status = newStatusLine(a.stderr, &a.errMu)
		cc.StatusFunc = a.status.set
	}
	cc.ConfigFunc = a.config
	cc.ClientFunc = a.platformClient
	return cc
}

func (a *app) config() (*platform.Config, error) {
	a.cfg.once.Do(func() {
		wd, _ := os.Getwd()
		a.cfg.cfg, a.cfg.err = platform.LoadConfig(platform.LoadOptions{
			EnvFile: a.envFile,
			Dir:     wd,
			Getenv:  a.getenv,
			Overrides: platform.Overrides{
				BaseURL: a.baseURL, ClientID: a.clientID, ClientSecret: a.clientSecret, Timeout: a.timeout,
			},
		})
	})
	return a.cfg.cfg, a.cfg.err
}

func (a *app) platformClient() (*platform.Client, error) {
	a.client.once.Do(func() {
		cfg, err := a.config()
		if err != nil {
			a.client.err = err
			return
		}
		a.client.cl, a.client.err = platform.NewClient(cfg, platform.ClientOptions{
			UserAgent: "elemctl/" + versionText(),
			Warn:      a.warn,
		})
	})
	return a.client.cl, a.client.err
}

// warn prints a warning of the transport itself (TLS verification off):
// --quiet does not hide it.
func (a *app) warn(line string) {
	a.errMu.Lock()
	defer a.errMu.Unlock()
	fmt.Fprintln(a.stderr, line)
}
