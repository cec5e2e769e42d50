// The modules whose types this module's public API mentions, re-exported: `import ContentRuleCompiler`
// names `CompiledRuleList`, `RuleListDiagnostic`, `ContentRuleListError`, `RuleListParser.Options`, …
@_exported public import ContentRuleFormat
@_exported public import ContentRuleModel
@_exported public import RuleListParser
