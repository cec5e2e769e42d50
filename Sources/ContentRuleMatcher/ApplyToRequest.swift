import ContentRuleModel
import ContentRuleURL
import PCRE2Support

extension ContentRuleListResults {
    /// WebKit `applyResultsToRequest` (spec §4.10): https upgrade, then header modifications by
    /// descending priority, then redirects in order.
    mutating func applyToRequest(
        load: ResourceLoadInfo, redirects: [(RedirectAction, ContentRuleList)], headerActions: [ModifyHeadersAction],
        headers: [(String, String)]
    ) {
        if madeHTTPS {
            var upgraded = requestURL
            if upgraded.setScheme(upgraded.scheme == "ws" ? "wss" : "https") { requestURL = upgraded }
        }
        if !headerActions.isEmpty {
            // WebKit's sort is not stable; we keep rule order among equal priorities (deterministic).
            let ordered = headerActions.enumerated().sorted {
                $0.element.priority != $1.element.priority
                    ? $0.element.priority > $1.element.priority : $0.offset < $1.offset
            }
            var modified = headers
            var firstOperation: [String: ModifyHeadersAction.HeaderOperation.Operation] = [:]
            for (_, action) in ordered {
                for operation in action.requestHeaders {
                    apply(operation, to: &modified, firstOperation: &firstOperation)
                }
            }
            requestHeaders = modified
        }
        for (redirect, list) in redirects {
            if let target = redirect.apply(to: requestURL, extensionBaseURL: list.extensionBaseURL) {
                requestURL = target
            }
        }
    }

    private func apply(
        _ operation: ModifyHeadersAction.HeaderOperation, to headers: inout [(String, String)],
        firstOperation: inout [String: ModifyHeadersAction.HeaderOperation.Operation]
    ) {
        let name = operation.header
        let index = headers.firstIndex { $0.0.lowercased() == name.lowercased() }
        switch operation.operation {
        case .set:
            guard firstOperation[name] == nil else { return }
            if let index {
                headers[index].1 = operation.value ?? ""
            } else {
                headers.append((name, operation.value ?? ""))
            }
            firstOperation[name] = .set
        case .remove:
            guard firstOperation[name] == nil else { return }
            if let index { headers.remove(at: index) }
            firstOperation[name] = .remove
        case .append:
            guard firstOperation[name] != .remove else { return }
            let value = operation.value ?? ""
            if let index, !headers[index].1.isEmpty {
                headers[index].1 += "; " + value
            } else if let index {
                headers[index].1 = value
            } else {
                headers.append((name, value))
            }
            if firstOperation[name] == nil { firstOperation[name] = .append }
        }
    }
}

extension RedirectAction {
    /// The URL a redirect sends `url` to, or `nil` to leave it unchanged (WebKit
    /// `RedirectAction::applyToRequest`, spec §1.5.1).
    func apply(to url: WebURL, extensionBaseURL: WebURL?) -> WebURL? {
        switch self {
        case .url(let target):
            return WebURL(target)
        case .extensionPath(let path):
            guard var base = extensionBaseURL, base.setPath(path) else { return nil }
            return base
        case .regexSubstitution(let substitution, let regexFilter):
            return Self.substitute(substitution, regexFilter: regexFilter, in: url)
        case .transform(let transform):
            return transform.apply(to: url)
        }
    }

    static func substitute(_ substitution: String, regexFilter: String, in url: WebURL) -> WebURL? {
        guard let regex = try? PCRE2Regex(regexFilter, options: [.javaScriptCompatible]) else { return nil }
        let subject = url.serialization
        guard let groups = regex.firstMatch(in: subject) else { return nil }
        let bytes = Array(subject.utf8)
        var result = substitution
        for group in 0...9 {
            let value: String
            if group < groups.count, let range = groups[group] {
                value = String(decoding: bytes[range], as: UTF8.self)
            } else if group < groups.count {
                value = "undefined"
            } else {
                continue
            }
            result = result.replacingAll("\\\(group)", with: value)
        }
        return WebURL(result)
    }
}

extension URLTransform {
    /// Applies the setters in WebKit's order: fragment, host, password, path, port, query, scheme, username.
    func apply(to url: WebURL) -> WebURL {
        var result = url
        if let fragment { _ = result.setFragment(fragment.isEmpty ? nil : String(fragment.dropFirst())) }
        if let host { _ = result.setHost(host) }
        if let password { _ = result.setPassword(password) }
        if let path { _ = result.setPath(path) }
        switch port {
        case .remove?: _ = result.setPort(nil)
        case .set(let value)?: _ = result.setPort(value)
        case nil: break
        }
        switch query {
        case .replace(let query)?: _ = result.setQuery(query.isEmpty ? nil : String(query.dropFirst()))
        case .transform(let transform)?: transform.apply(to: &result)
        case nil: break
        }
        if let scheme { _ = result.setScheme(scheme) }
        if let username { _ = result.setUsername(username) }
        return result
    }
}

extension QueryTransform {
    /// WebKit `QueryTransform::applyToURL` (spec §1.5.1): nothing happens to a URL without a query.
    func apply(to url: inout WebURL) {
        guard let query = url.query else { return }
        var changed = false
        var pieces: [String] = []
        for piece in query.split(separator: "&", omittingEmptySubsequences: false) {
            let name = String(piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            let decoded = Self.formDecode(name)
            if removeParameters.contains(decoded) {
                changed = true
                continue
            }
            if let replacement = addOrReplaceParameters.first(where: { $0.replaceOnly && $0.key == decoded }) {
                pieces.append(replacement.key + "=" + replacement.value)
                changed = true
                continue
            }
            pieces.append(String(piece))
        }
        for parameter in addOrReplaceParameters where !parameter.replaceOnly {
            pieces.append(parameter.key + "=" + parameter.value)
            changed = true
        }
        if changed { _ = url.setQuery(pieces.joined(separator: "&")) }
    }

    /// application/x-www-form-urlencoded name decoding: `+` is a space, `%HH` a byte.
    static func formDecode(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                let value = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// Every occurrence of `target` replaced, scanning left to right (no Foundation needed).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let text = Array(utf8)
        let needle = Array(target.utf8)
        guard !needle.isEmpty, text.count >= needle.count else { return self }
        var result: [UInt8] = []
        var index = 0
        while index < text.count {
            if index + needle.count <= text.count, text[index..<(index + needle.count)].elementsEqual(needle) {
                result.append(contentsOf: replacement.utf8)
                index += needle.count
            } else {
                result.append(text[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
