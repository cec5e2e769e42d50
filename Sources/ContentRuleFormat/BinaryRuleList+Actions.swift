import ContentRuleModel

// Encoding of actions: a one-byte action type tag (index in `ActionType.allCases`) and its payload.
extension ByteWriter {
    mutating func encode(_ action: Action) {
        u8(UInt8(ActionType.allCases.firstIndex(of: action.type)!))
        switch action {
        case .block, .blockCookies, .ignorePreviousRules, .ignoreFollowingRules, .makeHTTPS: break
        case .cssDisplayNone(let selector): string(selector)
        case .notify(let notification): string(notification)
        case .redirect(let redirect): encode(redirect)
        case .modifyHeaders(let modify):
            u64(UInt64(bitPattern: Int64(modify.priority)))
            encode(modify.requestHeaders)
            encode(modify.responseHeaders)
        }
    }

    mutating func encode(_ redirect: RedirectAction) {
        switch redirect {
        case .extensionPath(let path):
            u8(0)
            string(path)
        case .regexSubstitution(let substitution, let regexFilter):
            u8(1)
            string(substitution)
            string(regexFilter)
        case .transform(let transform):
            u8(2)
            encode(transform)
        case .url(let url):
            u8(3)
            string(url)
        }
    }

    mutating func encode(_ transform: URLTransform) {
        for member in [transform.fragment, transform.host, transform.password, transform.path] {
            optionalString(member)
        }
        switch transform.port {
        case nil: u8(0)
        case .remove?: u8(1)
        case .set(let port)?:
            u8(2)
            u16(port)
        }
        switch transform.query {
        case nil: u8(0)
        case .replace(let query)?:
            u8(1)
            string(query)
        case .transform(let query)?:
            u8(2)
            count(query.addOrReplaceParameters.count)
            for parameter in query.addOrReplaceParameters {
                string(parameter.key)
                string(parameter.value)
                bool(parameter.replaceOnly)
            }
            count(query.removeParameters.count)
            for name in query.removeParameters { string(name) }
        }
        optionalString(transform.scheme)
        optionalString(transform.username)
    }

    mutating func encode(_ operations: [ModifyHeadersAction.HeaderOperation]) {
        count(operations.count)
        for operation in operations {
            u8(operation.operation == .set ? 0 : operation.operation == .append ? 1 : 2)
            string(operation.header)
            optionalString(operation.value)
        }
    }
}

extension ByteReader {
    mutating func decodeAction() throws(BinaryRuleListError) -> Action {
        let start = offset
        let tag = Int(try u8())
        guard tag < ActionType.allCases.count else {
            throw .malformed(offset: start, reason: "unknown action type \(tag)")
        }
        switch ActionType.allCases[tag] {
        case .block: return .block
        case .blockCookies: return .blockCookies
        case .ignorePreviousRules: return .ignorePreviousRules
        case .ignoreFollowingRules: return .ignoreFollowingRules
        case .makeHTTPS: return .makeHTTPS
        case .cssDisplayNone: return .cssDisplayNone(selector: try string())
        case .notify: return .notify(notification: try string())
        case .redirect: return .redirect(try decodeRedirect())
        case .modifyHeaders:
            let priorityOffset = offset
            let priority = Int64(bitPattern: try u64())
            guard priority >= 0, priority <= Int64(Int32.max) else {
                throw .malformed(offset: priorityOffset, reason: "modify-headers priority \(priority)")
            }
            return .modifyHeaders(
                ModifyHeadersAction(
                    requestHeaders: try decodeHeaderOperations(), responseHeaders: try decodeHeaderOperations(),
                    priority: Int(priority)))
        }
    }

    mutating func decodeRedirect() throws(BinaryRuleListError) -> RedirectAction {
        let start = offset
        switch try u8() {
        case 0: return .extensionPath(try string())
        case 1: return .regexSubstitution(substitution: try string(), regexFilter: try string())
        case 2: return .transform(try decodeTransform())
        case 3: return .url(try string())
        case let kind: throw .malformed(offset: start, reason: "unknown redirect kind \(kind)")
        }
    }

    mutating func decodeTransform() throws(BinaryRuleListError) -> URLTransform {
        var transform = URLTransform()
        transform.fragment = try optionalString()
        transform.host = try optionalString()
        transform.password = try optionalString()
        transform.path = try optionalString()
        let portOffset = offset
        switch try u8() {
        case 0: break
        case 1: transform.port = .remove
        case 2: transform.port = .set(try u16())
        case let kind: throw .malformed(offset: portOffset, reason: "unknown port kind \(kind)")
        }
        let queryOffset = offset
        switch try u8() {
        case 0: break
        case 1: transform.query = .replace(try string())
        case 2:
            var query = QueryTransform()
            for _ in 0..<(try count(minimumElementSize: 9)) {
                query.addOrReplaceParameters.append(
                    QueryTransform.Parameter(key: try string(), value: try string(), replaceOnly: try bool()))
            }
            for _ in 0..<(try count(minimumElementSize: 4)) { query.removeParameters.append(try string()) }
            transform.query = .transform(query)
        case let kind: throw .malformed(offset: queryOffset, reason: "unknown query kind \(kind)")
        }
        transform.scheme = try optionalString()
        transform.username = try optionalString()
        return transform
    }

    mutating func decodeHeaderOperations() throws(BinaryRuleListError) -> [ModifyHeadersAction.HeaderOperation] {
        var operations: [ModifyHeadersAction.HeaderOperation] = []
        for _ in 0..<(try count(minimumElementSize: 6)) {
            let start = offset
            let operation: ModifyHeadersAction.HeaderOperation.Operation
            switch try u8() {
            case 0: operation = .set
            case 1: operation = .append
            case 2: operation = .remove
            case let kind: throw .malformed(offset: start, reason: "unknown header operation \(kind)")
            }
            operations.append(.init(operation: operation, header: try string(), value: try optionalString()))
        }
        return operations
    }
}
