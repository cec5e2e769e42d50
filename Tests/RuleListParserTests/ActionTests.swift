import ContentRuleModel
import RuleListParser
import Testing

func redirectList(_ redirect: String, urlFilter: String = "x") -> String {
    ruleList(
        trigger: #"{"url-filter":""# + urlFilter + #""}"#, action: #"{"type":"redirect","redirect":"# + redirect + "}")
}

func headersList(_ members: String) -> String {
    ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":"modify-headers","# + members + "}")
}

/// Redirect parsing (spec §1.5.1) and modify-headers (spec §1.5.2).
@Suite struct ActionTests {
    /// (redirect object JSON, error, key path)
    static let redirectErrors: [(String, ContentRuleListError, String)] = [
        (#"{"extension-path":"x"}"#, .jsonRedirectExtensionPathDoesNotStartWithSlash, "action.redirect.extension-path"),
        (#"{"url":"https://127..1/"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"/relative/path"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"http://"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"https://exa mple.com/"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"https://example.com:65536/"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"https://[::1/"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"https://256.1.1.1/"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"https://1.2.3.4.5/"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"https://user@/"}"#, .jsonRedirectURLInvalid, "action.redirect.url"),
        (#"{"url":"JaVaScRiPt:dostuff"}"#, .jsonRedirectToJavaScriptURL, "action.redirect.url"),
        (#"{"url":5}"#, .jsonRedirectInvalidType, "action.redirect"),
        (
            #"{"transform":{"fragment":"x","port":"x"}}"#, .jsonRedirectInvalidFragment,
            "action.redirect.transform.fragment"
        ),
        (#"{"transform":{"port":"-1","scheme":"!"}}"#, .jsonRedirectInvalidPort, "action.redirect.transform.port"),
        (#"{"transform":{"port":"8o"}}"#, .jsonRedirectInvalidPort, "action.redirect.transform.port"),
        (#"{"transform":{"scheme":"1http"}}"#, .jsonRedirectURLSchemeInvalid, "action.redirect.transform.scheme"),
        (#"{"transform":{"scheme":"java script"}}"#, .jsonRedirectURLSchemeInvalid, "action.redirect.transform.scheme"),
        (
            #"{"transform":{"scheme":"JAVASCRIPT","query":"x"}}"#, .jsonRedirectToJavaScriptURL,
            "action.redirect.transform.scheme"
        ),
        (#"{"transform":{"query":"x"}}"#, .jsonRedirectInvalidQuery, "action.redirect.transform.query"),
        (
            #"{"transform":{"query-transform":{"remove-parameters":["a",5]}}}"#, .jsonRemoveParametersNotStringArray,
            "action.redirect.transform.query-transform.remove-parameters[1]"
        ),
        (
            #"{"transform":{"query-transform":{"add-or-replace-parameters":[5]}}}"#,
            .jsonAddOrReplaceParametersKeyValueNotADictionary,
            "action.redirect.transform.query-transform.add-or-replace-parameters[0]"
        ),
        (
            #"{"transform":{"query-transform":{"add-or-replace-parameters":[{"key":"k"}]}}}"#,
            .jsonAddOrReplaceParametersKeyValueMissingValueString,
            "action.redirect.transform.query-transform.add-or-replace-parameters[0].value"
        ),
        (
            #"{"transform":{"query-transform":{"remove-parameters":5,"add-or-replace-parameters":5}}}"#,
            .jsonRemoveParametersNotStringArray, "action.redirect.transform.query-transform.remove-parameters"
        ),
    ]

    @Test(arguments: redirectErrors)
    func redirectError(_ redirect: String, _ error: ContentRuleListError, _ keyPath: String) {
        let diagnostic = RuleListParser.parse(redirectList(redirect)).diagnostics.first
        #expect(diagnostic?.error == error)
        #expect(diagnostic?.keyPath == keyPath)
    }

    /// (redirect object JSON, parsed redirect)
    static let redirectValues: [(String, RedirectAction)] = [
        (#"{"url":"https://example.com/a?b#c"}"#, .url("https://example.com/a?b#c")),
        (#"{"url":"https://[::1]:8080/"}"#, .url("https://[::1]:8080/")),
        (#"{"url":"https://0x7f.1/"}"#, .url("https://0x7f.1/")),
        (#"{"url":"https://example.com:65535/"}"#, .url("https://example.com:65535/")),
        (#"{"url":"about:blank"}"#, .url("about:blank")),
        (#"{"url":"data:text/plain,hi"}"#, .url("data:text/plain,hi")),
        (#"{"url":"  https://example.com/  "}"#, .url("  https://example.com/  ")),
        // First present kind wins; a wrong JSON type counts as absent.
        (#"{"extension-path":"/a","url":"nope"}"#, .extensionPath("/a")),
        (#"{"extension-path":5,"url":"https://a.test/"}"#, .url("https://a.test/")),
        (
            #"{"regex-substitution":"https://\\1.test/","transform":{"port":"x"}}"#,
            .regexSubstitution(substitution: "https://\\1.test/", regexFilter: "x")
        ),
        (
            #"{"transform":{"port":"65535","scheme":"About","fragment":"","query":"","host":5}}"#,
            .transform(URLTransform(fragment: "", port: .set(65535), query: .replace(""), scheme: "about"))
        ),
        (
            #"{"transform":{"port":"","path":"/p","username":"u","password":"p","host":"h"}}"#,
            .transform(URLTransform(host: "h", password: "p", path: "/p", port: .remove, username: "u"))
        ),
        (#"{"transform":{"port":" +80 "}}"#, .transform(URLTransform(port: .set(80)))),
        (
            #"{"transform":{"query":"bad","query-transform":{}}}"#,
            .transform(URLTransform(query: .transform(QueryTransform())))
        ),
        (
            #"{"transform":{"query-transform":{"remove-parameters":["baz"],"add-or-replace-parameters":[{"key":"foo","replace-only":true,"value":"bar"},{"key":"one","value":"two","replace-only":"yes"}]}}}"#,
            .transform(
                URLTransform(
                    query: .transform(
                        QueryTransform(
                            addOrReplaceParameters: [
                                .init(key: "foo", value: "bar", replaceOnly: true), .init(key: "one", value: "two"),
                            ], removeParameters: ["baz"]))))
        ),
    ]

    @Test(arguments: redirectValues)
    func redirectValue(_ redirect: String, _ expected: RedirectAction) throws {
        let result = RuleListParser.parse(redirectList(redirect))
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(try #require(result.rules.first).rule.action == .redirect(expected))
    }

    @Test func regexSubstitutionKeepsTheRulesURLFilter() throws {
        let result = RuleListParser.parse(
            redirectList(
                #"{"regex-substitution":"https://\\1.xyz.com/"}"#, urlFilter: #"^https://www\\.(abc?)\\.xyz\\.com/"#))
        #expect(
            try #require(result.rules.first).rule.action
                == .redirect(
                    .regexSubstitution(
                        substitution: "https://\\1.xyz.com/", regexFilter: #"^https://www\.(abc?)\.xyz\.com/"#)))
    }

    /// (modify-headers members, error, key path)
    static let headerErrors: [(String, ContentRuleListError, String)] = [
        (#""request-headers":5,"priority":1"#, .jsonModifyHeadersNotArray, "action.request-headers"),
        (#""response-headers":[5],"priority":1"#, .jsonModifyHeadersInfoNotADictionary, "action.response-headers[0]"),
        (
            #""request-headers":[{"header":"h"}],"priority":1"#, .jsonModifyHeadersMissingOperation,
            "action.request-headers[0].operation"
        ),
        (
            #""request-headers":[{"operation":"invalid"}],"priority":1"#, .jsonModifyHeadersMissingHeader,
            "action.request-headers[0].header"
        ),
        (
            #""request-headers":[{"operation":"append","header":"h"}]"#, .jsonModifyHeadersMissingValue,
            "action.request-headers[0].value"
        ),
        (
            #""request-headers":[{"operation":"remove","header":"h"},{"operation":"Set","header":"h","value":"v"}],"priority":1"#,
            .jsonModifyHeadersInvalidOperation, "action.request-headers[1].operation"
        ),
        (#""request-headers":[],"response-headers":5"#, .jsonModifyHeadersNotArray, "action.response-headers"),
        (#""priority":-1"#, .jsonModifyHeadersInvalidPriority, "action.priority"),
        (#""priority":"1""#, .jsonModifyHeadersInvalidPriority, "action.priority"),
        (#""priority":-1.5"#, .jsonModifyHeadersInvalidPriority, "action.priority"),
    ]

    /// A priority is truncated to a 32-bit `int` as WebKit's `static_cast<int>` does on x86-64: out of
    /// range, it is `INT_MIN`, so not positive. Accepted or refused as WebKitGTK 2.50.6 does
    /// (`webkit_compile.py`, 2026-12-02: "A priority must be a positive integer" for the refused).
    @Test(arguments: [
        ("2147483647", true), ("2147483647.9", true), ("0", true), ("-0", true), ("-0.9", true),
        ("2147483648", false), ("4294967296", false), ("1e30", false), ("1e400", false), ("-1e400", false),
        ("-2147483648", false), ("-2147483649", false),
    ])
    func priorityBoundsAreWebKits(_ priority: String, _ accepted: Bool) {
        let list = headersList(#""request-headers":[{"operation":"remove","header":"A"}],"priority":"# + priority)
        let diagnostics = RuleListParser.parse(list).diagnostics
        #expect(diagnostics.isEmpty == accepted, "\(priority)")
        if !accepted { #expect(diagnostics.first?.error == .jsonModifyHeadersInvalidPriority, "\(priority)") }
    }

    @Test(arguments: headerErrors)
    func headerError(_ members: String, _ error: ContentRuleListError, _ keyPath: String) {
        let diagnostic = RuleListParser.parse(headersList(members)).diagnostics.first
        #expect(diagnostic?.error == error)
        #expect(diagnostic?.keyPath == keyPath)
    }

    @Test func headerValues() throws {
        let members =
            #""priority":1.9,"request-headers":[{"operation":"set","header":"X-A","value":"1"},"#
            + #"{"operation":"remove","header":"","value":5}],"response-headers":[{"operation":"append","header":"B","value":""}]"#
        let result = RuleListParser.parse(headersList(members))
        #expect(
            try #require(result.rules.first).rule.action
                == .modifyHeaders(
                    ModifyHeadersAction(
                        requestHeaders: [
                            .init(operation: .set, header: "X-A", value: "1"), .init(operation: .remove, header: ""),
                        ],
                        responseHeaders: [.init(operation: .append, header: "B", value: "")], priority: 1)))
        let truncated = RuleListParser.parse(headersList(#""priority":-0.5"#))
        #expect(try #require(truncated.rules.first).rule.action == .modifyHeaders(ModifyHeadersAction(priority: 0)))
    }

    @Test func simpleActions() throws {
        let types: [(String, Action)] = [
            (#"{"type":"block"}"#, .block), (#"{"type":"block-cookies"}"#, .blockCookies),
            (#"{"type":"ignore-previous-rules"}"#, .ignorePreviousRules),
            (#"{"type":"ignore-following-rules"}"#, .ignoreFollowingRules), (#"{"type":"make-https"}"#, .makeHTTPS),
            (#"{"type":"notify","notification":""}"#, .notify(notification: "")),
            (#"{"type":"css-display-none","selector":"a:has(b)"}"#, .cssDisplayNone(selector: "a:has(b)")),
        ]
        for (action, expected) in types {
            let result = RuleListParser.parse(ruleList(trigger: #"{"url-filter":"x"}"#, action: action))
            #expect(try #require(result.rules.first).rule.action == expected)
        }
        #expect(
            firstError(ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":"Block"}"#))
                == .jsonInvalidActionType)
        #expect(firstError(ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":5}"#)) == .jsonInvalidActionType)
        #expect(firstError(ruleList(trigger: #"{"url-filter":"x"}"#, action: "[]")) == .jsonInvalidAction)
    }
}
