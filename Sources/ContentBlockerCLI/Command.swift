/// The command layer, shaped as swift-argument-parser's (which cannot be fetched here): each subcommand
/// is a type with a static ``CommandConfiguration``, and both the parser (``ParsedArguments``) and the
/// help (``Help``) read that one declaration, so they cannot disagree.

/// A subcommand: its declaration, its typed fields, and what it does.
protocol Command: SendableMetatype {
    /// Name, overview, arguments, options, help sections and exit statuses.
    static var configuration: CommandConfiguration { get }

    /// Reads the command's fields from a command line the configuration has parsed and validated, and
    /// checks what the declarations cannot say (options that exclude each other, a value's syntax).
    /// - Throws: ``UsageError`` (printed with the subcommand's name, exit status 2).
    init(_ arguments: ParsedArguments) throws(UsageError)

    /// Does the work; returns the exit status.
    /// - Throws: ``UsageError`` or ``RuntimeError`` (exit status 2).
    func run() throws -> Int32
}

/// Subcommands named by two words, the group's and their own (`store compile`): the tool's help lists
/// the group, whose help lists them.
struct CommandGroup: Sendable {
    var name: String
    var abstract: String
    var discussion: String
    var commands: [any Command.Type]
}

/// What a subcommand is: everything its help says and its parser accepts.
struct CommandConfiguration: Sendable {
    /// The word after `content-blocker`.
    var name: String
    /// One line: the SUBCOMMANDS listing and the help's OVERVIEW.
    var abstract: String
    /// Paragraphs after the overview, separated by blank lines (reflowed when rendered).
    var discussion = ""
    /// The positional arguments, in order; only the last may take several values.
    var arguments: [Positional]
    /// The options; `-h`/`--help` is added to every command (``helpFlag``).
    var options: [OptionDeclaration]
    /// The forms of the command, one USAGE line each, when options exclude each other (`match --url`
    /// or `match --requests`). Options no form names appear in every line.
    var forms: [UsageForm] = []
    /// Sections after OPTIONS (match's REQUEST and RESULT).
    var sections: [HelpSection] = []
    /// Each exit status and what it means.
    var exitStatuses: [(status: Int32, meaning: String)]

    /// The options the parser accepts: the declared ones and `-h`/`--help`.
    var allOptions: [OptionDeclaration] { options + [helpFlag.declaration] }
}

/// One spelling-independent option: its names (aliases), value, help, and what values it takes.
struct OptionDeclaration: Sendable {
    /// Every spelling, short ones first (`-o`, `--output`); all name one option.
    var names: [String]
    /// The value's name in help (`OUT`); nil for a flag, which takes no value.
    var valueName: String?
    /// What the option does (one paragraph, wrapped when rendered).
    var help: String
    /// Whether it may be given more than once (each value kept); a single-value option given twice
    /// is a usage error, as its first value would be dropped silently.
    var isRepeatable = false
    /// Whether the command needs it.
    var isRequired = false
    /// The values it takes, listed in help and errors; empty when any value of the right form is.
    var allowedValues: [String] = []
    /// The value used when it is not given, as help shows it.
    var defaultValue: String?
    /// What a valid value is, for the error a bad one gives (`one of: fast, reference`).
    var valueDescription = ""
    /// Whether a value is valid.
    var accepts: @Sendable (String) -> Bool = { _ in true }

    /// The name that identifies the option: its last (long) spelling.
    var name: String { names[names.count - 1] }
    var takesValue: Bool { valueName != nil }
}

/// A flag: an option without a value, read as a `Bool`.
struct Flag: Sendable {
    let declaration: OptionDeclaration

    init(_ names: String..., help: String) {
        precondition(!names.isEmpty, "a flag needs a name")
        declaration = OptionDeclaration(names: names, valueName: nil, help: help)
    }
}

/// An option with a value of type `Value`, checked while parsing (argument-parser's `@Option`).
struct Option<Value: ArgumentValue>: Sendable {
    let declaration: OptionDeclaration

    init(
        _ names: String..., valueName: String, help: String, repeatable: Bool = false, required: Bool = false,
        defaultValue: String? = nil
    ) {
        precondition(!names.isEmpty, "an option needs a name")
        declaration = OptionDeclaration(
            names: names, valueName: valueName, help: help, isRepeatable: repeatable, isRequired: required,
            allowedValues: Value.allValueStrings, defaultValue: defaultValue, valueDescription: Value.valueDescription,
            accepts: { Value(argument: $0) != nil })
    }
}

/// The built-in `-h`/`--help` of every subcommand.
let helpFlag = Flag("-h", "--help", help: "Show this help.")

/// A positional argument.
struct Positional: Sendable {
    enum Count: Sendable {
        case one
        case oneOrMore
    }
    /// Its name in help (`LIST.json`).
    var valueName: String
    /// What it is, for errors (`rule list`: "takes exactly one rule list").
    var noun: String
    var help: String
    var count: Count
}

/// One form of a command (one USAGE line): the options only that form takes.
struct UsageForm: Sendable {
    var required: [OptionDeclaration] = []
    var optional: [OptionDeclaration] = []
}

/// A help section after OPTIONS: paragraphs, then `label  text` entries.
struct HelpSection: Sendable {
    var title: String
    /// Separated by blank lines (reflowed when rendered).
    var paragraphs = ""
    var entries: [(label: String, text: String)] = []
}

/// A type an option's value is read as (argument-parser's `ExpressibleByArgument`). Its metatype is
/// sendable: a declaration's check of a value calls `init?(argument:)`.
protocol ArgumentValue: SendableMetatype {
    init?(argument: String)
    /// Every valid value, for help and errors; empty when any text of the right form is valid.
    static var allValueStrings: [String] { get }
    /// What a valid value is, completing "--option must be …".
    static var valueDescription: String { get }
}

extension ArgumentValue {
    static var allValueStrings: [String] { [] }
    static var valueDescription: String { "one of: " + allValueStrings.joined(separator: ", ") }
}

extension ArgumentValue where Self: CaseIterable & RawRepresentable, RawValue == String {
    init?(argument: String) { self.init(rawValue: argument) }
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension String: ArgumentValue {
    init?(argument: String) { self = argument }
    static var valueDescription: String { "a string" }
}

/// A count of at least 1 (`--jobs`).
struct PositiveInteger: ArgumentValue {
    var value: Int

    init?(argument: String) {
        guard let value = Int(argument), value >= 1 else { return nil }
        self.value = value
    }

    static var valueDescription: String { "a positive integer" }
}
