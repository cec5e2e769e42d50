import ContentRuleURL
package import RuleListParser

/// The request sets `match --requests` reads (`--input-format`), each mapped to the request keys
/// (REQUEST in `match --help`) and WebKit's resource types.
package enum RequestFormat: String, CaseIterable, Sendable {
    /// JSON Lines of request objects (REQUEST).
    case request
    /// tsurlfilter's crawl: JSON Lines `{"url", "frameUrl", "cpt"}`; `frameUrl` is the top URL and
    /// `cpt` (Chrome's resource type) maps as ``tsurlfilterTypes`` says.
    case tsurlfilter
    /// adblock-rust's test requests: one JSON array of `{"url", "sourceUrl", "type"}` (other keys, such as
    /// `filters`, are theirs and not reported); `sourceUrl` is the top URL (none when it is not a valid
    /// URL, as `http://` is), `type` maps as ``adblockRustTypes`` says.
    case adblockRust = "adblock-rust"
    /// An HTTP Archive (HAR 1.2, what a browser's network panel exports): each entry a request, in order
    /// (see ``harRequests(_:)``).
    case har

    /// Whether the input is JSON Lines (answered as read) rather than one JSON document.
    package var isLines: Bool { self == .request || self == .tsurlfilter }

    /// Chrome's (puppeteer's) resource types → WebKit's request names.
    package static let tsurlfilterTypes: [String: String] = [
        "document": "document", "stylesheet": "style-sheet", "image": "image", "media": "media", "font": "font",
        "script": "script", "texttrack": "media", "xhr": "fetch", "fetch": "fetch", "eventsource": "fetch",
        "websocket": "websocket", "manifest": "other", "signedexchange": "other", "ping": "ping",
        "cspviolationreport": "csp-report", "preflight": "other", "other": "other",
    ]

    /// adblock-rust's (ABP's) request types → WebKit's request names; `subdocument` is a document in
    /// a child frame; a beacon is `other`, as WebKit checks `navigator.sendBeacon` (the oracle suites'
    /// `beacon` cases).
    package static let adblockRustTypes: [String: String] = [
        "document": "document", "main_frame": "document", "subdocument": "document", "sub_frame": "document",
        "stylesheet": "style-sheet", "image": "image", "media": "media", "font": "font", "script": "script",
        "xhr": "fetch", "xmlhttprequest": "fetch", "fetch": "fetch", "websocket": "websocket", "ping": "ping",
        "beacon": "other", "csp_report": "csp-report", "object": "other", "object-subrequest": "other",
        "webrtc": "other", "other": "other",
    ]

    /// The help's description of the formats and their mappings.
    package static var help: String {
        func mapping(_ table: [String: String]) -> String {
            table.sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }.joined(separator: ", ")
        }
        return """
            request (default): JSON Lines of REQUEST objects. tsurlfilter: JSON Lines {url, frameUrl (the top URL), \
            cpt}, cpt mapped: \(mapping(tsurlfilterTypes)). adblock-rust: a JSON array of {url, sourceUrl (the top \
            URL; none when not a valid URL), type}, type mapped: \(mapping(adblockRustTypes)); subdocument and \
            sub_frame in a child frame. har: an HTTP Archive; each entry in order: request.url, the top URL is \
            the URL of its page's first document entry, else the page's title when it is a URL (none without \
            pageref), the type is Chrome's \
            _resourceType mapped as for tsurlfilter (else from response.content.mimeType: text/html document, \
            text/css style-sheet, *javascript* script, image/* image, font/* font, audio/* and video/* media, \
            else other), a document entry after its page's first is in a child frame; request.method is \
            informational (httpMethod). An unknown type gives that line an error naming the valid ones.
            """
    }
}

extension RequestFields {
    /// The fields of a tsurlfilter request object (``RequestFormat/tsurlfilter``).
    package init(tsurlfilter object: JSONObject, idText: ArraySlice<UInt8>? = nil) {
        self.init()
        func value(_ key: String) -> Value {
            guard let given = object[key] else { return .absent }
            return given.stringValue.map { .string($0) } ?? .notAString
        }
        url = value("url")
        mainDocumentURL = value("frameUrl")
        resourceType = Self.mapped(value("cpt"), RequestFormat.tsurlfilterTypes, key: "cpt")
        if let id = object["id"] {
            if let idText { self.idText = idText } else { idValue = id }
        }
        unknownKeys = Set(object.keys.filter { !["url", "frameUrl", "cpt", "id"].contains($0) }).sorted()
    }

    /// A type name mapped by `table`; an unknown name becomes an error of the request, naming the valid
    /// ones.
    package static func mapped(_ value: Value, _ table: [String: String], key: String) -> Value {
        guard case .string(let name) = value else { return value }
        if let webKit = table[name] { return .string(webKit) }
        return .invalid("unknown \(key) '\(name)' (valid: \(table.keys.sorted().joined(separator: ", ")))")
    }

    /// The requests of an adblock-rust request set (``RequestFormat/adblockRust``), in order.
    package static func adblockRustRequests(_ document: JSONValue) -> Result<
        [Result<RequestFields, RequestError>], RequestError
    > {
        guard let array = document.arrayValue else {
            return .failure(RequestError("an adblock-rust request set is a JSON array of request objects"))
        }
        return .success(
            array.map { element in
                guard let object = element.objectValue else { return .failure(RequestError("not an object")) }
                var fields = RequestFields()
                fields.url = object.string("url").map { .string($0) } ?? (object["url"] == nil ? .absent : .notAString)
                let source = object.string("sourceUrl") ?? ""
                fields.mainDocumentURL = .string(WebURL(source) != nil ? source : "")
                let type = Self.mapped(
                    object.string("type").map { .string($0) } ?? .string("other"), RequestFormat.adblockRustTypes,
                    key: "type")
                fields.resourceType = type
                if case .string = type, let name = object.string("type"), ["subdocument", "sub_frame"].contains(name) {
                    fields.loadContext = .string("child-frame")
                }
                return .success(fields)
            })
    }

    /// The requests of an HTTP Archive (``RequestFormat/har``), in entry order: the URL of the request;
    /// the top URL is the URL of the first `document` entry of the entry's page (else the page's
    /// title when it is a URL, as Chrome writes it; none without a `pageref`); the type is Chrome's
    /// `_resourceType` mapped as tsurlfilter's, else read from the response's MIME type; a document
    /// entry after its page's first is a child frame's.
    package static func harRequests(_ document: JSONValue) -> Result<
        [Result<RequestFields, RequestError>], RequestError
    > {
        guard let log = document.objectValue?.object("log"), let entries = log["entries"]?.arrayValue else {
            return .failure(RequestError("an HTTP Archive is a JSON object with log.entries"))
        }
        func type(of entry: JSONObject) -> Value {
            if let chrome = entry.string("_resourceType") {
                return mapped(.string(chrome), RequestFormat.tsurlfilterTypes, key: "_resourceType")
            }
            let mime = entry.object("response")?.object("content")?.string("mimeType")?.lowercased() ?? ""
            let name: String
            if mime.hasPrefix("text/html") || mime.hasPrefix("application/xhtml") {
                name = "document"
            } else if mime.hasPrefix("text/css") {
                name = "style-sheet"
            } else if mime.contains("javascript") || mime.contains("ecmascript") {
                name = "script"
            } else if mime.hasPrefix("image/") {
                name = "image"
            } else if mime.hasPrefix("font/") || mime.contains("font") {
                name = "font"
            } else if mime.hasPrefix("audio/") || mime.hasPrefix("video/") {
                name = "media"
            } else {
                name = "other"
            }
            return .string(name)
        }
        let objects = entries.map(\.objectValue)
        var pageURLs: [String: String] = [:]
        for page in log["pages"]?.arrayValue ?? [] {
            if let id = page.objectValue?.string("id"), let title = page.objectValue?.string("title"),
                WebURL(title) != nil
            {
                pageURLs[id] = title
            }
        }
        var firstDocuments: [String: Int] = [:]
        for (index, object) in objects.enumerated() {
            guard let object, let page = object.string("pageref"), firstDocuments[page] == nil,
                case .string("document") = type(of: object), let url = object.object("request")?.string("url")
            else { continue }
            firstDocuments[page] = index
            pageURLs[page] = url
        }
        return .success(
            objects.enumerated().map { index, object in
                guard let object, let request = object.object("request") else {
                    return .failure(RequestError("an entry without a request object"))
                }
                var fields = RequestFields()
                fields.url =
                    request.string("url").map { .string($0) } ?? (request["url"] == nil ? .absent : .notAString)
                fields.resourceType = type(of: object)
                let page = object.string("pageref")
                if let page, let top = pageURLs[page] {
                    if firstDocuments[page] != index { fields.mainDocumentURL = .string(top) }
                    if case .string("document") = fields.resourceType, let first = firstDocuments[page], first != index
                    {
                        fields.loadContext = .string("child-frame")
                    }
                } else if page == nil {
                    if case .string("document") = fields.resourceType {} else { fields.mainDocumentURL = .string("") }
                }
                return .success(fields)
            })
    }
}
