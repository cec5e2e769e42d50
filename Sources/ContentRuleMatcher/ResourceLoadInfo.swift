public import ContentRuleModel
public import ContentRuleURL

/// One load to decide: the request URL, the top URL, the frame URL, and how the load is classified.
///
/// Mirrors WebKit's `ResourceLoadInfo` (`Source/WebCore/loader/ResourceLoadInfo.h`, spec §4.1).
/// URLs are WHATWG-canonical `WebURL`s (module ContentRuleURL): url-filters see their serialization.
public struct ResourceLoadInfo: Sendable, Hashable {
    /// The URL being requested.
    public var url: WebURL
    /// The top URL (main document URL); `nil` when there is no top document (matched as the empty string).
    public var mainDocumentURL: WebURL? {
        get { main.value }
        set {
            // A frame URL that was the top URL stays the old one.
            if frameIsMain {
                frame = main
                frameIsMain = false
            }
            main = MaybeURL(newValue)
        }
    }
    /// The URL of the document of the frame that initiates the load; `nil` is matched as the empty string.
    public var frameURL: WebURL? {
        get { frameIsMain ? main.value : frame.value }
        set {
            frame = MaybeURL(newValue)
            frameIsMain = false
        }
    }
    /// Exactly one resource type (``ResourceType/isSingleType``): setting a set of
    /// several, or none, traps.
    public var resourceType: ResourceType {
        didSet { Self.requireSingle(resourceType) }
    }
    /// Whether the load is made by the top frame or a child frame (`load-context` triggers).
    public var loadContext: LoadContext
    /// The method of the initiating document's request (spec §4.1), or `nil` for none/unknown.
    public var requestMethod: RequestMethod?
    /// First- or third-party: computed from the registrable domains (libpsl) unless given.
    public var loadType: LoadType
    // The frame URL is most often the top URL: then it is not stored twice (a copy of the load retains
    // and releases two references less).
    private var main: MaybeURL
    /// The frame URL unless `frameIsMain` (then absent).
    private var frame: MaybeURL
    private var frameIsMain: Bool

    /// A `WebURL?` kept as a URL and a flag. With `Optional<WebURL>` properties, Swift 6.3 `-O` builds
    /// the load in `init` on the stack, copies it (retaining every reference) and destroys the copy
    /// it built (releasing them), on every load. An absent URL is a canonical URL short enough to be
    /// stored inline (no reference to count).
    private struct MaybeURL: Sendable {
        var url: WebURL
        var isPresent: Bool

        init(_ url: WebURL?) {
            if let url {
                self.url = url
                isPresent = true
            } else {
                self.url = Self.absent
                isPresent = false
            }
        }

        var value: WebURL? { isPresent ? url : nil }

        private static let absent = WebURL("http://a/")!
    }

    /// A load (WebKit `ResourceLoadInfo`).
    ///
    /// - Parameters:
    ///   - url: the URL being loaded (url-filters see its serialization).
    ///   - mainDocumentURL: the top URL, `nil` for none (then every load with a host is third-party).
    ///   - frameURL: the URL of the frame that starts the load (`if-frame-url`); defaults to
    ///     `mainDocumentURL`.
    ///   - resourceType: what is loaded (spec §4.2): exactly one type, as WebKit's `ResourceLoadInfo` has
    ///     (`ResourceType(requestName:loadContext:)` reads one by name).
    ///   - loadContext: top frame or child frame (spec §4.4).
    ///   - requestMethod: the method of the request, `nil` for none/unknown (spec §4.1).
    ///   - loadType: an override; by default computed as WebKit does (`ResourceLoadInfo::isThirdParty`,
    ///     O(host length) with a cached Public Suffix List look-up).
    /// - Precondition: `resourceType` is exactly one type; a set of several or none traps (a load of
    ///   no type, or of several, would match rules silently as no load WebKit makes).
    public init(
        url: WebURL, mainDocumentURL: WebURL?, frameURL: WebURL? = nil, resourceType: ResourceType,
        loadContext: LoadContext = .topFrame, requestMethod: RequestMethod? = nil, loadType: LoadType? = nil
    ) {
        // Computed before the URLs are stored: from the arguments, without copying them.
        let loadType =
            loadType
            ?? (RegistrableDomain.isThirdParty(resourceURL: url, mainDocumentURL: mainDocumentURL)
                ? .thirdParty : .firstParty)
        frameIsMain = frameURL == nil
        frame = MaybeURL(frameURL)
        self.url = url
        main = MaybeURL(mainDocumentURL)
        Self.requireSingle(resourceType)
        self.resourceType = resourceType
        self.loadContext = loadContext
        self.requestMethod = requestMethod
        self.loadType = loadType
    }

    /// Traps unless `type` is exactly one resource type.
    static func requireSingle(_ type: ResourceType) {
        precondition(
            type.isSingleType,
            "a load has exactly one resource type, not \(type.rawValue) (a set of \(type.rawValue.nonzeroBitCount))")
    }

    /// Equal when every property is (the frame URL compared as read).
    public static func == (a: Self, b: Self) -> Bool {
        a.url == b.url && a.mainDocumentURL == b.mainDocumentURL && a.frameURL == b.frameURL
            && a.resourceType == b.resourceType && a.loadContext == b.loadContext
            && a.requestMethod == b.requestMethod && a.loadType == b.loadType
    }

    /// Hashes every property.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(mainDocumentURL)
        hasher.combine(frameURL)
        hasher.combine(resourceType)
        hasher.combine(loadContext)
        hasher.combine(requestMethod)
        hasher.combine(loadType)
    }

    /// WebKit never evaluates `data:` URLs (spec §4.1).
    public var isEvaluated: Bool {
        var serialization = url.serialization
        return serialization.withUTF8 { Self.isEvaluated(serialization: $0) }
    }

    /// ``isEvaluated`` from the bytes of the URL's serialization (whose scheme is lower-case): whether
    /// they do not begin with `data:`.
    @inline(__always) static func isEvaluated(serialization url: UnsafeBufferPointer<UInt8>) -> Bool {
        ("data" as StaticString).withUTF8Buffer { !WebURL.hasScheme($0, serialization: url) }
    }
}

extension ResourceLoadInfo {
    /// The request URL a WebKit load of `type` shows the content rule lists: `url` without its
    /// `#…` fragment when it is an http(s) URL and the load goes through WebKit's resource loader
    /// (`CachedResourceRequest` splits it off: every type but popup, media, ping and CSP report,
    /// which `DOMWindow::open`, `HTMLMediaElement`, `PingLoader` and CSP reporting check with the URL
    /// as the page gave it).
    ///
    /// ``init(url:mainDocumentURL:frameURL:resourceType:loadContext:requestMethod:loadType:)`` keeps
    /// the URL it is given, as WebKit's backend does (its tests match fragments, spec §3.6); an
    /// embedder that describes a page's load passes its URL through this first. The top and frame
    /// URLs, documents' URLs, keep their fragments. WebKitGTK 2.50.6 answers for every type are in
    /// `Tests/Data/oracle-notes/fragments.json`. O(URL length).
    public static func requestURL(_ url: WebURL, forLoadOf type: ResourceType) -> WebURL {
        guard url.fragment != nil, url.hasScheme("http") || url.hasScheme("https"),
            type.isDisjoint(with: [.popup, .media, .ping, .cspReport])
        else { return url }
        var stripped = url
        stripped.setFragment(nil)
        return stripped
    }
}
