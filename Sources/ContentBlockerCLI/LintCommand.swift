import ContentRuleModel
import RequestBatch
import RuleListLint

/// `content-blocker lint`: warnings about what WebKit accepts without a word.
struct LintCommand: Command {
    static let listsArgument = Positional(
        valueName: "LIST.json", noun: "rule list", help: "A JSON rule list, or `-` for standard input.",
        count: .oneOrMore)
    static let jsonFlag = Flag(
        "--json",
        help: """
            Print one JSON object per file on standard output instead of the warnings: {file, valid,
            diagnostics (as check --json), notChecked (an invalid list: the checks not made), warnings: [{code,
            message, rule, key, line, column, source}]}; a file that cannot be read has "ioError".
            """)
    static let disableOption = Option<LintCodeList>(
        "--disable", valueName: "CODE,…",
        help: "Do not report these kinds of warning (see WARNINGS).", repeatable: true)
    static let maxWarningsOption = Option<WarningLimit>(
        "--max-warnings", valueName: "N",
        help: """
            Exit 1 only when the files have more than N warnings in all, as ESLint's --max-warnings (-1: no
            limit; an invalid list always gives 1). Every warning is printed still.
            """,
        defaultValue: "0: any warning")
    static let allFlag = Flag(
        "--all",
        help:
            "List every warning: without it, a kind met more than \(groupLimit) times in a file shows its first \(groupLimit) and a count."
    )

    static let targetOption = Option<SafariTarget>(
        "--target", valueName: "safari-VERSION",
        help: """
            Also warn about what this Safari release does not know, or may not (code safari-version; see SAFARI
            VERSIONS): safari-13 to safari-26, with a minor version where it matters (safari-16.4).
            """)

    /// Warnings of one kind shown per file before the rest are counted.
    static let groupLimit = 5

    static let configuration = CommandConfiguration(
        name: "lint", abstract: "Warn about what WebKit accepts without a word but likely does not do what was meant.",
        discussion: """
            Reports, for each JSON rule list, what WebKit accepts silently but likely does not do what its author
            meant, or costs every load: one line per warning on standard error, `FILE:LINE:COLUMN: warning:
            rule N: KEY: message [code]`, then a summary line per file on standard output. A warning never
            changes WebKit's verdict: the list's errors are check's, and are printed as check prints them.
            """,
        arguments: [listsArgument],
        options: [
            jsonFlag.declaration, targetOption.declaration, disableOption.declaration, maxWarningsOption.declaration,
            allFlag.declaration,
        ],
        sections: [
            HelpSection(
                title: "WARNINGS", paragraphs: "Each code, and the fact it rests on:",
                entries: LintCode.allCases.map { ($0.rawValue, $0.summary + " (" + $0.source + ")") }),
            HelpSection(
                title: "SAFARI VERSIONS",
                paragraphs: """
                    What --target checks: the newest release known to lack each feature (the change landed in WebKit \
                    after it was published, or a source says so) and the first known to have it; between the two \
                    the warning says "may". Older WebKit ignores trigger keys it does not know (the rule matches \
                    more) and rejects a list with an action type or resource type it does not know.
                    """,
                entries: SafariFeature.all.map { feature in
                    let lacks = feature.absentThrough.map { "lacking through \($0)" } ?? "lacking: not established"
                    let has = feature.presentFrom.map { "known from \($0)" } ?? "no release known to support this"
                    return (feature.name, "\(lacks); \(has) (\(feature.source))")
                }),
        ],
        exitStatuses: [
            (0, "every list valid, and no more warnings in all than --max-warnings (default: no warning)"),
            (1, "a list is invalid, or the lists have more warnings than --max-warnings"), (2, "usage or I/O error"),
        ])

    var lists: [String]
    var json: Bool
    var disabled: Set<LintCode>
    /// More warnings than this in all the files give exit status 1; nil: no limit.
    var maxWarnings: Int?
    var all: Bool
    var target: SafariVersion?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        lists = arguments[Self.listsArgument]
        json = arguments[Self.jsonFlag]
        disabled = Set(arguments.all(Self.disableOption).flatMap(\.codes))
        maxWarnings = arguments[Self.maxWarningsOption].map { $0.value < 0 ? nil : $0.value } ?? 0
        all = arguments[Self.allFlag]
        target = arguments[Self.targetOption]?.version
        try RuleListInput.readStandardInputOnce(lists)
    }

    func run() throws -> Int32 {
        var valid = true
        var total = 0
        var unreadable = false
        for path in lists {
            let bytes: [UInt8]
            do {
                bytes = try RuleListInput.read(path)
            } catch {
                unreadable = true
                Console.err("content-blocker: \(error.message)")
                if json {
                    var writer = JSONWriter()
                    writer.openObject()
                    writer.key("file")
                    writer.string(path)
                    writer.key("valid")
                    writer.bool(false)
                    writer.key("ioError")
                    writer.string(error.message)
                    writer.closeObject()
                    Console.out(String(decoding: writer.bytes, as: UTF8.self))
                }
                continue
            }
            let report = RuleListLint.lint(json: bytes, target: target)
            let warnings = report.warnings.filter { !disabled.contains($0.code) }
            let errors = report.diagnostics.filter { $0.severity == .error }
            total += warnings.count
            valid = valid && errors.isEmpty
            if json {
                Console.out(Self.jsonReport(path: path, report: report, warnings: warnings))
                continue
            }
            RuleListInput.report(errors, file: path)
            printWarnings(warnings, file: path)
            Console.out(
                Self.summary(path: path, errors: errors.count, warnings: warnings, notChecked: report.notChecked))
        }
        let clean = valid && maxWarnings.map { total <= $0 } ?? true
        return unreadable ? 2 : clean ? 0 : 1
    }

    /// The warning lines: unless `--all`, the first ``groupLimit`` of each kind and a count of the rest.
    private func printWarnings(_ warnings: [LintWarning], file: String) {
        var shown: [LintCode: Int] = [:]
        var hidden: [LintCode: Int] = [:]
        for warning in warnings {
            if !all, shown[warning.code, default: 0] >= Self.groupLimit {
                hidden[warning.code, default: 0] += 1
                continue
            }
            shown[warning.code, default: 0] += 1
            let position = warning.line.map { ":\($0):\(warning.column ?? 1)" } ?? ""
            let rule = warning.ruleIndex.map { "rule \($0): " } ?? ""
            let key = warning.keyPath.map { "\($0): " } ?? ""
            Console.err("\(file)\(position): warning: \(rule)\(key)\(warning.message) [\(warning.code.rawValue)]")
        }
        for code in LintCode.allCases where hidden[code, default: 0] > 0 {
            Console.err("\(file): warning: \(hidden[code]!) more [\(code.rawValue)] (--all lists them)")
        }
    }

    /// `FILE: N warnings (code N, …)`, after the errors' count for an invalid list, which names the
    /// checks not made.
    static func summary(path: String, errors: Int, warnings: [LintWarning], notChecked: [String] = []) -> String {
        var counts: [LintCode: Int] = [:]
        for warning in warnings { counts[warning.code, default: 0] += 1 }
        let kinds = LintCode.allCases.compactMap { code in counts[code].map { "\(code.rawValue) \($0)" } }
        var text = "\(path): "
        if errors > 0 { text += "invalid (\(errors) error\(errors == 1 ? "" : "s")), " }
        text +=
            warnings.isEmpty
            ? "no warnings"
            : "\(warnings.count) warning\(warnings.count == 1 ? "" : "s") (\(kinds.joined(separator: ", ")))"
        if !notChecked.isEmpty { text += "; not checked on an invalid list: " + notChecked.joined(separator: ", ") }
        return text
    }

    static func jsonReport(path: String, report: RuleListLint.Report, warnings: [LintWarning]) -> String {
        var writer = JSONWriter()
        writer.openObject()
        writer.key("file")
        writer.string(path)
        writer.key("valid")
        writer.bool(!report.diagnostics.contains { $0.severity == .error })
        writer.key("diagnostics")
        writer.openArray()
        for diagnostic in report.diagnostics {
            writer.element()
            writer.diagnostic(diagnostic)
        }
        writer.closeArray()
        if !report.notChecked.isEmpty {
            writer.key("notChecked")
            writer.strings(report.notChecked)
        }
        writer.key("warnings")
        writer.openArray()
        for warning in warnings {
            writer.element()
            writer.openObject()
            writer.key("code")
            writer.string(warning.code.rawValue)
            writer.key("message")
            writer.string(warning.message)
            writer.key("rule")
            if let rule = warning.ruleIndex { writer.int(rule) } else { writer.null() }
            writer.key("key")
            if let key = warning.keyPath { writer.string(key) } else { writer.null() }
            writer.key("line")
            if let line = warning.line { writer.int(line) } else { writer.null() }
            writer.key("column")
            if let column = warning.column { writer.int(column) } else { writer.null() }
            writer.key("source")
            writer.string(warning.source ?? warning.code.source)
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// `--disable`'s value: lint codes, comma-separated.
struct LintCodeList: ArgumentValue {
    static let allValueStrings: [String] = []
    static var valueDescription: String {
        "comma-separated codes of: " + LintCode.allCases.map(\.rawValue).joined(separator: ", ")
    }
    var codes: [LintCode]

    init?(argument: String) {
        var codes: [LintCode] = []
        for name in argument.split(separator: ",") {
            guard let code = LintCode(rawValue: String(name)) else { return nil }
            codes.append(code)
        }
        guard !codes.isEmpty else { return nil }
        self.codes = codes
    }
}

/// `--target`'s value: a Safari release (``SafariVersion``).
struct SafariTarget: ArgumentValue {
    static var valueDescription: String {
        "safari-MAJOR or safari-MAJOR.MINOR, from safari-13 to safari-26 (Safari went from 18 to 26)"
    }
    var version: SafariVersion

    init?(argument: String) {
        guard let version = SafariVersion(argument: argument) else { return nil }
        self.version = version
    }
}

/// `--max-warnings`' value: a whole number, or -1 for no limit (as ESLint's).
struct WarningLimit: ArgumentValue {
    var value: Int

    init?(argument: String) {
        guard let value = Int(argument), value >= -1 else { return nil }
        self.value = value
    }

    static var valueDescription: String { "a whole number, or -1 for no limit" }
}
