package import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import RuleListParser

extension BatchMatching {
    /// What a result object holds (`--brief` / `--full`, `--fired-rules`, `--fields`).
    package struct ResultStyle: Sendable {
        /// Leave out css-display-none actions and global stylesheets, counting them instead.
        package var brief = false
        /// Add each list's fired rules (source indices).
        package var firedRules = false
        /// The top-level members written (`error` always is).
        package var fields = ResultFields.all

        package init(brief: Bool = false, firedRules: Bool = false, fields: ResultFields = .all) {
            self.brief = brief
            self.firedRules = firedRules
            self.fields = fields
        }
    }

    /// The top-level members of a result object, as `--fields` names them.
    package struct ResultFields: OptionSet, Sendable {
        package let rawValue: UInt32
        package static let names = [
            "id", "url", "loadType", "blockedLoad", "blockedCookies", "madeHTTPS", "redirected", "notifications",
            "actions", "lists", "cssDisplayNoneActions", "requestURL", "requestHeaders", "secondCheck", "warnings",
        ]
        package static let id = Self(named: "id")
        package static let url = Self(named: "url")
        package static let loadType = Self(named: "loadType")
        package static let blockedLoad = Self(named: "blockedLoad")
        package static let blockedCookies = Self(named: "blockedCookies")
        package static let madeHTTPS = Self(named: "madeHTTPS")
        package static let redirected = Self(named: "redirected")
        package static let notifications = Self(named: "notifications")
        package static let actions = Self(named: "actions")
        package static let lists = Self(named: "lists")
        package static let cssDisplayNoneActions = Self(named: "cssDisplayNoneActions")
        package static let requestURL = Self(named: "requestURL")
        package static let requestHeaders = Self(named: "requestHeaders")
        package static let secondCheck = Self(named: "secondCheck")
        package static let warnings = Self(named: "warnings")
        package static let all = Self(rawValue: (1 << UInt32(names.count)) - 1)

        package init(rawValue: UInt32) { self.rawValue = rawValue }
        private init(named name: String) { rawValue = 1 << UInt32(Self.names.firstIndex(of: name)!) }

        /// The members a comma-separated list names, or the error naming the first unknown one.
        package static func parse(_ text: String) -> Result<Self, RequestError> {
            var fields = Self()
            for name in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let index = names.firstIndex(of: String(name)) else {
                    return .failure(
                        RequestError(
                            "unknown field '\(name)' in --fields (valid: \(names.joined(separator: ", ")))"))
                }
                fields.insert(Self(rawValue: 1 << UInt32(index)))
            }
            return .success(fields)
        }
    }

    /// What a request says that does not change the answer but is likely a mistake: keys nothing reads,
    /// and a `requestMethod` that is none of the methods a rule can name (compared ASCII
    /// case-insensitively, as `request-method` is): WebKit matches such a request as one without a
    /// method (`RequestMethod::None`), and so do we, but a typo (`GETT`) would otherwise change the
    /// answer silently.
    package static func warnings(for fields: RequestFields) -> [String] {
        RequestOutcome(number: 0, error: nil, fields: fields).warnings
    }

    /// The load a request describes, as the page makes it (WebKit's loader decides the fragment and
    /// the second checks: ``PageLoad``), and its request headers.
    /// - Throws: ``RequestError`` naming the key and, for a name, the valid ones.
    package static func load(from fields: RequestFields) throws(RequestError) -> (PageLoad, [(String, String)]) {
        func string(_ value: RequestFields.Value, _ key: String) throws(RequestError) -> String? {
            switch value {
            case .absent: return nil
            case .string(let text): return text
            case .notAString: throw RequestError("\(key) must be a string")
            case .invalid(let message): throw RequestError(message)
            }
        }
        guard let urlText = try string(fields.url, "url") else { throw RequestError("url is required") }
        guard let url = WebURL(urlText) else { throw RequestError("url is not a valid URL: \(urlText)") }
        let mainGiven = try string(fields.mainDocumentURL, "mainDocumentURL")
        var main: WebURL?
        if let mainText = mainGiven, !mainText.isEmpty {
            guard let parsed = WebURL(mainText) else {
                throw RequestError("mainDocumentURL is not a valid URL: \(mainText)")
            }
            main = parsed
        }
        let contextName = try string(fields.loadContext, "loadContext") ?? "top-frame"
        guard let context = LoadContext(rawValue: contextName) else {
            throw RequestError("loadContext must be top-frame or child-frame, not '\(contextName)'")
        }
        let typeName = try string(fields.resourceType, "resourceType") ?? "document"
        guard let type = ResourceType(requestName: typeName, loadContext: context) else {
            throw RequestError(
                "unknown resourceType '\(typeName)' (valid: \(RequestFields.resourceTypeNames.joined(separator: ", ")))"
            )
        }
        // A top-level navigation in a new view: the top URL is the URL loaded, without its fragment
        // (WebKit's document loads drop it).
        if mainGiven == nil { main = ResourceLoadInfo.requestURL(url, forLoadOf: type) }
        var frame = main
        if let frameText = try string(fields.frameURL, "frameURL") {
            frame = nil
            if !frameText.isEmpty {
                guard let parsed = WebURL(frameText) else {
                    throw RequestError("frameURL is not a valid URL: \(frameText)")
                }
                frame = parsed
            }
        }
        let method = try string(fields.requestMethod, "requestMethod").flatMap {
            RequestMethod(caseInsensitiveName: $0)
        }
        var loadType: LoadType?
        if let name = try string(fields.loadType, "loadType") {
            guard let parsed = LoadType(rawValue: name) else {
                throw RequestError("loadType must be first-party or third-party, not '\(name)'")
            }
            loadType = parsed
        }
        let headers = try fields.requestHeaders?.get() ?? []
        let load = PageLoad(
            url: url, mainDocumentURL: main, frameURL: frame, resourceType: type, loadContext: context,
            requestMethod: method, loadType: loadType)
        return (load, headers)
    }

    /// `"id": …` as the request line wrote it (a number keeps every digit), when it has one.
    package static func writeID(of fields: RequestFields, into writer: inout JSONWriter) {
        if let idText = fields.idText {
            writer.key("id")
            writer.raw(idText)
        } else if let idValue = fields.idValue {
            writer.key("id")
            writer.value(idValue)
        }
    }

    /// Writes the result object of one request (see the help's RESULT), or `{"error": …}` with
    /// `errorPrefix` before the message; either has the request's warnings in `"warnings"` when
    /// `warningsInResult` and there are some. Returns the error's message (without `errorPrefix`), if any.
    @discardableResult
    package static func writeResponse(
        to fields: RequestFields, blocker: ContentBlocker, style: ResultStyle,
        errorPrefix: @autoclosure () -> String = "",
        warningsInResult: Bool = true, into writer: inout JSONWriter
    ) -> String? {
        writer.openObject()
        let selected = style.fields
        if selected.contains(.id) { writeID(of: fields, into: &writer) }
        var failed: String?
        do {
            let (load, headers) = try load(from: fields)
            writeResult(blocker.results(for: load, requestHeaders: headers), style: style, into: &writer)
        } catch {
            writer.key("error")
            writer.string(errorPrefix() + error.message)
            failed = error.message
        }
        if warningsInResult && selected.contains(.warnings),
            !fields.unknownKeys.isEmpty || fields.requestMethod.isString
        {
            let warnings = warnings(for: fields)
            if !warnings.isEmpty {
                writer.key("warnings")
                writer.strings(warnings)
            }
        }
        writer.closeObject()
        return failed
    }

    /// The members of a result object, in `style`: what the load's checks add up to, the first check's
    /// actions and lists, and the second check's where WebKit made one.
    package static func writeResult(_ page: PageLoadResults, style: ResultStyle, into writer: inout JSONWriter) {
        let first = page.first
        let second = page.second
        let selected = style.fields
        if selected.contains(.url) {
            writer.key("url")
            writer.string(first.load.url.serialization)
        }
        if selected.contains(.loadType) {
            writer.key("loadType")
            writer.raw(first.load.loadType == .firstParty ? #""first-party""# : #""third-party""#)
        }
        writeFlag(.blockedLoad, "blockedLoad", page.blockedLoad, selected, &writer)
        writeFlag(.blockedCookies, "blockedCookies", page.blockedCookies, selected, &writer)
        writeFlag(.madeHTTPS, "madeHTTPS", page.madeHTTPS, selected, &writer)
        writeFlag(.redirected, "redirected", page.redirected, selected, &writer)
        if selected.contains(.notifications) {
            writer.key("notifications")
            writer.openArray()
            let none = first.results.notifications.isEmpty && second?.results.notifications.isEmpty != false
            for notification in none ? [] : page.notifications {
                writer.element()
                writer.string(notification)
            }
            writer.closeArray()
        }
        writeActionsAndLists(first.results, style: style, into: &writer)
        // The last check's request URL and headers are the request's (`PageLoadResults.requestURL`).
        let last = second?.results ?? first.results
        if selected.contains(.requestURL), last.requestURL != first.load.url {
            writer.key("requestURL")
            writer.string(last.requestURL.serialization)
        }
        if selected.contains(.requestHeaders), let headers = last.requestHeaders {
            writer.key("requestHeaders")
            writer.openObject()
            for (name, value) in headers {
                writer.key(name)
                writer.string(value)
            }
            writer.closeObject()
        }
        if selected.contains(.secondCheck), let second {
            let load = second.load
            writer.key("secondCheck")
            writer.openObject()
            writer.key("resourceType")
            writer.string(load.resourceType.requestName ?? "")
            writer.key("url")
            writer.string(load.url.serialization)
            writer.key("mainDocumentURL")
            writer.string(load.mainDocumentURL?.serialization ?? "")
            writer.key("loadType")
            writer.string(load.loadType.rawValue)
            writer.key("blockedLoad")
            writer.bool(second.results.blockedLoad)
            writer.key("blockedCookies")
            writer.bool(second.results.blockedCookies)
            writer.key("madeHTTPS")
            writer.bool(second.results.madeHTTPS)
            var inner = style
            inner.fields = .all
            writeActionsAndLists(second.results, style: inner, into: &writer)
            writer.closeObject()
        }
    }

    private static func writeFlag(
        _ field: ResultFields, _ name: StaticString, _ value: Bool, _ selected: ResultFields,
        _ writer: inout JSONWriter
    ) {
        guard selected.contains(field) else { return }
        writer.key(name)
        writer.bool(value)
    }

    /// `actions`, `lists` and, brief, `cssDisplayNoneActions` of one check's results.
    package static func writeActionsAndLists(
        _ results: ContentRuleListResults, style: ResultStyle, into writer: inout JSONWriter
    ) {
        let brief = style.brief
        var hidden = 0
        if style.fields.contains(.actions) || brief && style.fields.contains(.cssDisplayNoneActions) {
            if style.fields.contains(.actions) {
                writer.key("actions")
                writer.openArray()
            }
            for list in results.lists {
                // Brief: the selectors are counted, not decoded (most of a list's actions on most loads).
                let listActions = brief ? list.actions.nonSelectorActions : list.actions.actions
                if brief { hidden += list.actions.actionCount - listActions.count }
                guard style.fields.contains(.actions) else { continue }
                for action in listActions {
                    writer.element()
                    writer.openObject()
                    writer.key("list")
                    writer.string(list.identifier)
                    writer.key("type")
                    writer.string(action.type.rawValue)
                    switch action {
                    case .cssDisplayNone(let selector):
                        writer.key("selector")
                        writer.string(selector)
                    case .notify(let notification):
                        writer.key("notification")
                        writer.string(notification)
                    default: break
                    }
                    writer.closeObject()
                }
            }
            if style.fields.contains(.actions) { writer.closeArray() }
        }
        if style.fields.contains(.lists) {
            writer.key("lists")
            writer.openArray()
            for list in results.lists {
                writer.element()
                writer.openObject()
                writer.key("list")
                writer.string(list.identifier)
                writer.key("ignoredPreviousRules")
                writer.bool(list.sawIgnorePreviousRules)
                if brief {
                    writer.key("globalStylesheetBytes")
                    writer.int(list.globalStylesheet?.utf8.count ?? 0)
                } else {
                    writer.key("globalStylesheet")
                    if let stylesheet = list.globalStylesheet { writer.string(stylesheet) } else { writer.null() }
                }
                if style.firedRules {
                    writer.key("firedRules")
                    writer.openArray()
                    for rule in list.actions.firedRules {
                        writer.element()
                        writer.int(Int(rule))
                    }
                    writer.closeArray()
                }
                writer.closeObject()
            }
            writer.closeArray()
        }
        if brief && style.fields.contains(.cssDisplayNoneActions) {
            writer.key("cssDisplayNoneActions")
            writer.int(hidden)
        }
    }
}

/// What one request came to, for a batch's summary and `--strict`: its number (line or position, from
/// 1), its error, and what it had that is likely a mistake (keys nothing reads, a `requestMethod` no
/// rule can name).
package struct RequestOutcome: Sendable {
    package var number: Int
    package var error: String?
    package var unknownKeys: [String] = []
    package var unknownMethod: String?

    /// The outcome of request `number` with `fields` (nil: not a request object) and `error`.
    package init(number: Int, error: String?, fields: RequestFields?) {
        self.number = number
        self.error = error
        guard let fields else { return }
        unknownKeys = fields.unknownKeys
        if case .string(let method) = fields.requestMethod, RequestMethod(caseInsensitiveName: method) == nil {
            unknownMethod = method
        }
    }

    /// The request's warnings, as its result's `warnings` lists them.
    package var warnings: [String] {
        unknownKeys.map { "unknown request key '\($0)' ignored" }
            + (unknownMethod.map { ["unknown request method '\($0)': matched as no method"] } ?? [])
    }
}
