/// A JSON value as WebKit's JSON reader (`WTF::JSON`) produces it.
///
/// Numbers are `Double` (WTF stores every number as a double). Strings are Swift strings; a lone
/// UTF-16 surrogate written as `\uD800` cannot be represented in a Swift `String` and is stored as
/// U+FFFD (WebKit keeps the lone code unit). Mirrors `Source/WTF/wtf/JSONValues.h`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string, or `nil` for any other type (WebKit `asString()` giving a null string).
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object, or `nil` for any other type (WebKit `asObject()`).
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The array, or `nil` for any other type (WebKit `asArray()`).
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

/// A JSON object: keys in first-seen order; a repeated key keeps its first position and takes the
/// last value (WebKit `JSON::Object::setValue`).
public struct JSONObject: Sendable, Hashable {
    /// Distinct keys with their values, in the order the keys first appeared. Rule objects have a
    /// handful of keys, so a linear search beats hashing; larger objects also get a hash index.
    private var entries: [(key: String, value: JSONValue)] = []
    /// Key → position in `entries`, kept once the object has more than `linearLimit` keys.
    private var index: [String: Int]?
    private static let linearLimit = 16

    public init() {}

    /// Distinct keys in the order they first appeared.
    public var keys: [String] { entries.map(\.key) }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return entries.firstIndex { $0.key == key }
    }

    private mutating func rebuildIndex() {
        guard entries.count > Self.linearLimit else {
            index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() { built[entry.key] = position }
        index = built
    }

    /// The value for `key`, or `nil` when absent. O(1) on average (a few comparisons for small objects).
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    entries[position].value = newValue
                } else {
                    entries.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                entries.append((key, newValue))
                if index != nil {
                    index![key] = entries.count - 1
                } else if entries.count > Self.linearLimit {
                    rebuildIndex()
                }
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }

    /// Number of distinct keys.
    public var count: Int { entries.count }

    // WebKit's typed getters (`ObjectBase::getString` & co.): a wrong type reads as absent.

    /// The string for `key`; `nil` when missing or not a string (WebKit's null string).
    public func string(_ key: String) -> String? { self[key]?.stringValue }

    /// The object for `key`; `nil` when missing or not an object.
    public func object(_ key: String) -> JSONObject? { self[key]?.objectValue }

    /// The boolean for `key`; `nil` when missing or not a boolean.
    public func bool(_ key: String) -> Bool? {
        if case .bool(let value)? = self[key] { return value }
        return nil
    }

    /// The number for `key` truncated toward zero to a 32-bit `int` as C++ `static_cast<int>` does
    /// on x86-64; `nil` when missing or not a number. A value whose truncation is outside `Int32`
    /// (2^31 and above, below -2^31, ±infinity) and NaN give `Int32.min`, the conversion
    /// instruction's "integer indefinite" (C++ leaves them undefined): WebKitGTK 2.50.6 refuses a
    /// `modify-headers` priority of 2147483648, 4294967296, 1e30 or 1e400 as not positive and
    /// accepts 2147483647 (oracle, 2026-12-02).
    public func integer(_ key: String) -> Int? {
        guard case .number(let value)? = self[key] else { return nil }
        let truncated = value.rounded(.towardZero)
        guard truncated >= Double(Int32.min), truncated <= Double(Int32.max) else { return Int(Int32.min) }
        return Int(truncated)
    }
}
