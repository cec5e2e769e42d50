import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import RequestBatch
import RuleListParser

/// `content-blocker explain`: which rules matched a load, which fired, and what stopped the others.
struct ExplainCommand: Command {
    static let listsArgument = Positional(
        valueName: "LIST.json", noun: "rule list",
        help: """
            A JSON rule list (explain names rules by their place in the JSON, which a binary rule list does not
            keep: explain the JSON it was compiled from; a list in a store keeps it: `store explain ID`).
            """, count: .oneOrMore)
    static let allFlag = Flag(
        "--all",
        help: "List the rules whose url-filter matches every URL that did not fire too (counted by default).")
    static let jsonFlag = Flag(
        "--json",
        help: """
            One JSON object per request: {request, checks: [{resourceType, url, lists: [{list, rules: [{rule,
            identifier?, line, column, text, action, fired, stoppedBy?, conditionNotApplied?, cancelledBy?,
            afterIgnorePreviousRules?}], everyURL: {matched,
            fired, firedRules}}]}], result (as match --requests writes it: brief)}.
            """)

    static let configuration = CommandConfiguration(
        name: "explain", abstract: "Show which rules matched a load, which fired, and why the others did not.",
        discussion: """
            For each request (from the flags, or each line of --requests), and for each check WebKit makes of
            it (see match), lists every rule whose url-filter matched the URL, in list order: its index, its
            line:column in the JSON and its text, then fired, or the one field that stopped it (resource-type,
            load-type, load-context, request-method, or the condition and the URL it was tested against).
            A fired rule that a fired ignore-previous-rules or ignore-following-rules cancels says which, and
            one after a fired ignore-previous-rules says it is not cancelled. Rules whose url-filter
            matches every URL are listed when they fired, counted otherwise (--all lists them). Then the load's result, as match gives it. A rule
            with `_identifier` is named by it.
            """,
        arguments: [listsArgument],
        options: [
            MatchCommand.urlOption.declaration, MatchCommand.topURLOption.declaration,
            MatchCommand.frameURLOption.declaration, MatchCommand.typeOption.declaration,
            MatchCommand.contextOption.declaration, MatchCommand.methodOption.declaration,
            MatchCommand.loadTypeOption.declaration, MatchCommand.requestsOption.declaration, allFlag.declaration,
            jsonFlag.declaration,
        ],
        exitStatuses: [(0, "explained"), (1, "a list is invalid, or a request line is bad"), (2, "usage or I/O error")])

    /// One list: the compiled list, its source map and its rules' `_identifier`s.
    struct Source {
        var list: ContentRuleList
        var path: String
        var map: RuleListSourceMap
        var identifiers: [Int: String]
        var actionTypes: [Int: String]
        /// The kind of condition of each rule that has one and a `request-method` (an `if-` condition
        /// then never holds, an `unless-` one never excludes: spec §4.6).
        var conditionWithMethod: [Int: TriggerCondition.Kind]
        /// Each listed rule's shortened text, made once (a rule with thousands of condition values is
        /// listed for many loads).
        let texts = RuleTexts()
    }

    /// A rule's shortened JSON text by index, made on first use.
    final class RuleTexts {
        private var texts: [Int: String] = [:]

        func text(_ rule: Int, map: RuleListSourceMap) -> String {
            if let text = texts[rule] { return text }
            let text = RuleListParser.shortened(map.ruleText(rule: rule) ?? "")
            texts[rule] = text
            return text
        }
    }

    var paths: [String]
    var request: RequestFields?
    var requestsPath: String?
    var all: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try self.init(arguments, lists: arguments[Self.listsArgument], readsFiles: true)
    }

    /// `lists` are files to read (`readsFiles`) or the identifiers of stored lists.
    init(_ arguments: ParsedArguments, lists: [String], readsFiles: Bool = false) throws(UsageError) {
        paths = lists
        all = arguments[Self.allFlag]
        json = arguments[Self.jsonFlag]
        requestsPath = arguments[MatchCommand.requestsOption]
        try RuleListInput.readStandardInputOnce((readsFiles ? paths : []) + [requestsPath].compactMap { $0 })
        let options = MatchCommand.requestFields.compactMap { field in field.option.map { (field.key, $0) } }
        if requestsPath != nil {
            if let given = options.first(where: { arguments.text($0.1) != nil }) {
                throw UsageError("\(given.1.name) describes a single request: use either it or --requests")
            }
            return
        }
        guard arguments[MatchCommand.urlOption] != nil else { throw UsageError("needs --url or --requests") }
        var fields = RequestFields()
        for (key, option) in options {
            if let value = arguments.text(option) { fields.set(key, to: value) }
        }
        do {
            _ = try BatchMatching.load(from: fields)
        } catch {
            throw UsageError("invalid request: \(error.message)")
        }
        request = fields
    }

    func run() throws -> Int32 {
        var lists: [(name: String, identifier: String, json: [UInt8])] = []
        for (path, identifier) in zip(paths, RuleListInput.identifiers(for: paths)) {
            let bytes = try RuleListInput.read(path)
            if (try? MappedRuleList(bytes: bytes)) != nil {
                throw RuntimeError(
                    "\(path): a binary rule list: explain needs the JSON it was compiled from (to name rules by their place in it); a list in a store keeps it: `store explain ID`"
                )
            }
            lists.append((path, identifier, bytes))
        }
        return try run(with: lists)
    }

    /// Explains the requests against `lists`: each list's JSON, the name its messages give it (its
    /// path, or its identifier in a store) and its identifier in results.
    func run(with lists: [(name: String, identifier: String, json: [UInt8])]) throws -> Int32 {
        var sources: [Source] = []
        for (path, identifier, bytes) in lists {
            // The text is read once: its JSON value gives the rules to compile and their identifiers.
            guard case .success(let document) = JSONReader.parse(bytes), case .array(let elements) = document else {
                RuleListInput.report(RuleListCompiler.compile(json: bytes).errors, file: path)
                return 1
            }
            let map = RuleListSourceMap(json: bytes)
            let parsed = RuleListParser.parse(value: document)
            let (compiled, patternErrors) = RuleListCompiler.compile(parsed.rules, sourceRuleCount: parsed.ruleCount)
            let errors = (parsed.diagnostics + patternErrors).filter { $0.severity == .error }
            guard errors.isEmpty, let compiled else {
                RuleListInput.report(RuleListParser.locatedInFileOrder(errors, map: map), file: path)
                return 1
            }
            let list = try ContentRuleList(identifier: identifier, compiled: compiled)
            var identifiers: [Int: String] = [:]
            var actionTypes: [Int: String] = [:]
            for (index, element) in elements.enumerated() {
                if let name = element.objectValue?.string("_identifier") { identifiers[index] = name }
                actionTypes[index] = element.objectValue?.object("action")?.string("type")
            }
            var conditionWithMethod: [Int: TriggerCondition.Kind] = [:]
            for parsed in parsed.rules where parsed.rule.trigger.requestMethod != nil {
                conditionWithMethod[parsed.index] = parsed.rule.trigger.condition?.kind
            }
            sources.append(
                Source(
                    list: list, path: path, map: map, identifiers: identifiers, actionTypes: actionTypes,
                    conditionWithMethod: conditionWithMethod))
        }
        let blocker = ContentBlocker(lists: sources.map(\.list))
        if let request {
            explain(request, sources: sources, blocker: blocker, number: nil)
            return 0
        }
        var reader = try RequestLines(path: requestsPath ?? "-")
        defer { reader.close() }
        var failed = false
        while let batch = try reader.next() {
            for (number, range) in batch.lines {
                let line = batch.bytes[range]
                let fields: RequestFields
                if let flat = RequestFields.parseFlat(line) {
                    fields = flat
                } else {
                    switch BatchMatching.parseSlowly(line) {
                    case .success(let parsed): fields = parsed
                    case .failure(let error):
                        reportBadLine("line \(number): \(error.message)")
                        failed = true
                        continue
                    }
                }
                if !explain(fields, sources: sources, blocker: blocker, number: number) { failed = true }
            }
        }
        return failed ? 1 : 0
    }

    /// A request line that is no request: on standard error, and with `--json` as an `{"error": …}` line
    /// on standard output too, as `match --requests` writes it (output line N is input line N's).
    /// The request's `id`, when it could be read, comes first, as in `match`'s error lines.
    func reportBadLine(_ message: String, fields: RequestFields? = nil) {
        Console.err(message)
        guard json else { return }
        var writer = JSONWriter()
        writer.openObject()
        if let fields { BatchMatching.writeID(of: fields, into: &writer) }
        writer.key("error")
        writer.string(message)
        writer.closeObject()
        Console.out(String(decoding: writer.bytes, as: UTF8.self))
    }

    /// Explains one request; false when it is not a valid request.
    @discardableResult
    func explain(_ fields: RequestFields, sources: [Source], blocker: ContentBlocker, number: Int?) -> Bool {
        let prefix = number.map { "line \($0): " } ?? ""
        let load: PageLoad
        let headers: [(String, String)]
        do {
            (load, headers) = try BatchMatching.load(from: fields)
        } catch {
            reportBadLine(prefix + error.message, fields: fields)
            return false
        }
        for warning in BatchMatching.warnings(for: fields) {
            Console.err("content-blocker explain: \(prefix)warning: \(warning)")
        }
        let results = blocker.results(for: load, requestHeaders: headers)
        var writer = JSONWriter()
        if json {
            writer.openObject()
            BatchMatching.writeID(of: fields, into: &writer)
            writer.key("request")
            writer.string(load.url.serialization)
            writer.key("checks")
            writer.openArray()
        } else {
            Console.out(
                "\(prefix)\(load.url.serialization) (\(load.resourceType.requestName ?? "?"), top URL \(load.mainDocumentURL?.serialization ?? "none"))"
            )
        }
        for check in results.checks {
            explainCheck(check, requestURL: load.url.serialization, sources: sources, into: &writer)
        }
        // Brief, as match --requests writes results: a list's global stylesheet on every line would
        // make each hundreds of KB.
        var style = BatchMatching.ResultStyle()
        style.brief = true
        if json {
            writer.closeArray()
            writer.key("result")
            writer.openObject()
            BatchMatching.writeResult(results, style: style, into: &writer)
            writer.closeObject()
            writer.closeObject()
            Console.out(String(decoding: writer.bytes, as: UTF8.self))
        } else {
            var result = JSONWriter()
            result.openObject()
            BatchMatching.writeResult(results, style: style, into: &result)
            result.closeObject()
            Console.out("  result: \(String(decoding: result.bytes, as: UTF8.self))")
        }
        return true
    }

    /// One check of a load: the URL it tests is named when it is not the request's (a fragment removed,
    /// an upgrade to https by the first check).
    private func explainCheck(
        _ check: PageLoadResults.Check, requestURL: String, sources: [Source], into writer: inout JSONWriter
    ) {
        let load = check.load
        if json {
            writer.element()
            writer.openObject()
            writer.key("resourceType")
            writer.string(load.resourceType.requestName ?? "")
            writer.key("url")
            writer.string(load.url.serialization)
            writer.key("lists")
            writer.openArray()
        } else {
            let url = load.url.serialization == requestURL ? "" : " of \(load.url.serialization)"
            Console.out(
                "  check as \(load.resourceType.requestName ?? "?")\(url) (\(load.loadType.rawValue), \(load.loadContext.rawValue))"
            )
        }
        for source in sources {
            let traces = source.list.explain(load)
            let ignores = Self.ignoreEffects(firedRules: traces.filter(\.fired).map(\.rule), source: source)
            // Rules matching every URL are many (a list's exceptions by domain): those that fired are
            // listed, the others counted unless --all.
            let listed = traces.filter { all || !$0.matchesEveryURL || $0.fired }
            let everyURL = traces.filter(\.matchesEveryURL)
            if json {
                writer.element()
                writer.openObject()
                writer.key("list")
                writer.string(source.list.identifier)
                writer.key("rules")
                writer.openArray()
            } else {
                Console.out("  list \(source.list.identifier):")
            }
            for trace in listed {
                let position = source.map.byteOffset(rule: trace.rule, keyPath: nil).map {
                    source.map.position(ofByte: $0)
                }
                let text = source.texts.text(trace.rule, map: source.map)
                let stop = trace.stoppedBy.map {
                    Self.describe($0, load: load, hasRequestMethod: source.conditionWithMethod[trace.rule] != nil)
                }
                let action = source.actionTypes[trace.rule] ?? "?"
                if json {
                    writer.element()
                    writer.openObject()
                    writer.key("rule")
                    writer.int(trace.rule)
                    if let name = source.identifiers[trace.rule] {
                        writer.key("identifier")
                        writer.string(name)
                    }
                    writer.key("line")
                    if let position { writer.int(position.line) } else { writer.null() }
                    writer.key("column")
                    if let position { writer.int(position.column) } else { writer.null() }
                    writer.key("text")
                    writer.string(text)
                    writer.key("action")
                    writer.string(action)
                    writer.key("fired")
                    writer.bool(trace.fired)
                    if let stop {
                        writer.key("stoppedBy")
                        writer.string(stop)
                    }
                    if trace.fired, let kind = source.conditionWithMethod[trace.rule], kind.isInverted {
                        writer.key("conditionNotApplied")
                        writer.string(kind.rawValue)
                    }
                    if let by = ignores.cancelledBy[trace.rule] {
                        writer.key("cancelledBy")
                        writer.int(by.rule)
                    }
                    if let ignore = ignores.firedAfter[trace.rule] {
                        writer.key("afterIgnorePreviousRules")
                        writer.int(ignore)
                    }
                    writer.closeObject()
                } else {
                    let name = source.identifiers[trace.rule].map { " \"\($0)\"" } ?? ""
                    let at = position.map { " at \(source.path):\($0.line):\($0.column)" } ?? ""
                    var outcome = trace.fired ? "fired (\(action))" : "stopped by \(stop ?? "?")"
                    if trace.fired, let kind = source.conditionWithMethod[trace.rule], kind.isInverted {
                        outcome +=
                            ", its \(kind.rawValue) not applied (with a request-method, WebKit tests it against no method: spec §4.6)"
                    }
                    if let by = ignores.cancelledBy[trace.rule] {
                        outcome += ", cancelled by rule \(by.rule)'s \(by.type)"
                    } else if let ignore = ignores.firedAfter[trace.rule] {
                        outcome +=
                            ", not cancelled by rule \(ignore)'s ignore-previous-rules (it cancels only the rules before it)"
                    }
                    Console.out("    rule \(trace.rule)\(name)\(at): \(outcome)\n      \(text)")
                }
            }
            if json {
                writer.closeArray()
                writer.key("everyURL")
                writer.openObject()
                writer.key("matched")
                writer.int(everyURL.count)
                writer.key("fired")
                writer.int(everyURL.count(where: \.fired))
                writer.key("firedRules")
                writer.openArray()
                for trace in everyURL where trace.fired {
                    writer.element()
                    writer.int(trace.rule)
                }
                writer.closeArray()
                writer.closeObject()
                writer.closeObject()
            } else if !all && !everyURL.isEmpty {
                Console.out(
                    "    \(everyURL.count) rule\(everyURL.count == 1 ? "" : "s") whose url-filter matches every URL: \(everyURL.count(where: \.fired)) fired (listed), \(everyURL.count(where: { !$0.fired })) stopped (--all lists them)"
                )
            }
            if traces.isEmpty && !json { Console.out("    no rule's url-filter matched") }
        }
        if json {
            writer.closeArray()
            writer.closeObject()
        }
    }

    /// What the fired ignore rules of a list do to its other fired rules (spec §4.7, rule by rule):
    /// the first `ignore-following-rules` cancels the fired rules after it (an `ignore-previous-rules`
    /// among them too); before it, each `ignore-previous-rules` cancels the fired rules before it. A
    /// fired rule after the last applied `ignore-previous-rules` is listed in `firedAfter`: the
    /// exception does not reach it. Rules sharing an action slot across an ignore rule (spec §4.8) are
    /// not told apart: the result line is WebKit's answer.
    static func ignoreEffects(firedRules: [Int], source: Source) -> (
        cancelledBy: [Int: (rule: Int, type: String)], firedAfter: [Int: Int]
    ) {
        var cancelledBy: [Int: (rule: Int, type: String)] = [:]
        var firedAfter: [Int: Int] = [:]
        let cut = firedRules.firstIndex { source.actionTypes[$0] == "ignore-following-rules" }
        if let cut {
            for rule in firedRules[(cut + 1)...] { cancelledBy[rule] = (firedRules[cut], "ignore-following-rules") }
        }
        var lastIgnore: Int?
        for (position, rule) in firedRules[..<(cut ?? firedRules.count)].enumerated() {
            if source.actionTypes[rule] == "ignore-previous-rules" {
                for earlier in firedRules[..<position] where cancelledBy[earlier] == nil {
                    cancelledBy[earlier] = (rule, "ignore-previous-rules")
                }
                firedAfter = [:]
                lastIgnore = rule
            } else if let lastIgnore {
                firedAfter[rule] = lastIgnore
            }
        }
        return (cancelledBy, firedAfter)
    }

    /// A stop in words, with what the load had.
    /// With a request-method, an `if-` condition never holds whatever the URL (spec §4.6; an `unless-`
    /// one never stops the rule).
    static func describe(_ stop: RuleTrace.Stop, load: ResourceLoadInfo, hasRequestMethod: Bool = false) -> String {
        if case .condition(let kind) = stop, hasRequestMethod {
            return
                "\(kind.rawValue) (with a request-method, WebKit tests it against no method, so it never holds: spec §4.6)"
        }
        return switch stop {
        case .resourceType: "resource-type (the load is \(load.resourceType.requestName ?? "?"))"
        case .loadType: "load-type (the load is \(load.loadType.rawValue))"
        case .loadContext: "load-context (the load is in the \(load.loadContext.rawValue))"
        case .requestMethod: "request-method (the page's method is \(load.requestMethod?.rawValue ?? "none"))"
        case .condition(let kind):
            kind.testsFrameURL
                ? "\(kind.rawValue) (tested against the frame URL \(load.frameURL?.serialization ?? "none"))"
                : "\(kind.rawValue) (tested against the top URL \(load.mainDocumentURL?.serialization ?? "none"))"
        }
    }
}
