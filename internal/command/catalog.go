package command

// Core is the catalog of elemctl's own commands: the groups of the command
// line and one constructor per command, listed here and nowhere else.
// Each call builds a fresh catalog; faces add plugin commands to theirs.
func Core() *Catalog {
	c := &Catalog{}
	for _, g := range []Group{
		Group{Name: "apps", Help: "cli.help.apps"},
		Group{Name: "branches", Help: "cli.help.branches"},
		Group{Name: "builds", Help: "cli.help.builds"},
		Group{Name: "dumps", Help: "cli.help.dumps"},
		Group{Name: "projects", Help: "cli.help.projects"},
		Group{Name: "spaces", Help: "cli.help.spaces"},
		Group{Name: "tasks", Help: "cli.help.tasks", Description: "cli.help.tasks-description"},
		Group{Name: "tech", Help: "cli.help.tech"},
		Group{Name: "user-lists", Help: "cli.help.user-lists"},
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
	return c
}
