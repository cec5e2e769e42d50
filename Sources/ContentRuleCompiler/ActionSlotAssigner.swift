import ContentRuleModel

/// Assigns each rule an action slot exactly as WebKit's `serializeActions` assigns action
/// locations (spec §4.8), and collects the global display-none stylesheet (spec §4.9).
///
/// - Slots are created in rule order, so slot order is WebKit's action-location order.
/// - A rule with a condition, and every `ignore-following-rules` rule, gets a new slot.
/// - Within a segment (the rules since the last ignore rule), `block`, `block-cookies` and
///   `make-https` rules share a slot per trigger flags; `notify` per (notification, flags);
///   consecutive `ignore-previous-rules` per flags. `redirect` and `modify-headers` share a slot per
///   (action, flags) across segments too (WebKit does not clear those tables at ignore rules).
/// - `css-display-none` rules without condition are grouped by identical trigger; a group's slot is
///   created when its segment ends, with the selectors joined by `,` in rule order.
/// - Groups that match everything, have no flags and end in the first segment form the global
///   stylesheet instead of a slot.
struct ActionSlotAssigner {
    struct Output {
        var actions: [Action]
        /// Per rule (in the order added): its slot, or `nil` for a rule in the global stylesheet.
        var ruleSlots: [UInt32?]
        var globalStylesheet: String?
    }

    struct Flags: Hashable {
        var resourceTypes: ResourceType
        var loadTypes: LoadTypes
        var loadContexts: LoadContexts
        var requestMethod: RequestMethod?

        init(_ trigger: Trigger) {
            resourceTypes = trigger.resourceTypes
            loadTypes = trigger.loadTypes
            loadContexts = trigger.loadContexts
            requestMethod = trigger.requestMethod
        }
    }

    struct PendingDisplayNone {
        var selectors: [String]
        var rules: [Int]
        var isGlobal: Bool
    }

    private var actions: [Action] = []
    private var ruleSlots: [UInt32?] = []
    private var globalSelectors: [String] = []
    private var isFirstSegment = true

    private var simpleSlots: [ActionType: [Flags: UInt32]] = [:]
    private var notifySlots: [String: [Flags: UInt32]] = [:]
    private var activeSlots: [Action: [Flags: UInt32]] = [:]
    private var ignorePreviousSlots: [Flags: UInt32] = [:]
    private var pendingDisplayNone: [Trigger: Int] = [:]
    private var pendingDisplayNoneGroups: [PendingDisplayNone] = []

    mutating func add(_ rule: ContentRule, isUniversal: Bool) {
        let ruleNumber = ruleSlots.count
        ruleSlots.append(nil)
        let type = rule.action.type
        let isIgnoreRule = type == .ignorePreviousRules || type == .ignoreFollowingRules
        if isIgnoreRule {
            endSegment()
            isFirstSegment = false
        }
        if type != .ignorePreviousRules {
            ignorePreviousSlots.removeAll(keepingCapacity: true)
        }
        if rule.trigger.condition != nil || type == .ignoreFollowingRules {
            ruleSlots[ruleNumber] = newSlot(rule.action)
            return
        }
        let flags = Flags(rule.trigger)
        switch rule.action {
        case .cssDisplayNone(let selector):
            if let group = pendingDisplayNone[rule.trigger] {
                pendingDisplayNoneGroups[group].selectors.append(selector)
                pendingDisplayNoneGroups[group].rules.append(ruleNumber)
            } else {
                pendingDisplayNone[rule.trigger] = pendingDisplayNoneGroups.count
                pendingDisplayNoneGroups.append(
                    PendingDisplayNone(
                        selectors: [selector], rules: [ruleNumber],
                        isGlobal: isFirstSegment && isUniversal && rule.trigger.hasNoFlags))
            }
        case .ignorePreviousRules:
            ruleSlots[ruleNumber] = Self.slot(
                in: &ignorePreviousSlots, flags: flags, action: rule.action, actions: &actions)
        case .block, .blockCookies, .makeHTTPS:
            ruleSlots[ruleNumber] = Self.slot(
                in: &simpleSlots[type, default: [:]], flags: flags, action: rule.action, actions: &actions)
        case .notify(let notification):
            ruleSlots[ruleNumber] = Self.slot(
                in: &notifySlots[notification, default: [:]], flags: flags, action: rule.action, actions: &actions)
        case .redirect, .modifyHeaders:
            ruleSlots[ruleNumber] = Self.slot(
                in: &activeSlots[rule.action, default: [:]], flags: flags, action: rule.action, actions: &actions)
        case .ignoreFollowingRules:
            preconditionFailure("handled above")
        }
    }

    mutating func finish() -> Output {
        endSegment()
        return Output(
            actions: actions, ruleSlots: ruleSlots,
            globalStylesheet: globalSelectors.isEmpty ? nil : globalSelectors.joined(separator: ","))
    }

    private mutating func newSlot(_ action: Action) -> UInt32 {
        actions.append(action)
        return UInt32(actions.count - 1)
    }

    private static func slot(
        in table: inout [Flags: UInt32], flags: Flags, action: Action, actions: inout [Action]
    ) -> UInt32 {
        if let existing = table[flags] { return existing }
        actions.append(action)
        let created = UInt32(actions.count - 1)
        table[flags] = created
        return created
    }

    /// Resolves the pending css-display-none groups (in order of first appearance) and clears the
    /// merge tables that WebKit clears at an ignore rule.
    private mutating func endSegment() {
        for group in pendingDisplayNoneGroups {
            if group.isGlobal {
                globalSelectors.append(contentsOf: group.selectors)
                continue
            }
            let slot = newSlot(.cssDisplayNone(selector: group.selectors.joined(separator: ",")))
            for rule in group.rules { ruleSlots[rule] = slot }
        }
        pendingDisplayNone.removeAll(keepingCapacity: true)
        pendingDisplayNoneGroups.removeAll(keepingCapacity: true)
        simpleSlots.removeAll(keepingCapacity: true)
        notifySlots.removeAll(keepingCapacity: true)
    }
}
