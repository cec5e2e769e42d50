import ContentRuleFormat

#if canImport(Glibc)
    import Glibc
#endif

/// The tool's version (no releases yet: 0.x, the binary rule list format may still change).
let version = "0.1.0"

let usage = """
    USAGE: content-blocker <command> [options]

    Safari content-blocker rule lists (WKContentRuleList) on Linux, with WebKit's semantics.

    COMMANDS:
      check     Validate rule lists; report every error with its rule index and key.
      compile   Compile a JSON rule list into a binary rule list.
      match     Decide loads (one from flags, or JSON Lines) against rule lists.
      inspect   Describe a binary rule list.

    Run `content-blocker <command> --help` for a command's options; `content-blocker --version`
    prints the version and the binary rule list format version it reads and writes.
    """

let arguments = Array(CommandLine.arguments.dropFirst())
var status: Int32 = 0
do {
    guard let command = arguments.first else { throw UsageError("no command given") }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "check": status = try CheckCommand.run(rest)
    case "compile": status = try CompileCommand.run(rest)
    case "match": status = try MatchCommand.run(rest)
    case "inspect": status = try InspectCommand.run(rest)
    case "-h", "--help", "help":
        Console.out(usage)
    case "--version", "version":
        Console.out("content-blocker \(version) (binary rule list format \(BinaryRuleList.version))")
    default:
        throw UsageError("unknown command '\(command)'")
    }
} catch let error as UsageError {
    Console.err("content-blocker: \(error.message)")
    Console.err("Run `content-blocker --help` for usage.")
    status = 2
} catch let error as RuntimeError {
    Console.err("content-blocker: \(error.message)")
    status = 2
} catch {
    Console.err("content-blocker: \(error)")
    status = 2
}
if let error = Console.outputError {
    Console.err("content-blocker: standard output: write failed: \(String(cString: strerror(error)))")
    status = 2
}
exit(status)
