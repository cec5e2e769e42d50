import ContentRuleMatcher
import ContentRuleModel
import RequestBatch

/// `match`'s declaration: arguments, options, the request keys (the flags that set them, the keys a
/// request line may have, the help's REQUEST section), and its help.
extension MatchCommand {
    static let listsArgument = Positional(
        valueName: "LIST", noun: "rule list",
        help: """
            A compiled binary rule list or a JSON rule list (`-` for standard input). Its identifier (the
            "list" of results) is its file name without extension (`stdin` for -), with -2, -3, … added to
            a name an earlier LIST already has (a/list.json b/list.json → list, list-2).
            """, count: .oneOrMore)

    static let urlOption = Option<String>("--url", valueName: "URL", help: "A single request's url (see REQUEST).")
    static let topURLOption = Option<String>(
        "--top-url", valueName: "URL", help: "The request's mainDocumentURL (see REQUEST).")
    static let frameURLOption = Option<String>(
        "--frame-url", valueName: "URL", help: "The request's frameURL (see REQUEST).")
    static let typeOption = Option<ResourceTypeName>(
        "--type", valueName: "TYPE", help: "The request's resourceType (see REQUEST).", defaultValue: "document")
    static let contextOption = Option<LoadContext>(
        "--context", valueName: "CONTEXT", help: "The request's loadContext (see REQUEST).",
        defaultValue: LoadContext.topFrame.rawValue)
    static let methodOption = Option<String>(
        "--method", valueName: "METHOD", help: "The request's requestMethod (see REQUEST).")
    static let loadTypeOption = Option<LoadType>(
        "--load-type", valueName: "LOAD-TYPE", help: "The request's loadType (see REQUEST).")
    static let requestsOption = Option<String>(
        "--requests", valueName: "FILE",
        help: "JSON Lines requests (`-` for standard input): one result line per request line, in input order.")
    static let jobsOption = Option<PositiveInteger>(
        "--jobs", valueName: "N", help: "Threads for --requests; output stays in input order.",
        defaultValue: "the number of processors")
    static let activeActionsOption = Option<String>(
        "--active-actions", valueName: "PAT",
        help: """
            Let every list apply redirect and modify-headers to URLs matching the match pattern PAT (e.g.
            '*://example.com/*', '<all_urls>'). WebKit applies them nowhere by default.
            """, repeatable: true)
    static let engineOption = Option<MatchingEngine>(
        "--engine", valueName: "ENGINE",
        help: """
            The matching strategy: fast (indexed) or reference (every rule in order, one regex search each).
            Both give the same results.
            """, defaultValue: MatchingEngine.fast.rawValue)
    static let briefFlag = Flag(
        "--brief",
        help: """
            Leave out css-display-none actions and global stylesheets (on a large list they make each result
            hundreds of KB): "actions" has the other actions, "cssDisplayNoneActions" counts the left-out
            ones, and each list has "globalStylesheetBytes" instead of "globalStylesheet". The default with
            --requests.
            """)
    static let fullFlag = Flag(
        "--full",
        help: """
            List css-display-none actions with their selectors and each list's global stylesheet in every
            result: the default for a single request; with --requests, brief is the default.
            """)
    static let fieldsOption = Option<String>(
        "--fields", valueName: "F,F,…",
        help: """
            Write only these members of each result (comma-separated; "error" is always written): \(
            BatchMatching.ResultFields.names.joined(separator: ", ")).
            """)
    static let inputFormatOption = Option<RequestFormat>(
        "--input-format", valueName: "FORMAT",
        help: "What --requests holds (see INPUT FORMATS); gzip'd input is read whatever the format.",
        defaultValue: RequestFormat.request.rawValue)
    static let strictFlag = Flag(
        "--strict",
        help: """
            Stop a --requests batch at the first request line with an error or a warning (an unknown key or
            requestMethod): its message goes to standard error and the exit status is 1.
            """)
    static let firedRulesFlag = Flag(
        "--fired-rules",
        help: """
            Add to each list its "firedRules": the indices (0-based, in the list's JSON array, ascending) of
            the rules whose triggers matched the load — those whose actions an ignore-previous-rules dropped
            and the ignore rules too; not the css-display-none rules of the global stylesheet.
            """)

    /// A key of a request object, and the flag that sets it for a single request.
    struct RequestField: Sendable {
        var key: String
        var option: OptionDeclaration?
        var help: String
    }

    /// The keys ``request(from:)`` reads, in the order the help lists them.
    static let requestFields: [RequestField] = [
        RequestField(
            key: "url", option: urlOption.declaration,
            help: "required: the request URL as the page gives it; canonicalized as WebKit serializes URLs"),
        RequestField(
            key: "mainDocumentURL", option: topURLOption.declaration,
            help: """
                the top URL (default: url without its fragment, i.e. a top-level navigation; "" for none); it
                keeps its fragment
                """),
        RequestField(
            key: "frameURL", option: frameURLOption.declaration,
            help: """
                the URL of the document the initiating frame shows when the load starts (default, and for "":
                mainDocumentURL). For a navigation WebKit uses the document being left: give the previous
                page's URL, or about:blank for a new frame or window; the default is a brand-new view, whose
                frame URL is the URL being loaded. A popup's own check uses the top frame and the top URL
                whatever frameURL and loadContext say (window.open runs in the main frame's document)
                """),
        RequestField(
            key: "resourceType", option: typeOption.declaration,
            help: """
                \(ResourceTypeName.allValueStrings.joined(separator: ", ")) (default: document); document
                means top-document in the top frame and child-document in a child frame
                """),
        RequestField(
            key: "loadContext", option: contextOption.declaration,
            help: LoadContext.allValueStrings.joined(separator: " or ") + " (default: top-frame)"),
        RequestField(
            key: "requestMethod", option: methodOption.declaration,
            help: """
                the method of the page's own load (get for a page loaded normally), which is what WebKit
                compares with request-method: not the method the request goes out with (a beacon is sent as
                POST and matched as get). Any case; optional; another name is matched as no method, as WebKit
                does, with a warning
                """),
        RequestField(
            key: "httpMethod", option: nil, help: "optional, informational: the method on the wire (not matched)"),
        RequestField(
            key: "loadType", option: loadTypeOption.declaration,
            help: LoadType.allValueStrings.joined(separator: " or ")
                + " (optional; computed from the URLs otherwise): the first check's; a second check computes"
                + " its own"),
        RequestField(
            key: "requestHeaders", option: nil, help: "optional object of header → value, for modify-headers"),
    ]

    /// The keys a request object may have: ``requestFields`` and `id`, which is echoed back. Others are
    /// reported in the result's `warnings` (a misspelt key would otherwise change the answer silently).
    static let requestKeys = RequestFields.knownKeys

    static let configuration = CommandConfiguration(
        name: "match", abstract: "Decide loads (one from flags, or JSON Lines) against rule lists.",
        discussion: """
            Decides loads as WebKit would with the given content rule lists installed, in the order given.
            One request comes from the flags, or many from --requests: JSON Lines in, one result line out
            per request line, in input order.

            Each request is a load as a page makes it, decided as WebKit's loader does (the library's
            PageLoad): an http(s) URL's #fragment is dropped for every type but popup, media, ping and
            csp-report; a ping or csp-report that is not blocked is checked again as `other` (the ping load
            it becomes), and a popup again as the new window's top-level navigation (top URL = the popup's
            URL); a block from either check cancels the load. The library's
            ContentBlocker.results(for: ResourceLoadInfo) is WebKit's backend instead: one check of the URL
            exactly as given.
            """,
        arguments: [listsArgument],
        options: [
            urlOption.declaration, topURLOption.declaration, frameURLOption.declaration, typeOption.declaration,
            contextOption.declaration, methodOption.declaration, loadTypeOption.declaration,
            requestsOption.declaration, jobsOption.declaration, activeActionsOption.declaration,
            engineOption.declaration, briefFlag.declaration, fullFlag.declaration, fieldsOption.declaration,
            firedRulesFlag.declaration, inputFormatOption.declaration, strictFlag.declaration,
        ],
        forms: [
            UsageForm(
                required: [urlOption.declaration],
                optional: [
                    topURLOption.declaration, frameURLOption.declaration, typeOption.declaration,
                    contextOption.declaration, methodOption.declaration, loadTypeOption.declaration,
                ]),
            UsageForm(
                required: [requestsOption.declaration],
                optional: [
                    inputFormatOption.declaration, jobsOption.declaration, strictFlag.declaration,
                    fieldsOption.declaration,
                ]),
        ],
        sections: [
            HelpSection(
                title: "REQUEST",
                paragraphs: """
                    A JSON object (a line of --requests); for a single request, the flag in brackets sets the
                    key.
                    """,
                entries: requestFields.map { field in
                    (field.key + (field.option.map { " [\($0.name)]" } ?? ""), field.help)
                }),
            HelpSection(title: "INPUT FORMATS", paragraphs: RequestFormat.help, entries: []),
            HelpSection(
                title: "RESULT",
                paragraphs: """
                    One JSON object per request: blockedLoad, blockedCookies, madeHTTPS, redirected and
                    notifications of the whole load (all its checks); url (canonical, as the first check saw
                    it), loadType, actions [{list, type, selector?, notification?}] in WebKit's order and lists
                    [{list, ignoredPreviousRules, globalStylesheet}] of the first check; requestURL and
                    requestHeaders where an action changed them; secondCheck {resourceType, url,
                    mainDocumentURL, loadType, blockedLoad, blockedCookies, madeHTTPS, actions, lists} where
                    WebKit checked the load again.

                    With --requests, results are brief unless --full (see --brief), a request's "id" (any JSON
                    value) is echoed first; keys not listed in REQUEST are ignored and named in "warnings" (as
                    is an unknown requestMethod; with flags, warnings go to standard error); a bad or blank
                    request line gives {"error": "line N: ..."} (with its "warnings", if any) and the batch
                    goes on: line N of the input is always line N of the output. At the end, standard error
                    sums up the lines with errors (and the first), with unknown keys (each key and how many
                    lines had it) and with an unknown requestMethod. Requests are answered as they are read,
                    so a tool can keep one process open and write requests to it.
                    """),
        ],
        exitStatuses: [
            (0, "done; with --requests, every request line was a request"),
            (1, "with --requests, some request lines had errors (each answered with its error), or --strict stopped"),
            (2, "usage error (including a bad --url, --type, … value), an invalid rule list, or an I/O error"),
        ])
}

/// A request's resource type as `--type` takes it: the request name of a single type, or `document`
/// (``ResourceType/init(requestName:loadContext:)`` reads it with the load context).
struct ResourceTypeName: ArgumentValue {
    static let allValueStrings = RequestFields.resourceTypeNames
    var name: String

    init?(argument: String) {
        guard Self.allValueStrings.contains(argument) else { return nil }
        name = argument
    }
}

extension MatchingEngine: ArgumentValue {}
extension LoadContext: ArgumentValue {}
extension LoadType: ArgumentValue {}
extension RequestFormat: ArgumentValue {}
