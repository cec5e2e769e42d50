/// A small argument reader: `--flag`, `--option value`, `--option=value`, `-o value`, positionals, `--`.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - valued: option names that take a value (e.g. `--url`, `-o`).
    ///   - flags: option names without a value (e.g. `--json`, `--help`).
    ///   - repeatable: the valued options that may be given more than once (each value kept).
    /// - Throws: ``UsageError`` for an unknown option, a missing value, or a valued option given twice
    ///   that is not repeatable (its first value would be dropped silently).
    init(
        _ arguments: [String], valued: Set<String>, flags knownFlags: Set<String>, repeatable: Set<String> = []
    ) throws(UsageError) {
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
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if knownFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                guard options[name] == nil || repeatable.contains(name) else {
                    throw UsageError("\(name) given more than once")
                }
                if let inlineValue {
                    options[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    options[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                let known = (valued.union(knownFlags)).sorted()
                let suggestion = known.min { editDistance($0, name) < editDistance($1, name) }
                var message = "unknown option '\(name)'"
                if let suggestion, editDistance(suggestion, name) <= 3 { message += ". Did you mean '\(suggestion)'?" }
                throw UsageError(message)
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
}

/// A mistake in how the command was called: printed with a hint to `--help`, exit status 2.
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
