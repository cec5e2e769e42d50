// STUB
public import ContentRuleModel
public struct ParsedRule: Sendable { public var index: Int; public var rule: ContentRule }
public struct RuleListParseResult: Sendable { public var rules: [ParsedRule]; public var diagnostics: [RuleListDiagnostic]; public var ruleCount: Int }
public struct RuleListParser { public struct Options: Sendable { public init() {} }
  public static func parse(_ j: some Collection<UInt8>, options: Options = .init()) -> RuleListParseResult { .init(rules: [], diagnostics: [], ruleCount: 0) } }
