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
        let diagnostics = parsed.diagnostics + patternErrors
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
        return (list, webKitAbortWarnings(compiledRules))
    }

    struct PatternFailure: Error {
        var status: URLFilterParseStatus
    }

    static func patternError(_ failure: PatternFailure, rule: Int, keyPath: String) -> RuleListDiagnostic {
        RuleListDiagnostic(.jsonInvalidRegex, ruleIndex: rule, keyPath: keyPath, detail: failure.status.message)
    }
}
