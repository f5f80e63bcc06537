import GLSnapCommandLine

// The runner reads its options with GLSnapCommandLine's reader (glsnap's), positionals refused
// because every input of the runner is named; a usage mistake prints the usage text, exit code 2.
typealias ConformanceArguments = CommandLineArguments
typealias ConformanceUsageError = UsageError
