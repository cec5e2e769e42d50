/// The kinds of load a trigger can select, as bits.
///
/// Bit values mirror WebKit's `ResourceType` (`Source/WebCore/loader/ResourceLoadInfo.h`, 2025).
/// A request has exactly one type; a trigger holds a set (empty means "every type").
public struct ResourceType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Whether this is exactly one type (what a load has; a trigger's `resource-type` may list several).
    public var isSingleType: Bool { rawValue.nonzeroBitCount == 1 && rawValue < 1 << 14 }

    public static let topDocument = ResourceType(rawValue: 0x1)
    public static let childDocument = ResourceType(rawValue: 0x2)
    public static let image = ResourceType(rawValue: 0x4)
    public static let styleSheet = ResourceType(rawValue: 0x8)
    public static let script = ResourceType(rawValue: 0x10)
    public static let font = ResourceType(rawValue: 0x20)
    public static let svgDocument = ResourceType(rawValue: 0x40)
    public static let media = ResourceType(rawValue: 0x80)
    public static let popup = ResourceType(rawValue: 0x100)
    public static let ping = ResourceType(rawValue: 0x200)
    public static let fetch = ResourceType(rawValue: 0x400)
    public static let webSocket = ResourceType(rawValue: 0x800)
    public static let cspReport = ResourceType(rawValue: 0x1000)
    public static let other = ResourceType(rawValue: 0x2000)
    public static let all = ResourceType(rawValue: 0x3FFF)

    /// Every name ``init(triggerName:)`` takes, in WebKit's documentation order.
    public static let triggerNames = [
        "document", "top-document", "child-document", "image", "style-sheet", "script", "font", "raw", "svg-document",
        "media", "popup", "ping", "fetch", "websocket", "other", "csp-report",
    ]

    /// The set a `resource-type` trigger name selects (WebKit `readResourceType`), or `nil` for an
    /// unknown name. Names are case-sensitive. `document` is top- and child-document, `raw` is
    /// fetch + websocket + other + ping, `other` is other + ping + csp-report.
    public init?(triggerName: String) {
        switch triggerName {
        case "document": self = [.topDocument, .childDocument]
        case "top-document": self = .topDocument
        case "child-document": self = .childDocument
        case "image": self = .image
        case "style-sheet": self = .styleSheet
        case "script": self = .script
        case "font": self = .font
        case "raw": self = [.fetch, .webSocket, .other, .ping]
        case "websocket": self = .webSocket
        case "fetch": self = .fetch
        case "other": self = [.other, .ping, .cspReport]
        case "svg-document": self = .svgDocument
        case "media": self = .media
        case "popup": self = .popup
        case "ping": self = .ping
        case "csp-report": self = .cspReport
        default: return nil
        }
    }

    /// Every single type with the name a request uses for it (`document` is not here: a request's
    /// `document` is resolved with its load context, see ``init(requestName:loadContext:)``).
    public static let requestNames: [(String, ResourceType)] = [
        ("top-document", .topDocument), ("child-document", .childDocument), ("image", .image),
        ("style-sheet", .styleSheet), ("script", .script), ("font", .font), ("svg-document", .svgDocument),
        ("media", .media), ("popup", .popup), ("ping", .ping), ("fetch", .fetch), ("websocket", .webSocket),
        ("csp-report", .cspReport), ("other", .other),
    ]

    /// The request name of a single type (``requestNames``), `nil` for a set of types.
    public var requestName: String? { Self.requestNames.first { $0.1 == self }?.0 }

    /// The single type of a request named as in the conformance data and the CLI: WebKit's trigger
    /// names of single types, plus `document`, which is `top-document` in the top frame and
    /// `child-document` in a child frame.
    public init?(requestName: String, loadContext: LoadContext) {
        if requestName == "document" {
            self = loadContext == .topFrame ? .topDocument : .childDocument
            return
        }
        // Lengths first: most names differ in length, which is cheaper to compare than the text.
        let length = requestName.utf8.count
        guard let found = ResourceType.requestNames.first(where: { $0.0.utf8.count == length && $0.0 == requestName })
        else { return nil }
        self = found.1
    }
}

/// First- or third-party, from the registrable domains of the top URL and the request URL
/// (WebKit `ResourceLoadInfo::isThirdParty`).
public enum LoadType: String, Sendable, Hashable, CaseIterable {
    case firstParty = "first-party"
    case thirdParty = "third-party"
}

/// A trigger's `load-type` set; empty means both.
public struct LoadTypes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let firstParty = LoadTypes(rawValue: 1)
    public static let thirdParty = LoadTypes(rawValue: 2)
    public init(_ type: LoadType) { self = type == .firstParty ? .firstParty : .thirdParty }
}

/// Whether the initiating frame is the main frame (`top-frame`) or not (`child-frame`).
public enum LoadContext: String, Sendable, Hashable, CaseIterable {
    case topFrame = "top-frame"
    case childFrame = "child-frame"
}

/// A trigger's `load-context` set; empty means both.
public struct LoadContexts: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let topFrame = LoadContexts(rawValue: 1)
    public static let childFrame = LoadContexts(rawValue: 2)
    public init(_ context: LoadContext) { self = context == .topFrame ? .topFrame : .childFrame }
}

/// The HTTP methods a trigger's `request-method` can name (WebKit `readRequestMethod`; the name is
/// matched ASCII case-insensitively). A trigger names at most one.
public enum RequestMethod: String, Sendable, Hashable, CaseIterable {
    case get, head, options, trace, put, delete, post, patch, connect

    /// The method for a name compared ASCII case-insensitively (`"GET"`, `"get"`), or `nil`.
    public init?(caseInsensitiveName name: String) {
        var lowered = ""
        lowered.unicodeScalars.reserveCapacity(name.unicodeScalars.count)
        for scalar in name.unicodeScalars {
            if scalar.value >= 0x41 && scalar.value <= 0x5A {
                lowered.unicodeScalars.append(Unicode.Scalar(scalar.value + 0x20)!)
            } else {
                lowered.unicodeScalars.append(scalar)
            }
        }
        self.init(rawValue: lowered)
    }
}
