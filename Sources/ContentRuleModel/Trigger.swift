/// When a rule fires: its url-filter, flags and optional condition (the JSON `trigger` object).
///
/// Mirrors WebKit's `Trigger` (`Source/WebCore/contentextensions/ContentExtensionRule.h`).
public struct Trigger: Sendable, Hashable {
    /// The url-filter regular expression, as written (spec §3).
    public var urlFilter: String
    public var urlFilterIsCaseSensitive: Bool
    /// Applies to `if-top-url`/`unless-top-url` and to `if-domain`/`unless-domain`.
    public var topURLFilterIsCaseSensitive: Bool
    /// Applies to `if-frame-url`/`unless-frame-url`.
    public var frameURLFilterIsCaseSensitive: Bool
    /// Empty means every resource type.
    public var resourceTypes: ResourceType
    /// Empty means both load types.
    public var loadTypes: LoadTypes
    /// Empty means both load contexts.
    public var loadContexts: LoadContexts
    /// `nil` means any method.
    public var requestMethod: RequestMethod?
    /// At most one condition per trigger.
    public var condition: TriggerCondition?

    public init(
        urlFilter: String, urlFilterIsCaseSensitive: Bool = false, topURLFilterIsCaseSensitive: Bool = false,
        frameURLFilterIsCaseSensitive: Bool = false, resourceTypes: ResourceType = [], loadTypes: LoadTypes = [],
        loadContexts: LoadContexts = [], requestMethod: RequestMethod? = nil, condition: TriggerCondition? = nil
    ) {
        self.urlFilter = urlFilter
        self.urlFilterIsCaseSensitive = urlFilterIsCaseSensitive
        self.topURLFilterIsCaseSensitive = topURLFilterIsCaseSensitive
        self.frameURLFilterIsCaseSensitive = frameURLFilterIsCaseSensitive
        self.resourceTypes = resourceTypes
        self.loadTypes = loadTypes
        self.loadContexts = loadContexts
        self.requestMethod = requestMethod
        self.condition = condition
    }

    /// True when the trigger restricts no flag category (resource type, load type, load context, method).
    public var hasNoFlags: Bool {
        resourceTypes.isEmpty && loadTypes.isEmpty && loadContexts.isEmpty && requestMethod == nil
    }
}

/// One of the six condition keys with its non-empty list of values.
public struct TriggerCondition: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case ifDomain = "if-domain"
        case unlessDomain = "unless-domain"
        case ifTopURL = "if-top-url"
        case unlessTopURL = "unless-top-url"
        case ifFrameURL = "if-frame-url"
        case unlessFrameURL = "unless-frame-url"

        /// `unless-*`: the rule fires only when no pattern matches.
        public var isInverted: Bool {
            switch self {
            case .unlessDomain, .unlessTopURL, .unlessFrameURL: return true
            case .ifDomain, .ifTopURL, .ifFrameURL: return false
            }
        }
        /// Domain and top-URL conditions test the top URL; frame conditions test the frame URL.
        public var testsFrameURL: Bool { self == .ifFrameURL || self == .unlessFrameURL }
        /// Values are domains (turned into generated url-filter patterns), not patterns.
        public var isDomain: Bool { self == .ifDomain || self == .unlessDomain }
    }

    public var kind: Kind
    /// Domains for the domain kinds, url-filter patterns for the others.
    public var values: [String]

    public init(kind: Kind, values: [String]) {
        self.kind = kind
        self.values = values
    }
}
