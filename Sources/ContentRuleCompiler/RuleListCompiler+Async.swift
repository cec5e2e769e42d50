import ContentRuleModel
public import RuleListParser

extension RuleListCompiler {
    /// How far an asynchronous compile is (``compile(json:options:progress:)``).
    public struct Progress: Sendable, Hashable {
        /// The rules to compile: those of the JSON array that parsed without error.
        public var ruleCount: Int
        /// The rules whose url-filter and condition patterns are compiled, 0 through ``ruleCount``.
        public var rulesCompiled: Int

        /// Progress of `rulesCompiled` of `ruleCount` rules.
        public init(ruleCount: Int, rulesCompiled: Int) {
            self.ruleCount = ruleCount
            self.rulesCompiled = rulesCompiled
        }
    }

    /// The rules whose patterns are compiled between two checks for cancellation and two progress
    /// reports (on every core, as ``compile(json:options:)`` compiles them).
    static let asyncBatchSize = 4096

    /// ``compile(json:options:)``, cancellable and reporting progress: the same result.
    ///
    /// Parses the JSON, then compiles the rules' patterns in batches of 4,096 rules; between batches it
    /// checks for cancellation and calls `progress` (after parsing too, with no rule compiled, even when
    /// no rule parsed; the last call has every rule compiled). Each batch runs on every core, as the plain
    /// compile does; `progress` is called on the calling task's thread.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the compile ends (checked
    ///   after parsing and between batches); nothing is returned then.
    /// - Complexity: as ``compile(json:options:)``.
    public static func compile(
        json: some Collection<UInt8> & Sendable, options: RuleListParser.Options = .init(),
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws(CancellationError) -> Result {
        try await compile(json: json, options: options, batchSize: asyncBatchSize, progress: progress)
    }

    /// The asynchronous compile with batches of `batchSize` rules.
    static func compile(
        json: some Collection<UInt8> & Sendable, options: RuleListParser.Options, batchSize: Int,
        progress: (@Sendable (Progress) -> Void)?
    ) async throws(CancellationError) -> Result {
        let parsed = RuleListParser.parse(json, options: options)
        let total = parsed.rules.count
        progress?(Progress(ruleCount: total, rulesCompiled: 0))
        var patterns: [PatternCompiler.RulePatterns] = []
        patterns.reserveCapacity(total)
        var patternErrors: [RuleListDiagnostic] = []
        var start = 0
        while start < total {
            if Task.isCancelled { throw CancellationError() }
            let end = min(start + batchSize, total)
            let (batch, errors) = PatternCompiler.compileAll(Array(parsed.rules[start..<end]))
            patterns += batch
            patternErrors += errors
            start = end
            progress?(Progress(ruleCount: total, rulesCompiled: end))
            await Task.yield()
        }
        if Task.isCancelled { throw CancellationError() }
        let (list, assembled) = assemble(parsed.rules, patterns, patternErrors, sourceRuleCount: parsed.ruleCount)
        let diagnostics =
            assembled.isEmpty
            ? parsed.diagnostics : RuleListParser.locatedInFileOrder(parsed.diagnostics + assembled, json: json)
        let failed = diagnostics.contains { $0.severity == .error }
        return Result(list: failed ? nil : list, diagnostics: diagnostics)
    }
}
