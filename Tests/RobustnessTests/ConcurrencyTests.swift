import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

/// One `ContentRuleList` and one `ContentBlocker`, shared by 8 threads, must give every thread the
/// answers one thread gets (the types are `Sendable`; each call uses its own PCRE2 match data).
/// `scripts/tsan` runs this suite under Thread Sanitizer.
@Suite struct ConcurrencyTests {
    static let threads = 8

    /// Loads: the tsurlfilter crawl (every 8th request, ../shared) when present, else generated ones;
    /// plus a few long URLs that hit the PCRE2 fallback path.
    static func loads() throws -> [ResourceLoadInfo] {
        var loads: [ResourceLoadInfo] = []
        if let requests = try Corpus.tsurlfilterRequests() {
            for (position, request) in requests.enumerated() where position % 8 == 0 {
                guard let url = WebURL(request.url),
                    let type = ResourceType(requestName: request.resourceType, loadContext: .topFrame)
                else { continue }
                loads.append(
                    ResourceLoadInfo(url: url, mainDocumentURL: WebURL(request.mainDocumentURL), resourceType: type))
            }
        } else {
            var random = SeededGenerator(seed: 8)
            let hosts = ["ads.example.com", "cdn.krxd.net", "pagead2.google.com", "news.example.com", "a.b.co.uk"]
            let paths = ["/", "/ad.js", "/banner/300x250.gif", "/pagead/show_ads.js", "/track?id=1", "/img/logo.png"]
            for _ in 0..<3_000 {
                let host = hosts[Int(random.next() % UInt64(hosts.count))]
                let path = paths[Int(random.next() % UInt64(paths.count))]
                let top = hosts[Int(random.next() % UInt64(hosts.count))]
                guard let url = WebURL("https://\(host)\(path)") else { continue }
                let type: ResourceType = [.image, .script, .topDocument, .fetch][Int(random.next() % 4)]
                loads.append(ResourceLoadInfo(url: url, mainDocumentURL: WebURL("https://\(top)/"), resourceType: type))
            }
        }
        let hostile = "https://x.test/?q=" + String(repeating: "a", count: 40) + "cab"
        loads += [TestLists.script(hostile), TestLists.script(hostile + "&ad=1")].compactMap { $0 }
        return loads
    }

    static func blocker() throws -> ContentBlocker {
        let easylist = try #require(TestLists.compile(try TestLists.bundled("easy2json/easylist.json")).list)
        let blockparty = try #require(TestLists.compile(try TestLists.bundled("blockparty/blockerList.json")).list)
        let hostile = try #require(
            TestLists.compile(#"[{"trigger":{"url-filter":"(a*)*b"},"action":{"type":"block"}}]"#).list)
        return ContentBlocker(lists: [easylist, blockparty, hostile])
    }

    /// What a `ContentBlocker` answer is made of, in a comparable form.
    struct Answer: Hashable {
        var blocked: Bool
        var cookies: Bool
        var https: Bool
        var lists: [ContentRuleListActions]

        init(_ results: ContentRuleListResults) {
            blocked = results.blockedLoad
            cookies = results.blockedCookies
            https = results.madeHTTPS
            lists = results.lists.map(\.actions)
        }
    }

    /// Runs `body(thread)` on `threads` threads at once and returns each thread's result.
    static func onThreads<T: Sendable>(_ body: @escaping @Sendable (Int) -> T) -> [T] {
        let box = ResultBox<T>(count: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in box.set(thread, body(thread)) }
        return box.values
    }

    @Test(.slowTier) func oneListFromEightThreadsAnswersLikeOneThread() throws {
        let loads = try Self.loads()
        let list = try Self.blocker().lists[0]
        let expected = loads.map { list.actions(for: $0) }
        let perThread = Self.onThreads { thread in
            // Each thread walks the loads from a different starting point, so threads overlap on the same rules.
            let start = thread * loads.count / Self.threads
            return (0..<loads.count).map { step in
                let index = (start + step) % loads.count
                return (index, list.actions(for: loads[index]))
            }
        }
        for answers in perThread {
            let mismatches = answers.filter { expected[$0.0] != $0.1 }.count
            #expect(mismatches == 0)
        }
        #expect(expected.contains { $0.actions.contains(.block) })
    }

    @Test(.slowTier) func oneBlockerFromEightThreadsAnswersLikeOneThread() throws {
        let loads = try Self.loads()
        let blocker = try Self.blocker()
        let expected = loads.map { Answer(blocker.results(for: $0)) }
        let perThread = Self.onThreads { thread in
            let stride = thread % 2 == 0 ? 1 : -1
            let order = stride == 1 ? Array(loads.indices) : Array(loads.indices.reversed())
            return order.map { ($0, Answer(blocker.results(for: loads[$0]))) }
        }
        for answers in perThread {
            #expect(answers.filter { expected[$0.0] != $0.1 }.count == 0)
        }
        // The hostile list's answer (a PCRE2 limit hit, then the DFA fallback) is the same everywhere.
        #expect(expected.suffix(2).allSatisfy { $0.blocked })
    }
}

/// Results written by several threads, each to its own slot.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [T?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: T) { lock.withLock { slots[index] = value } }
    var values: [T] { lock.withLock { slots.compactMap { $0 } } }
}
