import ContentRuleCompiler
import ContentRuleFormat
package import ContentRuleModel
import RuleListParser

/// `content-blocker lint`: what WebKit accepts without a word that likely does not do what its author
/// meant. Lints never change the verdict: the list's errors are `check`'s.
package enum RuleListLint {
    /// What linting a rule list found.
    package struct Report: Sendable {
        /// The list's errors and warnings as `check` reports them (located, in file order).
        package var diagnostics: [RuleListDiagnostic]
        /// The lint warnings, in file order.
        package var warnings: [LintWarning]
        /// The checks that need a valid list (its compiled rules, or every rule in place), not made
        /// when it is invalid.
        package var notChecked: [String] = []
    }

    /// What an invalid list is not checked for.
    static let checksNeedingAValidList = [
        "matches-everything", "no-index-literal", "cancels-nothing", "never-fires (unless- values matching every URL)",
    ]

    /// Lints the JSON rule list `json`; with `target`, also for that Safari release
    /// (``SafariFeature``).
    /// - Complexity: a compile of the list plus one pass over its text and rules.
    package static func lint(json: [UInt8], target: SafariVersion? = nil) -> Report {
        // The text is read once: its JSON value gives the rules to compile and the keys to lint.
        guard case .success(let document) = JSONReader.parse(json), case .array(let elements) = document else {
            return Report(
                diagnostics: RuleListCompiler.compile(json: json).diagnostics, warnings: [],
                notChecked: ["every check (the text is not a JSON array)"])
        }
        let map = RuleListSourceMap(json: json)
        let parsed = RuleListParser.parse(value: document)
        let (list, patternDiagnostics) = RuleListCompiler.compile(parsed.rules, sourceRuleCount: parsed.ruleCount)
        let diagnostics = RuleListParser.locatedInFileOrder(parsed.diagnostics + patternDiagnostics, map: map)
        let valid = !diagnostics.contains { $0.severity == .error }
        var warnings: [LintWarning] = []
        for (index, element) in elements.enumerated() {
            guard let rule = element.objectValue else { continue }
            warnings += keyWarnings(rule, index: index)
            for (keyPath, _) in map.repeatedKeys(rule: index) {
                warnings.append(
                    LintWarning(
                        .duplicateKey,
                        "\"\(keyPath.split(separator: ".").last ?? "")\" is written more than once: the last value counts",
                        ruleIndex: index, keyPath: keyPath))
            }
        }
        warnings += duplicateRules(parsed.rules)
        warnings += neverFiring(parsed.rules)
        // In an invalid list the rules with errors are missing: what comes before an ignore rule is not known.
        if valid { warnings += ignoresCancellingNothing(parsed.rules) + misplacedExceptions(parsed.rules) }
        for parsed in parsed.rules {
            guard let problem = adBlockSyntaxProblem(parsed.rule.trigger.urlFilter) else { continue }
            warnings.append(
                LintWarning(.adBlockSyntax, problem, ruleIndex: parsed.index, keyPath: "trigger.url-filter"))
        }
        if let target {
            warnings += compatibilityWarnings(
                elements: elements, rules: parsed.rules, ruleCount: parsed.ruleCount, target: target)
        }
        for diagnostic in diagnostics where diagnostic.severity == .warning {
            let code: LintCode =
                diagnostic.keyPath == "action.selector"
                ? .selectorDropped
                : diagnostic.detail?.hasPrefix("never matches here: PCRE2") == true ? .patternTooLarge : .webKitLimit
            warnings.append(
                LintWarning(code, diagnostic.message, ruleIndex: diagnostic.ruleIndex, keyPath: diagnostic.keyPath))
        }
        if valid, let list { warnings += costWarnings(list) + everythingWarnings(list) }
        let located = warnings.map { warning -> LintWarning in
            var located = warning
            if let rule = warning.ruleIndex, let offset = map.byteOffset(rule: rule, keyPath: warning.keyPath) {
                (located.line, located.column) = map.position(ofByte: offset)
            }
            return located
        }
        let ordered = located.enumerated().sorted { a, b in
            let left = (a.element.line ?? .max, a.element.column ?? .max, a.offset)
            let right = (b.element.line ?? .max, b.element.column ?? .max, b.offset)
            return left < right
        }.map(\.element)
        return Report(diagnostics: diagnostics, warnings: ordered, notChecked: valid ? [] : checksNeedingAValidList)
    }

    /// The keys each level of a rule may have (spec §1.3–§1.5), by action type for the action.
    static let ruleKeys: Set<String> = ["trigger", "action", "_identifier", "_rulesetIdentifier"]
    static let triggerKeys: [String] =
        [
            "url-filter", "url-filter-is-case-sensitive", "top-url-filter-is-case-sensitive",
            "frame-url-filter-is-case-sensitive", "resource-type", "load-type", "load-context", "request-method",
        ] + TriggerCondition.Kind.allCases.map(\.rawValue)
    static func actionKeys(_ type: String?) -> [String] {
        switch type {
        case "css-display-none": ["type", "selector"]
        case "notify": ["type", "notification"]
        case "redirect": ["type", "redirect"]
        case "modify-headers": ["type", "request-headers", "response-headers", "priority"]
        default: ["type"]
        }
    }
    static let booleanKeys = [
        "url-filter-is-case-sensitive", "top-url-filter-is-case-sensitive", "frame-url-filter-is-case-sensitive",
    ]

    /// Unknown keys, non-boolean flags and domain entries no host can match.
    static func keyWarnings(_ rule: JSONObject, index: Int) -> [LintWarning] {
        var warnings: [LintWarning] = []
        func unknown(_ keys: [String], known: [String], path: String, context: String) {
            for key in keys where !known.contains(key) {
                var message = "\(context) has no key \"\(key)\": WebKit ignores it"
                if let likely = RuleListParser.likelyName(key, among: known) {
                    message += " (did you mean \"\(likely)\"?)"
                }
                warnings.append(LintWarning(.unknownKey, message, ruleIndex: index, keyPath: path + key))
            }
        }
        unknown(rule.keys, known: Array(ruleKeys), path: "", context: "a rule")
        if let trigger = rule.object("trigger") {
            unknown(trigger.keys, known: triggerKeys, path: "trigger.", context: "a trigger")
            for key in booleanKeys {
                guard let value = trigger[key] else { continue }
                if case .bool = value { continue }
                warnings.append(
                    LintWarning(
                        .notABoolean,
                        "\"\(key)\" is not a boolean (write true or false, without quotes): WebKit ignores it, so it is false",
                        ruleIndex: index, keyPath: "trigger.\(key)"))
            }
            for kind in [TriggerCondition.Kind.ifDomain, .unlessDomain] {
                for (position, domain) in (trigger[kind.rawValue]?.arrayValue ?? []).enumerated() {
                    guard let text = domain.stringValue, let reason = domainProblem(text) else { continue }
                    warnings.append(
                        LintWarning(
                            .domainNeverMatches, "\"\(text)\" \(reason)", ruleIndex: index,
                            keyPath: "trigger.\(kind.rawValue)[\(position)]"))
                }
            }
        }
        // An action type WebKit does not know is an error (check's): its keys are not linted.
        if let action = rule.object("action"), let type = action.string("type"), ActionType(rawValue: type) != nil {
            let article = type.hasPrefix("i") ? "an" : "a"
            unknown(action.keys, known: actionKeys(type), path: "action.", context: "\(article) \(type) action")
        }
        return warnings
    }

    /// What is wrong with an `if-domain` / `unless-domain` entry that matches no host (or, `*` alone
    /// and a final dot, hardly any), after the quoted entry; nil when it can match a host. WebKit makes
    /// the entry a pattern `scheme://` + (`([^/]*\.)*` for a leading `*`) + the entry + `[:/]` (spec
    /// §1.4), so the entry must spell the end of a host.
    static func domainProblem(_ domain: String) -> String? {
        let body = domain.hasPrefix("*") ? domain.dropFirst() : Substring(domain)
        if domain.hasPrefix("*.") {
            return
                "never matches a host: WebKit's `*` is a prefix marker, not a glob: \"*\(domain.dropFirst(2))\" means the domain and its subdomains (\"\(domain)\" asks for a host with an empty label)"
        }
        if body.hasPrefix("~") {
            return "never matches a host: `~` is AdBlock syntax for an exception; use unless-domain"
        }
        if body.isEmpty {
            return
                "is not every domain: `*` alone matches only URLs without a host (file:) or with a final dot; leave the condition out to match every domain"
        }
        if body.hasPrefix(".") || body.contains("..") {
            return "never matches a host: a host has no empty label"
        }
        if body.hasSuffix(".") {
            return "matches only a host spelt with a final dot, which URLs seldom have"
        }
        if let bad = body.first(where: { "/:?#@ *$".contains($0) }) {
            return "never matches a host: a host has no `\(bad)` (give the domain alone)"
        }
        return nil
    }

    /// Actions a rule can repeat with no effect: a second block, block-cookies, make-https or the same
    /// css-display-none selector changes nothing (notifications would be sent twice, redirects and
    /// header changes applied twice, and an ignore rule depends on its place).
    static func repeatsHarmlessly(_ action: Action) -> Bool {
        switch action {
        case .block, .blockCookies, .makeHTTPS, .cssDisplayNone: true
        default: false
        }
    }

    /// Rules identical to an earlier rule, and rules an earlier rule with the same url-filter, action
    /// and condition fires with on every load (its flags admit every load the later rule's do), with no
    /// `ignore-previous-rules` between them.
    static func duplicateRules(_ rules: [ParsedRule]) -> [LintWarning] {
        /// Earlier rules by url-filter, case, condition and action.
        struct Key: Hashable {
            var urlFilter: String
            var caseSensitive: Bool
            var condition: TriggerCondition?
            var conditionCase: Bool
            var action: Action
        }
        var seen: [ContentRule: Int] = [:]
        var byKey: [Key: [ParsedRule]] = [:]
        var warnings: [LintWarning] = []
        for parsed in rules {
            let rule = parsed.rule
            if rule.action == .ignorePreviousRules {
                seen.removeAll(keepingCapacity: true)
                byKey.removeAll(keepingCapacity: true)
                continue
            }
            guard repeatsHarmlessly(rule.action) else { continue }
            if let first = seen[rule] {
                warnings.append(
                    LintWarning(
                        .duplicateRule, "the same rule as rule \(first) as WebKit reads them: it adds nothing",
                        ruleIndex: parsed.index, keyPath: nil))
                continue
            }
            seen[rule] = parsed.index
            let trigger = rule.trigger
            let key = Key(
                urlFilter: trigger.urlFilter, caseSensitive: trigger.urlFilterIsCaseSensitive,
                condition: trigger.condition,
                conditionCase: trigger.condition.map {
                    $0.kind.testsFrameURL ? trigger.frameURLFilterIsCaseSensitive : trigger.topURLFilterIsCaseSensitive
                } ?? false, action: rule.action)
            // A case-insensitive url-filter matches wherever the same case-sensitive one does.
            var keys = [key]
            if key.caseSensitive {
                var insensitive = key
                insensitive.caseSensitive = false
                keys.append(insensitive)
            }
            if let earlier = keys.lazy.compactMap({ byKey[$0]?.first { admitsEveryLoad(of: trigger, $0.rule.trigger) } }
            )
            .first {
                warnings.append(
                    LintWarning(
                        .shadowedRule,
                        "rule \(earlier.index) has the same url-filter, condition and action and fires on every load this rule fires on: it adds nothing",
                        ruleIndex: parsed.index, keyPath: nil))
            }
            byKey[key, default: []].append(parsed)
        }
        return warnings
    }

    /// Whether `earlier`'s flags admit every load `later`'s do. An empty set admits every load, as does
    /// one naming every value (`load-type: ["first-party", "third-party"]`).
    static func admitsEveryLoad(of later: Trigger, _ earlier: Trigger) -> Bool {
        func covers<T: OptionSet>(_ wide: T, _ narrow: T, all: T) -> Bool where T.RawValue: FixedWidthInteger {
            let wide = wide.isEmpty ? all : wide
            return (narrow.isEmpty ? all : narrow).isSubset(of: wide)
        }
        return covers(earlier.resourceTypes, later.resourceTypes, all: .all)
            && covers(earlier.loadTypes, later.loadTypes, all: [.firstParty, .thirdParty])
            && covers(earlier.loadContexts, later.loadContexts, all: [.topFrame, .childFrame])
            && (earlier.requestMethod == nil || earlier.requestMethod == later.requestMethod)
    }

    /// Rules whose flags exclude each other, and rules whose condition WebKit tests against no request
    /// method because they have a `request-method` (an `if-` condition never holds, an `unless-`
    /// condition always does: spec §4.6, confirmed by the oracle).
    static func neverFiring(_ rules: [ParsedRule]) -> [LintWarning] {
        rules.compactMap { parsed in
            let trigger = parsed.rule.trigger
            if trigger.requestMethod != nil, let kind = trigger.condition?.kind {
                return kind.isInverted
                    ? LintWarning(
                        .conditionIgnored,
                        "with a request-method, WebKit tests \(kind.rawValue) against no method, so it never excludes a load: the rule fires whatever the URL",
                        ruleIndex: parsed.index, keyPath: "trigger.\(kind.rawValue)")
                    : LintWarning(
                        .neverFires,
                        "with a request-method, WebKit tests \(kind.rawValue) against no method, so it never holds: the rule never fires",
                        ruleIndex: parsed.index, keyPath: "trigger.\(kind.rawValue)")
            }
            guard !trigger.resourceTypes.isEmpty, trigger.resourceTypes.isSubset(of: .topDocument),
                trigger.loadContexts == .childFrame
            else { return nil }
            return LintWarning(
                .neverFires,
                "resource-type is only top-document and load-context only child-frame: a top-level navigation is in the top frame, so the rule never fires",
                ruleIndex: parsed.index, keyPath: "trigger.load-context")
        }
    }

    /// `ignore-previous-rules` rules with only ignore rules before them, and `ignore-following-rules`
    /// rules with only ignore rules after them: an exception placed on the wrong side of the rules it
    /// was meant to cancel.
    static func ignoresCancellingNothing(_ rules: [ParsedRule]) -> [LintWarning] {
        let first = rules.firstIndex { !isIgnore($0) } ?? rules.count
        let last = rules.lastIndex { !isIgnore($0) } ?? -1
        return rules.enumerated().compactMap { position, parsed in
            switch parsed.rule.action {
            case .ignorePreviousRules where position < first:
                LintWarning(
                    .cancelsNothing,
                    "no other rule comes before this ignore-previous-rules: it cancels only the rules before it in its list, so it cancels nothing (put an exception after the rules it cancels)",
                    ruleIndex: parsed.index, keyPath: "action.type")
            case .ignoreFollowingRules where position > last:
                LintWarning(
                    .cancelsNothing,
                    "no other rule comes after this ignore-following-rules: it cancels only the rules after it in its list, so it cancels nothing",
                    ruleIndex: parsed.index, keyPath: "action.type")
            default: nil
            }
        }
    }

    /// `ignore-previous-rules` rules whose url-filter no earlier rule has and a later one does (the
    /// first such later rule named): the exception is before the rule it was likely meant to cancel.
    /// An ignore rule that cancels nothing at all is `cancels-nothing`'s.
    static func misplacedExceptions(_ rules: [ParsedRule]) -> [LintWarning] {
        var earlier: Set<String> = []
        var laterRule: [String: Int] = [:]
        for parsed in rules.reversed() where !isIgnore(parsed) {
            laterRule[parsed.rule.trigger.urlFilter] = parsed.index
        }
        var warnings: [LintWarning] = []
        var anyBefore = false
        for parsed in rules {
            let urlFilter = parsed.rule.trigger.urlFilter
            if !isIgnore(parsed) {
                earlier.insert(urlFilter)
                anyBefore = true
                continue
            }
            guard parsed.rule.action == .ignorePreviousRules, anyBefore, !earlier.contains(urlFilter),
                let later = laterRule[urlFilter], later > parsed.index
            else { continue }
            warnings.append(
                LintWarning(
                    .misplacedException,
                    "no earlier rule has this ignore-previous-rules' url-filter, and rule \(later) after it does: an ignore-previous-rules cancels only the rules before it, so not rule \(later)",
                    ruleIndex: parsed.index, keyPath: "action.type"))
        }
        return warnings
    }

    static func isIgnore(_ parsed: ParsedRule) -> Bool {
        parsed.rule.action == .ignorePreviousRules || parsed.rule.action == .ignoreFollowingRules
    }

    /// Rules the index cannot reach through a literal: tested on every load.
    static func costWarnings(_ list: CompiledRuleList) -> [LintWarning] {
        // A rule checked on every load because of its frame-URL or request-method condition is the
        // matcher's choice, not the url-filter's: only a url-filter without a 4-byte literal is reported.
        list.rules.filter {
            $0.entry == .always && !$0.urlFilter.matchesEverything
                && ($0.urlFilter.requiredLiteral?.utf8.count ?? 0) < IndexHash.gramLength
        }.map { rule in
            LintWarning(
                .noIndexLiteral,
                "the url-filter \"\(RuleListParser.shortened(rule.urlFilter.source))\" has no literal of 4 or more characters outside groups and classes: the rule is tested on every load",
                ruleIndex: Int(rule.sourceIndex), keyPath: "trigger.url-filter")
        }
    }
}
