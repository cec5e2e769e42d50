public import ContentRuleCompiler
public import ContentRuleMatcher

extension ContentRuleListStore {
    /// ``compileContentRuleList(forIdentifier:json:)``, cancellable and reporting progress: compiles with
    /// `RuleListCompiler.compile(json:options:progress:)`, then stores the list as `identifier` (WebKit's
    /// `compileContentRuleListForIdentifier:encodedContentRuleList:completionHandler:`).
    ///
    /// `progress` is called as the compile goes (rules compiled of the rules that parsed); the store is
    /// written once the compile has ended, under the store's lock.
    ///
    /// - Returns: the stored list, ready to match.
    /// - Throws: `CancellationError` when the task is cancelled before the compile ends (nothing is
    ///   stored, the old list stays); otherwise a ``ContentRuleListStoreError``, as
    ///   ``compileContentRuleList(forIdentifier:json:)``.
    /// - Complexity: as ``compileContentRuleList(forIdentifier:json:)``.
    @discardableResult
    public func compileContentRuleList(
        forIdentifier identifier: String, json: [UInt8],
        progress: @escaping @Sendable (RuleListCompiler.Progress) -> Void
    ) async throws -> ContentRuleList {
        let result = try await RuleListCompiler.compile(json: json, progress: progress)
        guard let compiled = result.list else {
            throw ContentRuleListStoreError.compileFailed(identifier: identifier, diagnostics: result.errors)
        }
        return try store(compiled, identifier: identifier, source: json)
    }

    /// ``compileContentRuleList(forIdentifier:json:progress:)`` of the JSON file at `path`.
    /// - Throws: also ``ContentRuleListStoreError/io(path:operation:message:)`` when the file cannot be read.
    @discardableResult
    public func compileContentRuleList(
        forIdentifier identifier: String, contentsOfFile path: String,
        progress: @escaping @Sendable (RuleListCompiler.Progress) -> Void
    ) async throws -> ContentRuleList {
        try await compileContentRuleList(
            forIdentifier: identifier, json: readSource(path, identifier: identifier), progress: progress)
    }
}
