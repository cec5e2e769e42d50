import ContentRuleModel

enum ActionLoad {
    case action(Action)
    /// WebKit drops the rule without an error.
    case skip(keyPath: String, detail: String)
}

extension RuleListParser {
    /// `loadAction` (`ContentExtensionParser.cpp`): `action` must be an object, `type` a known
    /// string; then the members of that type.
    static func loadAction(_ rule: JSONObject, urlFilter: String, options: Options) throws(RuleFailure)
        -> ActionLoad
    {
        guard let action = rule.object("action") else {
            throw RuleFailure(.jsonInvalidAction, "action")
        }
        guard let typeName = action.string("type") else {
            throw RuleFailure(.jsonInvalidActionType, "action.type", detail: "missing or not a string")
        }
        guard let type = ActionType(rawValue: typeName) else {
            let valid = ActionType.allCases.map(\.rawValue)
            var detail = "unknown type \"\(typeName)\""
            if let likely = likelyName(typeName, among: valid) { detail += "; did you mean \"\(likely)\"?" }
            throw RuleFailure(
                .jsonInvalidActionType, "action.type", detail: detail + " (valid: \(valid.joined(separator: ", ")))")
        }
        switch type {
        case .block: return .action(.block)
        case .blockCookies: return .action(.blockCookies)
        case .ignorePreviousRules: return .action(.ignorePreviousRules)
        case .ignoreFollowingRules: return .action(.ignoreFollowingRules)
        case .makeHTTPS: return .action(.makeHTTPS)
        case .cssDisplayNone:
            guard let selector = action.string("selector") else {
                throw RuleFailure(.jsonInvalidCSSDisplayNoneActionType, "action.selector")
            }
            if !CSSSelectorValidator.isValidSelectorList(selector) {
                return .skip(keyPath: "action.selector", detail: "rule dropped: " + refusedSelector(selector))
            }
            if !options.allowsCSSDisplayNone {
                return .skip(keyPath: "action.type", detail: "rule dropped: css-display-none rules are not allowed")
            }
            return .action(.cssDisplayNone(selector: selector))
        case .notify:
            guard let notification = action.string("notification") else {
                throw RuleFailure(.jsonInvalidNotification, "action.notification")
            }
            return .action(.notify(notification: notification))
        case .redirect:
            return .action(.redirect(try parseRedirect(action, urlFilter: urlFilter)))
        case .modifyHeaders:
            return .action(.modifyHeaders(try parseModifyHeaders(action)))
        }
    }

    /// `ModifyHeadersAction::parse` (`ContentExtensionActions.cpp`): `request-headers`, then
    /// `response-headers`, then `priority` (a number truncated toward zero, `>= 0`).
    static func parseModifyHeaders(_ action: JSONObject) throws(RuleFailure) -> ModifyHeadersAction {
        let requestHeaders = try parseHeaderOperations(action, "request-headers")
        let responseHeaders = try parseHeaderOperations(action, "response-headers")
        guard let priority = action.integer("priority"), priority >= 0 else {
            throw RuleFailure(.jsonModifyHeadersInvalidPriority, "action.priority")
        }
        return ModifyHeadersAction(requestHeaders: requestHeaders, responseHeaders: responseHeaders, priority: priority)
    }

    /// `ModifyHeaderInfo::parse`: operation present → header present → value (set/append) →
    /// operation name.
    private static func parseHeaderOperations(_ action: JSONObject, _ key: String) throws(RuleFailure)
        -> [ModifyHeadersAction.HeaderOperation]
    {
        guard let value = action[key] else { return [] }
        guard case .array(let elements) = value else {
            throw RuleFailure(.jsonModifyHeadersNotArray, "action.\(key)")
        }
        var operations: [ModifyHeadersAction.HeaderOperation] = []
        for (position, element) in elements.enumerated() {
            let path = "action.\(key)[\(position)]"
            guard let info = element.objectValue else {
                throw RuleFailure(.jsonModifyHeadersInfoNotADictionary, path)
            }
            guard let operationName = info.string("operation") else {
                throw RuleFailure(.jsonModifyHeadersMissingOperation, path + ".operation")
            }
            guard let header = info.string("header") else {
                throw RuleFailure(.jsonModifyHeadersMissingHeader, path + ".header")
            }
            let headerValue = info.string("value")
            switch operationName {
            case "set", "append":
                guard let headerValue else {
                    throw RuleFailure(.jsonModifyHeadersMissingValue, path + ".value")
                }
                operations.append(
                    .init(operation: operationName == "set" ? .set : .append, header: header, value: headerValue))
            case "remove":
                operations.append(.init(operation: .remove, header: header))
            default:
                throw RuleFailure(.jsonModifyHeadersInvalidOperation, path + ".operation")
            }
        }
        return operations
    }
}

extension RuleListParser {
    /// What WebKit refuses in a selector list it drops: the first selector that is invalid on its own
    /// (and which of how many it is), else the list; long text is shortened around its start.
    static func refusedSelector(_ list: String) -> String {
        let parts = SelectorList.parts(list)
        if parts.count > 1,
            let (position, part) = parts.enumerated().first(where: {
                !CSSSelectorValidator.isValidSelectorList($0.element)
            })
        {
            let trimmed = part.trimmingSpaces
            let what = trimmed.isEmpty ? "an empty selector" : "the selector \"\(shortened(trimmed))\""
            return "invalid CSS selector list: WebKit refuses \(what), selector \(position + 1) of \(parts.count)"
        }
        return "invalid CSS selector list \"\(shortened(list))\""
    }

    /// `text`, or its first 120 characters and `…` with the count of the rest.
    package static func shortened(_ text: String) -> String {
        text.count <= 120 ? text : String(text.prefix(120)) + "… (\(text.count - 120) more characters)"
    }
}

extension String {
    /// Without leading and trailing ASCII spaces, tabs and newlines.
    fileprivate var trimmingSpaces: String {
        let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
