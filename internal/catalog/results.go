package catalog

import (
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// Outcome is a result that is the same answer in every dialect and may
// have failed (the CLI then exits with 1).
type Outcome struct {
	Value  any
	Failed bool
}

func (o Outcome) Answer(command.Dialect) command.Answer {
	return command.Answer{Value: o.Value, Failed: o.Failed}
}

// listing is a list with its counters: the CLI prints the items and the
// counter lines on stderr, tools answer one object with the counters and
// the items under key.
type listing struct {
	items []any
	// counters are the tool answer's keys before the items, in order.
	counters *jsonx.Object
	key      string
	notes    []string
}

func (l listing) Answer(d command.Dialect) command.Answer {
	if d == command.CLIDialect {
		return command.Answer{Value: l.items, Notes: l.notes}
	}
	out := jsonx.New()
	for _, k := range l.counters.Keys() {
		out.Set(k, l.counters.Value(k))
	}
	out.Set(l.key, l.items)
	return command.Answer{Value: out}
}

// dialects is a result whose answer differs per dialect.
type dialects struct{ cli, tool any }

func (r dialects) Answer(d command.Dialect) command.Answer {
	if d == command.CLIDialect {
		return command.Answer{Value: r.cli}
	}
	return command.Answer{Value: r.tool}
}

// reported is a report with what an editor shows of it: its headline and
// the compile errors of the project it speaks of. Every dialect answers
// the report itself.
type reported struct {
	report      *jsonx.Object
	headline    string
	severity    command.Severity
	diagnostics *command.Diagnostics
}

func (r reported) Answer(command.Dialect) command.Answer {
	return command.Answer{Value: r.report, Headline: r.headline, Severity: r.severity, Diagnostics: r.diagnostics}
}
