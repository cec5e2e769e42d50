import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import RuleListParser

/// Fuzz target (a): arbitrary bytes as a JSON rule list. Parsing never traps; a list the compiler
/// accepts round-trips through the binary format and loads into a matcher (every PCRE2 pattern the
/// translator emitted compiles). Returns a description of the broken invariant, or nil.
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
    let encoded = BinaryRuleList.encode(list)
    do {
        guard try BinaryRuleList.decode(encoded) == list else { return "binary round trip changed the list" }
        _ = try ContentRuleList(identifier: "fuzz", compiled: list)
    } catch {
        return "accepted list does not load: \(error)"
    }
    return nil
}
