import ContentRuleModel
import RuleListParser
import Testing

/// Helpers: one rule from trigger/action JSON text.
func ruleList(trigger: String, action: String = #"{"type":"block"}"#) -> String {
    #"[{"trigger":"# + trigger + #","action":"# + action + "}]"
}

func firstError(_ json: String) -> ContentRuleListError? {
    RuleListParser.parse(json).diagnostics.first?.error
}

/// Spec §7 items 1–15 (parsing and errors).
@Suite struct SpecEdgeCaseTests {
    /// (spec item, rule list, WebKit's first error or nil for none)
    static let table: [(String, String, ContentRuleListError?)] = [
        ("1 empty", "[]", .jsonContainsNoRules),
        ("1 object", "{}", .jsonTopLevelStructureNotAnArray),
        ("1 number", "123", .jsonTopLevelStructureNotAnArray),
        ("1 null", "null", .jsonTopLevelStructureNotAnArray),
        ("1 [5]", "[5]", .jsonInvalidRule),
        ("1 [", "[", .jsonInvalid),
        ("3", ruleList(trigger: #"{"url-filter":""}"#, action: #"{"type":"nope"}"#), .jsonInvalidURLFilterInTrigger),
        (
            "4",
            #"[{"trigger":{"url-filter":"["},"action":{"type":"block"}},{"trigger":{"url-filter":"x"},"action":{"type":"nope"}}]"#,
            .jsonInvalidActionType
        ),
        (
            "5a", ruleList(trigger: #"{"url-filter":"x","if-top-url":[],"unless-domain":["a"]}"#),
            .jsonMultipleConditions
        ),
        (
            "5b", ruleList(trigger: #"{"url-filter":"x","if-domain":[],"unless-domain":["a"]}"#),
            .jsonInvalidConditionList
        ),
        ("6a", ruleList(trigger: #"{"url-filter":"x","if-domain":["Example.com"]}"#), .jsonDomainNotLowerCaseASCII),
        ("6b", ruleList(trigger: #"{"url-filter":"x","if-domain":["0"]}"#), nil),
        ("7a", ruleList(trigger: #"{"url-filter":"x","request-method":["get"]}"#), .jsonInvalidRequestMethod),
        ("7b", ruleList(trigger: #"{"url-filter":"x","request-method":"POST"}"#), nil),
        ("8a", ruleList(trigger: #"{"url-filter":"x","resource-type":"image"}"#), .jsonInvalidTriggerFlagsArray),
        (
            "8b", ruleList(trigger: #"{"url-filter":"x","resource-type":["Image"]}"#),
            .jsonInvalidStringInTriggerFlagsArray
        ),
        ("8c", ruleList(trigger: #"{"url-filter":"x","resource-type":[]}"#), nil),
        ("9", ruleList(trigger: #"{"url-filter":"x","url-filter-is-case-sensitive":"true"}"#), nil),
        (
            "10a", ruleList(trigger: #"{"url-filter":".*"}"#, action: #"{"type":"css-display-none","selector":"a["}"#),
            .jsonContainsNoRules
        ),
        (
            "11a", ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":"css-display-none"}"#),
            .jsonInvalidCSSDisplayNoneActionType
        ),
        ("11b", ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":"notify"}"#), .jsonInvalidNotification),
        ("11c", ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":"redirect"}"#), .jsonRedirectMissing),
        (
            "11d", ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":"redirect","redirect":{}}"#),
            .jsonRedirectInvalidType
        ),
        (
            "12a",
            ruleList(
                trigger: #"{"url-filter":"x"}"#,
                action: #"{"type":"redirect","redirect":{"transform":{"port":"65536"}}}"#), .jsonRedirectInvalidPort
        ),
        (
            "12b",
            ruleList(
                trigger: #"{"url-filter":"x"}"#,
                action: #"{"type":"redirect","redirect":{"transform":{"port":""}}}"#), nil
        ),
        (
            "12c",
            ruleList(
                trigger: #"{"url-filter":"x"}"#,
                action: #"{"type":"redirect","redirect":{"transform":{"port":8080}}}"#), nil
        ),
        (
            "13a",
            ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":"modify-headers","request-headers":[]}"#),
            .jsonModifyHeadersInvalidPriority
        ),
        (
            "13b",
            ruleList(
                trigger: #"{"url-filter":"x"}"#,
                action: #"{"type":"modify-headers","request-headers":[],"priority":0}"#), nil
        ),
        ("14", #"[{"trigger":{"url-filter":"a","url-filter":"b"},"action":{"type":"block"}}]"#, nil),
        ("15a", #"[{"trigger":{"url-filter":"\x41"},"action":{"type":"block"}}]"#, nil),
        ("15b", "\u{FEFF}" + ruleList(trigger: #"{"url-filter":"a"}"#), .jsonInvalid),
    ]

    @Test(arguments: table)
    func item(_ name: String, _ json: String, _ expected: ContentRuleListError?) {
        let result = RuleListParser.parse(json)
        if let expected {
            #expect(result.diagnostics.first?.error == expected)
            #expect(result.diagnostics.first?.severity == .error)
        } else {
            #expect(result.errors.isEmpty, "\(result.errors)")
        }
    }

    @Test func item2TooManyRulesCountsRawElements() {
        var options = RuleListParser.Options()
        options.maximumRuleCount = 3
        let rule = #"{"trigger":{"url-filter":"a"},"action":{"type":"block"}}"#
        let three = "[" + Array(repeating: rule, count: 3).joined(separator: ",") + "]"
        #expect(RuleListParser.parse(three, options: options).errors.isEmpty)
        let four = "[" + Array(repeating: rule, count: 3).joined(separator: ",") + ",5]"
        let result = RuleListParser.parse(four, options: options)
        // JSONTooManyRules first, then the rule errors.
        #expect(result.diagnostics.map(\.error) == [.jsonTooManyRules, .jsonInvalidRule])
        #expect(result.diagnostics.last?.ruleIndex == 3)
        #expect(result.ruleCount == 4)
    }

    @Test func item9NonBooleanFlagIgnored() throws {
        let result = RuleListParser.parse(
            ruleList(trigger: #"{"url-filter":"x","url-filter-is-case-sensitive":"true"}"#))
        #expect(try #require(result.rules.first).rule.trigger.urlFilterIsCaseSensitive == false)
    }

    @Test func item10InvalidSelectorDropsOnlyThatRule() {
        let json =
            #"[{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":"a["}},"#
            + #"{"trigger":{"url-filter":"x"},"action":{"type":"block"}}]"#
        let result = RuleListParser.parse(json)
        #expect(result.errors.isEmpty)
        #expect(result.rules.map(\.index) == [1])
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.diagnostics.first?.ruleIndex == 0)
        #expect(result.diagnostics.first?.keyPath == "action.selector")
    }

    @Test func item12NumericPortIgnored() throws {
        let result = RuleListParser.parse(
            ruleList(
                trigger: #"{"url-filter":"x"}"#, action: #"{"type":"redirect","redirect":{"transform":{"port":8080}}}"#)
        )
        #expect(try #require(result.rules.first).rule.action == .redirect(.transform(URLTransform())))
    }

    @Test func item14DuplicateKeyLastWins() throws {
        let result = RuleListParser.parse(
            #"[{"trigger":{"url-filter":"a","url-filter":"b"},"action":{"type":"block"}}]"#)
        #expect(try #require(result.rules.first).rule.trigger.urlFilter == "b")
    }

    @Test func item15HexEscape() throws {
        let result = RuleListParser.parse(#"[{"trigger":{"url-filter":"\x41"},"action":{"type":"block"}}]"#)
        #expect(try #require(result.rules.first).rule.trigger.urlFilter == "A")
    }
}

/// Every rule's first error is reported; the first diagnostic is WebKit's error.
@Suite struct AllErrorsTests {
    @Test func errorsInRulesTwoAndFive() {
        let good = #"{"trigger":{"url-filter":"a"},"action":{"type":"block"}}"#
        let badAction = #"{"trigger":{"url-filter":"a"},"action":{"type":"nope"}}"#
        let badDomain = #"{"trigger":{"url-filter":"a","if-domain":["A"]},"action":{"type":"nope"}}"#
        let json = "[" + [good, good, badAction, good, good, badDomain, good].joined(separator: ",") + "]"
        let result = RuleListParser.parse(json)
        #expect(result.diagnostics.map(\.ruleIndex) == [2, 5])
        #expect(result.diagnostics.map(\.error) == [.jsonInvalidActionType, .jsonDomainNotLowerCaseASCII])
        #expect(result.diagnostics.map(\.keyPath) == ["action.type", "trigger.if-domain[0]"])
        #expect(result.rules.map(\.index) == [0, 1, 3, 4, 6])
        #expect(result.ruleCount == 7)
    }

    @Test func noRulesOnlyWithoutOtherErrors() {
        #expect(RuleListParser.parse("[5]").diagnostics.map(\.error) == [.jsonInvalidRule])
        let allDropped = ruleList(
            trigger: #"{"url-filter":"x"}"#, action: #"{"type":"css-display-none","selector":""}"#)
        let result = RuleListParser.parse(allDropped)
        #expect(result.diagnostics.first?.error == .jsonContainsNoRules)
        #expect(result.diagnostics.count == 2)  // plus the warning
    }

    @Test func cssDisplayNoneCanBeDisallowed() {
        var options = RuleListParser.Options()
        options.allowsCSSDisplayNone = false
        let json = ruleList(trigger: #"{"url-filter":"x"}"#, action: #"{"type":"css-display-none","selector":".a"}"#)
        #expect(RuleListParser.parse(json, options: options).diagnostics.first?.error == .jsonContainsNoRules)
        #expect(RuleListParser.parse(json).rules.count == 1)
    }
}

/// Trigger key order, key paths and parsed values (spec §1.4).
@Suite struct TriggerTests {
    /// (trigger JSON, error, key path)
    static let errorTable: [(String, ContentRuleListError, String)] = [
        (#"5"#, .jsonInvalidTrigger, "trigger"),
        (#"{"url-filter":5}"#, .jsonInvalidURLFilterInTrigger, "trigger.url-filter"),
        (
            #"{"url-filter":"x","resource-type":["image",5]}"#, .jsonInvalidStringInTriggerFlagsArray,
            "trigger.resource-type[1]"
        ),
        (
            #"{"url-filter":"x","resource-type":["bad",5]}"#, .jsonInvalidStringInTriggerFlagsArray,
            "trigger.resource-type[0]"
        ),
        (
            #"{"url-filter":"x","load-context":["top"]}"#, .jsonInvalidStringInTriggerFlagsArray,
            "trigger.load-context[0]"
        ),
        (#"{"url-filter":"x","load-context":{}}"#, .jsonInvalidTriggerFlagsArray, "trigger.load-context"),
        (#"{"url-filter":"x","request-method":null}"#, .jsonInvalidRequestMethod, "trigger.request-method"),
        (#"{"url-filter":"x","if-domain":["a",""]}"#, .jsonInvalidConditionList, "trigger.if-domain[1]"),
        (#"{"url-filter":"x","if-domain":["A",5]}"#, .jsonInvalidConditionList, "trigger.if-domain[1]"),
        (
            #"{"url-filter":"x","if-top-url":["a"],"if-frame-url":["b"]}"#, .jsonMultipleConditions,
            "trigger.if-frame-url"
        ),
        (#"{"url-filter":"x","unless-frame-url":{}}"#, .jsonInvalidConditionList, "trigger.unless-frame-url"),
        (#"{"url-filter":"x","if-domain":["a"],"unless-domain":5}"#, .jsonMultipleConditions, "trigger.unless-domain"),
        // Flags before conditions, whatever the text order.
        (#"{"if-domain":[],"url-filter":"x","load-type":5}"#, .jsonInvalidTriggerFlagsArray, "trigger.load-type"),
    ]

    @Test(arguments: errorTable)
    func errors(_ trigger: String, _ error: ContentRuleListError, _ keyPath: String) {
        let diagnostic = RuleListParser.parse(ruleList(trigger: trigger)).diagnostics.first
        #expect(diagnostic?.error == error)
        #expect(diagnostic?.keyPath == keyPath)
        #expect(diagnostic?.ruleIndex == 0)
    }

    @Test func parsedValues() throws {
        let trigger =
            #"{"url-filter":"x","url-filter-is-case-sensitive":true,"top-url-filter-is-case-sensitive":true,"#
            + #""frame-url-filter-is-case-sensitive":true,"resource-type":["document","raw"],"#
            + #""load-type":["third-party"],"load-context":["child-frame"],"request-method":"PaTcH","#
            + #""unless-domain":["*example.com"],"_identifier":"not a number","_rulesetIdentifier":5}"#
        let result = RuleListParser.parse(ruleList(trigger: trigger))
        let parsed = try #require(result.rules.first).rule.trigger
        #expect(
            parsed
                == Trigger(
                    urlFilter: "x", urlFilterIsCaseSensitive: true, topURLFilterIsCaseSensitive: true,
                    frameURLFilterIsCaseSensitive: true,
                    resourceTypes: [.topDocument, .childDocument, .fetch, .webSocket, .other, .ping],
                    loadTypes: .thirdParty, loadContexts: .childFrame, requestMethod: .patch,
                    condition: TriggerCondition(kind: .unlessDomain, values: ["*example.com"])))
    }
}
