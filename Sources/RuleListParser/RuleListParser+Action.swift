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
            throw RuleFailure(.jsonInvalidActionType, "action.type", detail: "unknown type \"\(typeName)\"")
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
                return .skip(
                    keyPath: "action.selector",
                    detail: "rule dropped: invalid CSS selector list \"\(selector)\"")
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
