/// One thing `content-blocker lint` finds: something WebKit accepts without a word that likely does
/// not do what its author meant, or costs every request. It never changes WebKit's verdict.
package struct LintWarning: Sendable, Hashable {
    /// The kind, as `--disable` names it.
    package var code: LintCode
    package var message: String
    /// The rule it belongs to (index in the JSON array) and where in it.
    package var ruleIndex: Int?
    package var keyPath: String?
    /// 1-based line and column (characters) in the JSON text.
    package var line: Int?
    package var column: Int?
    /// The source of this warning's fact when it is not its code's (``LintCode/source``): each
    /// `safari-version` fact has its own.
    package var source: String?
    package init(_ code: LintCode, _ message: String, ruleIndex: Int?, keyPath: String?) {
        self.code = code
        self.message = message
        self.ruleIndex = ruleIndex
        self.keyPath = keyPath
    }
}

/// The kinds of lint warning, each with the fact it rests on.
package enum LintCode: String, Sendable, Hashable, CaseIterable {
    /// A key WebKit does not read (misspelt, or of another action type): ignored.
    case unknownKey = "unknown-key"
    /// A key written twice in one object: the last value counts.
    case duplicateKey = "duplicate-key"
    /// A `*-is-case-sensitive` flag that is not a JSON boolean: ignored, so the default (false) holds.
    case notABoolean = "not-a-boolean"
    /// An `if-domain` / `unless-domain` entry no host can match (`*.example.com`, `~example.com`, a
    /// path or a port).
    case domainNeverMatches = "domain-never-matches"
    /// A rule identical to an earlier one with no `ignore-previous-rules` between them: it adds nothing.
    case duplicateRule = "duplicate-rule"
    /// A rule whose every load an earlier rule with the same url-filter and action also fires on, with
    /// no `ignore-previous-rules` between them: it adds nothing.
    case shadowedRule = "shadowed-rule"
    /// A rule that can never fire: its flags exclude each other (`resource-type` only `top-document`
    /// with `load-context` only `child-frame`: a top-level navigation is the top frame's), or it has a
    /// `request-method` and an `if-` condition (WebKit tests the condition against no method), or an
    /// `unless-` condition value that matches every URL.
    case neverFires = "never-fires"
    /// An `ignore-previous-rules` with no other rule before it, or an `ignore-following-rules` with none
    /// after it: an ignore rule cancels only the rules of its own list on its side, so it does nothing.
    case cancelsNothing = "cancels-nothing"
    /// An `ignore-previous-rules` with no earlier rule of its url-filter and a later one: the exception
    /// comes before the rule it was likely meant to cancel.
    case misplacedException = "misplaced-exception"
    /// A url-filter or condition value that matches every URL without being written `.*`: it can match
    /// an empty string (`(banner)?`, `a?`, `^$`).
    case matchesEverything = "matches-everything"
    /// A rule with a `request-method` and an `unless-` condition: WebKit tests the condition against no
    /// method, so it never excludes a load and the rule fires whatever the URL.
    case conditionIgnored = "condition-ignored"
    /// A url-filter with no literal the index can use: the rule is tested on every load.
    case noIndexLiteral = "no-index-literal"
    /// A `css-display-none` rule whose selector list WebKit refuses: the rule is dropped.
    case selectorDropped = "selector-dropped"
    /// A list WebKit would stop compiling (`check` and `compile` warn too).
    case webKitLimit = "webkit-limit"
    /// A pattern whose PCRE2 translation PCRE2 cannot compile: the rule never fires here (`check` and
    /// `compile` warn too).
    case patternTooLarge = "pattern-too-large"
    /// A url-filter in AdBlock Plus syntax that WebKit accepts as a regular expression meaning
    /// something else (`@@`, `##`, `/*`).
    case adBlockSyntax = "adblock-syntax"
    /// Something the Safari release given with `--target` does not know, or may not: a key it
    /// ignores (the rule matches more), an action or resource type or a rule count for which it
    /// rejects the list, a selector for which it drops the rule.
    case safariVersion = "safari-version"

    /// What the warning says, for `lint --help`.
    package var summary: String {
        switch self {
        case .unknownKey: "a key WebKit does not read (misspelt, or of another action type), with the likely key"
        case .duplicateKey: "a key written twice in one object: the last value counts"
        case .notABoolean: "a *-is-case-sensitive flag that is not true or false: ignored, so false"
        case .domainNeverMatches:
            "an if-domain or unless-domain entry no host can match (*.example.com, ~example.com, a path)"
        case .duplicateRule: "a rule identical to an earlier one, with no ignore-previous-rules between them"
        case .shadowedRule:
            "a rule an earlier rule with the same url-filter, action and condition fires with on every load it fires on"
        case .neverFires:
            "a rule that never fires: flags that exclude each other (top-document only in a child frame), request-method with an if- condition, or an unless- value matching every URL"
        case .conditionIgnored: "an unless- condition WebKit ignores because the rule has a request-method"
        case .cancelsNothing:
            "an ignore-previous-rules with no other rule before it (or ignore-following-rules with none after): it cancels nothing"
        case .misplacedException:
            "an ignore-previous-rules before the rules of its url-filter (none before it): it does not cancel them"
        case .matchesEverything:
            "a url-filter or if- condition value that matches every URL without being .* (it can match an empty string)"
        case .noIndexLiteral: "a url-filter without a literal the index can use: tested on every load"
        case .selectorDropped: "a css-display-none selector list WebKit refuses: the rule is dropped"
        case .webKitLimit: "a list WebKit would stop compiling (also warned by check and compile)"
        case .patternTooLarge:
            "a pattern PCRE2 cannot compile: the rule never fires here (also warned by check and compile)"
        case .adBlockSyntax:
            "a url-filter in AdBlock Plus syntax that WebKit reads as a different regular expression (@@, ##, /*)"
        case .safariVersion:
            "with --target: what that Safari release does not know, or may not (see SAFARI VERSIONS)"
        }
    }

    /// The source of the fact the warning states.
    package var source: String {
        switch self {
        case .unknownKey: "spec §1.3–§1.5: unknown keys are ignored (ContentExtensionParser.cpp)"
        case .duplicateKey: "spec §1.1: duplicate object keys, the last value wins (WTF JSON)"
        case .notABoolean: "spec §1.4: non-boolean values are silently ignored (getBoolean)"
        case .domainNeverMatches: "spec §1.4, domain → regex translation (getDomainList)"
        case .duplicateRule: "spec §4: actions of identical rules (ContentExtensionCompiler.cpp)"
        case .shadowedRule: "spec §4.5–§4.7: a rule fires when its url-filter, flags and condition hold"
        case .neverFires:
            "spec §1.4: top-document is a main-frame navigation, whose load context is the top frame; spec §4.6 and WebKitGTK 2.50.6 (Tests/Data/oracle/request_method_conditions.json): request-method with an if- condition never fires; spec §4.6: an unless- condition fires only if no value matches"
        case .cancelsNothing:
            "spec §4.7: ignore-previous-rules discards the list's actions before it, ignore-following-rules those after it"
        case .misplacedException:
            "spec §4.7: ignore-previous-rules discards the list's actions before it"
        case .matchesEverything:
            "spec §3.5: a pattern every part of which can be empty matches every URL (URLFilterParser.cpp, MatchesEverything)"
        case .conditionIgnored:
            "spec §4.6 and WebKitGTK 2.50.6 (Tests/Data/oracle/request_method_conditions.json): request-method with an unless- condition ignores it"
        case .noIndexLiteral: "this project's matcher (Documentation/DESIGN.md, Indexes)"
        case .selectorDropped: "spec §1.5: isValidCSSSelector; WebKit drops the rule"
        case .webKitLimit: "spec §5: WebKit's compiler limits"
        case .patternTooLarge: "PCRE2's compiled-size limit (pcre2_compile: regular expression is too large)"
        case .adBlockSyntax: "spec §3: a url-filter is a regular expression (URLFilterParser.cpp)"
        case .safariVersion: "spec §6 and WebKit's history, fact by fact (SAFARI VERSIONS)"
        }
    }
}
