import ContentRuleFormat
import ContentRuleModel
import PCRE2Support

/// Patterns WebKit accepts whose PCRE2 translation PCRE2 cannot compile (its compiled-size limit:
/// "regular expression is too large"): the list is valid, but the matcher cannot run the pattern, so
/// here the rule never fires. Warned at compile time rather than found on the first load.
extension RuleListCompiler {
    /// PCRE2 texts shorter than this compile within PCRE2's limits (a text byte compiles to a few code
    /// units at most, and the limit is 64K code units): only longer ones are tried.
    static let pcre2TrialLength = 2048

    /// A warning per rule with a pattern PCRE2 cannot compile (the first such pattern of the rule).
    static func uncompilablePatternWarnings(_ rules: [CompiledRule]) -> [RuleListDiagnostic] {
        var warnings: [RuleListDiagnostic] = []
        for rule in rules {
            let patterns =
                [(rule.urlFilter, "trigger.url-filter")]
                + (rule.condition.map { condition in
                    condition.patterns.enumerated().map {
                        ($0.element, "trigger.\(condition.kind.rawValue)[\($0.offset)]")
                    }
                } ?? [])
            for (pattern, keyPath) in patterns {
                guard let text = pattern.pcre2Pattern, text.utf8.count >= pcre2TrialLength else { continue }
                do {
                    _ = try PCRE2Regex(text, options: [], repeatsAGroup: pattern.searchPlan?.repeatsAGroup ?? false)
                } catch {
                    warnings.append(
                        RuleListDiagnostic(
                            nil, severity: .warning, ruleIndex: Int(rule.sourceIndex), keyPath: keyPath,
                            detail:
                                "never matches here: PCRE2 cannot compile the pattern's translation (\(error.message)); WebKit accepts the list"
                        ))
                    break
                }
            }
        }
        return warnings
    }
}
