import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import RuleListParser

extension MatchCommand {
    /// What a result object holds (`--brief` / `--full`, `--fired-rules`, `--fields`).
    struct ResultStyle: Sendable {
        /// Leave out css-display-none actions and global stylesheets, counting them instead.
        var brief = false
        /// Add each list's fired rules (source indices).
        var firedRules = false
        /// The top-level members written (`error` always is).
        var fields = ResultFields.all
    }

    /// The top-level members of a result object, as `--fields` names them.
    struct ResultFields: OptionSet, Sendable {
        let rawValue: UInt32
        static let names = [
            "id", "url", "loadType", "blockedLoad", "blockedCookies", "madeHTTPS", "redirected", "notifications",
            "actions", "lists", "cssDisplayNoneActions", "requestURL", "requestHeaders", "secondCheck", "warnings",
        ]
        static let id = Self(named: "id")
        static let url = Self(named: "url")
        static let loadType = Self(named: "loadType")
        static let blockedLoad = Self(named: "blockedLoad")
        static let blockedCookies = Self(named: "blockedCookies")
        static let madeHTTPS = Self(named: "madeHTTPS")
        static let redirected = Self(named: "redirected")
        static let notifications = Self(named: "notifications")
        static let actions = Self(named: "actions")
        static let lists = Self(named: "lists")
        static let cssDisplayNoneActions = Self(named: "cssDisplayNoneActions")
        static let requestURL = Self(named: "requestURL")
        static let requestHeaders = Self(named: "requestHeaders")
        static let secondCheck = Self(named: "secondCheck")
        static let warnings = Self(named: "warnings")
        static let all = Self(rawValue: (1 << UInt32(names.count)) - 1)

        init(rawValue: UInt32) { self.rawValue = rawValue }
        private init(named name: String) { rawValue = 1 << UInt32(Self.names.firstIndex(of: name)!) }

        /// The members a comma-separated list names; nil with the first unknown name.
        static func parse(_ text: String) -> Result<Self, UsageError> {
            var fields = Self()
            for name in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let index = names.firstIndex(of: String(name)) else {
                    return .failure(
                        UsageError(
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
    static func warnings(for fields: RequestFields) -> [String] {
        var warnings = fields.unknownKeys.map { "unknown request key '\($0)' ignored" }
        if case .string(let method) = fields.requestMethod, RequestMethod(caseInsensitiveName: method) == nil {
            warnings.append("unknown request method '\(method)': matched as no method")
        }
        return warnings
    }

    /// The load a request describes, as the page makes it (WebKit's loader decides the fragment and
    /// the second checks: ``PageLoad``), and its request headers.
    /// - Throws: ``RuntimeError`` naming the key and, for a name, the valid ones.
    static func load(from fields: RequestFields) throws(RuntimeError) -> (PageLoad, [(String, String)]) {
        func string(_ value: RequestFields.Value, _ key: String) throws(RuntimeError) -> String? {
            switch value {
            case .absent: return nil
            case .string(let text): return text
            case .notAString: throw RuntimeError("\(key) must be a string")
            case .invalid(let message): throw RuntimeError(message)
            }
        }
        guard let urlText = try string(fields.url, "url") else { throw RuntimeError("url is required") }
        guard let url = WebURL(urlText) else { throw RuntimeError("url is not a valid URL: \(urlText)") }
        let mainGiven = try string(fields.mainDocumentURL, "mainDocumentURL")
        var main: WebURL?
        if let mainText = mainGiven, !mainText.isEmpty {
            guard let parsed = WebURL(mainText) else {
                throw RuntimeError("mainDocumentURL is not a valid URL: \(mainText)")
            }
            main = parsed
        }
        let contextName = try string(fields.loadContext, "loadContext") ?? "top-frame"
        guard let context = LoadContext(rawValue: contextName) else {
            throw RuntimeError("loadContext must be top-frame or child-frame, not '\(contextName)'")
        }
        let typeName = try string(fields.resourceType, "resourceType") ?? "document"
        guard let type = ResourceType(requestName: typeName, loadContext: context) else {
            throw RuntimeError(
                "unknown resourceType '\(typeName)' (valid: \(ResourceTypeName.allValueStrings.joined(separator: ", ")))"
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
                    throw RuntimeError("frameURL is not a valid URL: \(frameText)")
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
                throw RuntimeError("loadType must be first-party or third-party, not '\(name)'")
            }
            loadType = parsed
        }
        let headers = try fields.requestHeaders?.get() ?? []
        let load = PageLoad(
            url: url, mainDocumentURL: main, frameURL: frame, resourceType: type, loadContext: context,
            requestMethod: method, loadType: loadType)
        return (load, headers)
    }

    /// Writes the result object of one request (see the help's RESULT), or `{"error": …}` with
    /// `errorPrefix` before the message; either has the request's warnings in `"warnings"` when
    /// `warningsInResult` and there are some. Returns the error's message (without `errorPrefix`), if any.
    @discardableResult
    static func writeResponse(
        to fields: RequestFields, blocker: ContentBlocker, style: ResultStyle, errorPrefix: String = "",
        warningsInResult: Bool = true, into writer: inout JSONWriter
    ) -> String? {
        writer.openObject()
        let selected = style.fields
        if selected.contains(.id) {
            if let idText = fields.idText {
                writer.key("id")
                writer.raw(idText)
            } else if let idValue = fields.idValue {
                writer.key("id")
                JSON(idValue).write(to: &writer)
            }
        }
        var failed: String?
        do {
            let (load, headers) = try load(from: fields)
            writeResult(blocker.results(for: load, requestHeaders: headers), style: style, into: &writer)
        } catch {
            writer.key("error")
            writer.string(errorPrefix + error.message)
            failed = error.message
        }
        if warningsInResult && selected.contains(.warnings) {
            let warnings = warnings(for: fields)
            if !warnings.isEmpty {
                writer.key("warnings")
                writer.openArray()
                for warning in warnings {
                    writer.element()
                    writer.string(warning)
                }
                writer.closeArray()
            }
        }
        writer.closeObject()
        return failed
    }

    /// The members of a result object, in `style`: what the load's checks add up to, the first check's
    /// actions and lists, and the second check's where WebKit made one.
    static func writeResult(_ page: PageLoadResults, style: ResultStyle, into writer: inout JSONWriter) {
        let first = page.first
        let selected = style.fields
        if selected.contains(.url) {
            writer.key("url")
            writer.string(first.load.url.serialization)
        }
        if selected.contains(.loadType) {
            writer.key("loadType")
            writer.string(first.load.loadType.rawValue)
        }
        writeFlag(.blockedLoad, "blockedLoad", page.blockedLoad, selected, &writer)
        writeFlag(.blockedCookies, "blockedCookies", page.blockedCookies, selected, &writer)
        writeFlag(.madeHTTPS, "madeHTTPS", page.madeHTTPS, selected, &writer)
        writeFlag(.redirected, "redirected", page.redirected, selected, &writer)
        if selected.contains(.notifications) {
            writer.key("notifications")
            writer.openArray()
            for notification in page.notifications {
                writer.element()
                writer.string(notification)
            }
            writer.closeArray()
        }
        writeActionsAndLists(first.results, style: style, into: &writer)
        if selected.contains(.requestURL), page.requestURL != first.load.url {
            writer.key("requestURL")
            writer.string(page.requestURL.serialization)
        }
        if selected.contains(.requestHeaders), let headers = (page.second ?? first).results.requestHeaders {
            writer.key("requestHeaders")
            writer.openObject()
            for (name, value) in headers {
                writer.key(name)
                writer.string(value)
            }
            writer.closeObject()
        }
        if selected.contains(.secondCheck), let second = page.second {
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
    static func writeActionsAndLists(
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
