import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Dispatch
import Foundation
import RuleListParser

enum MatchCommand {
    static let help = """
        USAGE: content-blocker match LIST... [--url U [--top-url T] [--frame-url F] [--type TYPE]
                                              [--context top-frame|child-frame] [--method M] [--load-type L]]
               content-blocker match LIST... --requests FILE|- [--brief] [--fired-rules] [--jobs N]

        Decides loads as WebKit would with the given content rule lists installed, in the order given.
        Each LIST is a compiled binary rule list or a JSON rule list; its identifier (the "list" of
        results) is its file name without extension (`stdin` for -), with -2, -3, … added to a name an
        earlier LIST already has (a/list.json b/list.json → list, list-2). One request comes from the
        flags, or many from --requests: JSON Lines in, one result line out per request line, in input
        order.

        Each request is a load as a page makes it, decided as WebKit's loader does (the library's PageLoad):
        an http(s) URL's #fragment is dropped for every type but popup, media, ping and csp-report; a
        ping or csp-report that is not blocked is checked again as `other` (the ping load it becomes), and
        a popup again as the new window's top-level navigation (top URL = the popup's URL); a block from
        either check cancels the load. The library's ContentBlocker.results(for: ResourceLoadInfo) is
        WebKit's backend instead: one check of the URL exactly as given.

        REQUEST (a JSON object; flags in brackets):
          url (required) [--url]        the request URL as the page gives it; canonicalized as WebKit
                                        serializes URLs
          mainDocumentURL [--top-url]   the top URL (default: url without its fragment, i.e. a top-level
                                        navigation; "" for none); it keeps its fragment
          frameURL [--frame-url]        the URL of the document the initiating frame shows when the load
                                        starts (default: mainDocumentURL). For a navigation WebKit uses the
                                        document being left: give the previous page's URL, or about:blank
                                        for a new frame or window; the default is a brand-new view, whose
                                        frame URL is the URL being loaded
          resourceType [--type]         document (default), top-document, child-document, image, style-sheet,
                                        script, font, svg-document, media, popup, ping, fetch, websocket,
                                        csp-report, other; document means top-document in the top frame and
                                        child-document in a child frame
          loadContext [--context]       top-frame (default) or child-frame
          requestMethod [--method]      the method of the page's own load (get for a page loaded normally),
                                        which is what WebKit compares with request-method: not the method the
                                        request goes out with (a beacon is sent as POST and matched as get).
                                        Any case; optional; another name is matched as no method, as WebKit
                                        does, with a warning
          httpMethod                    optional, informational: the method on the wire (not matched)
          loadType [--load-type]        first-party or third-party (optional; computed from the URLs otherwise)
          requestHeaders                optional object of header → value, for modify-headers

        RESULT (one JSON object per request): blockedLoad, blockedCookies, madeHTTPS, redirected and
          notifications of the whole load (all its checks); url (canonical, as the first check saw
          it), loadType, actions [{list, type, selector?, notification?}] in WebKit's order and lists
          [{list, ignoredPreviousRules, globalStylesheet}] of the first check; requestURL and
          requestHeaders where an action changed them; secondCheck {resourceType, url,
          mainDocumentURL, loadType, blockedLoad, blockedCookies, madeHTTPS, actions, lists} where
          WebKit checked the load again. With --requests, a request's
          "id" (any JSON value) is echoed first; keys not listed above are ignored and named in
          "warnings" (as is an unknown requestMethod; with flags, warnings go to standard error); a
          bad or blank request line gives {"error": "line N: ..."} (with its "warnings", if any) and
          the batch goes on: line N of the input is always line N of the output. Requests are answered as they are
          read, so a tool can keep one process open and write requests to it.

        OPTIONS:
          --requests FILE        JSON Lines requests (`-` for standard input).
          --active-actions PAT   Let every list apply redirect and modify-headers to URLs matching the
                                 match pattern PAT (e.g. '*://example.com/*', '<all_urls>'); repeatable.
                                 WebKit applies them nowhere by default.
          --engine fast|reference
                                 The matching strategy: fast (default; indexed) or reference (every rule
                                 in order, one regex search each). Both give the same results.
          --jobs N               Threads for --requests (default: the number of processors); output
                                 stays in input order.
          --brief                Leave out css-display-none actions and global stylesheets (on a large
                                 list they make each result hundreds of KB): "actions" has the other
                                 actions, "cssDisplayNoneActions" counts the left-out ones, and each
                                 list has "globalStylesheetBytes" instead of "globalStylesheet".
          --fired-rules          Add to each list its "firedRules": the indices (0-based, in the list's
                                 JSON array, ascending) of the rules whose triggers matched the load —
                                 those whose actions an ignore-previous-rules dropped and the ignore
                                 rules too; not the css-display-none rules of the global stylesheet.
          -h, --help             Show this help.

        EXIT STATUS: 0 done (with --requests, even if some request lines were bad), 2 usage error
        (including a bad --url, --type, … value) or I/O error.
        """

    /// The flags of a single request besides `--url`, and the request keys they set.
    static let requestFlags: [(flag: String, key: String)] = [
        ("--top-url", "mainDocumentURL"), ("--frame-url", "frameURL"), ("--type", "resourceType"),
        ("--context", "loadContext"), ("--method", "requestMethod"), ("--load-type", "loadType"),
    ]

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(
            arguments,
            valued: Set(
                ["--url"] + requestFlags.map(\.flag) + ["--requests", "--active-actions", "--engine", "--jobs"]),
            flags: ["--help", "-h", "--brief", "--fired-rules"], repeatable: ["--active-actions"])
        if args.flag("--help") || args.flag("-h") {
            Console.out(help)
            return 0
        }
        guard !args.positionals.isEmpty else { throw UsageError("match needs at least one rule list") }
        var patterns: [URLMatchPattern] = []
        for text in args.values("--active-actions") {
            guard let pattern = URLMatchPattern(text) else { throw UsageError("invalid match pattern '\(text)'") }
            patterns.append(pattern)
        }
        let style = ResultStyle(brief: args.flag("--brief"), firedRules: args.flag("--fired-rules"))
        let engineName = args.value("--engine") ?? "fast"
        guard let engine = MatchingEngine(rawValue: engineName) else {
            throw UsageError("--engine must be fast or reference")
        }
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = args.value("--jobs") {
            guard let value = Int(text), value >= 1 else { throw UsageError("--jobs must be a positive integer") }
            jobs = value
        }
        try RuleListInput.readStandardInputOnce(args.positionals + [args.value("--requests")].compactMap { $0 })
        var lists: [ContentRuleList] = []
        let identifiers = RuleListInput.identifiers(for: args.positionals)
        for (path, identifier) in zip(args.positionals, identifiers) {
            lists.append(try RuleListInput.load(path, identifier: identifier))
        }
        let blocker = ContentBlocker(
            lists: lists, activeActions: ActiveActionPolicy(patternsForAllLists: patterns), engine: engine)

        if let requests = args.value("--requests") {
            // The request flags describe one request: with --requests each line says its own.
            if let flag = (["--url"] + requestFlags.map(\.flag)).first(where: { args.value($0) != nil }) {
                throw UsageError("\(flag) describes a single request: use either it or --requests")
            }
            try runBatch(blocker, requestsPath: requests, jobs: jobs, style: style)
            return 0
        }
        guard let url = args.value("--url") else { throw UsageError("match needs --url or --requests") }
        var object: [String: Any] = ["url": url]
        for (flag, key) in requestFlags { if let value = args.value(flag) { object[key] = value } }
        do {
            _ = try request(from: object)
        } catch {
            throw UsageError("invalid request: \(error.message)")
        }
        for warning in warnings(for: object) { Console.err("warning: \(warning)") }
        Console.out(respond(to: object, blocker: blocker, style: style, warningsInResult: false).text)
        return 0
    }

    /// Matches JSON Lines requests on `jobs` threads as they are read (``RequestLines``): each run of
    /// lines read is cut into chunks, a window of chunks is matched concurrently
    /// (`DispatchQueue.concurrentPerform`), and the window's output is written in input order before
    /// the next window starts. Every input line gives one output line.
    static func runBatch(
        _ blocker: ContentBlocker, requestsPath: String, jobs: Int, style: ResultStyle = ResultStyle()
    ) throws {
        var reader = try RequestLines(path: requestsPath)
        defer {
            reader.close()
            // Also when a read error ends the batch: its message then starts a line of its own.
            Console.endProgress()
        }
        var matched = 0
        while let batch = try reader.next() {
            let bytes = batch.bytes
            let lines = batch.lines
            let chunkSize = 256
            let chunkCount = (lines.count + chunkSize - 1) / chunkSize
            let window = jobs * 4
            var firstChunk = 0
            while firstChunk < chunkCount {
                let chunks = min(window, chunkCount - firstChunk)
                let outputs = ChunkOutputs(count: chunks)
                let base = firstChunk
                let matchChunk = { @Sendable (offset: Int) in
                    let chunk = base + offset
                    var output = ""
                    for (number, range) in lines[(chunk * chunkSize)..<min(lines.count, (chunk + 1) * chunkSize)] {
                        output += response(to: bytes[range], lineNumber: number, blocker: blocker, style: style).text
                        output += "\n"
                    }
                    outputs.set(offset, output)
                }
                if jobs == 1 || chunks == 1 {
                    for offset in 0..<chunks { matchChunk(offset) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: chunks, execute: matchChunk)
                }
                for output in outputs.all() {
                    // A failed write stops the batch: nobody reads the answers (main.swift reports
                    // the error and exits 2).
                    guard Console.outText(output) else { return }
                }
                matched +=
                    min(lines.count, (firstChunk + chunks) * chunkSize) - min(lines.count, firstChunk * chunkSize)
                firstChunk += chunks
                Console.progress("matched \(matched) requests")
            }
        }
    }

    /// The request keys ``request(from:)`` reads; `id` is echoed back. Others are reported in the
    /// result's `warnings` (a misspelt key would otherwise change the answer silently).
    static let requestKeys: Set<String> = [
        "id", "url", "mainDocumentURL", "frameURL", "resourceType", "loadContext", "requestMethod", "loadType",
        "requestHeaders", "httpMethod",
    ]

    /// The result line for one request line; errors start with `line N:`.
    static func response(
        to line: ArraySlice<UInt8>, lineNumber: Int, blocker: ContentBlocker, style: ResultStyle
    ) -> JSON {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            return .object([("error", .string("line \(lineNumber): empty line, expected a JSON request object"))])
        }
        // JSON as rule lists are read (`JSONReader`: no trailing commas, which Foundation's reader lets
        // through), then Foundation's objects.
        guard case .success(.object) = JSONReader.parse(line),
            let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
        else {
            return .object([("error", .string("line \(lineNumber): \(notAnObject(line))"))])
        }
        return respond(to: object, blocker: blocker, style: style, errorPrefix: "line \(lineNumber): ")
    }

    /// Why a request line is not a JSON object: its syntax error and where (a byte offset in the line,
    /// from 0), or the kind of JSON value it is instead.
    static func notAnObject(_ line: ArraySlice<UInt8>) -> String {
        switch JSONReader.parse(line) {
        case .failure(let error):
            return "invalid JSON at byte \(error.byteOffset): \(error.reason)"
        case .success(let value):
            switch value {
            case .null: return "valid JSON but not an object (null)"
            case .bool: return "valid JSON but not an object (a boolean)"
            case .number: return "valid JSON but not an object (a number)"
            case .string: return "valid JSON but not an object (a string)"
            case .array: return "valid JSON but not an object (an array)"
            // WebKit's JSON reader accepts a little more than Foundation's (`\v`, `\xHH` escapes,
            // numbers out of Double's range such as 1e999).
            case .object:
                return "invalid JSON (an escape or a number out of range that Foundation's JSON reader refuses)"
            }
        }
    }

    /// The result object for one request object, or `{"error": …}`; either has the request's
    /// ``warnings(for:)`` in `"warnings"` when there are some and `warningsInResult`.
    static func respond(
        to object: [String: Any], blocker: ContentBlocker, style: ResultStyle = ResultStyle(), errorPrefix: String = "",
        warningsInResult: Bool = true
    ) -> JSON {
        var id: [(String, JSON)] = []
        if let value = object["id"] { id = [("id", JSON(any: value))] }
        let warnings = warningsInResult ? warnings(for: object) : []
        let warningMembers: [(String, JSON)] =
            warnings.isEmpty ? [] : [("warnings", .array(warnings.map { .string($0) }))]
        let load: PageLoad
        let headers: [(String, String)]
        do {
            (load, headers) = try request(from: object)
        } catch {
            return .object(id + [("error", .string(errorPrefix + error.message))] + warningMembers)
        }
        let members = result(blocker.results(for: load, requestHeaders: headers), style: style)
        return .object(id + members + warningMembers)
    }

    /// What a request object holds that does not change the answer but is likely a mistake: keys
    /// ``request(from:)`` does not read, and a `requestMethod` that is none of the methods a rule can
    /// name (compared ASCII case-insensitively, as `request-method` is): WebKit matches such a request as
    /// one without a method (`RequestMethod::None`), and so do we, but a typo (`GETT`) would otherwise
    /// change the answer silently.
    static func warnings(for object: [String: Any]) -> [String] {
        var warnings = object.keys.filter { !requestKeys.contains($0) }.sorted().map {
            "unknown request key '\($0)' ignored"
        }
        if let method = object["requestMethod"] as? String, RequestMethod(caseInsensitiveName: method) == nil {
            warnings.append("unknown request method '\(method)': matched as no method")
        }
        return warnings
    }

    /// The load a request object describes, as the page makes it (WebKit's loader decides the
    /// fragment and the second checks: ``PageLoad``), and its request headers.
    static func request(from object: [String: Any]) throws(RuntimeError) -> (PageLoad, [(String, String)]) {
        func string(_ key: String) throws(RuntimeError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value as? String else { throw RuntimeError("\(key) must be a string") }
            return text
        }
        guard let urlText = try string("url") else { throw RuntimeError("url is required") }
        guard let url = WebURL(urlText) else { throw RuntimeError("url is not a valid URL: \(urlText)") }
        let mainGiven = try string("mainDocumentURL")
        var main: WebURL?
        if let mainText = mainGiven, !mainText.isEmpty {
            guard let parsed = WebURL(mainText) else {
                throw RuntimeError("mainDocumentURL is not a valid URL: \(mainText)")
            }
            main = parsed
        }
        let contextName = try string("loadContext") ?? "top-frame"
        guard let context = LoadContext(rawValue: contextName) else {
            throw RuntimeError("loadContext must be top-frame or child-frame")
        }
        let typeName = try string("resourceType") ?? "document"
        guard let type = ResourceType(requestName: typeName, loadContext: context) else {
            throw RuntimeError("unknown resourceType '\(typeName)'")
        }
        // A top-level navigation in a new view: the top URL is the URL loaded, without its fragment
        // (WebKit's document loads drop it).
        if mainGiven == nil { main = ResourceLoadInfo.requestURL(url, forLoadOf: type) }
        var frame = main
        if let frameText = try string("frameURL") {
            frame = nil
            if !frameText.isEmpty {
                guard let parsed = WebURL(frameText) else {
                    throw RuntimeError("frameURL is not a valid URL: \(frameText)")
                }
                frame = parsed
            }
        }
        var method: RequestMethod?
        if let methodName = try string("requestMethod") {
            method = RequestMethod(caseInsensitiveName: methodName)
        }
        var loadType: LoadType?
        if let name = try string("loadType") {
            guard let parsed = LoadType(rawValue: name) else {
                throw RuntimeError("loadType must be first-party or third-party")
            }
            loadType = parsed
        }
        var headers: [(String, String)] = []
        if let given = object["requestHeaders"] {
            guard let dictionary = given as? [String: Any] else {
                throw RuntimeError("requestHeaders must be an object")
            }
            for key in dictionary.keys.sorted() {
                guard let value = dictionary[key] as? String else {
                    throw RuntimeError("header values must be strings")
                }
                headers.append((key, value))
            }
        }
        let load = PageLoad(
            url: url, mainDocumentURL: main, frameURL: frame, resourceType: type, loadContext: context,
            requestMethod: method, loadType: loadType)
        return (load, headers)
    }

    /// What a result object holds besides its usual members (`--brief`, `--fired-rules`).
    struct ResultStyle {
        /// Leave out css-display-none actions and global stylesheets, counting them instead.
        var brief = false
        /// Add each list's fired rules (source indices).
        var firedRules = false
    }

    /// The members of a result object (see the help's RESULT), in `style`: what the load's checks add
    /// up to, the first check's actions and lists, and the second check's where WebKit made one.
    static func result(_ page: PageLoadResults, style: ResultStyle = ResultStyle()) -> [(String, JSON)] {
        let first = page.first
        var members: [(String, JSON)] = [
            ("url", .string(first.load.url.serialization)), ("loadType", .string(first.load.loadType.rawValue)),
            ("blockedLoad", .bool(page.blockedLoad)), ("blockedCookies", .bool(page.blockedCookies)),
            ("madeHTTPS", .bool(page.madeHTTPS)), ("redirected", .bool(page.redirected)),
            ("notifications", .array(page.notifications.map { .string($0) })),
        ]
        members += actionsAndLists(first.results, style: style)
        if page.requestURL != first.load.url { members.append(("requestURL", .string(page.requestURL.serialization))) }
        if let headers = (page.second ?? first).results.requestHeaders {
            members.append(("requestHeaders", .object(headers.map { ($0.0, .string($0.1)) })))
        }
        if let second = page.second {
            let load = second.load
            var check: [(String, JSON)] = [
                ("resourceType", .string(load.resourceType.requestName ?? "")),
                ("url", .string(load.url.serialization)),
                ("mainDocumentURL", .string(load.mainDocumentURL?.serialization ?? "")),
                ("loadType", .string(load.loadType.rawValue)), ("blockedLoad", .bool(second.results.blockedLoad)),
                ("blockedCookies", .bool(second.results.blockedCookies)),
                ("madeHTTPS", .bool(second.results.madeHTTPS)),
            ]
            check += actionsAndLists(second.results, style: style)
            members.append(("secondCheck", .object(check)))
        }
        return members
    }

    /// `actions`, `lists` and, brief, `cssDisplayNoneActions` of one check's results.
    static func actionsAndLists(_ results: ContentRuleListResults, style: ResultStyle) -> [(String, JSON)] {
        let brief = style.brief
        var actions: [JSON] = []
        var lists: [JSON] = []
        var hidden = 0
        for list in results.lists {
            // Brief: the selectors are counted, not decoded (most of a list's actions on most loads).
            let listActions = brief ? list.actions.nonSelectorActions : list.actions.actions
            if brief { hidden += list.actions.actionCount - listActions.count }
            for action in listActions {
                var members: [(String, JSON)] = [
                    ("list", .string(list.identifier)), ("type", .string(action.type.rawValue)),
                ]
                switch action {
                case .cssDisplayNone(let selector): members.append(("selector", .string(selector)))
                case .notify(let notification): members.append(("notification", .string(notification)))
                default: break
                }
                actions.append(.object(members))
            }
            var listMembers: [(String, JSON)] = [
                ("list", .string(list.identifier)), ("ignoredPreviousRules", .bool(list.sawIgnorePreviousRules)),
            ]
            if brief {
                listMembers.append(("globalStylesheetBytes", .int(list.globalStylesheet?.utf8.count ?? 0)))
            } else {
                listMembers.append(("globalStylesheet", list.globalStylesheet.map { .string($0) } ?? .null))
            }
            if style.firedRules {
                listMembers.append(("firedRules", .array(list.actions.firedRules.map { .int(Int($0)) })))
            }
            lists.append(.object(listMembers))
        }
        var members: [(String, JSON)] = [("actions", .array(actions)), ("lists", .array(lists))]
        if brief { members.append(("cssDisplayNoneActions", .int(hidden))) }
        return members
    }
}

/// Output strings of the chunks of one window, each written once by the thread that matched it.
private final class ChunkOutputs: @unchecked Sendable {
    private let lock = NSLock()
    private var outputs: [String]

    init(count: Int) { outputs = Array(repeating: "", count: count) }

    func set(_ index: Int, _ output: String) {
        lock.lock()
        outputs[index] = output
        lock.unlock()
    }

    func all() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return outputs
    }
}
