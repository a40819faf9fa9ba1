package platform

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/argvalue"
	"github.com/elemctl/elemctl/internal/i18n"
)

// DefaultTimeout is the per-request timeout when none is configured.
const DefaultTimeout = 60 * time.Second

// Overrides are the connection values given explicitly (CLI flags, or the
// startup flags of a server); they win over the environment and the file.
type Overrides struct {
	BaseURL, ClientID, ClientSecret string
	Timeout                         float64 // seconds; 0 = not given
}

// LoadOptions say where configuration comes from.
type LoadOptions struct {
	// EnvFile is an explicit .env path; it must exist. Relative paths are
	// resolved from Dir (the current directory), never from a project dir.
	EnvFile string
	// Dir is the current directory; "" means the process's.
	Dir       string
	Overrides Overrides
	// Getenv reads the process environment; nil means os.Getenv.
	Getenv func(string) string
}

// Config is the resolved configuration of one stand.
type Config struct {
	BaseURL, ClientID, ClientSecret string
	AppID, ProjectID, SpaceID       string
	CAFile                          string
	TLSVerify, TLSStrict            bool
	NoProxy                         bool
	Timeout                         time.Duration
	// EnvFile is the absolute path of the .env file that was read, or "".
	EnvFile string
	// ExplicitEnvFile is the --env-file value as the user gave it, or "".
	ExplicitEnvFile string
	// EnvDir is the directory whose ./.env was looked for when no file was
	// named ("" when one was).
	EnvDir string
	// Warnings are the lines of the .env that parse but were hardly meant
	// so, said when a client is made from the configuration.
	Warnings []string
}

// EnvFilePath resolves which .env file a configuration reads: the explicit
// one (absolute; an error if it is missing) or ./.env in dir when present
// ("" when absent).
func EnvFilePath(ctx context.Context, explicit, dir string) (string, error) {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if explicit != "" {
		abs := explicit
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, explicit)
		}
		st, err := os.Stat(abs)
		switch {
		case err == nil && st.IsDir():
			inside := filepath.Join(abs, ".env")
			if st, err := os.Stat(inside); err == nil && !st.IsDir() {
				return "", ConfigErrorf(ctx, "config.env-file-is-dir-with-env", "path", explicit, "absolute", abs, "inside", inside)
			}
			return "", ConfigErrorf(ctx, "config.env-file-is-dir", "path", explicit, "absolute", abs)
		case err != nil:
			return "", ConfigErrorf(ctx, "config.env-file-missing", "path", explicit, "absolute", abs, "cwd", dir)
		}
		return abs, nil
	}
	def := filepath.Join(dir, ".env")
	if st, err := os.Stat(def); err == nil && !st.IsDir() {
		return def, nil
	}
	return "", nil
}

// LoadConfig resolves configuration with the precedence users rely on:
// explicit overrides > process environment (non-empty values only) > the
// .env file. Missing connection values are not an error here: Require says
// so when a request is about to be made.
func LoadConfig(ctx context.Context, o LoadOptions) (*Config, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	path, err := EnvFilePath(ctx, o.EnvFile, o.Dir)
	if err != nil {
		return nil, err
	}
	file := &DotEnv{Values: map[string]string{}}
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, ConfigErrorf(ctx, "config.env-file-missing", "path", o.EnvFile, "absolute", path, "cwd", o.Dir)
			}
			return nil, ConfigErrorf(ctx, "config.env-file-unreadable", "path", path, "error", err)
		}
		if file, err = ParseDotEnv(data); err != nil {
			var enc *DotEnvEncodingError
			if errors.As(err, &enc) {
				return nil, ConfigErrorf(ctx, "config.env-file-encoding", "path", path, "encoding", enc.Encoding)
			}
			return nil, ConfigErrorf(ctx, "config.env-file-unreadable", "path", path, "error", err)
		}
	}
	lookup := func(name, override string) string {
		if override != "" {
			return override
		}
		if v := getenv(name); v != "" {
			return v
		}
		v, _ := file.Get(name)
		return v
	}
	envDir := ""
	if o.EnvFile == "" {
		if envDir = o.Dir; envDir == "" {
			envDir, _ = os.Getwd()
		}
	}
	c := &Config{
		BaseURL:         strings.TrimRight(strings.TrimSpace(lookup("ELEMENT_BASE_URL", o.Overrides.BaseURL)), "/"),
		ClientID:        lookup("ELEMENT_CLIENT_ID", o.Overrides.ClientID),
		ClientSecret:    lookup("ELEMENT_CLIENT_SECRET", o.Overrides.ClientSecret),
		AppID:           lookup("ELEMENT_APP_ID", ""),
		ProjectID:       lookup("ELEMENT_PROJECT_ID", ""),
		SpaceID:         lookup("ELEMENT_SPACE_ID", ""),
		CAFile:          lookup("ELEMENT_CA_FILE", ""),
		Timeout:         DefaultTimeout,
		EnvFile:         path,
		ExplicitEnvFile: o.EnvFile,
		EnvDir:          envDir,
		Warnings:        dotEnvWarnings(ctx, path, file.Notes),
	}
	if c.BaseURL != "" && !strings.HasPrefix(c.BaseURL, "http://") && !strings.HasPrefix(c.BaseURL, "https://") {
		return nil, ConfigErrorf(ctx, "config.invalid-base-url", "url", c.BaseURL)
	}
	if c.TLSVerify, err = strictBool(ctx, "ELEMENT_TLS_VERIFY", lookup("ELEMENT_TLS_VERIFY", ""), true); err != nil {
		return nil, err
	}
	if c.TLSStrict, err = strictBool(ctx, "ELEMENT_TLS_STRICT", lookup("ELEMENT_TLS_STRICT", ""), true); err != nil {
		return nil, err
	}
	c.NoProxy = PermissiveBool(lookup("ELEMCTL_NO_PROXY", ""))
	if o.Overrides.Timeout != 0 && !argvalue.Positive.Holds(o.Overrides.Timeout) {
		return nil, ConfigErrorf(ctx, "config.invalid-timeout", "value", o.Overrides.Timeout)
	}
	if o.Overrides.Timeout > 0 {
		c.Timeout = time.Duration(o.Overrides.Timeout * float64(time.Second))
	}
	return c, nil
}

// Require checks that the connection values are there and names the
// missing ones.
func (c *Config) Require(ctx context.Context) error {
	var missing []string
	if c.BaseURL == "" {
		missing = append(missing, "ELEMENT_BASE_URL")
	}
	if c.ClientID == "" {
		missing = append(missing, "ELEMENT_CLIENT_ID")
	}
	if c.ClientSecret == "" {
		missing = append(missing, "ELEMENT_CLIENT_SECRET")
	}
	if len(missing) > 0 {
		var where string
		switch {
		case c.EnvFile != "":
			where = i18n.T(ctx, "config.missing-read", "path", c.EnvFile)
		case c.EnvDir != "":
			where = i18n.T(ctx, "config.missing-no-env", "dir", c.EnvDir)
		default: // a configuration made without a .env in mind
			return ConfigErrorf(ctx, "config.missing", "names", strings.Join(missing, ", "))
		}
		return ConfigErrorf(ctx, "config.missing-where", "names", strings.Join(missing, ", "), "where", where)
	}
	return nil
}

// dotEnvWarnings says what is odd in the lines of the .env at path that
// set elemctl's own variables (ELEMENT_*, ELEMCTL_*); the file may serve
// other tools too, whose grammar is theirs. No value is shown: it may be a
// secret.
func dotEnvWarnings(ctx context.Context, path string, notes []DotEnvNote) []string {
	var out []string
	for _, n := range notes {
		if !strings.HasPrefix(n.Key, "ELEMENT_") && !strings.HasPrefix(n.Key, "ELEMCTL_") {
			continue
		}
		switch n.Kind {
		case InlineComment:
			out = append(out, i18n.T(ctx, "config.env-inline-comment", "path", path, "line", n.Line, "name", n.Key))
		case Duplicate:
			out = append(out, i18n.T(ctx, "config.env-duplicate", "path", path, "line", n.Line, "name", n.Key, "earlier", n.Earlier))
		}
	}
	return out
}

// strictBool accepts 1/true/yes/on and 0/false/no/off in any case; anything
// else is an error naming the variable, never a silent downgrade.
func strictBool(ctx context.Context, name, value string, def bool) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "":
		return def, nil
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, &Error{Kind: KindConfig, Message: i18n.T(ctx, "config.invalid-bool", "name", name, "value", value)}
}

// PermissiveBool is the rule of switches such as ELEMCTL_NO_PROXY and
// ELEMCTL_NO_PLUGINS: anything except empty, 0, false and no means on.
func PermissiveBool(value string) bool {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "", "0", "false", "no":
		return false
	}
	return true
}

// ParseSeconds reads a float number of seconds.
func ParseSeconds(ctx context.Context, s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 {
		return 0, ConfigErrorf(ctx, "config.invalid-timeout", "value", s)
	}
	return time.Duration(f * float64(time.Second)), nil
}
