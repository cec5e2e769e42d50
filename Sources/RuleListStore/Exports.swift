// `import RuleListStore` is enough to compile, store, look up and match: the store's lists are
// `ContentRuleList`s, its errors carry `RuleListDiagnostic`s, its async compile reports
// `RuleListCompiler.Progress`.
@_exported public import ContentRuleCompiler
@_exported public import ContentRuleMatcher
