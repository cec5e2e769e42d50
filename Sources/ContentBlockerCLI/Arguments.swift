/// A subcommand's command line read against its ``CommandConfiguration``: `--flag`, `--option value`,
/// `--option=value`, `-o value`, positionals, `-` (a positional: standard input), and `--` (everything
/// after it is positional).
///
/// Reading is in two steps so that `--help` works on any command line: `init` reads the structure
/// (every option known, every value present, a single-value option given once) and keeps the first
/// mistake in ``structureError`` instead of stopping (reading on, so that a later `-h` is seen);
/// then, unless help was asked for, ``validate()`` throws that mistake or checks what the declarations
/// say of the values (allowed values, required options, how many positionals).
struct ParsedArguments {
    let configuration: CommandConfiguration
    /// The options given with a value, in command-line order: the option's name, the spelling used
    /// (`-o` or `--output`), the value.
    private var given: [(name: String, spelling: String, text: String)] = []
    /// The names of the flags given.
    private var flags: Set<String> = []
    private var positionals: [String] = []
    /// Positional values by ``Positional/valueName``, once ``validate()`` has assigned them.
    private var assigned: [String: [String]] = [:]

    /// Whether `-h` or `--help` was given: the caller prints the help instead of running the command.
    var helpRequested: Bool { flags.contains(helpFlag.declaration.name) }

    /// The first structural mistake: an unknown option (with the nearest known name as a hint), a
    /// missing value, a value given to a flag, or a single-value option given twice under any of its
    /// names (its first value would be dropped silently).
    private(set) var structureError: UsageError?

    init(_ arguments: [String], for configuration: CommandConfiguration) {
        self.configuration = configuration
        var byName: [String: OptionDeclaration] = [:]
        for option in configuration.allOptions {
            for name in option.names { byName[name] = option }
        }
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var spelling = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                spelling = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = byName[spelling] else {
                note(UsageError(Self.unknownOptionMessage(spelling, known: Array(byName.keys))))
                continue
            }
            guard option.takesValue else {
                if inlineValue != nil { note(UsageError("\(spelling) takes no value")) }
                flags.insert(option.name)
                continue
            }
            if !option.isRepeatable && given.contains(where: { $0.name == option.name }) {
                note(UsageError("\(spelling) given more than once"))
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    note(UsageError("\(spelling) needs a value"))
                    break
                }
                value = arguments[index]
                index += 1
            }
            given.append((option.name, spelling, value))
        }
    }

    /// Checks the command line against the declarations: each value one its option takes, the
    /// positionals (which it assigns to the declared arguments), every required option given.
    /// - Throws: ``UsageError``: `--engine must be one of: fast, reference`, `needs -o OUT`,
    ///   `takes exactly one rule list`, …
    /// Keeps the first structural mistake.
    private mutating func note(_ error: UsageError) {
        if structureError == nil { structureError = error }
    }

    mutating func validate() throws(UsageError) {
        if let structureError { throw structureError }
        for (name, spelling, text) in given {
            guard let option = configuration.options.first(where: { $0.name == name }), !option.accepts(text) else {
                continue
            }
            throw UsageError("\(spelling) must be \(option.valueDescription), not '\(text)'")
        }
        var remaining = positionals[...]
        let declared = configuration.arguments
        for argument in declared {
            switch argument.count {
            case .one:
                guard let first = remaining.popFirst() else {
                    throw UsageError(
                        declared.count == 1 ? "takes exactly one \(argument.noun)" : "needs \(argument.valueName)")
                }
                assigned[argument.valueName] = [first]
            case .oneOrMore:
                guard !remaining.isEmpty else { throw UsageError("needs at least one \(argument.noun)") }
                assigned[argument.valueName] = Array(remaining)
                remaining = []
            }
        }
        if let extra = remaining.first {
            if declared.count == 1 { throw UsageError("takes exactly one \(declared[0].noun)") }
            throw UsageError("unexpected argument '\(extra)'")
        }
        for option in configuration.options where option.isRequired && text(option) == nil {
            throw UsageError("needs \(Help.synopsis(option))")
        }
    }

    /// Whether the flag was given.
    subscript(flag: Flag) -> Bool {
        checkDeclared(flag.declaration)
        return flags.contains(flag.declaration.name)
    }

    /// The option's value (its last, for a repeatable option), or nil when it was not given.
    subscript<Value>(option: Option<Value>) -> Value? {
        text(option.declaration).flatMap(Value.init(argument:))
    }

    /// Every value of a repeatable option, in command-line order.
    func all<Value>(_ option: Option<Value>) -> [Value] {
        checkDeclared(option.declaration)
        return given.filter { $0.name == option.declaration.name }.compactMap { Value(argument: $0.text) }
    }

    /// The values of a positional argument (one for ``Positional/Count/one``).
    subscript(argument: Positional) -> [String] {
        precondition(
            configuration.arguments.contains { $0.valueName == argument.valueName },
            "\(argument.valueName) is not an argument of \(configuration.name)")
        return assigned[argument.valueName] ?? []
    }

    /// The option's value as given (its last), or nil.
    func text(_ option: OptionDeclaration) -> String? {
        checkDeclared(option)
        return given.last { $0.name == option.name }?.text
    }

    /// Reading an option the configuration does not list is a programming error: the parser would
    /// refuse it, and the help would not show it.
    private func checkDeclared(_ option: OptionDeclaration) {
        precondition(
            configuration.allOptions.contains { $0.name == option.name },
            "\(option.name) is not declared by \(configuration.name)")
    }

    /// `unknown option 'NAME'`, with the nearest of `known` as a hint when it is close enough to be a typo.
    static func unknownOptionMessage(_ name: String, known: [String]) -> String {
        var message = "unknown option '\(name)'"
        // `-o=FILE`: a short option's value is the next argument (`--output=FILE` is read).
        if !name.hasPrefix("--"), let equals = name.firstIndex(of: "="), known.contains(String(name[..<equals])) {
            let short = name[..<equals]
            return message
                + ". A short option's value follows a space: '\(short) \(name[name.index(after: equals)...])'"
        }
        // A long option is compared with long ones, a short with short ones (`--id` is not near `-h`).
        let sameForm = known.filter { $0.hasPrefix("--") == name.hasPrefix("--") }
        if let suggestion = nearest(name, in: sameForm) { message += ". Did you mean '\(suggestion)'?" }
        return message
    }

    /// The word of `candidates` nearest to `word` by edit distance, if at most 3 edits away (ties: the
    /// first in sorted order).
    static func nearest(_ word: String, in candidates: [String]) -> String? {
        let suggestion = candidates.sorted().min { editDistance($0, word) < editDistance($1, word) }
        guard let suggestion, editDistance(suggestion, word) <= 3 else { return nil }
        return suggestion
    }
}

/// A mistake in how the command was called: printed with the subcommand's name and a pointer to its
/// help, exit status 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A failure that is not a usage mistake (unreadable file, …): printed, exit status 2.
struct RuntimeError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
