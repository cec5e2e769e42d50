import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Dispatch
import Foundation
import Locking
import RuleListParser

/// `content-blocker match`: its declaration is in MatchCommand+Configuration.swift.
struct MatchCommand: Command {
    /// Where the requests come from.
    enum Requests {
        /// One request, from the flags.
        case single(JSONObject)
        /// JSON Lines from a file or standard input (`-`).
        case lines(path: String)
    }

    /// Where the rule lists come from.
    enum Lists {
        /// Files named on the command line (binary or JSON rule lists).
        case files([String])
        /// Identifiers of lists in a store (`store match`), looked up by the caller.
        case stored([String])
    }

    var lists: Lists
    var requests: Requests
    var activeActions: [URLMatchPattern] = []
    var engine: MatchingEngine
    /// Threads for a batch; nil for the number of processors.
    var jobs: Int?
    var style: ResultStyle

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try self.init(arguments, lists: .files(arguments[Self.listsArgument]))
    }

    /// Reads the match options of `arguments` (the declarations of ``configuration``, which `store
    /// match` shares) for `lists`.
    init(_ arguments: ParsedArguments, lists: Lists) throws(UsageError) {
        self.lists = lists
        for text in arguments.all(Self.activeActionsOption) {
            guard let pattern = URLMatchPattern(text) else { throw UsageError("invalid match pattern '\(text)'") }
            activeActions.append(pattern)
        }
        style = ResultStyle(brief: arguments[Self.briefFlag], firedRules: arguments[Self.firedRulesFlag])
        engine = arguments[Self.engineOption] ?? .fast
        jobs = arguments[Self.jobsOption]?.value
        let requestsPath = arguments[Self.requestsOption]
        var paths: [String] = []
        if case .files(let files) = lists { paths = files }
        try RuleListInput.readStandardInputOnce(paths + [requestsPath].compactMap { $0 })
        let requestOptions = Self.requestFields.compactMap { field in
            field.option.map { (key: field.key, option: $0) }
        }
        if let requestsPath {
            // The request flags describe one request: with --requests each line says its own.
            if let given = requestOptions.first(where: { arguments.text($0.option) != nil }) {
                throw UsageError("\(given.option.name) describes a single request: use either it or --requests")
            }
            requests = .lines(path: requestsPath)
            return
        }
        guard arguments[Self.urlOption] != nil else { throw UsageError("needs --url or --requests") }
        var object = JSONObject()
        for (key, option) in requestOptions {
            if let value = arguments.text(option) { object[key] = .string(value) }
        }
        do {
            _ = try Self.request(from: object)
        } catch {
            throw UsageError("invalid request: \(error.message)")
        }
        requests = .single(object)
    }

    func run() throws -> Int32 {
        guard case .files(let paths) = lists else { preconditionFailure("stored lists are looked up by store match") }
        var loaded: [ContentRuleList] = []
        for (path, identifier) in zip(paths, RuleListInput.identifiers(for: paths)) {
            loaded.append(try RuleListInput.load(path, identifier: identifier))
        }
        return try run(with: loaded)
    }

    /// Decides the requests against `loaded`, in order.
    func run(with loaded: [ContentRuleList]) throws -> Int32 {
        let blocker = ContentBlocker(
            lists: loaded, activeActions: ActiveActionPolicy(patternsForAllLists: activeActions), engine: engine)
        switch requests {
        case .lines(let path):
            let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
            try Self.runBatch(blocker, requestsPath: path, jobs: jobs, style: style)
        case .single(let object):
            for warning in Self.warnings(for: object) { Console.err("warning: \(warning)") }
            Console.out(Self.respond(to: object, blocker: blocker, style: style, warningsInResult: false).text)
        }
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
                let outputs = Locked(Array(repeating: "", count: chunks))
                let base = firstChunk
                let matchChunk = { @Sendable (offset: Int) in
                    let chunk = base + offset
                    var output = ""
                    for (number, range) in lines[(chunk * chunkSize)..<min(lines.count, (chunk + 1) * chunkSize)] {
                        output += response(to: bytes[range], lineNumber: number, blocker: blocker, style: style).text
                        output += "\n"
                    }
                    outputs.withLock { $0[offset] = output }
                }
                if jobs == 1 || chunks == 1 {
                    for offset in 0..<chunks { matchChunk(offset) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: chunks, execute: matchChunk)
                }
                for output in outputs.withLock({ $0 }) {
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

    /// The result line for one request line; errors start with `line N:`.
    static func response(
        to line: ArraySlice<UInt8>, lineNumber: Int, blocker: ContentBlocker, style: ResultStyle
    ) -> JSON {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            return .object([("error", .string("line \(lineNumber): empty line, expected a JSON request object"))])
        }
        // JSON as rule lists are read (`JSONReader`: no trailing commas), and strict JSON besides: none
        // of the extensions WebKit's reader accepts (``RequestLines/isStrictJSON(_:)``).
        let parsed = JSONReader.parse(line)
        let problem = RequestLines.strictJSONProblem(line)
        guard case .success(.object(let object)) = parsed, problem == nil else {
            return .object([
                ("error", .string("line \(lineNumber): \(notAnObject(parsed, strictJSONProblem: problem))"))
            ])
        }
        return respond(
            to: object, blocker: blocker, style: style, errorPrefix: "line \(lineNumber): ",
            idText: RequestLines.rawMember("id", of: line))
    }

    /// Why a request line is not a JSON request object: its syntax error and where (a byte offset in
    /// the line, from 0), the kind of JSON value it is instead, or, for an object, that it is not strict
    /// JSON.
    static func notAnObject(
        _ parsed: Result<JSONValue, JSONSyntaxError>, strictJSONProblem: (offset: Int, reason: String)? = nil
    ) -> String {
        switch parsed {
        case .failure(let error):
            return "invalid JSON at byte \(error.byteOffset): \(error.reason)"
        case .success(let value):
            switch value {
            case .null: return "valid JSON but not an object (null)"
            case .bool: return "valid JSON but not an object (a boolean)"
            case .number: return "valid JSON but not an object (a number)"
            case .string: return "valid JSON but not an object (a string)"
            case .array: return "valid JSON but not an object (an array)"
            // WebKit's JSON reader, which reads rule lists, accepts a little more than strict JSON
            // (`\v`, `\xHH` escapes, numbers out of Double's range such as 1e999, …): a request line
            // must be strict JSON, and the message says where and why it is not.
            case .object:
                guard let strictJSONProblem else { return "invalid JSON" }
                return "invalid JSON at byte \(strictJSONProblem.offset): \(strictJSONProblem.reason)"
            }
        }
    }

    /// The result object for one request object, or `{"error": …}`; either has the request's
    /// ``warnings(for:)`` in `"warnings"` when there are some and `warningsInResult`.
    /// `idText` is the `id` member's text as written in the line (echoed as it is: a number keeps every
    /// digit), when it was found; otherwise the parsed value is written.
    static func respond(
        to object: JSONObject, blocker: ContentBlocker, style: ResultStyle = ResultStyle(), errorPrefix: String = "",
        warningsInResult: Bool = true, idText: ArraySlice<UInt8>? = nil
    ) -> JSON {
        var id: [(String, JSON)] = []
        if let value = object["id"] {
            id = [("id", idText.map { .raw(String(decoding: $0, as: UTF8.self)) } ?? JSON(value))]
        }
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
    static func warnings(for object: JSONObject) -> [String] {
        var warnings = object.keys.filter { !requestKeys.contains($0) }.sorted().map {
            "unknown request key '\($0)' ignored"
        }
        if let method = object.string("requestMethod"), RequestMethod(caseInsensitiveName: method) == nil {
            warnings.append("unknown request method '\(method)': matched as no method")
        }
        return warnings
    }

    /// The load a request object describes, as the page makes it (WebKit's loader decides the
    /// fragment and the second checks: ``PageLoad``), and its request headers.
    static func request(from object: JSONObject) throws(RuntimeError) -> (PageLoad, [(String, String)]) {
        func string(_ key: String) throws(RuntimeError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue else { throw RuntimeError("\(key) must be a string") }
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
            guard let dictionary = given.objectValue else {
                throw RuntimeError("requestHeaders must be an object")
            }
            for key in dictionary.keys.sorted() {
                guard let value = dictionary[key]?.stringValue else {
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
