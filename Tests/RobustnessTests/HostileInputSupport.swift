import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport

/// Helpers shared by the hostile-input suites (limits, worst cases, concurrency).
enum Hostile {
    /// Compiles JSON bytes: the matcher-ready list, or WebKit's first error for the list.
    static func compile(_ json: [UInt8]) -> (list: ContentRuleList?, error: ContentRuleListError?) {
        let result = RuleListCompiler.compile(json: json)
        guard let compiled = result.list else { return (nil, result.errors.first?.error) }
        return (try? ContentRuleList(identifier: "hostile", compiled: compiled), nil)
    }

    static func compile(_ json: String) -> (list: ContentRuleList?, error: ContentRuleListError?) {
        compile(Array(json.utf8))
    }

    /// `count` copies of one rule as a JSON array.
    static func repeated(_ rule: String, count: Int) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        let one = Array(rule.utf8)
        bytes.reserveCapacity(count * (one.count + 1) + 2)
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += one
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// A bundled list from `rules/` (the repository's own copy of corpus lists).
    static func bundled(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestData.repositoryRoot.appendingPathComponent("rules/" + relativePath)))
    }

    /// A document load of `url` (the top URL is the URL itself).
    static func document(_ url: String) -> ResourceLoadInfo? {
        guard let webURL = WebURL(url) else { return nil }
        return ResourceLoadInfo(url: webURL, mainDocumentURL: webURL, resourceType: .topDocument)
    }

    /// A third-party script load of `url` from `top`.
    static func script(_ url: String, top: String = "https://site.test/") -> ResourceLoadInfo? {
        guard let webURL = WebURL(url) else { return nil }
        return ResourceLoadInfo(url: webURL, mainDocumentURL: WebURL(top), resourceType: .script)
    }

    /// Seconds taken by `body`.
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
