/// The JSON `type` of an action.
public enum ActionType: String, Sendable, Hashable, CaseIterable {
    case block
    case blockCookies = "block-cookies"
    case cssDisplayNone = "css-display-none"
    case ignorePreviousRules = "ignore-previous-rules"
    case ignoreFollowingRules = "ignore-following-rules"
    case makeHTTPS = "make-https"
    case notify
    case redirect
    case modifyHeaders = "modify-headers"
}

/// What a rule does when it fires (the JSON `action` object).
///
/// Mirrors WebKit's action variants (`Source/WebCore/contentextensions/ContentExtensionActions.h`).
public enum Action: Sendable, Hashable {
    case block
    case blockCookies
    /// A CSS selector list; after compilation, the selectors of rules merged into one action slot
    /// joined with `,`.
    case cssDisplayNone(selector: String)
    case ignorePreviousRules
    case ignoreFollowingRules
    case makeHTTPS
    case notify(notification: String)
    case redirect(RedirectAction)
    case modifyHeaders(ModifyHeadersAction)

    public var type: ActionType {
        switch self {
        case .block: return .block
        case .blockCookies: return .blockCookies
        case .cssDisplayNone: return .cssDisplayNone
        case .ignorePreviousRules: return .ignorePreviousRules
        case .ignoreFollowingRules: return .ignoreFollowingRules
        case .makeHTTPS: return .makeHTTPS
        case .notify: return .notify
        case .redirect: return .redirect
        case .modifyHeaders: return .modifyHeaders
        }
    }
}

/// A `redirect` action: the first present of `extension-path`, `regex-substitution`, `transform`,
/// `url` (WebKit `RedirectAction::parse`).
public enum RedirectAction: Sendable, Hashable {
    /// Starts with `/`; replaces the path of the list's extension base URL.
    case extensionPath(String)
    /// `substitution` with `\0`…`\9` replaced by the captures of `regexFilter` (the rule's own
    /// url-filter, compiled as a JavaScript regular expression with no flags).
    case regexSubstitution(substitution: String, regexFilter: String)
    case transform(URLTransform)
    /// An absolute URL, stored as written.
    case url(String)
}

/// The `transform` member of a redirect; every member is optional (WebKit `URLTransformAction`).
public struct URLTransform: Sendable, Hashable {
    public enum Port: Sendable, Hashable {
        case remove
        case set(UInt16)
    }
    public enum Query: Sendable, Hashable {
        /// `query` (`""` removes the query, otherwise it starts with `?`).
        case replace(String)
        /// `query-transform`.
        case transform(QueryTransform)
    }
    /// `""` removes the fragment; otherwise starts with `#`.
    public var fragment: String?
    public var host: String?
    public var password: String?
    public var path: String?
    public var port: Port?
    public var query: Query?
    /// Lower-cased, syntactically valid scheme.
    public var scheme: String?
    public var username: String?

    public init(
        fragment: String? = nil, host: String? = nil, password: String? = nil, path: String? = nil,
        port: Port? = nil, query: Query? = nil, scheme: String? = nil, username: String? = nil
    ) {
        self.fragment = fragment
        self.host = host
        self.password = password
        self.path = path
        self.port = port
        self.query = query
        self.scheme = scheme
        self.username = username
    }
}

/// `query-transform` (WebKit `QueryTransform`).
public struct QueryTransform: Sendable, Hashable {
    public struct Parameter: Sendable, Hashable {
        public var key: String
        public var value: String
        public var replaceOnly: Bool
        public init(key: String, value: String, replaceOnly: Bool = false) {
            self.key = key
            self.value = value
            self.replaceOnly = replaceOnly
        }
    }
    public var addOrReplaceParameters: [Parameter]
    public var removeParameters: [String]
    public init(addOrReplaceParameters: [Parameter] = [], removeParameters: [String] = []) {
        self.addOrReplaceParameters = addOrReplaceParameters
        self.removeParameters = removeParameters
    }
}

/// A `modify-headers` action (WebKit `ModifyHeadersAction`).
public struct ModifyHeadersAction: Sendable, Hashable {
    public struct HeaderOperation: Sendable, Hashable {
        public enum Operation: String, Sendable, Hashable {
            case set, append, remove
        }
        public var operation: Operation
        public var header: String
        /// Present for `set` and `append`.
        public var value: String?
        public init(operation: Operation, header: String, value: String? = nil) {
            self.operation = operation
            self.header = header
            self.value = value
        }
    }
    public var requestHeaders: [HeaderOperation]
    /// Parsed and stored, never applied (as in WebKit).
    public var responseHeaders: [HeaderOperation]
    /// `>= 0`; higher applies first.
    public var priority: Int
    public init(requestHeaders: [HeaderOperation] = [], responseHeaders: [HeaderOperation] = [], priority: Int) {
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
        self.priority = priority
    }
}

/// One rule of a rule list: a trigger and an action.
public struct ContentRule: Sendable, Hashable {
    public var trigger: Trigger
    public var action: Action
    public init(trigger: Trigger, action: Action) {
        self.trigger = trigger
        self.action = action
    }
}
