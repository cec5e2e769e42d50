import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import RuleListParser

/// Fuzz target (a): arbitrary bytes as a JSON rule list. Parsing never traps; a list the compiler
/// accepts goes through the binary format (it opens, with the same counts) and every PCRE2 pattern
/// the translator emitted compiles. Returns a description of the broken invariant, or nil.
public func checkRuleListParser(_ data: [UInt8]) -> String? {
    let parsed = RuleListParser.parse(data)
    if parsed.rules.isEmpty && parsed.errors.isEmpty {
        return "no rules and no error (WebKit says JSONContainsNoRules)"
    }
    let compiled = RuleListCompiler.compile(json: data)
    guard let list = compiled.list else {
        return compiled.errors.isEmpty ? "compile failed without an error" : nil
    }
    if !compiled.errors.isEmpty { return "a list and errors at once" }
    // A list too large for the format is a clear error (`BinaryRuleListError.tooLarge`), not a defect.
    guard let encoded = try? BinaryRuleList.encode(list) else { return nil }
    do {
        let rules = try MappedRuleList(bytes: encoded)
        guard rules.ruleCount == list.ruleCount, rules.actionSlotCount == list.actionSlotCount,
            rules.sourceRuleCount == list.sourceRuleCount, rules.globalStylesheet == list.globalStylesheet
        else { return "the binary rule list does not hold the compiled list" }
        try ContentRuleList(identifier: "fuzz", rules: rules).compileAllPatterns()
    } catch {
        return "accepted list does not load: \(error)"
    }
    return nil
}
