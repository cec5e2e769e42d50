import Foundation
import TestSupport
import Testing

/// `content-blocker explain`: its fired rules are `match --fired-rules`' and its result is match's, on
/// the bundled lists and sample requests (and, in the slow tier, on tsurlfilter's crawl for three
/// corpus lists); the stops and the ignore-previous-rules cut are named.
@Suite struct ExplainCLITests {
    /// The fired rules of each request of `requests` by explain and by match, and both results.
    static func compare(list: String, requests: String) throws -> Int {
        let explain = try CLITests.run(["explain", list, "--requests", requests, "--json"])
        let match = try CLITests.run(["match", list, "--requests", requests, "--fired-rules"])
        let explained = explain.stdout.split(separator: "\n")
        let matched = match.stdout.split(separator: "\n").filter { !$0.hasPrefix(#"{"error""#) }
        try #require(explained.count == matched.count, "\(explain.stderr)")
        for (explainLine, matchLine) in zip(explained, matched) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(explainLine.utf8)) as? [String: Any])
            let checks = try #require(object["checks"] as? [[String: Any]])
            let first = try #require((checks.first?["lists"] as? [[String: Any]])?.first)
            let listed = (first["rules"] as? [[String: Any]] ?? []).filter { $0["fired"] as? Bool == true }
                .compactMap { $0["rule"] as? Int }
            let everyURL = (first["everyURL"] as? [String: Any])?["firedRules"] as? [Int] ?? []
            let fired = (listed + everyURL).sorted()
            let result = try #require(try JSONSerialization.jsonObject(with: Data(matchLine.utf8)) as? [String: Any])
            let lists = try #require(result["lists"] as? [[String: Any]])
            let matchFired = lists.first?["firedRules"] as? [Int] ?? []
            // Both leave out the global stylesheet's rules; explain lists the rules that match every URL
            // apart (everyURL.firedRules).
            #expect(fired == matchFired, "\(explainLine.prefix(200))")
            let explainResult = try #require(object["result"] as? [String: Any])
            #expect(explainResult["blockedLoad"] as? Bool == result["blockedLoad"] as? Bool)
            #expect(
                (explainResult["actions"] as? [[String: Any]])?.count == (result["actions"] as? [[String: Any]])?.count)
            #expect(explainResult["cssDisplayNoneActions"] as? Int == result["cssDisplayNoneActions"] as? Int)
        }
        return explained.count
    }

    @Test func agreesWithMatchOnTheSampleRequests() throws {
        let root = TestData.repositoryRoot
        let requests = root.appendingPathComponent("rules/sample-requests.jsonl").path
        let list = root.appendingPathComponent("rules/brave-ios/block-ads.json").path
        #expect(try Self.compare(list: list, requests: requests) == 12)
    }

    @Test func stopsAndTheCutAreNamed() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(
            """
            [{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},
             {"_identifier":"img-only","trigger":{"url-filter":"ads","resource-type":["image"]},"action":{"type":"block"}},
             {"trigger":{"url-filter":"ads","if-domain":["other.test"]},"action":{"type":"block"}},
             {"trigger":{"url-filter":"ads","if-domain":["news.test"]},"action":{"type":"ignore-previous-rules"}}]
            """, "list.json", in: directory)
        let run = try CLITests.run([
            "explain", list, "--url", "https://cdn.test/ads.js", "--type", "script", "--top-url", "https://news.test/",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("rule 0 at \(list):1:2: fired (block), cancelled by rule 3's ignore-previous-rules"))
        #expect(
            run.stdout.contains(#"rule 1 "img-only" at \#(list):2:2: stopped by resource-type (the load is script)"#))
        #expect(
            run.stdout.contains(
                "rule 2 at \(list):3:2: stopped by if-domain (tested against the top URL https://news.test/)"))
        #expect(run.stdout.contains(#""blockedLoad":false"#))
        // A binary rule list: explain says which file it needs.
        let binary = directory.appendingPathComponent("list.cbrl").path
        #expect(try CLITests.run(["compile", list, "-o", binary]).status == 0)
        let refused = try CLITests.run(["explain", binary, "--url", "https://cdn.test/ads.js"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("explain needs the JSON it was compiled from"))
        #expect(refused.stderr.contains("store explain ID"))
    }

    /// A stored list keeps its JSON: `store explain` gives explain's answer, the list named by its
    /// identifier; an identifier not stored is refused.
    @Test func storedListsAreExplainedFromTheirJSON() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(
            """
            [{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"ads","if-domain":["news.test"]},"action":{"type":"ignore-previous-rules"}}]
            """, "list.json", in: directory)
        let store = directory.appendingPathComponent("store").path
        #expect(try CLITests.run(["store", "compile", "news", list, "--store", store]).status == 0)
        let request = ["--url", "https://cdn.test/ads.js", "--type", "script", "--top-url", "https://news.test/"]
        let stored = try CLITests.run(["store", "explain", "news", "--store", store] + request)
        let direct = try CLITests.run(["explain", list] + request)
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(
            stored.stdout.contains("rule 0 at news:1:2: fired (block), cancelled by rule 1's ignore-previous-rules"))
        let renamed = direct.stdout.replacingOccurrences(of: list, with: "news")
            .replacingOccurrences(of: "list list:", with: "list news:")
            .replacingOccurrences(of: #""list":"list""#, with: #""list":"news""#)
        #expect(stored.stdout == renamed)
        let missing = try CLITests.run(["store", "explain", "other", "--store", store] + request)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no content rule list is stored as 'other'"))
    }

    /// tsurlfilter's crawl for three corpus lists (the issue's test of explain against match).
    @Test(.slowTier, .tags(.corpus), .enabled(if: TestData.shared != nil, "needs ../shared/corpus"))
    func agreesWithMatchOnTheCrawl() throws {
        guard let shared = TestData.shared, let requests = try Corpus.tsurlfilterRequests() else { return }
        let directory = try CLITests.temporaryDirectory()
        let lines = try requests.map { request in
            String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "url": request.url, "mainDocumentURL": request.mainDocumentURL,
                    "resourceType": request.resourceType,
                ]), as: UTF8.self)
        }
        let crawl = try CLITests.write(lines.joined(separator: "\n") + "\n", "crawl.jsonl", in: directory)
        for path in [
            "abp-content-blockers/easylist_min+exceptionrules_content_blocker.json", "brave-ios/block-ads.json",
            "den-blocklists/liste-fr.json",
        ] {
            let list = shared.appendingPathComponent("corpus/rules/\(path)").path
            #expect(try Self.compare(list: list, requests: crawl) > 30_000, "\(path)")
        }
    }
}
