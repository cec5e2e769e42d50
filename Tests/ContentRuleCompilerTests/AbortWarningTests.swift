import ContentRuleCompiler
import ContentRuleModel
import TestSupport
import Testing

/// The warnings `check` and `compile` give where WebKit's compiler would abort (spec §5.7): too
/// many match-everything values, too many (action, flags) values on one automaton state. Expected
/// values from the WebKitGTK 2.50.6 compile oracle (`Documentation/DECISIONS.md`). Lists of 65,536
/// rules: slow tier.
@Suite struct AbortWarningTests {
    // MARK: Match-everything values (spec §5.7: WebKit aborts at 65,535; expected values from the
    // WebKitGTK 2.50.6 compile oracle on the same lists, 2026-12-02)

    /// `n` rules with a match-everything url-filter and an `if-domain` each (so each has its own
    /// action location in WebKit), or, with `condition: false`, `resource-type` image and one action.
    static func universalRules(_ n: Int, condition: Bool, action: (Int) -> String) -> String {
        "["
            + (0..<n).map {
                let trigger = condition ? #""if-domain":["d\#($0).test"]"# : #""resource-type":["image"]"#
                return #"{"trigger":{"url-filter":".*",\#(trigger)},"action":\#(action($0))}"#
            }.joined(separator: ",") + "]"
    }

    @Test(.slowTier) func webKitsUniversalActionLimitIsAWarning() {
        func warnings(_ json: String) -> [RuleListDiagnostic] {
            let result = RuleListCompiler.compile(json: Array(json.utf8))
            #expect(result.list != nil)
            return result.diagnostics.filter { $0.severity == .warning }
        }
        let selector = { (i: Int) in #"{"type":"css-display-none","selector":".s\#(i)"}"# }
        let block = { (_: Int) in #"{"type":"block"}"# }
        // 65,534 compile in WebKit; the 65,535th aborts it.
        #expect(warnings(Self.universalRules(65_534, condition: true, action: selector)).isEmpty)
        let over = warnings(Self.universalRules(65_535, condition: true, action: block))
        #expect(over.count == 1)
        #expect(over.first?.ruleIndex == 65_534)
        #expect(over.first?.message.hasPrefix("WebKit aborts compiling this list") == true)
        // Without conditions, one action (or selectors WebKit combines) is one value: WebKit compiles.
        #expect(warnings(Self.universalRules(70_000, condition: false, action: block)).isEmpty)
        #expect(warnings(Self.universalRules(70_000, condition: false, action: selector)).isEmpty)
        // Top-URL conditions that match everything, on rules of their own url-filters: 65,534 compile,
        // 65,535 abort.
        let topURL = { (n: Int) in
            let rules = (0..<n).map {
                #"{"trigger":{"url-filter":"x\#($0)z","if-top-url":[".*"]},"action":{"type":"block"}}"#
            }
            return "[" + rules.joined(separator: ",") + "]"
        }
        #expect(warnings(topURL(65_534)).isEmpty)
        let overTop = warnings(topURL(65_535))
        #expect(overTop.count == 1 && overTop.first?.keyPath == "trigger.if-top-url")
    }

    /// `n` rules on one url-filter (`^[htpsw]+:\/\/` by default), rule `i` with `action(i)`, an
    /// `if-domain` of its own or none, and the resource type `types(i)` when given.
    static func sameFilterRules(
        _ n: Int, condition: Bool, filter: String = #"^[htpsw]+:\\/\\/"#, types: ((Int) -> String)? = nil,
        action: (Int) -> String
    ) -> [String] {
        (0..<n).map {
            var trigger = #""url-filter":"\#(filter)""#
            if condition { trigger += #","if-domain":["d\#($0).test"]"# }
            if let types { trigger += #","resource-type":["\#(types($0))"]"# }
            return #"{"trigger":{\#(trigger)},"action":\#(action($0))}"#
        }
    }

    /// WebKit aborts when one state of its automaton holds more than 65,535 distinct (action, flags)
    /// values (`RuleListCompiler.nodeActionWarning`): every list below was compiled by WebKitGTK
    /// 2.50.6 through the oracle (`webkit_compile.py`; an abort exits with status 134).
    @Test(.slowTier) func webKitsStateActionLimitIsAWarning() {
        func warnings(_ rules: [String]) -> [RuleListDiagnostic] {
            let result = RuleListCompiler.compile(json: Array(("[" + rules.joined(separator: ",") + "]").utf8))
            #expect(result.list != nil)
            return result.diagnostics.filter { $0.severity == .warning }
        }
        let block = { (_: Int) in #"{"type":"block"}"# }
        let atLimit = Self.sameFilterRules(65_535, condition: true, action: block)
        // 65,535 compile in WebKit; a 65,536th aborts it, also when its url-filter is spelled
        // `^[htpsw]+://` (the same terms) and it has no condition.
        #expect(warnings(atLimit).isEmpty)
        let over = warnings(atLimit + Self.sameFilterRules(1, condition: false, filter: "^[htpsw]+://", action: block))
        #expect(over.count == 1)
        #expect(over.first?.ruleIndex == 65_535)
        #expect(over.first?.message.hasPrefix("WebKit aborts compiling this list") == true)
        #expect(over.first?.message.contains("65536th with this url-filter") == true)
        // Rules with and without conditions, of any kind, share the state: 65,534 `if-top-url` rules
        // and two without a condition (`block`, `block-cookies`) abort.
        let topURL = (0..<65_534).map {
            #"{"trigger":{"url-filter":"^[htpsw]+:\\/\\/","if-top-url":["https://d\#($0)\\.test/"]},"action":{"type":"block"}}"#
        }
        let unconditioned = [#"{"type":"block"}"#, #"{"type":"block-cookies"}"#]
        #expect(warnings(topURL + Self.sameFilterRules(2, condition: false) { unconditioned[$0] }).count == 1)
        // Two resource types: the flags differ, the values are still distinct (aborts).
        let types = { (i: Int) in i % 2 == 0 ? "image" : "script" }
        #expect(warnings(Self.sameFilterRules(65_536, condition: true, types: types, action: block)).count == 1)
        // Without conditions: a notification of its own per rule aborts; selectors combine (compiles).
        let notify = { (i: Int) in #"{"type":"notify","notification":"n\#(i)"}"# }
        #expect(warnings(Self.sameFilterRules(65_536, condition: false, action: notify)).count == 1)
        let selector = { (i: Int) in #"{"type":"css-display-none","selector":".s\#(i)"}"# }
        #expect(warnings(Self.sameFilterRules(65_536, condition: false, action: selector)).isEmpty)
    }

    /// The same limit in the automaton of conditions: rules of their own url-filters sharing one
    /// condition value (oracle, as above).
    @Test(.slowTier) func webKitsStateActionLimitHoldsForConditionValues() {
        func warnings(_ n: Int, _ condition: (Int) -> String) -> [RuleListDiagnostic] {
            let rules = (0..<n).map {
                #"{"trigger":{"url-filter":"x\#($0)z",\#(condition($0))},"action":{"type":"block"}}"#
            }
            let result = RuleListCompiler.compile(json: Array(("[" + rules.joined(separator: ",") + "]").utf8))
            #expect(result.list != nil)
            return result.diagnostics.filter { $0.severity == .warning }
        }
        let domain = { (_: Int) in #""if-domain":["example.com"]"# }
        // 65,535 compile; the 65,536th aborts WebKit.
        #expect(warnings(65_535, domain).isEmpty)
        let over = warnings(65_536, domain)
        #expect(over.count == 1)
        #expect(over.first?.ruleIndex == 65_535 && over.first?.keyPath == "trigger.if-domain")
        #expect(over.first?.message.contains("65536th with this if-domain value") == true)
        // `if` and `unless` share the state (aborts); `example.com` and `*example.com` do not (compiles).
        #expect(warnings(65_536) { $0 % 2 == 0 ? domain($0) : #""unless-domain":["example.com"]"# }.count == 1)
        #expect(warnings(65_536) { $0 % 2 == 0 ? domain($0) : #""if-domain":["*example.com"]"# }.isEmpty)
        // Top-URL patterns too, and domains with them: WebKit adds a domain's generated pattern to the
        // top-URL automaton, where `if-top-url` with the same pattern meets it (aborts at 65,536).
        #expect(warnings(65_536) { _ in #""if-top-url":["example"]"# }.count == 1)
        let generated = #""if-top-url":["[a-z][a-z+.-]*:\\/\\/example\\.com[:/]"]"#
        #expect(warnings(65_536) { $0 % 2 == 0 ? domain($0) : generated }.count == 1)
        #expect(warnings(65_535) { $0 % 2 == 0 ? domain($0) : generated }.isEmpty)
    }
}
