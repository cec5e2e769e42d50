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
    /// Distinct keys in the order they first appeared.
    public private(set) var keys: [String] = []
    private var storage: [String: JSONValue] = [:]

    public init() {}

    /// The value for `key`, or `nil` when absent. O(1) on average.
    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// Number of distinct keys.
    public var count: Int { keys.count }

    // WebKit's typed getters (`ObjectBase::getString` & co.): a wrong type reads as absent.

    /// The string for `key`; `nil` when missing or not a string (WebKit's null string).
    public func string(_ key: String) -> String? { storage[key]?.stringValue }

    /// The object for `key`; `nil` when missing or not an object.
    public func object(_ key: String) -> JSONObject? { storage[key]?.objectValue }

    /// The boolean for `key`; `nil` when missing or not a boolean.
    public func bool(_ key: String) -> Bool? {
        if case .bool(let value)? = storage[key] { return value }
        return nil
    }

    /// The number for `key` truncated toward zero to a 32-bit `int` as C++ `static_cast<int>`
    /// would for in-range values; `nil` when missing or not a number. Out-of-range values and NaN
    /// clamp to `Int32.min`/`Int32.max` (C++ leaves them undefined).
    public func integer(_ key: String) -> Int? {
        guard case .number(let value)? = storage[key] else { return nil }
        if value.isNaN { return Int(Int32.min) }
        if value >= Double(Int32.max) { return Int(Int32.max) }
        if value <= Double(Int32.min) { return Int(Int32.min) }
        return Int(value)  // truncates toward zero
    }
}
