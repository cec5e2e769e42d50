// The modules whose types this module's public API mentions, re-exported: `import ContentRuleMatcher`
// names `ResourceType`, `Action`, `WebURL`, `FileLoading`, `CompiledRuleList`, … without more imports.
@_exported public import ContentRuleFormat
@_exported public import ContentRuleModel
@_exported public import ContentRuleURL
