package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// addExamples gives every command of the tree its examples.
func addExamples(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
		if ex, ok := commandExamples[path]; ok && c.Example == "" {
			c.Example = ex
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// commandExamples are the examples a command's help shows, by command
// path: command lines, the same in every language.
var commandExamples = map[string]string{
	"token": `  elemctl token
  elemctl --env-file stand.env token`,
	"apps list": `  elemctl apps list --brief
  elemctl apps list --status Running --name crm`,
	"apps get": `  elemctl apps get crm-test
  elemctl apps get              # ELEMENT_APP_ID of the .env`,
	"apps find":             `  elemctl apps find crm-test --include-deleted`,
	"apps create":           `  elemctl apps create crm-test --project-id PROJECT_ID --latest-build --verify`,
	"apps ensure":           `  elemctl apps ensure crm-test --version-id BUILD_ID --apply`,
	"apps apply":            `  elemctl apps apply crm-test BUILD_ID`,
	"apps delete":           `  elemctl apps delete crm-old`,
	"apps start":            `  elemctl apps start crm-test`,
	"apps stop":             `  elemctl apps stop crm-test`,
	"apps debug":            `  elemctl apps debug crm-test`,
	"apps users":            `  elemctl apps users crm-test`,
	"apps token-access":     `  elemctl apps token-access crm-test --user admin --enable`,
	"apps export":           `  elemctl apps export crm-test --output builds/`,
	"apps export-extension": `  elemctl apps export-extension crm-test CrmExtras --output builds/`,
	"spaces list":           `  elemctl spaces list`,
	"projects list":         `  elemctl projects list --name crm`,
	"projects get":          `  elemctl projects get PROJECT_ID`,
	"projects delete":       `  elemctl projects delete PROJECT_ID`,
	"builds list": `  elemctl builds list --brief
  elemctl builds list --project-id PROJECT_ID --limit 0`,
	"builds get":    `  elemctl builds get 1.0-12`,
	"builds upload": `  elemctl builds upload "Acme CRM 1.0-12.xasm" --project-id PROJECT_ID`,
	"builds delete": `  elemctl builds delete 1.0-12 --project-id PROJECT_ID`,
	"build": `  elemctl build --project-dir src/Acme/CRM --output dist/
  elemctl build --kind library`,
	"inspect": `  elemctl inspect "dist/Acme CRM 1.0-12.xasm"`,
	"deploy": `  elemctl deploy --project-dir src/Acme/CRM
  elemctl deploy --app-id crm-test --project-id PROJECT_ID --require-clean`,
	"user-lists list":              `  elemctl user-lists list`,
	"user-lists get":               `  elemctl user-lists get --app crm-test`,
	"user-lists self-registration": `  elemctl user-lists self-registration --app crm-test --enable`,
	"user-lists password-login":    `  elemctl user-lists password-login --app crm-test --disable`,
	"user-lists calculation-rules": `  elemctl user-lists calculation-rules --app crm-test --rules-file rules.json`,
	"probe": `  elemctl probe --project-dir src/Acme/CRM
  elemctl probe --cleanup APP_ID`,
	"verify-deploy": `  elemctl verify-deploy crm-test --expected-version 1.0-12
  elemctl verify-deploy --since-minutes 60`,
	"branches list":         `  elemctl branches list --project-id PROJECT_ID`,
	"branches get":          `  elemctl branches get BRANCH_ID`,
	"branches create":       `  elemctl branches create feature-x --project-id PROJECT_ID --app-id crm-dev`,
	"branches update":       `  elemctl branches update BRANCH_ID --app-id crm-dev`,
	"branches delete":       `  elemctl branches delete BRANCH_ID`,
	"branches merge":        `  elemctl branches merge BRANCH_ID`,
	"dumps create":          `  elemctl dumps create crm-test --description "before the upgrade"`,
	"dumps get":             `  elemctl dumps get crm-test DUMP_ID`,
	"tasks list":            `  elemctl tasks list --app-id crm-test`,
	"tasks get-group":       `  elemctl tasks get-group TASK_ID`,
	"tech get":              `  elemctl tech get crm-test`,
	"tech set":              `  elemctl tech set crm-test 8.0.30.1`,
	"debug-adapter":         `  elemctl debug-adapter`,
	"debug-adapter extract": `  elemctl debug-adapter extract ~/Downloads/element-8.0.30.car`,
	"plugins":               `  elemctl plugins`,
	"mcp": `  elemctl mcp
  elemctl --env-file /home/me/shop/.env mcp
  elemctl mcp --http 127.0.0.1:7700 --env-dir /home/me/stands`,
	"mcp install": `  elemctl mcp install --client claude
  elemctl --env-file /home/me/shop/.env mcp install --client vscode --scope project --print`,
	"lsp": `  elemctl lsp`,
	"dap": `  elemctl dap --adapter ~/.local/share/elemctl/debug-adapter/8.0.30`,
	"self-update": `  elemctl self-update --check
  elemctl self-update --stop-holders
  elemctl self-update --version 1.0.0`,
	"stand": `  elemctl stand --seed demo --write-env demo.env
  elemctl stand --seed demo --state stand.json --speed 0.1
  elemctl stand --seed demo --write-env ci.env --faults flaky.yaml --log requests.jsonl
  elemctl stand --apps 500 --deleted-apps 4500 --builds 2000 --apply-time 30s --speed 0.1`,
}
