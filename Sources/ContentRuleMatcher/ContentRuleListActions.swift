import ContentRuleFormat
public import ContentRuleModel

/// What one rule list does for one load, after its ignore rules (WebKit `actionsFromContentRuleList`).
///
/// Cheap to make: it refers to the list's cached universal actions and the few other fired rules; the
/// ``actions`` (with their selector strings) and ``firedRules`` are only built when read.
public struct ContentRuleListActions: Sendable, Hashable {
    /// The list's identifier.
    public var identifier: String {
        get { identifierOverride ?? list?.identifier ?? "" }
        set { identifierOverride = newValue }
    }
    /// An `ignore-previous-rules` rule fired (its list's earlier actions and global stylesheet are dropped).
    public var sawIgnorePreviousRules: Bool
    /// The global display-none stylesheet's selectors when this load attaches it, else `nil`.
    public var globalStylesheet: String? {
        get { stylesheetOverride ?? (lowerBound != nil ? nil : list?.globalStylesheet) }
        set { stylesheetOverride = .some(newValue) }
    }
    // Three references at most (a copy retains `list`, `universal` and `otherRules`): the identifier
    // and the stylesheet are read from `list` unless set, and the other rules' slots from the file.
    let list: ContentRuleList?
    let universal: TopURLEntry?
    /// Fired rules that are not in `universal`, ascending.
    let otherRules: [Int32]
    /// Slots strictly between these bounds are kept (spec §4.7: after the last ignore-previous-rules,
    /// before the first ignore-following-rules).
    let lowerBound: UInt32?
    let upperBound: UInt32?
    /// Set only by the setters (and for loads that are not evaluated, which have no list).
    private var identifierOverride: String?
    private var stylesheetOverride: String??

    init(list: ContentRuleList, universal: TopURLEntry?, otherRules: [Int32]) {
        let rules = list.rules
        var upper = universal?.ignoreFollowingSlots.first
        for rule in otherRules {
            let slot = rules.rule(Int(rule)).actionSlot
            if rules.actionType(Int(slot)) == .ignoreFollowingRules { upper = min(upper ?? slot, slot) }
        }
        var lower: UInt32?
        if let previous = universal?.ignorePreviousSlots {
            let end = upper.map { SortedRules.lowerBound(previous, $0) } ?? previous.count
            if end > 0 { lower = previous[end - 1] }
        }
        for rule in otherRules {
            let slot = rules.rule(Int(rule)).actionSlot
            if upper.map({ slot < $0 }) ?? true, rules.actionType(Int(slot)) == .ignorePreviousRules {
                lower = max(lower ?? slot, slot)
            }
        }
        self.list = list
        self.universal = universal
        self.otherRules = otherRules
        lowerBound = lower
        upperBound = upper
        sawIgnorePreviousRules = lower != nil
    }

    /// The result for a load WebKit does not evaluate (a `data:` URL): no actions, no stylesheet.
    init(notEvaluated identifier: String) {
        identifierOverride = identifier
        sawIgnorePreviousRules = false
        list = nil
        universal = nil
        otherRules = []
        lowerBound = nil
        upperBound = nil
    }

    /// The action slots of ``otherRules``, ascending and unique.
    private var otherSlots: [UInt32] {
        guard let list else { return [] }
        return SortedRules.sortedUnique(otherRules.map { list.rules.rule(Int($0)).actionSlot })
    }

    /// The kept slots of one of the cached universal arrays: a slice, not a copy.
    private func keptSlice(of slots: [UInt32]?) -> ArraySlice<UInt32> {
        guard let slots else { return [] }
        let start = lowerBound.map { SortedRules.lowerBound(slots, $0 + 1) } ?? 0
        let end = upperBound.map { SortedRules.lowerBound(slots, $0) } ?? slots.count
        return start < end ? slots[start..<end] : []
    }

    private func kept(_ slot: UInt32) -> Bool {
        (lowerBound.map { slot > $0 } ?? true) && (upperBound.map { slot < $0 } ?? true)
    }

    /// Action slots of the kept actions, ascending (never an ignore slot).
    public var actionSlots: [UInt32] {
        let universalKept = keptSlice(of: universal?.universalSlots)
        let others = otherSlots.filter(kept)
        if others.isEmpty { return Array(universalKept) }
        return SortedRules.union(Array(universalKept), others)
    }

    /// The list's actions in WebKit's order: from the last action slot to the first (spec §4.7;
    /// WebKit's own tests fix this order). Never contains ignore actions.
    public var actions: [Action] {
        guard let list else { return [] }
        return actionSlots.reversed().map { list.rules.action(Int($0)) }
    }

    /// ``actions`` without the css-display-none ones, without decoding or visiting those of the
    /// universal rules (usually most of them). Same order.
    public var nonSelectorActions: [Action] {
        guard let list else { return [] }
        let universalKept = keptSlice(of: universal?.nonSelectorSlots)
        let others = otherSlots.filter { kept($0) && list.rules.actionType(Int($0)) != .cssDisplayNone }
        let slots = others.isEmpty ? Array(universalKept) : SortedRules.union(Array(universalKept), others)
        return slots.reversed().map { list.rules.action(Int($0)) }
    }

    /// Whether a `block` action is kept. O(log n) in the universal actions.
    public var blocksLoad: Bool {
        guard let list else { return false }
        let rules = list.rules
        for rule in otherRules {
            let slot = rules.rule(Int(rule)).actionSlot
            if kept(slot) && rules.actionType(Int(slot)) == .block { return true }
        }
        guard let blocks = universal?.blockSlots, !blocks.isEmpty else { return false }
        let start = lowerBound.map { SortedRules.lowerBound(blocks, $0 + 1) } ?? 0
        return start < blocks.count && upperBound.map { blocks[start] < $0 } ?? true
    }

    /// Number of kept actions.
    public var actionCount: Int { actionSlots.count }

    /// Source indices of the rules that fired, in rule order (including ignore rules), for explanations.
    public var firedRules: [UInt32] {
        guard let list else { return [] }
        let rules = SortedRules.union(universal?.universalRules ?? [], otherRules)
        return rules.map { list.rules.sourceIndex(ofRule: Int($0)) }
    }

    /// Equal when the identifier, the actions, the global stylesheet, the ignore flag and the fired rules are.
    public static func == (a: Self, b: Self) -> Bool {
        a.identifier == b.identifier && a.sawIgnorePreviousRules == b.sawIgnorePreviousRules
            && a.globalStylesheet == b.globalStylesheet && a.actions == b.actions && a.firedRules == b.firedRules
    }

    /// Hashes the identifier, the actions and the fired rules.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(actions)
        hasher.combine(firedRules)
    }
}
