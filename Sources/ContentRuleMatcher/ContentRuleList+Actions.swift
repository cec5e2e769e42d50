import ContentRuleFormat
public import ContentRuleModel
import ContentRuleURL
import PCRE2Support

/// What one rule list does for one load, after its ignore rules (WebKit `actionsFromContentRuleList`).
public struct ContentRuleListActions: Sendable, Hashable {
    public var identifier: String
    /// The list's actions in WebKit's order: from the last action slot to the first (spec §4.7;
    /// WebKit's own tests fix this order). Never contains ignore actions.
    public var actions: [Action]
    /// An `ignore-previous-rules` rule fired (its list's earlier actions and global stylesheet are dropped).
    public var sawIgnorePreviousRules: Bool
    /// The global display-none stylesheet's selectors when this load attaches it, else `nil`.
    public var globalStylesheet: String?
    /// Source indices of the rules that fired, in rule order (including ignore rules), for explanations.
    public var firedRules: [UInt32]
}

extension ContentRuleListActions {
    /// The result for a load WebKit does not evaluate (a `data:` URL): no actions, no stylesheet.
    static func notEvaluated(_ identifier: String) -> ContentRuleListActions {
        ContentRuleListActions(
            identifier: identifier, actions: [], sawIgnorePreviousRules: false, globalStylesheet: nil, firedRules: [])
    }
}

extension ContentRuleList {
    /// The actions this list takes for `load`, by the reference strategy.
    ///
    /// The reference strategy: every rule in order, flags first, then one PCRE2 search of the URL,
    /// then the rule's condition against the top or frame URL (spec §4.5–§4.8,
    /// `ContentExtensionsBackend::actionsFromContentRuleList`). ``actions(for:)`` gives the same
    /// answer faster; this one stays as the plain statement of the semantics.
    /// - Complexity: O(rules × URL length) in the worst case.
    public func referenceActions(for load: ResourceLoadInfo) -> ContentRuleListActions {
        referenceActions(for: load, scratch: PCRE2Scratch())
    }

    func referenceActions(for load: ResourceLoadInfo, scratch: PCRE2Scratch) -> ContentRuleListActions {
        guard load.isEvaluated else { return .notEvaluated(identifier) }
        var url = load.url.serialization
        var top = load.mainDocumentURL?.serialization ?? ""
        var frame = load.frameURL?.serialization ?? ""
        let loadTypes = LoadTypes(load.loadType)
        let loadContexts = LoadContexts(load.loadContext)
        var slots = Set<UInt32>()
        var fired: [UInt32] = []
        url.withUTF8 { urlBytes in
            top.withUTF8 { topBytes in
                frame.withUTF8 { frameBytes in
                    for (number, rule) in compiled.rules.enumerated() {
                        guard rule.resourceTypes.isEmpty || !rule.resourceTypes.isDisjoint(with: load.resourceType),
                            rule.loadTypes.isEmpty || !rule.loadTypes.isDisjoint(with: loadTypes),
                            rule.loadContexts.isEmpty || !rule.loadContexts.isDisjoint(with: loadContexts),
                            rule.requestMethod == nil || rule.requestMethod == load.requestMethod,
                            urlFilters[number].matches(urlBytes, scratch: scratch)
                        else { continue }
                        if let condition = rule.condition, let patterns = conditions[number] {
                            let subject = condition.kind.testsFrameURL ? frameBytes : topBytes
                            guard conditionHolds(condition.kind, patterns, subject, method: rule.requestMethod, scratch)
                            else { continue }
                        }
                        slots.insert(rule.actionSlot)
                        fired.append(rule.sourceIndex)
                    }
                }
            }
        }
        return finish(slots: slots, fired: fired)
    }

    /// Slots → actions after the ignore rules (spec §4.7–§4.8), shared by both strategies.
    func finish(slots: Set<UInt32>, fired: [UInt32]) -> ContentRuleListActions {
        let ordered = slots.sorted()
        var end = ordered.count
        if let following = ordered.firstIndex(where: { compiled.actionSlots[Int($0)] == .ignoreFollowingRules }) {
            end = following
        }
        var start = 0
        if let previous = ordered[..<end].lastIndex(where: { compiled.actionSlots[Int($0)] == .ignorePreviousRules }) {
            start = previous + 1
        }
        let sawIgnorePrevious = start > 0
        return ContentRuleListActions(
            identifier: identifier,
            actions: ordered[start..<end].reversed().map { compiled.actionSlots[Int($0)] },
            sawIgnorePreviousRules: sawIgnorePrevious,
            globalStylesheet: sawIgnorePrevious ? nil : compiled.globalStylesheet,
            firedRules: fired)
    }

    /// `if-*`: some pattern matches; `unless-*`: none does (spec §4.6).
    ///
    /// WebKit quirk (spec §4.6, `ContentExtension::populateTopURLActionCacheIfNeeded`): conditions are
    /// evaluated with all flag bits set, and a request method never equals "all methods", so a rule
    /// that also has `request-method` never fires with an `if-*` condition and ignores an `unless-*` one.
    func conditionHolds(
        _ kind: TriggerCondition.Kind, _ patterns: [PreparedPattern], _ subject: UnsafeBufferPointer<UInt8>,
        method: RequestMethod?, _ scratch: PCRE2Scratch
    ) -> Bool {
        if method != nil { return kind.isInverted }
        let anyMatches = patterns.contains { $0.matches(subject, scratch: scratch) }
        return kind.isInverted ? !anyMatches : anyMatches
    }
}
