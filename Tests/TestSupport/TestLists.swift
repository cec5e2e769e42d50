import ContentRuleCompiler
public import ContentRuleMatcher
public import ContentRuleModel
import ContentRuleURL
import Foundation
import Testing

/// Rule lists compiled in memory and loads built from strings, for the test targets.
public enum TestLists {
    /// Compiles JSON bytes: the matcher-ready list, or WebKit's first error for the list.
    public static func compile(_ json: [UInt8]) -> (list: ContentRuleList?, error: ContentRuleListError?) {
        let result = RuleListCompiler.compile(json: json)
        guard let compiled = result.list else { return (nil, result.errors.first?.error) }
        return (try? ContentRuleList(identifier: "hostile", compiled: compiled), nil)
    }

    public static func compile(_ json: String) -> (list: ContentRuleList?, error: ContentRuleListError?) {
        compile(Array(json.utf8))
    }

    /// `count` copies of one rule as a JSON array.
    public static func repeated(_ rule: String, count: Int) -> [UInt8] {
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
    public static func bundled(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestData.repositoryRoot.appendingPathComponent("rules/" + relativePath)))
    }

    /// A document load of `url` (the top URL is the URL itself).
    public static func document(_ url: String) -> ResourceLoadInfo? {
        guard let webURL = WebURL(url) else { return nil }
        return ResourceLoadInfo(url: webURL, mainDocumentURL: webURL, resourceType: .topDocument)
    }

    /// A third-party script load of `url` from `top`.
    public static func script(_ url: String, top: String = "https://site.test/") -> ResourceLoadInfo? {
        guard let webURL = WebURL(url) else { return nil }
        return ResourceLoadInfo(url: webURL, mainDocumentURL: WebURL(top), resourceType: .script)
    }

    /// Compiles `json` (`ruleCount` rules) and checks, for each URL as a script load, that the fast
    /// matcher fires the same rules and gives the same actions as the reference matcher, and that every
    /// rule fires for some URL and none for all of them (both answers exercised).
    public static func expectReferenceAnswers(json: String, ruleCount: Int, urls: [String]) throws {
        let list = try #require(compile(json).list)
        var firedByReference = Set<Int>()
        var firedEverywhere = Set(0..<ruleCount)
        for url in urls {
            let load = try #require(script(url))
            let fast = list.actions(for: load)
            let reference = list.referenceActions(for: load)
            #expect(fast.firedRules == reference.firedRules, "\(url)")
            #expect(fast == reference, "\(url)")
            firedByReference.formUnion(reference.firedRules.map { Int($0) })
            firedEverywhere.formIntersection(reference.firedRules.map { Int($0) })
        }
        #expect(firedByReference == Set(0..<ruleCount))
        #expect(firedEverywhere.isEmpty)
    }

    /// Seconds taken by `body`.
    public static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
