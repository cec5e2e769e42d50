import ContentRuleMatcher
import ContentRuleModel
import RuleListLint
import TestSupport
import Testing

/// Each lint warning on both sides: a rule that gets it and a near one that does not. Expected values
/// come from WebKit's documented behaviour (the code's `source`), not from the linter's output.
@Suite struct RuleListLintTests {
    static func codes(_ rules: [String]) -> [LintCode] {
        RuleListLint.lint(json: Array(("[" + rules.joined(separator: ",") + "]").utf8)).warnings.map(\.code)
    }

    static func rule(_ trigger: String, _ action: String = #"{"type":"block"}"#) -> String {
        #"{"trigger":\#(trigger),"action":\#(action)}"#
    }

    @Test func unknownKeysAndTheLikelyKey() {
        let warnings = RuleListLint.lint(
            json: Array("[\(Self.rule(#"{"url-filter":"track","if-domains":["example.com"]}"#))]".utf8)
        ).warnings
        #expect(warnings.map(\.code) == [.unknownKey])
        #expect(warnings.first?.message.contains(#"did you mean "if-domain"?"#) == true)
        #expect(warnings.first?.keyPath == "trigger.if-domains")
        // A selector on a block action: ignored; on css-display-none it is read.
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"track"}"#, #"{"type":"block","selector":".x"}"#)]) == [.unknownKey])
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"track"}"#, #"{"type":"css-display-none","selector":".x"}"#)]).isEmpty
        )
        // An action type WebKit does not know is check's error: its keys are not linted.
        #expect(Self.codes([Self.rule(#"{"url-filter":"track"}"#, #"{"type":"script","script":"x()"}"#)]).isEmpty)
        // WebKit's own keys are known: _identifier, every condition, the flags (the condition with
        // a request-method is another warning's).
        #expect(
            Self.codes([
                #"{"_identifier":"r1","trigger":{"url-filter":"track","load-context":["top-frame"],"unless-frame-url":["^https://a\\.test"],"request-method":"get"},"action":{"type":"block"}}"#
            ]) == [.conditionIgnored])
    }

    @Test func duplicateKeysTheLastCounts() {
        #expect(Self.codes([Self.rule(#"{"url-filter":"abcd","url-filter":"track"}"#)]) == [.duplicateKey])
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"abcd"}"#, #"{"type":"block","type":"block"}"#)]) == [.duplicateKey])
        #expect(Self.codes([Self.rule(#"{"url-filter":"abcd","if-domain":["abcd.test"]}"#)]).isEmpty)
    }

    @Test func flagsThatAreNotBooleans() {
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"track","url-filter-is-case-sensitive":"true"}"#)]) == [.notABoolean])
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"track","top-url-filter-is-case-sensitive":1}"#)]) == [.notABoolean])
        #expect(Self.codes([Self.rule(#"{"url-filter":"track","url-filter-is-case-sensitive":true}"#)]).isEmpty)
    }

    @Test(arguments: [
        "*.example.com", "~example.com", "example.com/ads", "example.com:8080", ".example.com", "example..com",
        "example.com$third-party", "*", "www.example.com.",
    ])
    func domainsNoHostMatches(domain: String) {
        #expect(Self.codes([Self.rule(#"{"url-filter":"track","if-domain":["\#(domain)"]}"#)]) == [.domainNeverMatches])
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"track","unless-domain":["\#(domain)"]}"#)]) == [.domainNeverMatches])
    }

    @Test(arguments: ["*example.com", "example.com", "sub.example.co.uk", "xn--bcher-kva.example"])
    func domainsAHostMatches(domain: String) {
        #expect(Self.codes([Self.rule(#"{"url-filter":"track","if-domain":["\#(domain)"]}"#)]).isEmpty)
    }

    @Test func duplicateRulesUntilAnIgnorePreviousRules() {
        let block = Self.rule(#"{"url-filter":"track"}"#)
        #expect(Self.codes([block, block]) == [.duplicateRule])
        // The same trigger with another action, or the same rule again after ignore-previous-rules: not
        // duplicates (the second block comes back after the ignore).
        #expect(Self.codes([block, Self.rule(#"{"url-filter":"track"}"#, #"{"type":"block-cookies"}"#)]).isEmpty)
        #expect(
            Self.codes([block, Self.rule(#"{"url-filter":"track"}"#, #"{"type":"ignore-previous-rules"}"#), block])
                .isEmpty)
    }

    @Test func rulesAnEarlierRuleCovers() {
        let wide = Self.rule(#"{"url-filter":"track"}"#)
        let narrow = Self.rule(#"{"url-filter":"track","resource-type":["script"],"load-type":["third-party"]}"#)
        #expect(Self.codes([wide, narrow]) == [.shadowedRule])
        // The narrow one first: the wide one adds loads. Another action, another url-filter, a condition
        // the earlier rule lacks, or an ignore-previous-rules between them: not shadowed.
        #expect(Self.codes([narrow, wide]).isEmpty)
        #expect(
            Self.codes([
                wide, Self.rule(#"{"url-filter":"track","resource-type":["script"]}"#, #"{"type":"block-cookies"}"#),
            ]).isEmpty)
        #expect(Self.codes([wide, Self.rule(#"{"url-filter":"tracker","resource-type":["script"]}"#)]).isEmpty)
        #expect(Self.codes([wide, Self.rule(#"{"url-filter":"track","if-domain":["a.test"]}"#)]).isEmpty)
        #expect(
            Self.codes([wide, Self.rule(#"{"url-filter":"track"}"#, #"{"type":"ignore-previous-rules"}"#), narrow])
                .isEmpty)
        // Naming every value of a flag admits every load, as leaving it out does.
        let both = Self.rule(#"{"url-filter":"track","load-type":["first-party","third-party"]}"#)
        #expect(Self.codes([both, Self.rule(#"{"url-filter":"track","resource-type":["image"]}"#)]) == [.shadowedRule])
        #expect(Self.codes([Self.rule(#"{"url-filter":"track","resource-type":["image"]}"#), both]).isEmpty)
        // A case-insensitive url-filter matches wherever the case-sensitive one does, not the reverse.
        let sensitive = Self.rule(#"{"url-filter":"track","url-filter-is-case-sensitive":true}"#)
        #expect(Self.codes([wide, sensitive]) == [.shadowedRule])
        #expect(Self.codes([sensitive, wide]).isEmpty)
        // Notifications are sent once per rule: a repeated notify is not redundant.
        let notify = Self.rule(#"{"url-filter":"track"}"#, #"{"type":"notify","notification":"seen"}"#)
        #expect(Self.codes([notify, notify]).isEmpty)
    }

    @Test func flagsThatExcludeEachOther() {
        #expect(
            Self.codes([
                Self.rule(#"{"url-filter":"track","resource-type":["top-document"],"load-context":["child-frame"]}"#)
            ])
                == [.neverFires])
        #expect(
            Self.codes([
                Self.rule(#"{"url-filter":"track","resource-type":["document"],"load-context":["child-frame"]}"#)
            ]).isEmpty)
        #expect(
            Self.codes([
                Self.rule(#"{"url-filter":"track","resource-type":["top-document"],"load-context":["top-frame"]}"#)
            ]).isEmpty)
    }

    /// WebKitGTK 2.50.6 (`Tests/Data/oracle/request_method_conditions.json`, spec §4.6): with a
    /// request-method, an `if-` condition never holds and an `unless-` condition never excludes.
    @Test func requestMethodWithACondition() {
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"track","request-method":"get","if-domain":["a.test"]}"#)])
                == [.neverFires])
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"track","request-method":"get","if-top-url":["a\\.test"]}"#)])
                == [.neverFires])
        #expect(
            Self.codes([Self.rule(#"{"url-filter":"track","request-method":"post","unless-frame-url":["a\\.test"]}"#)])
                == [.conditionIgnored])
        #expect(Self.codes([Self.rule(#"{"url-filter":"track","request-method":"get"}"#)]).isEmpty)
        #expect(Self.codes([Self.rule(#"{"url-filter":"track","if-domain":["a.test"]}"#)]).isEmpty)
    }

    /// An ignore rule cancels only its list's rules on its side (spec §4.7): at the wrong end it
    /// cancels nothing; one rule on the right side is enough.
    @Test func exceptionsOnTheWrongSide() {
        let block = Self.rule(#"{"url-filter":"track"}"#)
        let previous = Self.rule(
            #"{"url-filter":"track","if-domain":["a.test"]}"#, #"{"type":"ignore-previous-rules"}"#)
        let following = Self.rule(
            #"{"url-filter":"track","if-domain":["a.test"]}"#, #"{"type":"ignore-following-rules"}"#)
        #expect(Self.codes([previous, block]) == [.cancelsNothing])
        #expect(Self.codes([previous, previous, block]).filter { $0 == .cancelsNothing }.count == 2)
        #expect(Self.codes([block, following]) == [.cancelsNothing])
        #expect(Self.codes([block, previous]).isEmpty)
        #expect(Self.codes([following, block]).isEmpty)
    }

    /// An exception before the rule of its url-filter it was meant to cancel, with some other rule
    /// before it (so it is not `cancels-nothing`); after that rule, or with one before it too: none.
    @Test func exceptionsBeforeTheirRule() {
        let other = Self.rule(#"{"url-filter":"banner"}"#)
        let block = Self.rule(#"{"url-filter":"track"}"#)
        let exception = Self.rule(
            #"{"url-filter":"track","if-domain":["a.test"]}"#, #"{"type":"ignore-previous-rules"}"#)
        #expect(Self.codes([other, exception, block]) == [.misplacedException])
        #expect(Self.codes([other, block, exception]).isEmpty)
        #expect(Self.codes([block, exception, block]).filter { $0 == .misplacedException }.isEmpty)
        #expect(Self.codes([other, exception]).isEmpty)
    }

    @Test func urlFiltersTheIndexCannotReach() {
        #expect(Self.codes([Self.rule(#"{"url-filter":"a.b"}"#)]) == [.noIndexLiteral])
        #expect(Self.codes([Self.rule(#"{"url-filter":"adserver"}"#)]).isEmpty)
        // Matching everything is decided once per page, not tested per load.
        #expect(Self.codes([Self.rule(#"{"url-filter":".*"}"#)]).isEmpty)
    }

    @Test func droppedSelectorsAndErrorsStayCheck() {
        #expect(
            Self.codes([Self.rule(#"{"url-filter":".*"}"#, #"{"type":"css-display-none","selector":"::nope"}"#)])
                == [.selectorDropped])
        #expect(
            Self.codes([Self.rule(#"{"url-filter":".*"}"#, #"{"type":"css-display-none","selector":".ad"}"#)]).isEmpty)
        // An invalid list: its errors are check's, in the report's diagnostics.
        let report = RuleListLint.lint(
            json: Array(#"[{"trigger":{"url-filter":"(ads"},"action":{"type":"block"}}]"#.utf8))
        #expect(report.diagnostics.first?.error == .jsonInvalidRegex)
    }

    /// PCRE2's compiled-size limit: `a.` fifty thousand times compiles in WebKit's format and not in
    /// PCRE2, so the rule never fires here; a hundred times is far below the limit.
    @Test func patternsPCRE2CannotCompile() {
        let large = String(repeating: "a.", count: 50_000)
        #expect(Self.codes([Self.rule(#"{"url-filter":"adserver\#(large)"}"#)]) == [.patternTooLarge])
        let small = String(repeating: "a.", count: 100)
        #expect(Self.codes([Self.rule(#"{"url-filter":"adserver\#(small)"}"#)]).isEmpty)
    }

    @Test func warningsArePlacedInTheText() {
        let text =
            "[\n  {\"trigger\": {\"url-filter\": \"track\",\n    \"if-domains\": [\"example.com\"]}, \"action\": {\"type\": \"block\"}}\n]"
        let warning = RuleListLint.lint(json: Array(text.utf8)).warnings.first
        // The value of "if-domains": line 3, after four spaces and `"if-domains": `.
        #expect(warning?.line == 3)
        #expect(warning?.column == 5 + #""if-domains": "#.count)
    }
}

/// The domain entries `domain-never-matches` reports do match no host with the matcher (the reference
/// engine, conformance-tested against WebKit), on hosts their author likely meant; the near entries
/// without the warning do.
@Suite struct DomainNeverMatchesAgreesWithTheMatcher {
    static let hosts = ["https://example.com/", "https://a.example.com/", "https://a.b.example.com/x"]

    static func blocked(_ domain: String) throws -> [Bool] {
        let rule = #"[{"trigger":{"url-filter":"ads","if-domain":["\#(domain)"]},"action":{"type":"block"}}]"#
        let list = try #require(TestLists.compile(rule).list)
        let blocker = ContentBlocker(lists: [list], engine: .reference)
        return try hosts.map { top in
            let load = try #require(TestLists.script("https://cdn.test/ads.js", top: top))
            return blocker.results(for: load).blockedLoad
        }
    }

    @Test func reportedEntriesMatchNothing() throws {
        for domain in [
            "*.example.com", "~example.com", "example.com/ads", ".example.com", "example.com$", "*", "example.com.",
        ] {
            #expect(try Self.blocked(domain) == [false, false, false], "\(domain)")
        }
        #expect(try Self.blocked("*example.com") == [true, true, true])
        #expect(try Self.blocked("example.com") == [true, false, false])
    }
}
