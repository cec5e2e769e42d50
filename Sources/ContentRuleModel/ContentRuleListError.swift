/// WebKit's compilation errors for a rule list, with WebKit's names and exact messages.
///
/// Mirrors `ContentExtensionError` (`Source/WebCore/contentextensions/ContentExtensionError.h/.cpp`),
/// spec §2.1. The raw value is WebKit's enum case name.
public enum ContentRuleListError: String, Sendable, Hashable, CaseIterable, Error {
    case jsonInvalid = "JSONInvalid"
    case jsonTopLevelStructureNotAnArray = "JSONTopLevelStructureNotAnArray"
    case jsonInvalidObjectInTopLevelArray = "JSONInvalidObjectInTopLevelArray"
    case jsonInvalidRule = "JSONInvalidRule"
    case jsonContainsNoRules = "JSONContainsNoRules"
    case jsonInvalidTrigger = "JSONInvalidTrigger"
    case jsonInvalidURLFilterInTrigger = "JSONInvalidURLFilterInTrigger"
    case jsonInvalidTriggerFlagsArray = "JSONInvalidTriggerFlagsArray"
    case jsonInvalidStringInTriggerFlagsArray = "JSONInvalidStringInTriggerFlagsArray"
    case jsonInvalidConditionList = "JSONInvalidConditionList"
    case jsonDomainNotLowerCaseASCII = "JSONDomainNotLowerCaseASCII"
    case jsonMultipleConditions = "JSONMultipleConditions"
    case jsonTooManyRules = "JSONTooManyRules"
    case jsonInvalidRequestMethod = "JSONInvalidRequestMethod"
    case jsonInvalidAction = "JSONInvalidAction"
    case jsonInvalidActionType = "JSONInvalidActionType"
    case jsonInvalidCSSDisplayNoneActionType = "JSONInvalidCSSDisplayNoneActionType"
    case jsonInvalidNotification = "JSONInvalidNotification"
    case jsonInvalidRegex = "JSONInvalidRegex"
    case jsonRedirectMissing = "JSONRedirectMissing"
    case jsonRedirectExtensionPathDoesNotStartWithSlash = "JSONRedirectExtensionPathDoesNotStartWithSlash"
    case jsonRedirectURLSchemeInvalid = "JSONRedirectURLSchemeInvalid"
    case jsonRedirectToJavaScriptURL = "JSONRedirectToJavaScriptURL"
    case jsonRedirectURLInvalid = "JSONRedirectURLInvalid"
    case jsonRedirectInvalidType = "JSONRedirectInvalidType"
    case jsonRedirectInvalidPort = "JSONRedirectInvalidPort"
    case jsonRedirectInvalidQuery = "JSONRedirectInvalidQuery"
    case jsonRedirectInvalidFragment = "JSONRedirectInvalidFragment"
    case jsonRemoveParametersNotStringArray = "JSONRemoveParametersNotStringArray"
    case jsonAddOrReplaceParametersNotArray = "JSONAddOrReplaceParametersNotArray"
    case jsonAddOrReplaceParametersKeyValueNotADictionary = "JSONAddOrReplaceParametersKeyValueNotADictionary"
    case jsonAddOrReplaceParametersKeyValueMissingKeyString = "JSONAddOrReplaceParametersKeyValueMissingKeyString"
    case jsonAddOrReplaceParametersKeyValueMissingValueString =
        "JSONAddOrReplaceParametersKeyValueMissingValueString"
    case jsonModifyHeadersNotArray = "JSONModifyHeadersNotArray"
    case jsonModifyHeadersInfoNotADictionary = "JSONModifyHeadersInfoNotADictionary"
    case jsonModifyHeadersMissingOperation = "JSONModifyHeadersMissingOperation"
    case jsonModifyHeadersInvalidOperation = "JSONModifyHeadersInvalidOperation"
    case jsonModifyHeadersMissingHeader = "JSONModifyHeadersMissingHeader"
    case jsonModifyHeadersMissingValue = "JSONModifyHeadersMissingValue"
    case jsonModifyHeadersInvalidPriority = "JSONModifyHeadersInvalidPriority"
    case errorWritingSerializedNFA = "ErrorWritingSerializedNFA"

    /// WebKit's message, exactly (some lack a final period, as in WebKit).
    public var message: String {
        switch self {
        case .jsonInvalid: return "Failed to parse the JSON String."
        case .jsonTopLevelStructureNotAnArray: return "Invalid input, the top level structure is not an array."
        case .jsonInvalidObjectInTopLevelArray: return "Invalid object in the top level array."
        case .jsonInvalidRule: return "Invalid rule."
        case .jsonContainsNoRules: return "Empty extension."
        case .jsonInvalidTrigger: return "Invalid trigger object."
        case .jsonInvalidURLFilterInTrigger: return "Invalid url-filter object."
        case .jsonInvalidTriggerFlagsArray: return "Invalid trigger flags array."
        case .jsonInvalidStringInTriggerFlagsArray: return "Invalid string in the trigger flags array."
        case .jsonInvalidConditionList:
            return "Invalid list of if-domain, unless-domain, if-top-url, or unless-top-url conditions."
        case .jsonDomainNotLowerCaseASCII:
            return "Domains must be lower case ASCII. Use punycode to encode non-ASCII characters."
        case .jsonMultipleConditions:
            return
                "A trigger cannot have more than one condition (if-domain, unless-domain, if-top-url, or unless-top-url)"
        case .jsonTooManyRules: return "Too many rules in JSON array."
        case .jsonInvalidRequestMethod:
            return
                "The request-method string must be \"get\", \"head\", \"options\", \"trace\", \"put\", \"delete\", \"post\", \"patch\", or \"connect\"."
        case .jsonInvalidAction: return "Invalid action object."
        case .jsonInvalidActionType: return "Invalid action type."
        case .jsonInvalidCSSDisplayNoneActionType: return "Invalid css-display-none action type. Requires a selector."
        case .jsonInvalidNotification: return "A notify action must have a string notification"
        case .jsonInvalidRegex: return "Invalid or unsupported regular expression."
        case .jsonRedirectMissing: return "A redirect action must have a redirect member"
        case .jsonRedirectExtensionPathDoesNotStartWithSlash: return "A redirect extension path must start with a slash"
        case .jsonRedirectURLSchemeInvalid: return "A redirect url scheme must be a valid scheme"
        case .jsonRedirectToJavaScriptURL: return "A redirect url can't have a scheme of javascript"
        case .jsonRedirectURLInvalid: return "A redirect url must be valid"
        case .jsonRedirectInvalidType:
            return
                "A redirect must have a member named \"extension-path\", \"regex-substitution\", \"transform\" or \"url\""
        case .jsonRedirectInvalidPort:
            return "A redirect port must be either empty or a number between 0 and 65535, inclusive"
        case .jsonRedirectInvalidQuery: return "A redirect query must either be empty or begin with '?'"
        case .jsonRedirectInvalidFragment: return "A redirect fragment must either be empty or begin with '#'"
        case .jsonRemoveParametersNotStringArray: return "A remove-parameters value must be an array of strings"
        case .jsonAddOrReplaceParametersNotArray: return "An add-or-replace-parameters value must be an array"
        case .jsonAddOrReplaceParametersKeyValueNotADictionary:
            return "Members of the add-or-replace-parameters array must be a dictionary"
        case .jsonAddOrReplaceParametersKeyValueMissingKeyString:
            return "Members of the add-or-replace-parameters array must contain a key that is a string"
        case .jsonAddOrReplaceParametersKeyValueMissingValueString:
            return "Members of the add-or-replace-parameters array must contain a value that is a string"
        case .jsonModifyHeadersNotArray: return "A headers member must be an array"
        case .jsonModifyHeadersInfoNotADictionary: return "A modify-headers operation must be a dictionary"
        case .jsonModifyHeadersMissingOperation: return "A modify-headers operation must have an operation"
        case .jsonModifyHeadersInvalidOperation:
            return "A modify-headers operation must have an operation that is either \"set\", \"append\", or \"remove\""
        case .jsonModifyHeadersMissingHeader: return "A modify-headers operation must have a header"
        case .jsonModifyHeadersMissingValue:
            return "A modify-headers operation of \"set\" or \"append\" must have a value"
        case .jsonModifyHeadersInvalidPriority: return "A priority must be a positive integer"
        case .errorWritingSerializedNFA: return "Internal I/O error"
        }
    }
}

/// One problem found in a rule list: WebKit's error plus where it is.
///
/// WebKit reports only the first error of a list and no location; we report every rule's first
/// error, in the order WebKit would meet them, so `diagnostics.first` is WebKit's error.
public struct RuleListDiagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        /// WebKit rejects the whole list.
        case error
        /// WebKit accepts the list but drops the rule (an invalid css-display-none selector).
        case warning
    }
    public var error: ContentRuleListError?
    public var severity: Severity
    /// Index of the rule in the top-level JSON array, when the problem belongs to one rule.
    public var ruleIndex: Int?
    /// Key path inside the rule, e.g. `trigger.if-domain[2]` or `action.redirect.transform.port`.
    public var keyPath: String?
    /// Byte offset in the JSON text, for JSON syntax errors.
    public var byteOffset: Int?
    /// Where the problem is in the JSON text, 1-based: the line, and the column in Unicode scalars
    /// from the line's start (the offending value, or the closest enclosing object the text has);
    /// `nil` when the diagnostic was made without the text (`RuleListParser.parse(value:)`).
    public var line: Int?
    /// See ``line``.
    public var column: Int?
    /// More detail than WebKit's message, e.g. the url-filter parser's reason
    /// (`Disjunctions are not supported yet.`) or the JSON syntax problem.
    public var detail: String?

    public init(
        _ error: ContentRuleListError?, severity: Severity = .error, ruleIndex: Int? = nil, keyPath: String? = nil,
        byteOffset: Int? = nil, detail: String? = nil
    ) {
        self.error = error
        self.severity = severity
        self.ruleIndex = ruleIndex
        self.keyPath = keyPath
        self.byteOffset = byteOffset
        self.detail = detail
    }

    /// WebKit's message, or the detail for warnings that WebKit does not report.
    public var message: String { error?.message ?? detail ?? "" }

    /// `rule N: KEY: message (detail)`, the form the CLI prints after the file name: for a warning
    /// `rule N: KEY: warning: detail`; without a rule, `byte N: …` in place of `rule N: KEY`. Parts that are
    /// `nil` are left out.
    public var description: String {
        var parts: [String] = []
        if let ruleIndex { parts.append("rule \(ruleIndex)") }
        if let keyPath { parts.append(keyPath) }
        if let byteOffset, ruleIndex == nil { parts.append("byte \(byteOffset)") }
        var text = error?.message ?? ""
        if severity == .warning { text = "warning: " + text }
        if let detail, error != nil { text += " (\(detail))" } else if error == nil, let detail { text += detail }
        parts.append(text)
        return parts.joined(separator: ": ")
    }
}
