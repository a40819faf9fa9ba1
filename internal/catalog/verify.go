package catalog

import (
	"context"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/ops/deploy"
)

func verifyDeployCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"verify-deploy"}, Order: 11, Examples: []string{"elemctl verify-deploy crm-test --expected-version 1.0-12", "elemctl verify-deploy --since-minutes 60"}, Tool: "verify_deploy", LSP: "verifyDeploy",
		Help: "cli.help.verify-deploy", ToolHelp: "mcp.help.verify-deploy", ReadOnly: true, Idempotent: true, Lens: "lsp.lens-verify",
		Args: []command.Argument{
			AppArg(false),
			{Name: "version-id", Help: "cli.arg.verify-version-id", Type: command.String, Metavar: "ID"},
			{Name: "expected-version", Help: "cli.arg.verify-expected-version", Type: command.String, Metavar: "VERSION"},
			{Name: "since-minutes", Help: "cli.arg.verify-since-minutes", Type: command.Int, Default: deploy.DefaultSinceMinutes, Metavar: "N"},
		},
		ToolArgs: []command.Argument{
			ToolAppArg(),
			{Name: "expected_version", Help: "mcp.arg.verify-expected-version", Type: command.String, Default: ""},
			{Name: "expected_assembly_id", Key: "version-id", Help: "mcp.arg.verify-expected-assembly-id", Type: command.String, Default: ""},
			{Name: "since_minutes", Help: "mcp.arg.verify-since-minutes", Type: command.Int, Default: deploy.DefaultSinceMinutes},
		},
	}, runVerifyDeploy)
}

// verifyDeployInput are the arguments runVerifyDeploy reads.
type verifyDeployInput struct {
	AppID           string `arg:"app-id"`
	SinceMinutes    int    `arg:"since-minutes"`
	VersionID       string `arg:"version-id"`
	ExpectedVersion string `arg:"expected-version"`
}

// runVerifyDeploy checks, without deploying, that an application runs the
// build it should: failed tasks of the last minutes, the applied build,
// the address.
func runVerifyDeploy(ctx context.Context, cc *command.Context, in verifyDeployInput) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.AppID, true)
	if err != nil {
		return nil, err
	}
	minutes := max(0, in.SinceMinutes)
	ops := DeployOps(cc, cl)
	since := time.Now().UTC().Add(-time.Duration(minutes) * time.Minute)
	r, err := ops.Verify(ctx, deploy.VerifyRequest{AppID: id, ExpectedID: in.VersionID,
		ExpectedVersion: in.ExpectedVersion, Since: since})
	if err != nil {
		return nil, err
	}
	return verification{report: r.JSON(), verdict: deploy.Verdict(ctx, r)}, nil
}

// verification is a verify report with its verdict, which the CLI tells
// on stderr after the answer, as deploy does.
type verification struct {
	report  any
	verdict []string
}

func (v verification) Answer(d command.Dialect) command.Answer {
	if d == command.CLIDialect {
		return command.Answer{Value: v.report, Verdict: v.verdict}
	}
	return command.Answer{Value: v.report}
}
