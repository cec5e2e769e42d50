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
        get { main }
        set {
            // A frame URL that was the top URL stays the old one.
            if frameIsMain {
                frame = main
                frameIsMain = false
            }
            main = newValue
        }
    }
    /// The URL of the document of the frame that initiates the load; `nil` is matched as the empty string.
    public var frameURL: WebURL? {
        get { frameIsMain ? main : frame }
        set {
            frame = newValue
            frameIsMain = false
        }
    }
    /// Exactly one resource type.
    public var resourceType: ResourceType
    public var loadContext: LoadContext
    /// The method of the initiating document's request (spec §4.1), or `nil` for none/unknown.
    public var requestMethod: RequestMethod?
    /// First- or third-party: computed from the registrable domains (libpsl) unless given.
    public var loadType: LoadType
    // The frame URL is most often the top URL: then it is not stored twice (a copy of the load retains
    // and releases two references less).
    private var main: WebURL?
    /// The frame URL unless `frameIsMain` (then nil).
    private var frame: WebURL?
    private var frameIsMain: Bool

    /// A load (WebKit `ResourceLoadInfo`).
    ///
    /// - Parameters:
    ///   - url: the URL being loaded (url-filters see its serialization).
    ///   - mainDocumentURL: the top URL, `nil` for none (then every load with a host is third-party).
    ///   - frameURL: the URL of the frame that starts the load (`if-frame-url`); defaults to
    ///     `mainDocumentURL`.
    ///   - resourceType: what is loaded (spec §4.2).
    ///   - loadContext: top frame or child frame (spec §4.4).
    ///   - requestMethod: the method of the request, `nil` for none/unknown (spec §4.1).
    ///   - loadType: an override; by default computed as WebKit does (`ResourceLoadInfo::isThirdParty`,
    ///     O(host length) with a cached Public Suffix List look-up).
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
        frame = frameURL
        self.url = url
        main = mainDocumentURL
        self.resourceType = resourceType
        self.loadContext = loadContext
        self.requestMethod = requestMethod
        self.loadType = loadType
    }

    /// Equal when every property is (the frame URL compared as read).
    public static func == (a: Self, b: Self) -> Bool {
        a.url == b.url && a.mainDocumentURL == b.mainDocumentURL && a.frameURL == b.frameURL
            && a.resourceType == b.resourceType && a.loadContext == b.loadContext
            && a.requestMethod == b.requestMethod && a.loadType == b.loadType
    }

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
