import ContentRuleFormat
import ContentRuleModel

enum InspectCommand {
    static let help = """
        USAGE: content-blocker inspect FILE [--json]

        Validates a binary rule list (signature, version, checksum, every offset) and describes it:
        format version, rules, action slots by type, the global stylesheet.

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
        let bytes = try RuleListInput.read(path)
        let list: CompiledRuleList
        do {
            list = try BinaryRuleList.decode(bytes)
        } catch {
            Console.err("\(path): \(error)")
            return 1
        }
        var slotCounts: [(String, JSON)] = []
        for type in ActionType.allCases {
            let count = list.actionSlots.filter { $0.type == type }.count
            if count > 0 { slotCounts.append((type.rawValue, .int(count))) }
        }
        let universal = list.rules.filter { $0.urlFilter.matchesEverything }.count
        let conditional = list.rules.filter { $0.condition != nil }.count
        let report: JSON = .object([
            ("file", .string(path)), ("formatVersion", .int(Int(BinaryRuleList.version))), ("bytes", .int(bytes.count)),
            ("sourceRules", .int(list.sourceRuleCount)), ("rules", .int(list.rules.count)),
            ("universalRules", .int(universal)), ("rulesWithConditions", .int(conditional)),
            ("actionSlots", .object(slotCounts)),
            ("globalStylesheetSelectors", .int(list.globalStylesheet.map { $0.split(separator: ",").count } ?? 0)),
        ])
        if args.flag("--json") {
            Console.out(report.text)
        } else if case .object(let members) = report {
            for (key, value) in members { Console.out("\(key): \(value.text)") }
        }
        return 0
    }
}
