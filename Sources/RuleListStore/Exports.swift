// `import RuleListStore` is enough to compile, store, look up and match: the store's lists are
// `ContentRuleList`s, its errors carry `RuleListDiagnostic`s.
@_exported public import ContentRuleMatcher
