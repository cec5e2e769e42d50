import ContentRuleModel

extension RuleListParser {
    /// `RedirectAction::parse` (`ContentExtensionActions.cpp`): the first present of
    /// `extension-path`, `regex-substitution`, `transform`, `url` (a value of the wrong JSON type
    /// counts as absent).
    static func parseRedirect(_ action: JSONObject, urlFilter: String) throws(RuleFailure) -> RedirectAction {
        guard let redirect = action.object("redirect") else {
            throw RuleFailure(.jsonRedirectMissing, "action.redirect")
        }
        if let path = redirect.string("extension-path") {
            guard path.utf8.first == UInt8(ascii: "/") else {
                throw RuleFailure(.jsonRedirectExtensionPathDoesNotStartWithSlash, "action.redirect.extension-path")
            }
            return .extensionPath(path)
        }
        if let substitution = redirect.string("regex-substitution") {
            return .regexSubstitution(substitution: substitution, regexFilter: urlFilter)
        }
        if let transform = redirect.object("transform") {
            return .transform(try parseURLTransform(transform))
        }
        if let url = redirect.string("url") {
            switch AbsoluteURLValidator.validate(url) {
            case .invalid(let reason):
                throw RuleFailure(.jsonRedirectURLInvalid, "action.redirect.url", detail: reason)
            case .valid(let scheme):
                if scheme == "javascript" {
                    throw RuleFailure(.jsonRedirectToJavaScriptURL, "action.redirect.url")
                }
            }
            return .url(url)
        }
        throw RuleFailure(.jsonRedirectInvalidType, "action.redirect")
    }

    /// `URLTransformAction::parse`: checks fragment, port, scheme, then query-transform or query.
    /// Non-string members are treated as absent.
    static func parseURLTransform(_ transform: JSONObject) throws(RuleFailure) -> URLTransform {
        let base = "action.redirect.transform"
        var result = URLTransform()
        if let fragment = transform.string("fragment") {
            guard fragment.isEmpty || fragment.utf8.first == UInt8(ascii: "#") else {
                throw RuleFailure(.jsonRedirectInvalidFragment, base + ".fragment")
            }
            result.fragment = fragment
        }
        result.host = transform.string("host")
        result.password = transform.string("password")
        result.path = transform.string("path")
        if let port = transform.string("port") {
            if port.isEmpty {
                result.port = .remove
            } else if let number = parsePort(port) {
                result.port = .set(number)
            } else {
                throw RuleFailure(.jsonRedirectInvalidPort, base + ".port")
            }
        }
        if let rawScheme = transform.string("scheme") {
            guard let scheme = canonicalScheme(rawScheme) else {
                throw RuleFailure(.jsonRedirectURLSchemeInvalid, base + ".scheme")
            }
            if scheme == "javascript" {
                throw RuleFailure(.jsonRedirectToJavaScriptURL, base + ".scheme")
            }
            result.scheme = scheme
        }
        result.username = transform.string("username")
        if let queryTransform = transform.object("query-transform") {
            result.query = .transform(try parseQueryTransform(queryTransform, base + ".query-transform"))
        } else if let query = transform.string("query") {
            guard query.isEmpty || query.utf8.first == UInt8(ascii: "?") else {
                throw RuleFailure(.jsonRedirectInvalidQuery, base + ".query")
            }
            result.query = .replace(query)
        }
        return result
    }

    /// `QueryTransform::parse`: `remove-parameters`, then `add-or-replace-parameters`.
    static func parseQueryTransform(_ object: JSONObject, _ base: String) throws(RuleFailure) -> QueryTransform {
        var result = QueryTransform()
        if let value = object["remove-parameters"] {
            guard case .array(let elements) = value else {
                throw RuleFailure(.jsonRemoveParametersNotStringArray, base + ".remove-parameters")
            }
            for (position, element) in elements.enumerated() {
                guard let name = element.stringValue else {
                    throw RuleFailure(.jsonRemoveParametersNotStringArray, base + ".remove-parameters[\(position)]")
                }
                result.removeParameters.append(name)
            }
        }
        if let value = object["add-or-replace-parameters"] {
            let path = base + ".add-or-replace-parameters"
            guard case .array(let elements) = value else {
                throw RuleFailure(.jsonAddOrReplaceParametersNotArray, path)
            }
            for (position, element) in elements.enumerated() {
                guard let entry = element.objectValue else {
                    throw RuleFailure(.jsonAddOrReplaceParametersKeyValueNotADictionary, "\(path)[\(position)]")
                }
                guard let key = entry.string("key") else {
                    throw RuleFailure(.jsonAddOrReplaceParametersKeyValueMissingKeyString, "\(path)[\(position)].key")
                }
                guard let value = entry.string("value") else {
                    throw RuleFailure(
                        .jsonAddOrReplaceParametersKeyValueMissingValueString, "\(path)[\(position)].value")
                }
                let replaceOnly = entry.bool("replace-only") ?? false
                result.addOrReplaceParameters.append(.init(key: key, value: value, replaceOnly: replaceOnly))
            }
        }
        return result
    }

    /// WebKit `parseInteger<uint16_t>` (`StringToIntegerConversion.h`): optional leading ASCII
    /// whitespace, optional `+`, decimal digits without overflow, optional trailing ASCII whitespace.
    static func parsePort(_ text: String) -> UInt16? {
        let bytes = Array(text.utf16)
        var k = 0
        func isSpace(_ c: UInt16) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
        while k < bytes.count, isSpace(bytes[k]) { k += 1 }
        if k < bytes.count, bytes[k] == 0x2B { k += 1 }
        guard k < bytes.count, bytes[k] >= 0x30, bytes[k] <= 0x39 else { return nil }
        var value: UInt32 = 0
        while k < bytes.count, bytes[k] >= 0x30, bytes[k] <= 0x39 {
            value = value * 10 + UInt32(bytes[k] - 0x30)
            if value > UInt32(UInt16.max) { return nil }
            k += 1
        }
        while k < bytes.count, isSpace(bytes[k]) { k += 1 }
        guard k == bytes.count else { return nil }
        return UInt16(value)
    }

    /// WebKit `URLParser::maybeCanonicalizeScheme`: an ASCII letter followed by ASCII
    /// alphanumerics, `+`, `-` or `.`; lower-cased. `nil` when not a valid scheme (or empty).
    static func canonicalScheme(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for (position, scalar) in text.unicodeScalars.enumerated() {
            let v = scalar.value
            let isLetter = (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
            let isDigit = v >= 0x30 && v <= 0x39
            if position == 0 {
                guard isLetter else { return nil }
            } else {
                guard isLetter || isDigit || v == 0x2B || v == 0x2D || v == 0x2E else { return nil }
            }
            scalars.append(v >= 0x41 && v <= 0x5A ? Unicode.Scalar(v + 0x20)! : scalar)
        }
        guard !scalars.isEmpty else { return nil }
        return String(scalars)
    }
}
