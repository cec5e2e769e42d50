import Foundation

/// Loads the JSON fixtures of this test target and the shared conformance data (paths relative to this file).
enum Fixtures {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let conformanceDirectory = testsDirectory.deletingLastPathComponent().appendingPathComponent(
        "Data/conformance")

    static func json(_ url: URL) -> Any {
        guard let data = try? Data(contentsOf: url), let value = try? JSONSerialization.jsonObject(with: data) else {
            fatalError("cannot read fixture \(url.path)")
        }
        return value
    }

    static func whatwg() -> [String: Any] {
        guard let object = json(testsDirectory.appendingPathComponent("Fixtures/whatwg-cases.json")) as? [String: Any]
        else { fatalError("whatwg-cases.json is not an object") }
        return object
    }
}

/// Expected components of a parsed URL, from ada (see Fixtures/generate.py).
struct ExpectedURL: Sendable, Equatable {
    var href: String
    var scheme: String
    var username: String
    var password: String
    var host: String?
    var port: UInt16?
    var path: String
    var query: String?
    var fragment: String?

    init?(_ object: Any?) {
        guard let d = object as? [String: Any], let href = d["href"] as? String else { return nil }
        self.href = href
        scheme = d["scheme"] as? String ?? ""
        username = d["username"] as? String ?? ""
        password = d["password"] as? String ?? ""
        host = d["host"] as? String
        port = (d["port"] as? Int).map { UInt16($0) }
        path = d["path"] as? String ?? ""
        query = d["query"] as? String
        fragment = d["fragment"] as? String
    }
}

/// One parse case: input (and optional base) → expected URL, nil when invalid.
struct ParseCase: Sendable, CustomStringConvertible {
    var input: String
    var base: String?
    var expected: ExpectedURL?
    var description: String { base.map { "\(input.debugDescription) against \($0)" } ?? input.debugDescription }

    static func load(_ key: String) -> [ParseCase] {
        guard let cases = Fixtures.whatwg()[key] as? [[String: Any]] else { fatalError("no \(key) cases") }
        return cases.map {
            ParseCase(input: $0["input"] as! String, base: $0["base"] as? String, expected: ExpectedURL($0["expected"]))
        }
    }
}

/// One setter case: href, setter name, value (nil = remove) → expected href and whether ada accepted it.
struct SetterCase: Sendable, CustomStringConvertible {
    var href: String
    var setter: String
    var value: String?
    var port: UInt16?
    var expected: String
    var accepted: Bool
    var description: String { "\(href) \(setter) = \(value ?? port.map(String.init) ?? "nil")" }

    static func load() -> [SetterCase] {
        guard let cases = Fixtures.whatwg()["setters"] as? [[String: Any]] else { fatalError("no setter cases") }
        return cases.map {
            SetterCase(
                href: $0["href"] as! String, setter: $0["setter"] as! String, value: $0["value"] as? String,
                port: ($0["value"] as? Int).map { UInt16($0) }, expected: $0["expected"] as! String,
                accepted: $0["accepted"] as! Bool)
        }
    }
}
