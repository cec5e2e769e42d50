public import ContentRuleModel

/// Why a ``ContentRuleListStore`` operation failed. WebKit's `WKContentRuleListStore` reports four
/// codes (`WKErrorContentRuleListStoreCompileFailed`, `…LookUpFailed`, `…VersionMismatch`,
/// `…RemoveFailed`); each case names the one it corresponds to (``webKitMessage``) and says more.
public enum ContentRuleListStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule list has errors (WebKit rejects the whole list): every error diagnostic, in the order
    /// `RuleListCompiler` gives them (the first is the one WebKit reports). WebKit: compile failed.
    case compileFailed(identifier: String, diagnostics: [RuleListDiagnostic])
    /// The rule list is valid but exceeds a limit of the binary rule list format (`BinaryRuleListError.tooLarge`),
    /// which WebKit does not have. Nothing was stored.
    case tooLarge(identifier: String, limit: String)
    /// No list is stored under the identifier. WebKit: look-up failed (remove failed for a removal).
    case notFound(identifier: String)
    /// The stored file cannot be read as a list (truncated, changed in place, not written by this store):
    /// look it up after compiling it again, or remove it. WebKit: look-up failed.
    case damaged(identifier: String, path: String, reason: String)
    /// The stored list was compiled by another binary rule list version and its stored source no
    /// longer compiles (WebKit: version mismatch): the diagnostics of compiling it now.
    case versionMismatch(identifier: String, found: UInt32, diagnostics: [RuleListDiagnostic])
    /// The file system refused (create the store directory, lock, read, write, rename, remove).
    case io(path: String, operation: String, message: String)

    /// WebKit's message for the corresponding `WKErrorCode` (`contentRuleListStoreErrorCategory` in
    /// `APIContentRuleListStore.cpp`).
    public var webKitMessage: String {
        switch self {
        case .compileFailed, .tooLarge: return "Unspecified error during compile."
        case .notFound, .damaged, .io: return "Unspecified error during lookup."
        case .versionMismatch: return "Version of file does not match version of interpreter."
        }
    }

    /// The error in a sentence: the identifier, what went wrong and, for a damaged file, what to do.
    public var description: String {
        switch self {
        case .compileFailed(let identifier, let diagnostics):
            let first = diagnostics.first.map { ": \($0)" } ?? ""
            let more = diagnostics.count > 1 ? " (and \(diagnostics.count - 1) more)" : ""
            return "'\(identifier)': the rule list does not compile\(first)\(more)"
        case .tooLarge(let identifier, let limit): return "'\(identifier)': the rule list is too large: \(limit)"
        case .notFound(let identifier): return "no content rule list is stored as '\(identifier)'"
        case .damaged(let identifier, let path, let reason):
            return "'\(identifier)': the stored list \(path) is damaged: \(reason) (compile it again, or remove it)"
        case .versionMismatch(let identifier, let found, let diagnostics):
            let first = diagnostics.first.map { ": \($0)" } ?? ""
            return
                "'\(identifier)': stored by binary rule list version \(found), and its source no longer compiles\(first)"
        case .io(let path, let operation, let message): return "\(path): \(operation) failed: \(message)"
        }
    }
}
