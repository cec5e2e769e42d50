public import ContentRuleModel
public import ContentRuleURL

/// A load as a page makes it, and the content-rule-list checks WebKit's loader makes for it.
///
/// WebKit decides a load in two layers. Its backend (`ContentExtensionsBackend::processContentRuleListsForLoad`)
/// evaluates the rule lists once for one ``ResourceLoadInfo``: that is ``ContentBlocker/results(for:requestHeaders:)-(ResourceLoadInfo,_)``
/// and ``ContentRuleList/actions(for:)``. Its loader decides *what* it asks the backend, and how often:
///
/// | load | what the loader asks (WebKit source) |
/// | --- | --- |
/// | every type but popup, media, ping and csp-report | the URL without its `#fragment` (the `CachedResourceRequest` constructor calls `splitFragmentIdentifierFromRequestURL`) |
/// | `ping` (`<a ping>`) | as `ping`, then the ping load again as `other` (`PingLoader::sendPing`, then `CachedResourceLoader::requestPingResource`: a `CachedResource::Type::Ping` is `ResourceType::Other`) |
/// | `csp-report` | as `csp-report`, then again as `other` (`PingLoader::sendViolationReport`, then the same ping resource) |
/// | `popup` (`window.open`) | as `popup` by the opener (only `blockedLoad` is used), then the new window's navigation as a top document whose top URL is the popup's URL (`LocalDOMWindow::createWindow`, then `FrameLoader` loading the new page) |
///
/// A block from either check cancels the load. This type describes the load as the page gives it;
/// ``PageLoadResults/checks`` lists what WebKit asked the backend, and
/// ``ContentBlocker/results(for:requestHeaders:)-(PageLoad,_)`` runs
/// them. Tests with WebKitGTK 2.50.6: `Tests/Data/oracle/double_checks.json`,
/// `Tests/Data/conformance/field/B059.json`, `Tests/Data/oracle-notes/fragments.json`.
public struct PageLoad: Sendable, Hashable {
    /// The URL as the page gave it (with its fragment, if any).
    public var url: WebURL
    /// The top URL; `nil` for none. For a top-level navigation it is the URL being loaded.
    public var mainDocumentURL: WebURL?
    /// The URL of the document the initiating frame shows when the load starts; `nil` means the same
    /// as ``mainDocumentURL``. For a navigation that is the document being navigated *away from*
    /// (the previous page, or `about:blank` for a new frame); WebKit uses the URL being loaded only
    /// when the frame has no document yet (a brand-new view).
    public var frameURL: WebURL?
    /// Exactly one resource type: what the page loads. Setting a set of several, or none, traps.
    public var resourceType: ResourceType {
        didSet { ResourceLoadInfo.requireSingle(resourceType) }
    }
    /// Whether the load is made by the top frame or a child frame (a `document` load of a child frame
    /// is a `child-document`).
    public var loadContext: LoadContext
    /// The method of the initiating page's own request (`get` for a page loaded normally), not the
    /// method the request goes out with: WebKit compares `request-method` with the document loader's
    /// method (spec §4.1; `Tests/Data/conformance/field/B053.json`: a beacon sent as POST is matched as
    /// `get`).
    public var requestMethod: RequestMethod?
    /// An override of the first check's load type; computed from the URLs when `nil`.
    public var loadType: LoadType?

    /// A load as the page gives it. Arguments as ``ResourceLoadInfo``'s, with `url` as the page gave it.
    /// - Precondition: `resourceType` is exactly one type; a set of several or none traps.
    public init(
        url: WebURL, mainDocumentURL: WebURL?, frameURL: WebURL? = nil, resourceType: ResourceType,
        loadContext: LoadContext = .topFrame, requestMethod: RequestMethod? = nil, loadType: LoadType? = nil
    ) {
        self.url = url
        self.mainDocumentURL = mainDocumentURL
        self.frameURL = frameURL
        ResourceLoadInfo.requireSingle(resourceType)
        self.resourceType = resourceType
        self.loadContext = loadContext
        self.requestMethod = requestMethod
        self.loadType = loadType
    }

    /// What WebKit's loader does after the first check, when that check did not block the load.
    public enum FollowingCheck: Sendable, Hashable {
        /// Nothing: the first check decides.
        case none
        /// The load goes out as a ping resource and is checked again as `other` (ping, csp-report).
        case pingResource
        /// The popup's new window navigates to the URL: a top-document check (popup).
        case popupNavigation
    }

    /// The check WebKit makes after the first one for a load of this type.
    public var followingCheck: FollowingCheck {
        switch resourceType {
        case .ping, .cspReport: .pingResource
        case .popup: .popupNavigation
        default: .none
        }
    }

    /// WebKit's first check: the URL as the loader shows it to the rule lists
    /// (``ResourceLoadInfo/requestURL(_:forLoadOf:)``), everything else as given. A popup is checked
    /// from the main frame's document (top-frame, the top URL as the frame URL).
    public var firstCheck: ResourceLoadInfo {
        let isPopup = resourceType == .popup
        return ResourceLoadInfo(
            url: ResourceLoadInfo.requestURL(url, forLoadOf: resourceType), mainDocumentURL: mainDocumentURL,
            frameURL: isPopup ? nil : frameURL, resourceType: resourceType,
            loadContext: isPopup ? .topFrame : loadContext, requestMethod: requestMethod, loadType: loadType)
    }

    /// WebKit's second check, given the URL the first check left the request with (make-https upgrades
    /// it before the ping resource is requested; a popup's navigation loads ``url`` whatever its own
    /// check said), or `nil` when WebKit makes none.
    ///
    /// - `pingResource`: the same top URL, frame URL, load context and method, as `other`, the URL
    ///   without its fragment (the ping resource goes through `CachedResourceRequest`).
    /// - `popupNavigation`: the new window's top-level navigation: top URL and frame URL = the popup's
    ///   URL (without its fragment, as every document load; the new window has no document with a
    ///   valid URL yet, so `ContentExtensionsBackend::processContentRuleListsForLoad` falls back to the
    ///   URL loaded), top-frame, `get`, first-party.
    public func secondCheck(after firstRequestURL: WebURL) -> ResourceLoadInfo? {
        switch followingCheck {
        case .none:
            return nil
        case .pingResource:
            return ResourceLoadInfo(
                url: ResourceLoadInfo.requestURL(firstRequestURL, forLoadOf: .other), mainDocumentURL: mainDocumentURL,
                frameURL: frameURL, resourceType: .other, loadContext: loadContext, requestMethod: requestMethod)
        case .popupNavigation:
            let target = ResourceLoadInfo.requestURL(url, forLoadOf: .topDocument)
            return ResourceLoadInfo(
                url: target, mainDocumentURL: target, frameURL: target, resourceType: .topDocument,
                loadContext: .topFrame, requestMethod: .get)
        }
    }
}

/// The outcome of a ``PageLoad``: each check WebKit made and what they add up to.
public struct PageLoadResults: Sendable {
    /// One backend check: the load it asked about and its results.
    public struct Check: Sendable {
        /// What WebKit asked its backend: the URL, top URL, type and load type of this check.
        public var load: ResourceLoadInfo
        /// The backend's answer for it.
        public var results: ContentRuleListResults
    }

    /// The first check, always made.
    public var first: Check
    /// The second check, when WebKit makes one for this type and the first did not block the load.
    public var second: Check?

    /// Whether either check blocked the load.
    public var blockedLoad: Bool { first.results.blockedLoad || (second?.results.blockedLoad ?? false) }
    /// Whether the request goes out without cookies. A popup's own check is used only for blocking
    /// (`LocalDOMWindow::createWindow` reads `blockedLoad` alone); its navigation's check applies.
    public var blockedCookies: Bool { anyApplied(\.blockedCookies) }
    /// Whether the request was upgraded to https / wss by a check that applies to the request.
    public var madeHTTPS: Bool { anyApplied(\.madeHTTPS) }
    /// Whether a check that applies to the request redirected it.
    public var redirected: Bool { anyApplied(\.redirected) }
    /// Whether a check that applies to the request changed its headers.
    public var modifiedHeaders: Bool { anyApplied(\.modifiedHeaders) }
    /// Notifications of the checks that apply to the request, in order (a popup's own check only
    /// blocks, so its notifications are not sent).
    public var notifications: [String] {
        (firstApplies ? first.results.notifications : []) + (second?.results.notifications ?? [])
    }
    /// The URL the request finally goes to.
    public var requestURL: WebURL { (second ?? first).results.requestURL }
    /// Both checks, in the order WebKit made them. Each check's ``ContentRuleListResults`` holds its
    /// per-list results (selectors, the global stylesheet, notifications): read ``first`` for loads
    /// checked once, and for a ping, a CSP report or a popup the check whose results apply (the second:
    /// a popup's first check only decides its block).
    public var checks: [Check] { [first] + (second.map { [$0] } ?? []) }

    /// Whether WebKit applies the first check's results to the request, besides its block: not for a
    /// popup's own check. The second check's always apply.
    private var firstApplies: Bool { first.load.resourceType != .popup }

    /// Whether `flag` holds for a check whose results apply to the request.
    private func anyApplied(_ flag: KeyPath<ContentRuleListResults, Bool>) -> Bool {
        (firstApplies && first.results[keyPath: flag]) || (second?.results[keyPath: flag] ?? false)
    }
}

extension ContentBlocker {
    /// What WebKit does for a load a page makes: the checks of ``PageLoad/firstCheck`` and
    /// ``PageLoad/secondCheck(after:)`` (the second only when the first did not block), each
    /// ``results(for:requestHeaders:)-(ResourceLoadInfo,_)``.
    ///
    /// Use this to answer "does Safari load this?"; use ``results(for:requestHeaders:)-(ResourceLoadInfo,_)`` to ask what
    /// WebKit's backend answers for one ``ResourceLoadInfo`` (as WebKit's own tests do: it keeps a
    /// fragment and makes one check).
    ///
    /// - Complexity: at most twice ``results(for:requestHeaders:)-(ResourceLoadInfo,_)``.
    public func results(for load: PageLoad, requestHeaders: [(String, String)] = []) -> PageLoadResults {
        let firstLoad = load.firstCheck
        let first = PageLoadResults.Check(
            load: firstLoad, results: results(for: firstLoad, requestHeaders: requestHeaders))
        guard !first.results.blockedLoad else { return PageLoadResults(first: first, second: nil) }
        guard let secondLoad = load.secondCheck(after: first.results.requestURL) else {
            return PageLoadResults(first: first, second: nil)
        }
        let headers = first.results.requestHeaders ?? requestHeaders
        return PageLoadResults(
            first: first,
            second: PageLoadResults.Check(load: secondLoad, results: results(for: secondLoad, requestHeaders: headers)))
    }
}
