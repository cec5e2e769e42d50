import ContentRuleModel
public import ContentRuleURL
import PCRE2Support

/// Decides loads against several content rule lists, as WebKit's `ContentExtensionsBackend` does.
///
/// Lists are evaluated in the order given (WebKit iterates a hash map, so its order between lists is
/// unspecified; we use insertion order, spec §4.11). A value: add and remove lists by identifier on a
/// copy (``addContentRuleList(_:)``, ``removeContentRuleList(identifier:)``); `Sendable`.
public struct ContentBlocker: Sendable {
    /// The installed lists, in the order they are evaluated (``addContentRuleList(_:)`` appends).
    public var lists: [ContentRuleList]
    /// Which lists may apply `redirect` and `modify-headers` to which URLs (none by default, as in WebKit).
    public var activeActions: ActiveActionPolicy
    /// The strategy each list uses (``MatchingEngine/fast`` unless asked otherwise); both give the same answers.
    public var engine: MatchingEngine

    /// - Parameters:
    ///   - lists: evaluated in this order.
    ///   - activeActions: which lists may redirect or modify headers, where.
    ///   - engine: ``MatchingEngine/fast`` (indexed, the default) or ``MatchingEngine/reference``.
    public init(lists: [ContentRuleList], activeActions: ActiveActionPolicy = .none, engine: MatchingEngine = .fast) {
        self.lists = lists
        self.activeActions = activeActions
        self.engine = engine
    }

    /// Adds `list` after the others, as `WKUserContentController.addContentRuleList` installs one; a list
    /// with the same identifier is removed first (WebKit keys installed lists by identifier), so the
    /// new one is evaluated last. O(lists).
    public mutating func addContentRuleList(_ list: ContentRuleList) {
        lists.removeAll { $0.identifier == list.identifier }
        lists.append(list)
    }

    /// Removes the list with `identifier` (`WKUserContentController.removeContentRuleList`): the list
    /// removed, or `nil` when none has it. The others keep their order. O(lists).
    @discardableResult
    public mutating func removeContentRuleList(identifier: String) -> ContentRuleList? {
        guard let index = lists.firstIndex(where: { $0.identifier == identifier }) else { return nil }
        return lists.remove(at: index)
    }

    /// Removes every list (`WKUserContentController.removeAllContentRuleLists`).
    public mutating func removeAllContentRuleLists() { lists.removeAll() }

    /// The list with `identifier`, or `nil`. O(lists).
    public func contentRuleList(identifier: String) -> ContentRuleList? {
        lists.first { $0.identifier == identifier }
    }

    /// Every list's actions for `load` and what they add up to (WebKit
    /// `processContentRuleListsForLoad` + `applyResultsToRequest`, spec §4.10–§4.11).
    ///
    /// - Parameters:
    ///   - load: the load to decide.
    ///   - requestHeaders: the request's headers before modification, in order (used only for the
    ///     `requestHeaders` of the result when a `modify-headers` action applies).
    /// - Complexity: the sum over lists of ``ContentRuleList/actions(for:)`` (or of
    ///   ``ContentRuleList/referenceActions(for:)`` with the reference engine).
    public func results(for load: ResourceLoadInfo, requestHeaders: [(String, String)] = []) -> ContentRuleListResults {
        let scratch = PCRE2Scratch.forCurrentThread
        var results = ContentRuleListResults(url: load.url)
        var redirects: [(RedirectAction, ContentRuleList)] = []
        var headerActions: [ModifyHeadersAction] = []
        for list in lists {
            let listActions = list.actions(for: load, engine: engine, scratch: scratch)
            var result = ContentRuleListResults.ListResult(actions: listActions)
            // css-display-none actions (most of a list's actions on most loads) are only decoded
            // when `selectors` is read.
            for action in listActions.nonSelectorActions {
                switch action {
                case .block:
                    guard !results.redirected else { continue }
                    results.blockedLoad = true
                    result.blockedLoad = true
                case .blockCookies:
                    results.blockedCookies = true
                    result.blockedCookies = true
                case .makeHTTPS:
                    if (load.url.scheme == "http" || load.url.scheme == "ws") && load.url.port == nil {
                        results.madeHTTPS = true
                        result.madeHTTPS = true
                    }
                case .notify(let notification):
                    result.notifications.append(notification)
                    results.notifications.append(notification)
                case .cssDisplayNone:
                    continue
                case .redirect(let redirect):
                    guard activeActions.allows(list: list.identifier, url: load.url), !results.blockedLoad else {
                        continue
                    }
                    results.redirected = true
                    result.redirected = true
                    redirects.append((redirect, list))
                case .modifyHeaders(let modify):
                    guard activeActions.allows(list: list.identifier, url: load.url) else { continue }
                    result.modifiedHeaders = true
                    results.modifiedHeaders = true
                    headerActions.append(modify)
                case .ignorePreviousRules, .ignoreFollowingRules:
                    continue
                }
            }
            results.lists.append(result)
        }
        results.applyToRequest(load: load, redirects: redirects, headerActions: headerActions, headers: requestHeaders)
        return results
    }
}

/// The outcome of one load across all lists (WebKit `ContentRuleListResults`).
public struct ContentRuleListResults: Sendable {
    /// One list's outcome.
    public struct ListResult: Sendable {
        /// The list's identifier (``ContentRuleList/identifier``).
        public var identifier: String { actions.identifier }
        /// The list's actions after ignore rules, in WebKit's order.
        public var actions: ContentRuleListActions
        /// The list has a `block` action for the load.
        public var blockedLoad = false
        /// The list has a `block-cookies` action for the load.
        public var blockedCookies = false
        /// The list has a `make-https` action that upgraded the request (an `http` or `ws` URL).
        public var madeHTTPS = false
        /// One of the list's `redirect` actions applied (where ``ContentBlocker/activeActions`` allow it).
        public var redirected = false
        /// One of the list's `modify-headers` actions applied (where ``ContentBlocker/activeActions``
        /// allow it).
        public var modifiedHeaders = false
        /// The texts of the list's `notify` actions, in WebKit's action order.
        public var notifications: [String] = []
        /// Selectors of the css-display-none actions, one entry per action slot, in WebKit's action order.
        ///
        /// Rules with identical triggers share one slot, whose entry joins their selectors with `,`
        /// (WebKit merges them the same way, spec §4.8): count selectors, not entries, by splitting a
        /// selector list where a comma is outside brackets, parentheses and quotes. The list's global
        /// stylesheet is not here (``globalStylesheet``).
        public var selectors: [String] {
            actions.actions.compactMap { if case .cssDisplayNone(let selector) = $0 { selector } else { nil } }
        }
        /// The list's global display-none stylesheet (the selectors of its css-display-none rules that fire
        /// on every load, joined with `,`) when this load carries it, else `nil`.
        ///
        /// Every load's result carries it unless an `ignore-previous-rules` rule fired for the load or the
        /// list has none (WebKit `ContentExtensionsBackend::actionsForResourceLoad` appends
        /// `CSSDisplayNoneStyleSheet` unless the list saw ignore-previous-rules).
        public var globalStylesheet: String? { actions.globalStylesheet }
        /// An `ignore-previous-rules` action fired for the load (it dropped the earlier rules' actions).
        public var sawIgnorePreviousRules: Bool { actions.sawIgnorePreviousRules }
    }

    /// Each list's outcome, in the order of ``ContentBlocker/lists``.
    public var lists: [ListResult] = []
    /// Some list blocks the load (WebKit cancels it).
    public var blockedLoad = false
    /// Some list blocks its cookies (the request goes out without them).
    public var blockedCookies = false
    /// Some list upgraded the request to `https` / `wss` (``requestURL`` has the new scheme).
    public var madeHTTPS = false
    /// A `redirect` action rewrote ``requestURL``.
    public var redirected = false
    /// A `modify-headers` action changed the headers (``requestHeaders``).
    public var modifiedHeaders = false
    /// Every list's notifications, list by list in order.
    public var notifications: [String] = []
    /// The URL the request finally goes to: upgraded by make-https, then rewritten by redirects.
    public var requestURL: WebURL
    /// The request headers after modify-headers actions (only when one applied), in order.
    public var requestHeaders: [(String, String)]?

    init(url: WebURL) { requestURL = url }
}
