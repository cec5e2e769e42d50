import ContentRuleMatcher
import ContentRuleModel
import RuleListLint
import TestSupport
import Testing

/// `adblock-syntax` on both sides, and what the reference matcher (conformance-tested against
/// WebKit) does with the url-filters it reports: they do not fire where their author meant.
@Suite struct AdBlockSyntaxTests {
    static func codes(_ urlFilter: String) -> [LintCode] {
        let json = #"[{"trigger":{"url-filter":"\#(urlFilter)"},"action":{"type":"block"}}]"#
        return RuleListLint.lint(json: Array(json.utf8)).warnings.map(\.code).filter { $0 != .noIndexLiteral }
    }

    @Test(arguments: [
        "@@example\\\\.com/ads", "example\\\\.com##\\\\.banner", "tracker#@#div", "/banner/*/img", "ad=*x", "-ad-*",
    ])
    func adBlockForms(urlFilter: String) {
        #expect(Self.codes(urlFilter) == [.adBlockSyntax], "\(urlFilter)")
    }

    /// The near forms: `@@` not in front, one `#`, a wildcard written `.*`, an escaped or class `*`,
    /// `*` repeating a letter.
    @Test(arguments: ["example\\\\.com/@@x", "page#top", "/banner/.*/img", "a\\\\/*b", "[/*]tracker", "trackers*"])
    func regularExpressions(urlFilter: String) {
        #expect(Self.codes(urlFilter).isEmpty, "\(urlFilter)")
    }

    static func blocks(_ urlFilter: String, _ url: String) throws -> Bool {
        let json = #"[{"trigger":{"url-filter":"\#(urlFilter)"},"action":{"type":"block"}}]"#
        let list = try #require(TestLists.compile(json).list)
        let blocker = ContentBlocker(lists: [list], engine: .reference)
        let load = try #require(TestLists.script(url, top: "https://site.test/"))
        return blocker.results(for: load).blockedLoad
    }

    @Test func theMarkerFoundIsNamed() {
        let json = #"[{"trigger":{"url-filter":"tracker#@#div"},"action":{"type":"block"}}]"#
        let message = RuleListLint.lint(json: Array(json.utf8)).warnings.first { $0.code == .adBlockSyntax }?.message
        #expect(message?.hasPrefix("`#@#` is AdBlock element hiding") == true)
    }

    @Test func reportedFiltersDoNotFireWhereMeant() throws {
        #expect(try !Self.blocks("@@example\\\\.com/ads", "https://example.com/ads.js"))
        #expect(try !Self.blocks("/banner/*/img", "https://cdn.test/banner/x/img.js"))
        #expect(try Self.blocks("/banner/.*/img", "https://cdn.test/banner/x/img.js"))
    }
}

/// `matches-everything` on both sides, and what the reference matcher does with what it reports: a
/// url-filter that can match an empty string fires on any URL, an `unless-` value matching every URL
/// stops the rule on every page.
@Suite struct MatchesEverythingTests {
    static func codes(_ trigger: String) -> [LintCode] {
        let json = #"[{"trigger":{\#(trigger)},"action":{"type":"block"}}]"#
        return RuleListLint.lint(json: Array(json.utf8)).warnings.map(\.code).filter { $0 != .noIndexLiteral }
    }

    @Test func reportedAndNearPatterns() {
        for pattern in ["(banner)?", "a?", "^$", "(ads)*"] {
            #expect(Self.codes(#""url-filter":"\#(pattern)""#) == [.matchesEverything], "\(pattern)")
            #expect(
                Self.codes(#""url-filter":"track","if-top-url":["\#(pattern)"]"#) == [.matchesEverything], "\(pattern)")
        }
        for pattern in [".*", "^.*", "^.*$", "banner", "(banner)+"] {
            #expect(Self.codes(#""url-filter":"\#(pattern)""#).isEmpty, "\(pattern)")
        }
        #expect(Self.codes(#""url-filter":"track","if-top-url":[".*"]"#).isEmpty)
        #expect(Self.codes(#""url-filter":"track","unless-top-url":[".*"]"#) == [.neverFires])
        #expect(Self.codes(#""url-filter":"track","unless-frame-url":["x?"]"#) == [.neverFires])
        #expect(Self.codes(#""url-filter":"track","unless-top-url":["tracker-free"]"#).isEmpty)
    }

    static func blocks(_ trigger: String, _ url: String) throws -> Bool {
        let json = #"[{"trigger":{\#(trigger)},"action":{"type":"block"}}]"#
        let list = try #require(TestLists.compile(json).list)
        let blocker = ContentBlocker(lists: [list], engine: .reference)
        let load = try #require(TestLists.script(url, top: "https://site.test/"))
        return blocker.results(for: load).blockedLoad
    }

    @Test func theMatcherAgrees() throws {
        #expect(try Self.blocks(#""url-filter":"(banner)?""#, "https://cdn.test/app.js"))
        #expect(try !Self.blocks(#""url-filter":"banner""#, "https://cdn.test/app.js"))
        #expect(try !Self.blocks(#""url-filter":"app","unless-top-url":[".*"]"#, "https://cdn.test/app.js"))
        #expect(try Self.blocks(#""url-filter":"app","if-top-url":["x?"]"#, "https://cdn.test/app.js"))
    }
}

/// `lint --target`: each fact on its three sides — a release known to lack the feature (does not
/// support), one between that and the first known to have it (may not support), and one that has
/// it (nothing). The releases come from each fact's source (``SafariFeature/source``).
@Suite struct SafariVersionTests {
    static func messages(_ rules: [String], target: String) throws -> [String] {
        let version = try #require(SafariVersion(argument: target))
        let json = "[" + rules.joined(separator: ",") + "]"
        return RuleListLint.lint(json: Array(json.utf8), target: version).warnings
            .filter { $0.code == .safariVersion }.map(\.message)
    }

    static func rule(_ trigger: String, _ action: String = #"{"type":"block"}"#) -> String {
        #"{"trigger":{"url-filter":"tracker"\#(trigger)},"action":\#(action)}"#
    }

    static func sides(
        _ rules: [String], lacking: String?, between: String?, having: String?, mentions: String,
        sourceMentions: String
    ) throws {
        if let lacking {
            let found = try messages(rules, target: lacking)
            #expect(
                found.count == 1 && found[0].contains("does not support") && found[0].contains(mentions), "\(found)")
        }
        if let between {
            let found = try messages(rules, target: between)
            #expect(found.count == 1 && found[0].contains("may not support") && found[0].contains(mentions), "\(found)")
        }
        if let having {
            #expect(try messages(rules, target: having).isEmpty)
        }
        let version = try #require(SafariVersion(argument: lacking ?? between ?? "safari-13"))
        let json = "[" + rules.joined(separator: ",") + "]"
        let warning = RuleListLint.lint(json: Array(json.utf8), target: version).warnings.first {
            $0.code == .safariVersion
        }
        #expect(warning?.source?.contains(sourceMentions) == true)
    }

    @Test func triggerKeysOlderReleasesIgnore() throws {
        try Self.sides(
            [Self.rule(#","load-context":["top-frame"]"#)], lacking: "safari-14", between: nil, having: "safari-15",
            mentions: "load-context", sourceMentions: "219001")
        try Self.sides(
            [Self.rule(#","if-frame-url":["^https://a\\.test/"]"#)], lacking: "safari-14", between: "safari-17",
            having: "safari-18", mentions: "if-frame-url", sourceMentions: "spec §6")
        try Self.sides(
            [Self.rule(#","unless-frame-url":["^https://a\\.test/"]"#)], lacking: "safari-18.1", between: "safari-18.4",
            having: "safari-26", mentions: "unless-frame-url", sourceMentions: "282771")
        try Self.sides(
            [Self.rule(#","request-method":"post""#)], lacking: "safari-18.4", between: "safari-18.5",
            having: "safari-26", mentions: "request-method", sourceMentions: "290962")
        // A key that restricts nothing changes nothing where it is ignored.
        #expect(try Self.messages([Self.rule(#","load-context":[]"#)], target: "safari-14").isEmpty)
    }

    @Test func typesOlderReleasesReject() throws {
        try Self.sides(
            [Self.rule(#","resource-type":["child-document"]"#)], lacking: "safari-18.3", between: "safari-26",
            having: nil, mentions: "top-document", sourceMentions: "290067")
        try Self.sides(
            [Self.rule(#","resource-type":["script","websocket"]"#)], lacking: nil, between: "safari-16",
            having: "safari-17", mentions: "websocket", sourceMentions: "2022")
        try Self.sides(
            [Self.rule("", #"{"type":"ignore-following-rules"}"#)], lacking: "safari-18.5", between: "safari-26",
            having: nil, mentions: "ignore-following-rules", sourceMentions: "294037")
        try Self.sides(
            [Self.rule("", #"{"type":"redirect","redirect":{"url":"https://a.test/"}}"#)], lacking: "safari-14",
            between: "safari-16.4", having: "safari-16.5", mentions: "redirect", sourceMentions: "395")
        // `document` has been a resource type since 2015.
        #expect(try Self.messages([Self.rule(#","resource-type":["document","script"]"#)], target: "safari-13").isEmpty)
    }

    @Test func selectorsAndListWideFacts() throws {
        try Self.sides(
            [Self.rule("", #"{"type":"css-display-none","selector":"div:has(> .ad)"}"#)], lacking: "safari-16",
            between: "safari-16.3", having: "safari-16.4", mentions: ":has()", sourceMentions: "250609")
        #expect(
            try Self.messages(
                [Self.rule("", #"{"type":"css-display-none","selector":"div > .ad"}"#)], target: "safari-13"
            )
            .isEmpty)
        let domain = Self.rule(#","if-domain":["a.test"]"#)
        let topURL = Self.rule(#","if-top-url":["^https://a\\.test/"]"#)
        try Self.sides(
            [domain, topURL], lacking: "safari-13", between: "safari-15", having: "safari-16", mentions: "mix",
            sourceMentions: "JSONTopURLAndDomainConditions")
        #expect(try Self.messages([domain, domain], target: "safari-13").isEmpty)
    }

    /// The rule limit is read from the parsed count: 50,001 rules warn before Safari 15, 50,000 do not.
    @Test func ruleLimitBeforeSafari15() throws {
        let target = try #require(SafariVersion(argument: "safari-14"))
        let over = RuleListLint.compatibilityWarnings(elements: [], rules: [], ruleCount: 50_001, target: target)
        #expect(over.map(\.message).first?.contains("more than 50,000 rules") == true)
        #expect(RuleListLint.compatibilityWarnings(elements: [], rules: [], ruleCount: 50_000, target: target).isEmpty)
        let safari15 = try #require(SafariVersion(argument: "safari-15"))
        #expect(
            RuleListLint.compatibilityWarnings(elements: [], rules: [], ruleCount: 50_001, target: safari15).isEmpty)
    }

    @Test func targetsThatNameARelease() {
        #expect(SafariVersion(argument: "safari-16.4") == SafariVersion(16, 4))
        #expect(SafariVersion(argument: "26") == SafariVersion(26))
        for bad in ["safari-20", "safari-12", "safari-27", "safari-16.", "safari-x", "16.4.1", "safari-١٦"] {
            #expect(SafariVersion(argument: bad) == nil, "\(bad)")
        }
    }
}
