import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import URLFilterSyntax

/// Lists and requests for the fast-vs-reference differential tests.
enum Differential {
    /// The rule lists bundled in the repository's `rules/` folder.
    static let bundledLists = [
        "easy2json/easylist.json", "easy2json/easyprivacy.json", "brave-ios/block-ads.json",
        "blockparty/blockerList.json", "brave-ios/upgrade-http.json", "brave-ios/block-cookies.json",
        "brave-ios/mixed-content-upgrade.json",
    ]

    static func bundledText(_ name: String) throws -> String {
        try String(
            contentsOf: TestData.repositoryRoot.appendingPathComponent("rules").appendingPathComponent(name),
            encoding: .utf8)
    }

    /// Compiles a JSON rule list and prepares it for matching.
    static func list(_ text: String, identifier: String) throws -> ContentRuleList? {
        guard let compiled = RuleListCompiler.compile(json: Array(text.utf8)).list else { return nil }
        cache.setCompiled(identifier, compiled)
        return try ContentRuleList(identifier: identifier, compiled: compiled)
    }

    /// The compiled form a list made by ``list(_:identifier:)`` came from (for vocabularies).
    static func compiled(_ list: ContentRuleList) -> CompiledRuleList {
        cache.compiled(list.identifier)
            ?? CompiledRuleList(rules: [], actionSlots: [], globalStylesheet: nil, sourceRuleCount: 0)
    }

    /// A bundled (`rules/…`) or shared (`shared:…`) list, compiled once per test process.
    static func cachedList(_ name: String) throws -> ContentRuleList? {
        if let list = cache.get(name) { return list }
        let text: String?
        if name.hasPrefix("shared:") {
            text = try Corpus.ruleListText(String(name.dropFirst("shared:".count)))
        } else {
            text = try bundledText(name)
        }
        guard let text, let list = try self.list(text, identifier: name) else { return nil }
        cache.set(name, list)
        return list
    }

    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var lists: [String: ContentRuleList] = [:]
        private var compiledLists: [String: CompiledRuleList] = [:]
        func compiled(_ name: String) -> CompiledRuleList? {
            lock.lock()
            defer { lock.unlock() }
            return compiledLists[name]
        }
        func setCompiled(_ name: String, _ list: CompiledRuleList) {
            lock.lock()
            compiledLists[name] = list
            lock.unlock()
        }
        func get(_ name: String) -> ContentRuleList? {
            lock.lock()
            defer { lock.unlock() }
            return lists[name]
        }
        func set(_ name: String, _ list: ContentRuleList) {
            lock.lock()
            lists[name] = list
            lock.unlock()
        }
    }
    private static let cache = Cache()

    /// What the reference strategy costs per request on a list: rules plus condition patterns.
    static func referenceCost(_ list: ContentRuleList) -> Int {
        let rules = list.rules
        return (0..<rules.ruleCount).reduce(0) { total, number in
            total + 1 + (rules.rule(number).condition.map { rules.condition($0).entries.count } ?? 0)
        }
    }

    /// Integer from the environment, or `fallback`.
    static func environment(_ name: String, _ fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? fallback
    }

    /// Literals, hosts and domains of a list, to build requests that reach its rules.
    struct Vocabulary {
        var literals: [String] = []
        var domains: [String] = []
        var topPatterns: [String] = []

        init(_ compiled: CompiledRuleList) {
            for rule in compiled.rules {
                let filter = URLFilter.parse(rule.urlFilter.source, caseSensitive: rule.urlFilter.caseSensitive)
                if let literal = filter.plainLiteral?.literal ?? filter.requiredLiteral { literals.append(literal) }
                if let condition = rule.condition {
                    for pattern in condition.patterns {
                        if condition.kind.isDomain {
                            domains.append(
                                pattern.source.hasPrefix("*") ? String(pattern.source.dropFirst()) : pattern.source)
                        } else if let literal = URLFilter.parse(pattern.source, caseSensitive: pattern.caseSensitive)
                            .requiredLiteral
                        {
                            topPatterns.append(literal)
                        }
                    }
                }
            }
            if literals.isEmpty { literals = ["ads"] }
            if domains.isEmpty { domains = ["example.com"] }
            if topPatterns.isEmpty { topPatterns = ["example"] }
        }
    }

    static let hosts = ["example.com", "www.example.org", "cdn.tracker.net", "a.b.c.co.uk", "localhost", "127.0.0.1"]
    static let schemes = ["http", "https", "https", "https", "ws", "wss", "ftp"]
    static let requestTypes = [
        "document", "image", "script", "style-sheet", "font", "media", "fetch", "other",
        "ping", "websocket", "popup", "svg-document", "csp-report",
    ]

    /// Random case changes of some letters.
    static func shuffleCase(_ text: String, _ random: inout SeededGenerator) -> String {
        guard Int.random(in: 0..<4, using: &random) == 0 else { return text }
        return String(
            text.map { character in
                Bool.random(using: &random) ? Character(character.uppercased()) : character
            })
    }

    /// A URL that embeds `literal` somewhere (host, path, query) with random surroundings.
    static func url(around literal: String, _ vocabulary: Vocabulary, _ random: inout SeededGenerator) -> String {
        let scheme = schemes.randomElement(using: &random)!
        let literal = shuffleCase(literal, &random)
        let host =
            Bool.random(using: &random)
            ? vocabulary.domains.randomElement(using: &random)! : hosts.randomElement(using: &random)!
        let sub = ["", "www.", "ads.", "x-1.", "static.cdn."].randomElement(using: &random)!
        let port = ["", "", "", ":8080", ":443"].randomElement(using: &random)!
        let tail = ["", "/", "/index.html", "/a/b.js?x=1", "?q=\(literal)", "#frag", "/&ad=1"].randomElement(
            using: &random)!
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "\(scheme)://\(sub)\(literal)\(port)/\(tail)"
        case 1: return "\(scheme)://\(sub)\(host)\(port)/\(literal)\(tail)"
        case 2: return "\(scheme)://\(sub)\(host)\(port)/p/\(literal)"
        case 3: return "\(scheme)://\(sub)\(host)\(port)/?u=\(literal)&\(tail)"
        case 4: return "\(scheme)://\(literal)"
        default: return "\(literal)"
        }
    }

    /// A top URL from the list's domains, sometimes with a second `scheme://host` in its query.
    static func topURL(_ vocabulary: Vocabulary, _ random: inout SeededGenerator) -> String? {
        let domain = vocabulary.domains.randomElement(using: &random)!
        let sub = ["", "www.", "m.", "a.b."].randomElement(using: &random)!
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return nil
        case 1: return "https://\(sub)\(hosts.randomElement(using: &random)!)/?r=https://\(domain)/"
        case 2: return "https://user:pw@\(sub)\(domain):8443/x"
        case 3: return "https://\(sub)\(domain)/\(vocabulary.topPatterns.randomElement(using: &random)!)"
        case 4: return "https://\(hosts.randomElement(using: &random)!)/"
        case 5: return "http://\(domain)evil.com/x?\(shuffleCase("HTTP://" + domain, &random)):1/"
        default: return "\(schemes.randomElement(using: &random)!)://\(sub)\(domain)/"
        }
    }

    /// A generated load for a list, or `nil` when the random text is not a valid URL.
    static func load(_ vocabulary: Vocabulary, _ random: inout SeededGenerator) -> ResourceLoadInfo? {
        let literal = vocabulary.literals.randomElement(using: &random)!
        guard let url = WebURL(url(around: literal, vocabulary, &random)) else { return nil }
        let topText = topURL(vocabulary, &random)
        let top = topText.flatMap { WebURL($0) }
        if topText != nil && top == nil { return nil }
        let context: LoadContext = Int.random(in: 0..<4, using: &random) == 0 ? .childFrame : .topFrame
        let frame = context == .childFrame ? topURL(vocabulary, &random).flatMap { WebURL($0) } : nil
        guard let type = ResourceType(requestName: requestTypes.randomElement(using: &random)!, loadContext: context)
        else { return nil }
        let method =
            Int.random(in: 0..<3, using: &random) == 0 ? RequestMethod.allCases.randomElement(using: &random) : nil
        return ResourceLoadInfo(
            url: url, mainDocumentURL: top, frameURL: frame, resourceType: type, loadContext: context,
            requestMethod: method)
    }

    /// The tsurlfilter crawl as loads (every `stride`-th request), plus child-frame and other-type variants.
    static func corpusLoads(stride: Int) throws -> [ResourceLoadInfo]? {
        guard let requests = try Corpus.tsurlfilterRequests() else { return nil }
        var loads: [ResourceLoadInfo] = []
        for (position, request) in requests.enumerated() where position % stride == 0 {
            let main = request.mainDocumentURL.isEmpty ? nil : WebURL(request.mainDocumentURL)
            guard let url = WebURL(request.url) else { continue }
            for (variant, context) in [(request.resourceType, LoadContext.topFrame), ("image", .childFrame)] {
                guard let type = ResourceType(requestName: variant, loadContext: context) else { continue }
                loads.append(
                    ResourceLoadInfo(url: url, mainDocumentURL: main, resourceType: type, loadContext: context))
            }
        }
        return loads
    }
}
