import ContentRuleModel
package import RuleListParser

/// Something of the rule format that older Safari releases do not know, with the releases known
/// to lack it and the first known to have it, and what a list that uses it gets there
/// (`lint --target`, code `safari-version`).
///
/// "Known to lack" rests on a date: a change that landed in WebKit after a release was published
/// is not in it (or on a source that says so); "known to have" rests on a source that names the
/// release. Between the two the warning says "may". Older WebKit ignores trigger keys it does not
/// know, so the rule matches more; an action type or resource type it does not know fails the whole
/// list; a selector it refuses drops the rule (spec §6, §1.5).
package struct SafariFeature: Sendable {
    /// What an older release does with a list that uses the feature.
    package enum Effect: Sendable {
        /// The key is ignored; the text says what the rule then does.
        case ignored(String)
        /// The whole list is rejected (an unknown action type, resource type or too many rules).
        case listRejected
        /// The rule is dropped (a selector the release refuses).
        case ruleDropped
    }

    /// What is used, as the message names it.
    package var name: String
    /// The newest release known to lack it, if any is established.
    package var absentThrough: SafariVersion?
    /// The first release known to have it, if any is established.
    package var presentFrom: SafariVersion?
    package var effect: Effect
    /// Where each of the two facts comes from.
    package var source: String

    /// The warning for a list meant for `target`, or nil when `target` has the feature.
    func message(for target: SafariVersion) -> String? {
        if let presentFrom, target >= presentFrom { return nil }
        let consequence =
            switch effect {
            case .ignored(let what): "it ignores the key, so the rule \(what)"
            case .listRejected: "it rejects the whole list"
            case .ruleDropped: "it drops the rule"
            }
        let first = presentFrom.map { "known from \($0)" } ?? "no release is known to support this"
        if let absentThrough, target <= absentThrough {
            return "\(target) does not support \(name) (\(first)): \(consequence)"
        }
        let lacking = absentThrough.map { ", absent through \($0)" } ?? ""
        return "\(target) may not support \(name) (\(first)\(lacking)); if not, \(consequence)"
    }
}

extension SafariFeature {
    static let loadContext = SafariFeature(
        name: "the trigger key load-context", absentThrough: SafariVersion(14), presentFrom: SafariVersion(15),
        effect: .ignored("fires in every frame"),
        source:
            "WebKit bug 219001, from Safari 15 (AdguardTeam/SafariConverterLib#19); absent from the 2020 sources (spec §6)"
    )
    static let ifFrameURL = SafariFeature(
        name: "the trigger key if-frame-url", absentThrough: SafariVersion(14), presentFrom: SafariVersion(18),
        effect: .ignored("fires whatever the frame URL"),
        source:
            "absent from WebKit's 2020 sources, present in its 2023 sources, so in Safari 18 (2024) at the latest (spec §6)"
    )
    static let unlessFrameURL = SafariFeature(
        name: "the trigger key unless-frame-url", absentThrough: SafariVersion(18, 1), presentFrom: SafariVersion(26),
        effect: .ignored("fires whatever the frame URL"),
        source:
            "WebKit bug 282771, landed 2024-11-07, after Safari 18.1 (2024-10-28); new in Safari 26 (spec §6; AdguardTeam/SafariConverterLib SafariVersion)"
    )
    static let requestMethod = SafariFeature(
        name: "the trigger key request-method", absentThrough: SafariVersion(18, 4), presentFrom: SafariVersion(26),
        effect: .ignored("fires for every request method"),
        source:
            "WebKit bug 290962, landed 2025-04-03, after Safari 18.4 (2025-03-31); Safari 26 adds it (AdguardTeam/SafariConverterLib#114; spec §6)"
    )
    static let documentTypes = SafariFeature(
        name: "the resource types top-document and child-document", absentThrough: SafariVersion(18, 3),
        presentFrom: nil, effect: .listRejected,
        source:
            "WebKit bug 290067, landed 2025-03-20, after Safari 18.3 (2025-01-27); no release note names them (spec §6: 2024–2025)"
    )
    static let newerTypes = SafariFeature(
        name: "the resource types fetch, websocket, other, ping and csp-report", absentThrough: nil,
        presentFrom: SafariVersion(17), effect: .listRejected,
        source:
            "present in WebKit's 2022 sources, so in Safari 17 (2023) at the latest; their introduction is not determined (spec §6)"
    )
    static let ignoreFollowingRules = SafariFeature(
        name: "the action type ignore-following-rules", absentThrough: SafariVersion(18, 5), presentFrom: nil,
        effect: .listRejected,
        source:
            "WebKit bug 294037, landed 2025-06-04, after Safari 18.5 (2025-05-12); no release note names it (spec §6: 2025)"
    )
    static let redirectAndHeaders = SafariFeature(
        name: "the action types redirect and modify-headers", absentThrough: SafariVersion(14),
        presentFrom: SafariVersion(16, 5), effect: .listRejected,
        source:
            "absent from WebKit's 2019–2020 sources, added ~2021 (spec §6); supported by May 2023, Safari 16.5 (w3c/webextensions#395)"
    )
    static let hasSelector = SafariFeature(
        name: "the selector :has()", absentThrough: SafariVersion(16, 2), presentFrom: SafariVersion(16, 4),
        effect: .ruleDropped,
        source:
            "WebKit bug 250609 (2023-01-14: content blockers refused :has()); accepted from Safari 16.4 (AdguardTeam/SafariConverterLib SafariVersion, WebKit's Safari 16.4 features)"
    )
    static let ruleLimit = SafariFeature(
        name: "more than 50,000 rules", absentThrough: SafariVersion(14), presentFrom: SafariVersion(15),
        effect: .listRejected,
        source:
            "WebKit bug 219626 raised the limit to 150,000 from Safari 15 (AdguardTeam/SafariConverterLib rulesLimit, AdguardTeam/AdGuardMiniForMac#679); spec §6"
    )
    static let mixedDomainAndTopURL = SafariFeature(
        name:
            "lists that mix domain conditions (if-domain, unless-domain) with top-URL conditions (if-top-url, unless-top-url)",
        absentThrough: SafariVersion(13), presentFrom: SafariVersion(16), effect: .listRejected,
        source:
            "JSONTopURLAndDomainConditions in WebKit's 2017 and 2019–2020 sources, removed ~2021, so accepted in Safari 16 (2022) at the latest (spec §6)"
    )

    /// Every fact `lint --target` checks, for `lint --help` and the documentation.
    package static let all: [SafariFeature] = [
        loadContext, ifFrameURL, unlessFrameURL, requestMethod, documentTypes, newerTypes, ignoreFollowingRules,
        redirectAndHeaders, hasSelector, ruleLimit, mixedDomainAndTopURL,
    ]
}

extension RuleListLint {
    /// What a list meant for `target` uses that `target` does not know, or may not.
    /// - Parameters:
    ///   - elements: the JSON array's elements (resource types and action types are read as written:
    ///     `document` sets the bits of both new document types).
    ///   - rules: the rules as current WebKit reads them (a key only restricts a rule when it has a value).
    package static func compatibilityWarnings(
        elements: [JSONValue], rules: [ParsedRule], ruleCount: Int, target: SafariVersion
    ) -> [LintWarning] {
        var warnings: [LintWarning] = []
        func warn(_ feature: SafariFeature, rule: Int?, keyPath: String?) {
            guard let message = feature.message(for: target) else { return }
            var warning = LintWarning(.safariVersion, message, ruleIndex: rule, keyPath: keyPath)
            warning.source = feature.source
            warnings.append(warning)
        }
        if ruleCount > 50_000 {
            warn(.ruleLimit, rule: nil, keyPath: nil)
        }
        var firstDomain: Int?
        var firstTopURL: Int?
        for parsed in rules {
            let trigger = parsed.rule.trigger
            let index = parsed.index
            if !trigger.loadContexts.isEmpty { warn(.loadContext, rule: index, keyPath: "trigger.load-context") }
            if trigger.requestMethod != nil { warn(.requestMethod, rule: index, keyPath: "trigger.request-method") }
            if let kind = trigger.condition?.kind {
                switch kind {
                case .ifFrameURL: warn(.ifFrameURL, rule: index, keyPath: "trigger.if-frame-url")
                case .unlessFrameURL: warn(.unlessFrameURL, rule: index, keyPath: "trigger.unless-frame-url")
                case .ifDomain, .unlessDomain: firstDomain = firstDomain ?? index
                case .ifTopURL, .unlessTopURL: firstTopURL = firstTopURL ?? index
                }
            }
            switch parsed.rule.action {
            case .cssDisplayNone(let selector) where selector.lowercased().contains(":has("):
                warn(.hasSelector, rule: index, keyPath: "action.selector")
            default: break
            }
        }
        if let firstDomain, let firstTopURL {
            let later = max(firstDomain, firstTopURL)
            let kind = rules.first { $0.index == later }?.rule.trigger.condition?.kind.rawValue
            warn(.mixedDomainAndTopURL, rule: later, keyPath: kind.map { "trigger.\($0)" })
        }
        // Resource types and action types as written: an unknown one fails the whole list there.
        for (index, element) in elements.enumerated() {
            guard let rule = element.objectValue else { continue }
            let types = Set(rule.object("trigger")?["resource-type"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            if !types.isDisjoint(with: ["top-document", "child-document"]) {
                warn(.documentTypes, rule: index, keyPath: "trigger.resource-type")
            }
            if !types.isDisjoint(with: ["fetch", "websocket", "other", "ping", "csp-report"]) {
                warn(.newerTypes, rule: index, keyPath: "trigger.resource-type")
            }
            switch rule.object("action")?.string("type") {
            case "ignore-following-rules": warn(.ignoreFollowingRules, rule: index, keyPath: "action.type")
            case "redirect", "modify-headers": warn(.redirectAndHeaders, rule: index, keyPath: "action.type")
            default: break
            }
        }
        return warnings
    }
}
