import ContentRuleModel
package import RuleListParser

#if canImport(Glibc)
    import Glibc
#endif

/// The keys of one request (a request line, or the flags of a single request), read once: what
/// ``MatchCommand/load(from:)`` turns into a load, the `id` to echo and the keys nobody reads.
package struct RequestFields {
    /// A request key's value: absent, a string, or another JSON value (an error for every key but
    /// `id`), or a value of another request format that maps to none (an error with its message).
    package enum Value {
        case absent
        case string(String)
        case notAString
        case invalid(String)

        /// Whether the value is a string.
        package var isString: Bool {
            if case .string = self { return true }
            return false
        }
    }

    package var url = Value.absent
    package var mainDocumentURL = Value.absent
    package var frameURL = Value.absent
    package var resourceType = Value.absent
    package var loadContext = Value.absent
    package var requestMethod = Value.absent
    package var loadType = Value.absent
    /// `requestHeaders`: nil when absent; `.failure` with the message when it is not an object of strings.
    package var requestHeaders: Result<[(String, String)], RequestError>?
    /// The `id` member as written in the line (echoed as it is: a number keeps every digit).
    package var idText: ArraySlice<UInt8>?
    /// The `id` member's value, when its text could not be found (a key spelt with escapes).
    package var idValue: JSONValue?
    /// Keys no field reads, sorted, each once.
    package var unknownKeys: [String] = []

    package init() {}

    /// The keys a request object may have (REQUEST in `match --help`, and `id`, echoed back); others
    /// are reported in the result's `warnings`.
    package static let knownKeys: Set<String> = [
        "url", "mainDocumentURL", "frameURL", "resourceType", "loadContext", "requestMethod", "httpMethod", "loadType",
        "requestHeaders", "id",
    ]

    /// The names a request's `resourceType` takes: `document` (top- or child-document by the load
    /// context) and the request name of each single type.
    package static let resourceTypeNames = ["document"] + ResourceType.requestNames.map(\.0)

    /// Sets the string value of the request key `key` (a flag of a single request).
    package mutating func set(_ key: String, to text: String) {
        switch key {
        case "url": url = .string(text)
        case "mainDocumentURL": mainDocumentURL = .string(text)
        case "frameURL": frameURL = .string(text)
        case "resourceType": resourceType = .string(text)
        case "loadContext": loadContext = .string(text)
        case "requestMethod": requestMethod = .string(text)
        case "loadType": loadType = .string(text)
        default: preconditionFailure("no flag sets the request key \(key)")
        }
    }

    /// The fields of a parsed request object (`idText`: the `id` member's text in the line, if found).
    package init(_ object: JSONObject, idText: ArraySlice<UInt8>? = nil) {
        func value(_ key: String) -> Value {
            guard let given = object[key] else { return .absent }
            return given.stringValue.map { .string($0) } ?? .notAString
        }
        url = value("url")
        mainDocumentURL = value("mainDocumentURL")
        frameURL = value("frameURL")
        resourceType = value("resourceType")
        loadContext = value("loadContext")
        requestMethod = value("requestMethod")
        loadType = value("loadType")
        if let given = object["requestHeaders"] {
            requestHeaders = Self.headers(given)
        }
        if let id = object["id"] {
            if let idText { self.idText = idText } else { idValue = id }
        }
        unknownKeys = Set(object.keys.filter { !Self.knownKeys.contains($0) }).sorted()
    }

    private static func headers(_ value: JSONValue) -> Result<[(String, String)], RequestError> {
        guard let dictionary = value.objectValue else {
            return .failure(RequestError("requestHeaders must be an object"))
        }
        var headers: [(String, String)] = []
        for key in dictionary.keys.sorted() {
            guard let value = dictionary[key]?.stringValue else {
                return .failure(RequestError("header values must be strings"))
            }
            headers.append((key, value))
        }
        return .success(headers)
    }
}

extension RequestFields {
    /// The fields of a request line, read straight from its bytes in one pass; `nil` when the line is
    /// anything but a flat JSON object of ASCII strings, numbers that fit a `Double` exactly written,
    /// `true`, `false` and `null` (nested values, non-ASCII bytes, escaped keys, exponents, bad syntax):
    /// such a line is read by `JSONReader` instead, which gives the same fields or the error message.
    /// The last of a repeated key counts, as in `JSONObject`.
    /// - Complexity: O(line length), no allocation but the strings of the known keys.
    package static func parseFlat(_ line: ArraySlice<UInt8>, format: RequestFormat = .request) -> RequestFields? {
        line.withUnsafeBufferPointer { buffer in
            var scanner = FlatObjectScanner(line: buffer, format: format)
            guard var fields = scanner.scan() else { return nil }
            if let id = scanner.idRange {
                fields.idText = line[(line.startIndex + id.lowerBound)..<(line.startIndex + id.upperBound)]
            }
            return fields
        }
    }
}

/// The one-pass reader of ``RequestFields/parseFlat(_:)``.
private struct FlatObjectScanner {
    package let line: UnsafeBufferPointer<UInt8>
    package var index = 0
    package var fields = RequestFields()
    package var unknown: [String] = []
    /// Where the last `id` value is in the line.
    package var idRange: Range<Int>?
    /// Bytes of a string with escapes, decoded.
    package var decoded: [UInt8] = []

    /// ``RequestFormat/request`` or ``RequestFormat/tsurlfilter``: which keys are read.
    package let format: RequestFormat

    package init(line: UnsafeBufferPointer<UInt8>, format: RequestFormat) {
        self.line = line
        self.format = format
    }

    package mutating func scan() -> RequestFields? {
        skipSpace()
        guard take(0x7B) else { return nil }
        skipSpace()
        if !take(0x7D) {
            while true {
                guard let key = rawKey() else { return nil }
                skipSpace()
                guard take(0x3A) else { return nil }
                skipSpace()
                guard value(for: key) else { return nil }
                skipSpace()
                if take(0x2C) {
                    skipSpace()
                    continue
                }
                guard take(0x7D) else { return nil }
                break
            }
        }
        skipSpace()
        guard index == line.endIndex else { return nil }
        fields.unknownKeys = unknown.isEmpty ? [] : Set(unknown).sorted()
        return fields
    }

    private mutating func skipSpace() {
        while index < line.endIndex {
            switch line[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < line.endIndex, line[index] == byte else { return false }
        index += 1
        return true
    }

    /// A key without escapes: its bytes.
    private mutating func rawKey() -> UnsafeBufferPointer<UInt8>? {
        guard take(0x22) else { return nil }
        let start = index
        while index < line.endIndex {
            let byte = line[index]
            if byte == 0x22 {
                index += 1
                return UnsafeBufferPointer(rebasing: line[start..<index - 1])
            }
            guard byte >= 0x20, byte < 0x80, byte != 0x5C else { return nil }
            index += 1
        }
        return nil
    }

    /// Reads the value of `key` and files it; false when the line must be read by `JSONReader`.
    private mutating func value(for key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard index < line.endIndex else { return false }
        let start = index
        let text: String?
        switch line[index] {
        case 0x22:
            guard let string = string() else { return false }
            text = string
        case 0x74:
            guard literal("true") else { return false }
            text = nil
        case 0x66:
            guard literal("false") else { return false }
            text = nil
        case 0x6E:
            guard literal("null") else { return false }
            text = nil
        case 0x2D, 0x30...0x39:
            guard number() else { return false }
            text = nil
        default: return false  // an array or an object, or not JSON
        }
        let value: RequestFields.Value = text.map { .string($0) } ?? .notAString
        switch format == .tsurlfilter ? Self.tsurlfilterKey(key) : Self.requestKey(key) {
        case .id: idRange = start..<index
        case .cpt: fields.resourceType = RequestFields.mapped(value, RequestFormat.tsurlfilterTypes, key: "cpt")
        case .url: fields.url = value
        case .mainDocumentURL: fields.mainDocumentURL = value
        case .frameURL: fields.frameURL = value
        case .resourceType: fields.resourceType = value
        case .loadContext: fields.loadContext = value
        case .requestMethod: fields.requestMethod = value
        case .loadType: fields.loadType = value
        case .httpMethod: break
        case .requestHeaders: fields.requestHeaders = .failure(RequestError("requestHeaders must be an object"))
        case nil: unknown.append(String(decoding: key, as: UTF8.self))
        }
        return true
    }

    /// The keys a request reads.
    package enum Key {
        case id, url, mainDocumentURL, frameURL, resourceType, loadContext, requestMethod, loadType, httpMethod
        case requestHeaders
        /// tsurlfilter's resource type.
        case cpt
    }

    /// The tsurlfilter key `key` spells (``RequestFormat/tsurlfilter``).
    package static func tsurlfilterKey(_ key: UnsafeBufferPointer<UInt8>) -> Key? {
        func equals(_ name: StaticString) -> Bool {
            name.withUTF8Buffer { $0.count == key.count && memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }
        }
        switch key.count {
        case 2: return equals("id") ? .id : nil
        case 3: return equals("url") ? .url : equals("cpt") ? .cpt : nil
        case 8: return equals("frameUrl") ? .mainDocumentURL : nil
        default: return nil
        }
    }

    /// The request key `key` spells, by its length and then its bytes.
    package static func requestKey(_ key: UnsafeBufferPointer<UInt8>) -> Key? {
        func equals(_ name: StaticString) -> Bool {
            name.withUTF8Buffer { $0.count == key.count && memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }
        }
        switch key.count {
        case 2: return equals("id") ? .id : nil
        case 3: return equals("url") ? .url : nil
        case 8: return equals("frameURL") ? .frameURL : equals("loadType") ? .loadType : nil
        case 10: return equals("httpMethod") ? .httpMethod : nil
        case 11: return equals("loadContext") ? .loadContext : nil
        case 12: return equals("resourceType") ? .resourceType : nil
        case 13: return equals("requestMethod") ? .requestMethod : nil
        case 14: return equals("requestHeaders") ? .requestHeaders : nil
        case 15: return equals("mainDocumentURL") ? .mainDocumentURL : nil
        default: return nil
        }
    }

    /// A string of ASCII bytes, with JSON's escapes but `\u` of a surrogate; nil otherwise.
    private mutating func string() -> String? {
        index += 1
        let start = index
        var escaped = false
        while index < line.endIndex {
            index = JSONStringScan.firstStop(in: line, from: index, stopAtNonASCII: true)
            guard index < line.endIndex else { return nil }
            let byte = line[index]
            if byte == 0x22 {
                index += 1
                let contents = UnsafeBufferPointer(rebasing: line[start..<index - 1])
                if !escaped { return String(decoding: contents, as: UTF8.self) }
                return decode(contents)
            }
            guard byte >= 0x20, byte < 0x80 else { return nil }
            if byte == 0x5C {
                escaped = true
                index += 1
                guard index < line.endIndex else { return nil }
            }
            index += 1
        }
        return nil
    }

    /// The text of string contents with escapes; nil for an escape JSON lacks or a surrogate.
    private mutating func decode(_ contents: UnsafeBufferPointer<UInt8>) -> String? {
        decoded.removeAll(keepingCapacity: true)
        var position = contents.startIndex
        while position < contents.endIndex {
            let byte = contents[position]
            position += 1
            guard byte == 0x5C else {
                decoded.append(byte)
                continue
            }
            let escape = contents[position]
            position += 1
            switch escape {
            case 0x22, 0x5C, 0x2F: decoded.append(escape)
            case 0x62: decoded.append(0x08)
            case 0x66: decoded.append(0x0C)
            case 0x6E: decoded.append(0x0A)
            case 0x72: decoded.append(0x0D)
            case 0x74: decoded.append(0x09)
            case 0x75:
                guard contents.endIndex - position >= 4 else { return nil }
                var unit: UInt32 = 0
                for digit in UnsafeBufferPointer(rebasing: contents[position..<position + 4]) {
                    guard let value = Self.hexValue(digit) else { return nil }
                    unit = unit << 4 | value
                }
                position += 4
                guard let scalar = Unicode.Scalar(unit) else { return nil }  // a surrogate
                decoded.append(contentsOf: String(Character(scalar)).utf8)
            default: return nil
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard line.endIndex - index >= count,
            word.withUTF8Buffer({ memcmp($0.baseAddress!, line.baseAddress! + index, count) == 0 })
        else { return false }
        index += count
        return true
    }

    /// A JSON number without an exponent and with at most 15 digits (exactly a `Double`, in range).
    private mutating func number() -> Bool {
        _ = take(0x2D)
        var digits = 0
        guard index < line.endIndex else { return false }
        if line[index] == 0x30 {
            index += 1
            digits = 1
        } else {
            while index < line.endIndex, (0x30...0x39).contains(line[index]) {
                index += 1
                digits += 1
            }
        }
        guard digits > 0 else { return false }
        if take(0x2E) {
            var fraction = 0
            while index < line.endIndex, (0x30...0x39).contains(line[index]) {
                index += 1
                fraction += 1
            }
            guard fraction > 0 else { return false }
            digits += fraction
        }
        guard digits <= 15, index == line.endIndex || !Self.continuesNumber(line[index]) else { return false }
        return true
    }

    /// Bytes that would make the number longer or invalid (an exponent, another digit or sign).
    private static func continuesNumber(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x2E, 0x2D, 0x2B, 0x65, 0x45: return true
        default: return false
        }
    }
}
