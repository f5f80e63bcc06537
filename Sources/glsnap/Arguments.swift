import GLSnapCommandLine

// The command-line reader and its usage error are GLSnapCommandLine's, shared with glsnap-conformance.
typealias Arguments = CommandLineArguments
typealias UsageError = GLSnapCommandLine.UsageError
