import ContentRuleFormat
import ContentRuleModel
import ContentRuleURL
import PCRE2Support

/// Which strategy decides a load: the indexed one (default) or the reference one (every rule).
///
/// Both give identical ``ContentRuleListActions`` on every load; the differential tests check it.
public enum MatchingEngine: String, Sendable, Hashable, CaseIterable {
    /// ``ContentRuleList/actions(for:)``: literal index, domain tables, cheap checks first.
    case fast
    /// ``ContentRuleList/referenceActions(for:)``: every rule in order, one PCRE2 search each.
    case reference
}

extension ContentRuleList {
    /// The actions this list takes for `load` (WebKit `actionsFromContentRuleList`, spec §4.5–§4.8).
    ///
    /// Same answer as ``referenceActions(for:)``, found without trying every rule: the lower-cased
    /// URL is scanned once for the 4-byte grams of the rules' required literals, the top URL once for
    /// `if-domain`/`unless-domain` hosts; only those rules (plus the few with neither) are checked, in
    /// rule order: flag masks first, then the literal or PCRE2 url-filter, then the condition.
    ///
    /// - Complexity: O(URL length + top URL length + candidate rules × URL length).
    public func actions(for load: ResourceLoadInfo) -> ContentRuleListActions {
        actions(for: load, scratch: PCRE2Scratch())
    }

    func actions(for load: ResourceLoadInfo, engine: MatchingEngine, scratch: PCRE2Scratch) -> ContentRuleListActions {
        switch engine {
        case .fast: return actions(for: load, scratch: scratch)
        case .reference: return referenceActions(for: load, scratch: scratch)
        }
    }

    func actions(for load: ResourceLoadInfo, scratch: PCRE2Scratch) -> ContentRuleListActions {
        guard load.isEvaluated else { return .notEvaluated(identifier) }
        var url = load.url.serialization
        var top = load.mainDocumentURL?.serialization ?? ""
        var frame = load.frameURL?.serialization ?? ""
        let resourceType = load.resourceType.rawValue
        let loadType = LoadTypes(load.loadType).rawValue
        let loadContext = LoadContexts(load.loadContext).rawValue
        var slots = Set<UInt32>()
        var fired: [UInt32] = []
        url.withUTF8 { urlBytes in
            top.withUTF8 { topBytes in
                frame.withUTF8 { frameBytes in
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(urlBytes.count, 1)) { lower in
                        for index in 0..<urlBytes.count { lower[index] = RequiredLiteral.lowercased(urlBytes[index]) }
                        let lowerURL = UnsafeBufferPointer(rebasing: lower[0..<urlBytes.count])
                        let (candidates, domainMatches) = fast.candidates(lowercasedURL: lowerURL, top: topBytes)
                        for candidate in candidates {
                            let number = Int(candidate)
                            let flags = fast.flags[number]
                            guard flags.resourceTypes & resourceType != 0, flags.loadTypes & loadType != 0,
                                flags.loadContexts & loadContext != 0
                            else { continue }
                            let rule = compiled.rules[number]
                            if let method = rule.requestMethod, method != load.requestMethod { continue }
                            let filterMatches =
                                fast.filterMatches(number, url: urlBytes, lowercasedURL: lowerURL)
                                ?? urlFilters[number].matches(urlBytes, scratch: scratch)
                            guard filterMatches else { continue }
                            if let condition = rule.condition {
                                if fast.usesDomainIndex[number] {
                                    let found =
                                        Self.sortedContains(domainMatches, candidate)
                                        || fast.domainFallbacks[number].contains {
                                            conditions[number]?[$0].matches(topBytes, scratch: scratch) == true
                                        }
                                    guard found != condition.kind.isInverted else { continue }
                                } else if let patterns = conditions[number] {
                                    let subject = condition.kind.testsFrameURL ? frameBytes : topBytes
                                    guard
                                        conditionHolds(
                                            condition.kind, patterns, subject, method: rule.requestMethod, scratch)
                                    else { continue }
                                }
                            }
                            slots.insert(rule.actionSlot)
                            fired.append(rule.sourceIndex)
                        }
                    }
                }
            }
        }
        return finish(slots: slots, fired: fired)
    }

    /// Binary search in an ascending array.
    private static func sortedContains(_ values: [Int32], _ value: Int32) -> Bool {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < values.count && values[low] == value
    }
}
