// STUB
public struct WebURL: Sendable, Hashable { public init?(_ s: String) { return nil }
 public var serialization: String { "" }; public var scheme: String { "" }; public var host: String? { nil }; public var port: UInt16? { nil }
 public var path: String { "" }; public var query: String? { nil }
 public mutating func setScheme(_ s: String) -> Bool { true }; public mutating func setHost(_ s: String) -> Bool { true }
 public mutating func setPort(_ s: UInt16?) -> Bool { true }; public mutating func setPath(_ s: String) -> Bool { true }
 public mutating func setQuery(_ s: String?) -> Bool { true }; public mutating func setFragment(_ s: String?) -> Bool { true }
 public mutating func setUsername(_ s: String) -> Bool { true }; public mutating func setPassword(_ s: String) -> Bool { true } }
public enum RegistrableDomain { public static func isThirdParty(resourceURL: WebURL, mainDocumentURL: WebURL?) -> Bool { false } }
