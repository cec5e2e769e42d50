public import ContentRuleFormat
public import ContentRuleModel
public import RuleListParser
import URLFilterSyntax

/// Turns a rule list into a ``CompiledRuleList``: validates every pattern with WebKit's url-filter
/// parser, assigns action slots as WebKit does, and extracts the global display-none stylesheet.
///
/// Mirrors `compileRuleList` and `serializeActions` in
/// `Source/WebCore/contentextensions/ContentExtensionCompiler.cpp` (spec §2.2, §3, §4.8, §4.9).
public enum RuleListCompiler {
    /// The outcome of compiling one rule list.
    public struct Result: Sendable {
        /// The compiled list, or `nil` when the list has an error (WebKit rejects the whole list).
        public var list: CompiledRuleList?
        /// Parser diagnostics first, then pattern errors, each group in rule order; so the first
        /// error is the one WebKit reports. Warnings (dropped css-display-none rules) included.
        public var diagnostics: [RuleListDiagnostic]
        /// Diagnostics of severity `.error`.
        public var errors: [RuleListDiagnostic] { diagnostics.filter { $0.severity == .error } }
    }

    /// Parses and compiles a JSON rule list.
    ///
    /// - Complexity: O(n) in the JSON size plus one url-filter parse per pattern.
    public static func compile(json: some Collection<UInt8>, options: RuleListParser.Options = .init()) -> Result {
        let parsed = RuleListParser.parse(json, options: options)
        let (list, patternErrors) = compile(parsed.rules, sourceRuleCount: parsed.ruleCount)
        let diagnostics =
            patternErrors.isEmpty
            ? parsed.diagnostics : RuleListParser.locatedInFileOrder(parsed.diagnostics + patternErrors, json: json)
        let failed = diagnostics.contains { $0.severity == .error }
        return Result(list: failed ? nil : list, diagnostics: diagnostics)
    }

    /// Compiles parsed rules (in list order).
    ///
    /// - Returns: the compiled list (`nil` if a pattern is invalid) and the pattern errors
    ///   (`JSONInvalidRegex` with the url-filter parser's reason as detail), one per faulty rule; or,
    ///   for a compiled list, a warning when WebKit would abort compiling it
    ///   (`webKitAbortWarnings(_:)`).
    public static func compile(_ rules: [ParsedRule], sourceRuleCount: Int) -> (CompiledRuleList?, [RuleListDiagnostic])
    {
        let (compiledPatterns, diagnostics) = PatternCompiler.compileAll(rules)
        return assemble(rules, compiledPatterns, diagnostics, sourceRuleCount: sourceRuleCount)
    }

    /// The compiled list of `rules`, whose patterns are compiled (`compiledPatterns`, with
    /// `diagnostics` for the rules whose patterns are invalid).
    static func assemble(
        _ rules: [ParsedRule], _ compiledPatterns: [PatternCompiler.RulePatterns], _ diagnostics: [RuleListDiagnostic],
        sourceRuleCount: Int
    ) -> (CompiledRuleList?, [RuleListDiagnostic]) {
        guard diagnostics.isEmpty else { return (nil, diagnostics) }

        var assigner = ActionSlotAssigner()
        for (parsed, patterns) in zip(rules, compiledPatterns) {
            assigner.add(parsed.rule, isUniversal: patterns.urlFilter.matchesEverything)
        }
        let slots = assigner.finish()

        var compiledRules: [CompiledRule] = []
        compiledRules.reserveCapacity(rules.count)
        for (ruleNumber, (parsed, patterns)) in zip(rules, compiledPatterns).enumerated() {
            guard let slot = slots.ruleSlots[ruleNumber] else { continue }  // in the global stylesheet
            let trigger = parsed.rule.trigger
            compiledRules.append(
                CompiledRule(
                    sourceIndex: UInt32(parsed.index), urlFilter: patterns.urlFilter,
                    resourceTypes: trigger.resourceTypes, loadTypes: trigger.loadTypes,
                    loadContexts: trigger.loadContexts, requestMethod: trigger.requestMethod,
                    condition: patterns.condition, actionSlot: slot,
                    entry: SearchPlanning.entry(
                        urlFilter: patterns.urlFilter, condition: patterns.condition,
                        requestMethod: trigger.requestMethod)))
        }
        IndexPlanning.assignKeys(&compiledRules)
        let list = CompiledRuleList(
            rules: compiledRules, actionSlots: slots.actions, globalStylesheet: slots.globalStylesheet,
            sourceRuleCount: sourceRuleCount, templates: TemplatePlanning.choose(compiledRules))
        return (list, webKitAbortWarnings(compiledRules) + uncompilablePatternWarnings(compiledRules))
    }

    /// Why a pattern is refused: the url-filter parser's status, where, and (for a YARR error) why.
    struct PatternFailure: Error {
        var status: URLFilterParseStatus
        var errorSpan: Range<Int>?
        var errorReason: String?
        var source: String

        init(_ parsed: URLFilterParseResult, source: String) {
            status = parsed.status
            errorSpan = parsed.errorSpan
            errorReason = parsed.errorReason
            self.source = source
        }
    }

    static func patternError(_ failure: PatternFailure, rule: Int, keyPath: String) -> RuleListDiagnostic {
        RuleListDiagnostic(
            .jsonInvalidRegex, ruleIndex: rule, keyPath: keyPath, detail: patternDetail(failure, keyPath: keyPath))
    }

    /// The detail of a refused pattern: WebKit's parser status text (its log line), then, for a
    /// url-filter or a top-URL or frame-URL condition value (regular expressions the author wrote),
    /// what YARR found wrong and at which character, and a hint when it is written in AdBlock syntax.
    /// For a domain entry the status (its pattern is generated) and a hint when the entry holds `|`
    /// or `^`, which the generated pattern has none of: AdBlock's `||host^`, or domains joined by `|`.
    static func patternDetail(_ failure: PatternFailure, keyPath: String) -> String {
        var detail = failure.status.message
        let key = keyPath.hasPrefix("trigger.") ? String(keyPath.dropFirst(8)) : keyPath
        if key.hasPrefix("if-domain[") || key.hasPrefix("unless-domain[") {
            if failure.source.hasPrefix("||") || failure.source.contains("^") {
                detail +=
                    " A domain entry is a host name (`example.com`, or `*example.com` with its subdomains): `||` and `^` are AdBlock Plus syntax."
            } else if failure.source.contains("|") {
                detail +=
                    " A domain entry is one host name: give each domain as an entry of its own, not joined by `|`."
            }
            return detail
        }
        if let reason = failure.errorReason {
            detail += " " + reason[...].prefix(1).uppercased() + reason.dropFirst() + "."
        }
        let bytes = Array(failure.source.utf8)
        if let span = failure.errorSpan, span.lowerBound <= bytes.count {
            let start = bytes[..<span.lowerBound].count { $0 & 0xC0 != 0x80 } + 1
            let text = String(decoding: bytes[span.clamped(to: 0..<bytes.count)].prefix(40), as: UTF8.self)
            detail +=
                span.lowerBound == bytes.count
                ? " At the end of the \(key)." : " At \(key) character \(start): `\(text)`."
        }
        if let hint = adBlockHint(failure.source) { detail += " " + hint }
        return detail
    }

    /// A hint when a refused url-filter is written in AdBlock Plus syntax (`||host^`, `|https://`,
    /// `$options`), which is not a regular expression.
    static func adBlockHint(_ pattern: String) -> String? {
        let looksLikeAdBlock =
            pattern.hasPrefix("||") || pattern.hasPrefix("|http") || pattern.hasSuffix("^")
            || pattern.contains("^$") || hasAdBlockOptions(pattern)
        guard looksLikeAdBlock else { return nil }
        var hint =
            "This looks like AdBlock Plus syntax; a url-filter (and a top-URL or frame-URL condition) is a regular expression"
        if pattern.hasPrefix("||") {
            let host = pattern.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
            if !host.isEmpty {
                let escaped = host.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "\\.")
                hint += " (`||\(host)^` is written `^[htpsw]+://([a-z0-9_-]+\\.)*\(escaped)[/:?]`)"
            }
        }
        return hint + "."
    }

    /// Whether `pattern` ends with AdBlock options: `$` then lower-case words, `~`, `-`, `,` and `=`
    /// (`$third-party`, `$script,domain=example.com`).
    static func hasAdBlockOptions(_ pattern: String) -> Bool {
        guard let dollar = pattern.lastIndex(of: "$"), pattern.index(after: dollar) < pattern.endIndex else {
            return false
        }
        let options = pattern[pattern.index(after: dollar)...]
        return options.first.map { $0.isLowercase || $0 == "~" } == true
            && options.allSatisfy { $0.isLowercase || $0.isNumber || "~-,=.|_".contains($0) }
    }
}
