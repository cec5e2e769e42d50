import ContentRuleFormat
import ContentRuleModel
import ContentRuleURL
import PCRE2Support

/// Which strategy decides a load: the indexed one (default) or the reference one (every rule).
///
/// Both give identical ``ContentRuleListActions`` on every load; the differential tests check it.
public enum MatchingEngine: String, Sendable, Hashable, CaseIterable {
    /// ``ContentRuleList/actions(for:)``: literal index, domain tables, per-top-URL cache.
    case fast
    /// ``ContentRuleList/referenceActions(for:)``: every rule in order, one PCRE2 search each.
    case reference
}

extension ContentRuleList {
    /// The actions this list takes for `load`, by the reference strategy.
    ///
    /// The reference strategy: every rule in order; flags first, then one PCRE2 search of the URL (a
    /// plain comparison for literal url-filters), then the rule's condition against the top or frame
    /// URL, one PCRE2 search per value (spec §4.5–§4.8, `ContentExtensionsBackend::actionsFromContentRuleList`).
    /// No index, no cache. ``actions(for:)`` gives the same answer faster; this one stays as the plain
    /// statement of the semantics.
    /// - Complexity: O(rules × URL length) in the worst case.
    public func referenceActions(for load: ResourceLoadInfo) -> ContentRuleListActions {
        referenceActions(for: load, scratch: PCRE2Scratch.forCurrentThread)
    }

    func actions(for load: ResourceLoadInfo, engine: MatchingEngine, scratch: PCRE2Scratch) -> ContentRuleListActions {
        switch engine {
        case .fast: return actions(for: load, scratch: scratch)
        case .reference: return referenceActions(for: load, scratch: scratch)
        }
    }

    func referenceActions(for load: ResourceLoadInfo, scratch: PCRE2Scratch) -> ContentRuleListActions {
        guard load.isEvaluated else { return ContentRuleListActions(notEvaluated: identifier) }
        var url = load.url.serialization
        var top = load.mainDocumentURL?.serialization ?? ""
        var frame = load.frameURL?.serialization ?? ""
        let flags = LoadFlags(load)
        var fired: [Int32] = []
        url.withUTF8 { urlBytes in
            top.withUTF8 { topBytes in
                frame.withUTF8 { frameBytes in
                    for number in 0..<rules.ruleCount {
                        let rule = rules.rule(number)
                        guard Self.flagsAdmit(rule, flags),
                            patternMatches(rule.pattern, urlBytes, prefilter: nil, scratch)
                        else { continue }
                        if let condition = rule.condition {
                            let kind = rules.condition(condition).kind
                            let holds = Self.conditionHolds(kind, method: rule.method) {
                                conditionPatternsMatch(condition, kind.testsFrameURL ? frameBytes : topBytes, scratch)
                            }
                            guard holds else { continue }
                        }
                        fired.append(Int32(number))
                    }
                }
            }
        }
        return ContentRuleListActions(list: self, universal: nil, otherRules: fired)
    }
}

extension LoadFlags {
    /// Inlined: reads four fields, no copy of `load` (its URLs) is made.
    @inline(__always) init(_ load: ResourceLoadInfo) {
        resourceType = load.resourceType.rawValue
        loadType = LoadTypes(load.loadType).rawValue
        loadContext = LoadContexts(load.loadContext).rawValue
        method = UInt8(load.requestMethod.flatMap { RequestMethod.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0)
    }
}
