// Package catalog declares elemctl's own commands – one constructor and
// one handler per command, over the operations of internal/ops – and
// gathers them in Core(). The framework they are values of is
// internal/command.
package catalog

import "github.com/elemctl/elemctl/internal/command"

// Core is the catalog of elemctl's own commands: the groups of the command
// line and one constructor per command, listed here and nowhere else.
// Each call builds a fresh catalog; faces add plugin commands to theirs.
func Core() *command.Catalog {
	c := &command.Catalog{}
	for _, g := range []command.Group{
		command.Group{Name: "apps", Order: 2, Help: "cli.help.apps"},
		command.Group{Name: "branches", Order: 12, Help: "cli.help.branches"},
		command.Group{Name: "builds", Order: 5, Help: "cli.help.builds"},
		command.Group{Name: "dumps", Order: 13, Help: "cli.help.dumps"},
		command.Group{Name: "projects", Order: 4, Help: "cli.help.projects"},
		command.Group{Name: "spaces", Order: 3, Help: "cli.help.spaces"},
		command.Group{Name: "tasks", Order: 14, Help: "cli.help.tasks", Description: "cli.help.tasks-description"},
		command.Group{Name: "tech", Order: 15, Help: "cli.help.tech"},
		command.Group{Name: "user-lists", Order: 9, Help: "cli.help.user-lists"},
	} {
		c.AddGroup(g)
	}
	c.Add(
		appsApplyCommand(),
		applyBuildTool(),
		tokenCommand(),
		appsListCommand(),
		appsGetCommand(),
		appsFindCommand(),
		appsDebugCommand(),
		appsExportCommand(),
		appsExportExtensionCommand(),
		appsStartCommand(),
		appsStopCommand(),
		appsDeleteCommand(),
		appsUsersCommand(),
		appsTokenAccessCommand(),
		branchesListCommand(),
		branchesGetCommand(),
		branchesCreateCommand(),
		branchesUpdateCommand(),
		branchesDeleteCommand(),
		branchesMergeCommand(),
		buildCommand(),
		buildAssemblyTool(),
		inspectCommand(),
		buildsListCommand(),
		buildsGetCommand(),
		buildsDeleteCommand(),
		appsCreateCommand(),
		appsEnsureCommand(),
		deployCommand(),
		dumpsCreateCommand(),
		dumpsGetCommand(),
		pluginsCommand(),
		debugAdapterTool(),
		debugAdapterExtractCommand(),
		probeCommand(),
		probeCleanupTool(),
		projectsListCommand(),
		projectsGetCommand(),
		projectsDeleteCommand(),
		spacesListCommand(),
		tasksListCommand(),
		tasksGetGroupCommand(),
		techGetCommand(),
		techSetCommand(),
		buildsUploadCommand(),
		userListsListCommand(),
		userListsGetCommand(),
		userListsSelfRegistrationCommand(),
		userListsPasswordLoginCommand(),
		userListsCalculationRulesCommand(),
		configureUserListTool(),
		verifyDeployCommand(),
	)
	c.Add(faceCommands()...)
	return c
}
