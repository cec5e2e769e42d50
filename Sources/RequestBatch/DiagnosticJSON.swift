package import ContentRuleModel

extension JSONWriter {
    /// A rule list diagnostic as `content-blocker check --json` and the C ABI write it: `{"severity",
    /// "error" (WebKit's error name or null), "message", "rule" (its index or null), "key" (its key path
    /// or null), "detail" (or null), "byteOffset" (when the diagnostic has one), "line" and "column"
    /// (1-based, when located)}`.
    package mutating func diagnostic(_ diagnostic: RuleListDiagnostic) {
        openObject()
        key("severity")
        string(diagnostic.severity.rawValue)
        key("error")
        if let error = diagnostic.error { string(error.rawValue) } else { null() }
        key("message")
        string(diagnostic.message)
        key("rule")
        if let rule = diagnostic.ruleIndex { int(rule) } else { null() }
        key("key")
        if let keyPath = diagnostic.keyPath { string(keyPath) } else { null() }
        key("detail")
        if let detail = diagnostic.detail { string(detail) } else { null() }
        if let offset = diagnostic.byteOffset {
            key("byteOffset")
            int(offset)
        }
        if let line = diagnostic.line, let column = diagnostic.column {
            key("line")
            int(line)
            key("column")
            int(column)
        }
        closeObject()
    }
}
