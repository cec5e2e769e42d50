import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import RuleListParser

struct InspectCommand: Command {
    static let fileArgument = Positional(
        valueName: "FILE", noun: "file", help: "A binary rule list, or `-` for standard input.", count: .one)
    static let jsonFlag = Flag(
        "--json", help: "Print the description as one JSON object instead of `key: value` lines.")

    static let configuration = CommandConfiguration(
        name: "inspect", abstract: "Describe a binary rule list.",
        discussion: """
            Validates a binary rule list (signature, version, checksum, every offset) and describes it:
            format version, rules, action slots by type, the number of selectors of the global stylesheet.
            """,
        arguments: [fileArgument], options: [jsonFlag.declaration],
        exitStatuses: [(0, "valid"), (1, "damaged or not a binary rule list"), (2, "usage or I/O error")])

    var path: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        path = arguments[Self.fileArgument][0]
        json = arguments[Self.jsonFlag]
    }

    func run() throws -> Int32 {
        /// A failure: its message on standard error and, with --json, `{"file":…,"error":…}` (or
        /// `"ioError"` for I/O errors, as `check --json` says) on standard output.
        func failure(_ message: String, key: String = "error") {
            Console.err("\(path): \(message)")
            if json { Console.out(JSON.object([("file", .string(path)), (key, .string(message))]).text) }
        }
        let rules: MappedRuleList
        do {
            rules =
                try path == "-" || isStream(path)
                ? MappedRuleList(bytes: RuleListInput.read(path))
                : MappedRuleList(contentsOfFile: path, loading: .copied)
            try ContentRuleList(identifier: "inspect", rules: rules).compileAllPatterns()
        } catch let error as RuntimeError {
            if json { Console.out(JSON.object([("file", .string(path)), ("ioError", .string(error.message))]).text) }
            throw error
        } catch BinaryRuleListError.io(_, let operation, let message) {
            // An I/O error: exit 2, as the help says.
            failure("\(operation) failed: \(message)", key: "ioError")
            return 2
        } catch BinaryRuleListError.notARuleList {
            failure("not a binary rule list (wrong signature); compile a JSON rule list first")
            return 1
        } catch {
            failure("\(error)")
            return 1
        }
        var slotCounts: [(String, JSON)] = []
        for type in ActionType.allCases {
            let count = (0..<rules.actionSlotCount).filter { rules.actionType($0) == type }.count
            if count > 0 { slotCounts.append((type.rawValue, .int(count))) }
        }
        let records = (0..<rules.ruleCount).map { rules.rule($0) }
        let universal = records.filter { rules.pattern($0.pattern).kind == .everything }.count
        let conditional = records.filter { $0.condition != nil }.count
        let stylesheet = rules.globalStylesheet
        let report: JSON = .object([
            ("file", .string(path)), ("formatVersion", .int(Int(BinaryRuleList.version))),
            ("bytes", .int(rules.byteCount)), ("sourceRules", .int(rules.sourceRuleCount)),
            ("rules", .int(rules.ruleCount)), ("universalRules", .int(universal)),
            ("rulesWithConditions", .int(conditional)), ("actionSlots", .object(slotCounts)),
            ("globalStylesheetSelectors", .int(stylesheet.map(SelectorList.count) ?? 0)),
            ("patterns", .int(rules.patternCount)), ("domains", .int(rules.domainCount)),
            ("conditions", .int(rules.conditionCount)),
            ("alwaysCheckedRules", .int(rules.alwaysCheckedRules.count)),
        ])
        if json {
            Console.out(report.text)
        } else if case .object(let members) = report {
            for (key, value) in members { Console.out("\(key): \(value.text)") }
        }
        return 0
    }
}
