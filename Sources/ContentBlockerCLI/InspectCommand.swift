import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel

enum InspectCommand {
    static let help = """
        USAGE: content-blocker inspect FILE [--json]

        Validates a binary rule list (signature, version, checksum, every offset) and describes it:
        format version, rules, action slots by type, the number of selectors of the global stylesheet.
        Use `-` to read it from standard input.

        OPTIONS:
          --json      Print the description as one JSON object instead of `key: value` lines.
          -h, --help  Show this help.

        EXIT STATUS: 0 valid, 1 damaged or not a binary rule list, 2 usage or I/O error.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: [], flags: ["--help", "-h", "--json"])
        if args.flag("--help") || args.flag("-h") {
            Console.out(help)
            return 0
        }
        guard args.positionals.count == 1 else { throw UsageError("inspect takes exactly one file") }
        let path = args.positionals[0]
        let json = args.flag("--json")
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
        if args.flag("--json") {
            Console.out(report.text)
        } else if case .object(let members) = report {
            for (key, value) in members { Console.out("\(key): \(value.text)") }
        }
        return 0
    }
}
