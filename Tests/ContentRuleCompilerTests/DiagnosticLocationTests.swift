import ContentRuleModel
import Foundation
import RuleListParser
import Testing

@testable import ContentRuleCompiler

/// Errors that point: every diagnostic of a JSON rule list carries the line and column of the value it
/// is about, diagnostics come in file order after WebKit's own first error, a bad flag value is named
/// with the valid ones, and a refused url-filter says why and where. Expected positions are found in
/// the test's own text (the first or last occurrence of a marker), not read from the code under test.
@Suite struct DiagnosticLocationTests {
    /// The 1-based line and column (in characters) where `marker` occurs in `text` (`last`: its last
    /// occurrence).
    static func position(of marker: String, in text: String, last: Bool = false) -> (Int, Int) {
        let range = last ? text.range(of: marker, options: .backwards)! : text.range(of: marker)!
        let before = text[..<range.lowerBound]
        let line = before.count { $0 == "\n" } + 1
        let column =
            before.count
            - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
        return (line, column)
    }

    static func located(_ diagnostic: RuleListDiagnostic?) -> (Int, Int)? {
        guard let diagnostic, let line = diagnostic.line, let column = diagnostic.column else { return nil }
        return (line, column)
    }

    @Test func everyDiagnosticHasItsPositionInFileOrderAfterWebKitsFirst() throws {
        let text = """
            [
              {"trigger": {"url-filter": "(ads"}, "action": {"type": "block"}},
              {"trigger": {"url-filter": "é", "resource-type": ["imag"]}, "action": {"type": "block"}},
              {"trigger": {"url-filter": "[z-a]"},
               "action": {"type": "block"}},
              {"trigger": {"url-filter": "x"}, "action": {"type": "blok"}},
              {"trigger": {"url-filter": "ok", "url-filter": "||example.com^"}, "action": {"type": "block"}}
            ]
            """
        let result = RuleListCompiler.compile(json: Array(text.utf8))
        let diagnostics = result.diagnostics
        try #require(diagnostics.count == 5, "\(diagnostics)")
        // WebKit meets the parse errors first (rule 1's flag, rule 3's action type), then the patterns
        // of the rules that parsed: rule 1's error is its own first.
        #expect(diagnostics[0].ruleIndex == 1)
        #expect(diagnostics[0].error == .jsonInvalidStringInTriggerFlagsArray)
        #expect(
            Self.located(diagnostics[0]).map { [$0.0, $0.1] }
                == {
                    let p = Self.position(of: #""imag""#, in: text)
                    return [p.0, p.1]
                }())
        // The rest in file order: rules 0, 2, 3, 4.
        #expect(diagnostics.dropFirst().map(\.ruleIndex) == [0, 2, 3, 4])
        let expected = [
            Self.position(of: #""(ads""#, in: text), Self.position(of: #""[z-a]""#, in: text),
            Self.position(of: #""blok""#, in: text),
            // A repeated key: the last one is the rule's, and the position is its value's.
            Self.position(of: #""||example.com^""#, in: text, last: true),
        ]
        #expect(
            diagnostics.dropFirst().map { Self.located($0).map { [$0.0, $0.1] } ?? [] }
                == expected.map { [$0.0, $0.1] })
        // Columns count characters: rule 1's line has an é before "imag".
        #expect(diagnostics[0].column == Self.position(of: #""imag""#, in: text).1)
    }

    /// A document that is not an array is placed at its first character.
    @Test func aTopLevelThatIsNotAnArrayPointsAtTheDocument() {
        let diagnostic = RuleListCompiler.compile(json: Array("\n  {}".utf8)).diagnostics.first
        #expect(diagnostic?.error == .jsonTopLevelStructureNotAnArray)
        #expect(diagnostic?.line == 2 && diagnostic?.column == 3)
    }

    @Test func aMissingKeyPointsAtItsObjectAndSyntaxErrorsAtTheirByte() {
        let text = "[\n  {\"trigger\": {\"url-filter\": \"a\"},\n   \"action\": {\"kind\": \"block\"}}\n]"
        let diagnostic = RuleListCompiler.compile(json: Array(text.utf8)).diagnostics.first
        #expect(diagnostic?.keyPath == "action.type")
        #expect(
            Self.located(diagnostic).map { [$0.0, $0.1] }
                == {
                    let p = Self.position(of: #"{"kind""#, in: text)
                    return [p.0, p.1]
                }())
        let syntax = "[\n  {\"trigger\": {\"url-filter\": \"a\"},}\n]"
        let error = RuleListParser.parse(syntax).diagnostics.first
        #expect(error?.error == .jsonInvalid)
        #expect(
            Self.located(error).map { [$0.0, $0.1] }
                == {
                    let p = Self.position(of: "}\n]", in: syntax)
                    return [p.0, p.1]
                }())
        // Without the text there is no position.
        #expect(RuleListParser.parse(value: .array([.null])).diagnostics.first?.line == nil)
    }

    @Test func aBadFlagValueIsNamedWithTheLikelyAndValidOnes() {
        func detail(_ trigger: String) -> String? {
            RuleListCompiler.compile(
                json: Array(#"[{"trigger":{"url-filter":"a",\#(trigger)},"action":{"type":"block"}}]"#.utf8)
            )
            .diagnostics.first?.detail
        }
        #expect(
            detail(#""resource-type":["imag"]"#)
                == #""imag" is not a resource-type value; did you mean "image"? (valid: "#
                + ResourceType.triggerNames.joined(separator: ", ") + ")")
        #expect(
            detail(#""load-type":["3rd-party"]"#)?.hasPrefix(
                #""3rd-party" is not a load-type value; did you mean "third-party"?"#) == true)
        // Far from every name: no guess.
        #expect(
            detail(#""load-context":["everywhere"]"#)
                == #""everywhere" is not a load-context value (valid: top-frame, child-frame)"#)
        #expect(detail(#""resource-type":[1]"#) == "not a string")
        for name in ResourceType.triggerNames { #expect(ResourceType(triggerName: name) != nil, "\(name)") }
    }

    /// WebKit logs "Internal error in YARR." for each of these: the detail says what and where.
    @Test(arguments: [
        (
            "*ads",
            "Internal error in YARR. Nothing to repeat before the quantifier `*`. At url-filter character 1: `*`."
        ),
        ("[z-a]", "Internal error in YARR. The range `z-a` is out of order. At url-filter character 1: `[z-a`."),
        ("(ads", "Internal error in YARR. A `(` that is never closed. At the end of the url-filter."),
        (#"ads\\"#, "Internal error in YARR. A `\\` at the end of the pattern. At url-filter character 4: `\\`."),
        (
            "a{3,2}",
            "Internal error in YARR. The quantifier `{3,2}` has its minimum above its maximum. At url-filter character 2: `{3,2}`."
        ),
        ("a)", "Internal error in YARR. A `)` with no `(` before it. At url-filter character 2: `)`."),
        ("a|b", "Disjunctions are not supported yet. At url-filter character 2: `|`."),
    ])
    func refusedURLFiltersSayWhyAndWhere(pattern: String, detail: String) {
        let json = #"[{"trigger":{"url-filter":"\#(pattern)"},"action":{"type":"block"}}]"#
        let diagnostic = RuleListCompiler.compile(json: Array(json.utf8)).diagnostics.first
        #expect(diagnostic?.error == .jsonInvalidRegex)
        #expect(diagnostic?.detail == detail)
    }

    @Test func adBlockSyntaxGetsAHintANearRegexDoesNot() {
        #expect(
            RuleListCompiler.adBlockHint("||example.com^")?.contains(#"^[htpsw]+://([a-z0-9_-]+\.)*example\.com[/:?]"#)
                == true)
        #expect(RuleListCompiler.adBlockHint("|https://ads.") != nil)
        #expect(RuleListCompiler.adBlockHint("ads$third-party") != nil)
        #expect(RuleListCompiler.adBlockHint("ads$script,domain=example.com") != nil)
        #expect(RuleListCompiler.adBlockHint("a|b") == nil)
        #expect(RuleListCompiler.adBlockHint("^https?://") == nil)
        #expect(RuleListCompiler.adBlockHint("ads$") == nil)
        #expect(RuleListCompiler.adBlockHint("price$100") == nil)
    }

    /// A domain entry WebKit refuses because of AdBlock's `||` or `^` (spec §1.4: the entry is placed
    /// in a generated pattern, `|` and `^` unescaped) gets the hint; one refused for another reason does
    /// not.
    @Test(arguments: [
        ("||example.com", "AdBlock Plus syntax"), ("example.com^", "AdBlock Plus syntax"),
        ("example.com|foo.com", "give each domain as an entry of its own"), ("(example", nil), ("(example$", nil),
    ])
    func adBlockDomainEntriesGetAHint(domain: String, hint: String?) {
        let json = #"[{"trigger":{"url-filter":"ads","if-domain":["\#(domain)"]},"action":{"type":"block"}}]"#
        let diagnostic = RuleListCompiler.compile(json: Array(json.utf8)).diagnostics.first
        #expect(diagnostic?.error == .jsonInvalidRegex)
        let detail = diagnostic?.detail ?? ""
        #expect(hint.map { detail.contains($0) } ?? !detail.contains("A domain entry"), "\(detail)")
    }

    /// A top-URL or frame-URL condition value is a regular expression the author wrote: its refusal
    /// has YARR's reason and position, and the AdBlock hint; not the domain entries' hint.
    @Test func conditionValuesGetTheURLFiltersReasons() {
        let json = #"[{"trigger":{"url-filter":"ads","if-top-url":["||example.com^"]},"action":{"type":"block"}}]"#
        let detail = RuleListCompiler.compile(json: Array(json.utf8)).diagnostics.first?.detail ?? ""
        #expect(detail.contains("At if-top-url[0] character 1: `|`"), "\(detail)")
        #expect(detail.contains("AdBlock Plus syntax") && !detail.contains("A domain entry"), "\(detail)")
    }
}

/// A dropped css-display-none rule names the selector WebKit refuses, not the whole list.
@Suite struct DroppedSelectorTests {
    static func detail(_ selector: String) -> String? {
        let json =
            #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":"\#(selector)"}}]"#
        return RuleListCompiler.compile(json: Array(json.utf8)).diagnostics.first?.detail
    }

    @Test func theRefusedSelectorIsNamed() {
        #expect(
            Self.detail(".ad,aside:-abp-has(.x),.b")
                == #"rule dropped: invalid CSS selector list: WebKit refuses the selector "aside:-abp-has(.x)", selector 2 of 3"#
        )
        #expect(
            Self.detail(".a,,.b")
                == "rule dropped: invalid CSS selector list: WebKit refuses an empty selector, selector 2 of 3")
        // A comma inside an attribute value does not cut the list.
        #expect(
            Self.detail(#"[title=\"a,b\"],::nope"#)
                == #"rule dropped: invalid CSS selector list: WebKit refuses the selector "::nope", selector 2 of 2"#)
        // One selector: the list itself, shortened when long.
        let long = "::nope" + String(repeating: ".x", count: 100)
        #expect(Self.detail(long)?.hasSuffix("… (86 more characters)\"") == true)
        #expect(Self.detail(".fine,.also-fine") == nil)
    }
}
