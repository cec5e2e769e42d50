import ContentRuleFormat
import ContentRuleModel
import RuleListParser

extension RuleListLint {
    /// Whether a pattern that matches every URL is written as one: `.*`, with or without `^` and `$`.
    /// Any other such pattern (`(banner)?`, `a?`, `^$`) can match an empty string, so a search finds it
    /// in every URL — likely not what its author meant (spec §3.5).
    static func saysEverything(_ source: String) -> Bool {
        var text = Substring(source)
        if text.hasPrefix("^") { text = text.dropFirst() }
        if text.hasSuffix("$") { text = text.dropLast() }
        return text == ".*"
    }

    /// Patterns that match every URL without saying so: a url-filter (the rule fires on every load its
    /// flags allow), an `if-` condition value (the condition always holds), and any `unless-` value
    /// matching every URL, `.*` included (the rule never fires).
    static func everythingWarnings(_ list: CompiledRuleList) -> [LintWarning] {
        var warnings: [LintWarning] = []
        for rule in list.rules {
            let index = Int(rule.sourceIndex)
            if rule.urlFilter.matchesEverything, !saysEverything(rule.urlFilter.source) {
                warnings.append(
                    LintWarning(
                        .matchesEverything,
                        "the url-filter \"\(RuleListParser.shortened(rule.urlFilter.source))\" can match an empty string, so it matches every URL (write .* if that is meant)",
                        ruleIndex: index, keyPath: "trigger.url-filter"))
            }
            guard let condition = rule.condition, !condition.kind.isDomain else { continue }
            for (position, pattern) in condition.patterns.enumerated() where pattern.matchesEverything {
                let keyPath = "trigger.\(condition.kind.rawValue)[\(position)]"
                if condition.kind.isInverted {
                    warnings.append(
                        LintWarning(
                            .neverFires,
                            "\"\(RuleListParser.shortened(pattern.source))\" matches every URL, so \(condition.kind.rawValue) excludes every load: the rule never fires",
                            ruleIndex: index, keyPath: keyPath))
                } else if !saysEverything(pattern.source) {
                    warnings.append(
                        LintWarning(
                            .matchesEverything,
                            "\"\(RuleListParser.shortened(pattern.source))\" can match an empty string, so it matches every URL: \(condition.kind.rawValue) always holds",
                            ruleIndex: index, keyPath: keyPath))
                }
            }
        }
        return warnings
    }
}
