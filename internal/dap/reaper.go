package dap

// ReaperArg, as the first argument of elemctl, runs RunReaper with the
// rest: the adapter's JVM and its arguments. Options.Reaper names the
// executable.
const ReaperArg = "__elemctl-adapter-reaper"

// IsReaperLaunch tells whether args (without the program name) start the
// reaper.
func IsReaperLaunch(args []string) bool {
	return len(args) >= 2 && args[0] == ReaperArg
}
