import ContentRuleFormat

#if canImport(Glibc)
    import Glibc
#endif

/// The tool's version (no releases yet: 0.x, the binary rule list format may still change).
let version = "0.1.0"

/// The subcommands, in the order `content-blocker --help` lists them.
///
/// To add one (`store`, `explain`, `lint`): write a type conforming to ``Command`` — a `static let
/// configuration` (name, abstract, discussion, positional arguments, options declared as ``Flag`` and
/// ``Option`` values, exit statuses), `init(_:)` reading its typed fields from the ``ParsedArguments``
/// with those same declarations, and `run()` — and list it here. Its parsing, `--help`,
/// `content-blocker help NAME`, its line in the SUBCOMMANDS listing and its usage errors then follow
/// from the declaration; add its help to Tests/CLITests/Golden (`UPDATE_GOLDEN=1`, then review the file).
let commands: [any Command.Type] = [
    CheckCommand.self, LintCommand.self, CompileCommand.self, MatchCommand.self, ExplainCommand.self,
    InspectCommand.self,
]

/// Subcommands that take a second word (`store compile`), listed in the tool's help by the group's name.
let commandGroups = [Store.group]

let toolAbstract = "Safari content-blocker rule lists (WKContentRuleList) on Linux, with WebKit's semantics."
let versionFlag = Flag(
    "--version", help: "Print the version and the binary rule list format version it reads and writes.")
/// The options before a subcommand.
let toolOptions = [versionFlag.declaration, helpFlag.declaration]

/// The tool's help, listing `help` after the declared subcommands.
@MainActor func toolHelp() -> String {
    Help.renderTool(
        abstract: toolAbstract, options: toolOptions,
        subcommands: commands.map { ($0.configuration.name, $0.configuration.abstract) }
            + commandGroups.map { ($0.name, $0.abstract) } + [
                ("help", "Show a subcommand's help (as SUBCOMMAND --help does).")
            ])
}

/// What the words of a command line name: a subcommand and the arguments after its name, or a group
/// (its help).
enum Resolved {
    case command(any Command.Type, arguments: [String])
    case group(CommandGroup)
}

/// The subcommand (or group) that `words` begin with.
/// - Throws: ``UsageError`` naming the nearest subcommand when the words name none.
@MainActor func resolve(_ words: [String]) throws(UsageError) -> Resolved {
    let name = words[0]
    if let found = commands.first(where: { $0.configuration.name == name }) {
        return .command(found, arguments: Array(words.dropFirst()))
    }
    if let group = commandGroups.first(where: { $0.name == name }) {
        guard words.count > 1, !["-h", "--help"].contains(words[1]) else { return .group(group) }
        if let found = group.commands.first(where: { $0.configuration.name == name + " " + words[1] }) {
            return .command(found, arguments: Array(words.dropFirst(2)))
        }
        subcommand = name
        var message = "unknown \(name) subcommand '\(words[1])'"
        let names = group.commands.map { String($0.configuration.name.dropFirst(name.count + 1)) }
        if let suggestion = ParsedArguments.nearest(words[1], in: names) {
            message += ". Did you mean '\(suggestion)'?"
        }
        throw UsageError(message)
    }
    var message = "unknown command '\(name)'"
    let names = commands.map { $0.configuration.name } + commandGroups.map(\.name) + ["help"]
    if let suggestion = ParsedArguments.nearest(name, in: names) { message += ". Did you mean '\(suggestion)'?" }
    throw UsageError(message)
}

/// Parses `arguments` against the subcommand's declaration and runs it, or prints its help (`-h` or
/// `--help` given as an option asks for the help, whatever else the command line holds).
func execute(_ type: any Command.Type, _ arguments: [String]) throws -> Int32 {
    var parsed = ParsedArguments(arguments, for: type.configuration)
    if parsed.helpRequested {
        Console.out(Help.render(type.configuration))
        return 0
    }
    try parsed.validate()
    return try type.init(parsed).run()
}

let arguments = Array(CommandLine.arguments.dropFirst())
var status: Int32 = 0
/// The subcommand being run: usage errors name it and point at its help.
var subcommand: String?
do {
    guard let first = arguments.first else { throw UsageError("no subcommand given") }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help":
        Console.out(toolHelp())
    case "help":
        if let name = rest.first, !["help", "-h", "--help"].contains(name) {
            switch try resolve(rest) {
            case .command(let type, let extra):
                guard extra.isEmpty else {
                    throw UsageError("help takes one subcommand, not '\(rest.joined(separator: " "))'")
                }
                Console.out(Help.render(type.configuration))
            case .group(let group):
                guard rest.count == 1 else {
                    throw UsageError("help takes one subcommand, not '\(rest.joined(separator: " "))'")
                }
                Console.out(Help.renderGroup(group))
            }
        } else {
            guard rest.count <= 1 else { throw UsageError("help takes one subcommand, not \(rest.count) words") }
            Console.out(toolHelp())
        }
    case "--version", "version":
        Console.out("content-blocker \(version) (binary rule list format \(BinaryRuleList.version))")
    case _ where first.hasPrefix("-"):
        throw UsageError(ParsedArguments.unknownOptionMessage(first, known: toolOptions.flatMap(\.names)))
    default:
        switch try resolve(arguments) {
        case .command(let type, let rest):
            subcommand = type.configuration.name
            status = try execute(type, rest)
        case .group(let group):
            Console.out(Help.renderGroup(group))
        }
    }
} catch let error as UsageError {
    let name = [Help.tool, subcommand].compactMap { $0 }.joined(separator: " ")
    Console.err("\(name): \(error.message)")
    Console.err("See '\(name) --help'.")
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
