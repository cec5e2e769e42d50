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
        let matched = match.stdout.split(separator: "\n")
        try #require(explained.count == matched.count, "\(explain.stderr)")
        for (explainLine, matchLine) in zip(explained, matched) {
            // A bad request line is an error line of both, in the same place.
            if matchLine.hasPrefix(#"{"error""#) {
                #expect(explainLine == matchLine)
                continue
            }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(explainLine.utf8)) as? [String: Any])
            let checks = try #require(object["checks"] as? [[String: Any]])
            let first = try #require((checks.first?["lists"] as? [[String: Any]])?.first)
            let listed = (first["rules"] as? [[String: Any]] ?? []).filter { $0["fired"] as? Bool == true }
                .compactMap { $0["rule"] as? Int }
            let everyURL = (first["everyURL"] as? [String: Any])?["firedRules"] as? [Int] ?? []
            // Fired rules matching every URL are listed and in everyURL.firedRules.
            let fired = Set(listed + everyURL).sorted()
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
        #expect(try Self.compare(list: list, requests: requests) == 13)  // 12 requests and a bad line
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

    /// An exception placed before the rule it was meant to cancel is shown not to reach it; an `if-`
    /// condition with a request-method is named as never holding (spec §4.6); an ignore-following-rules
    /// cancels the fired rules after it (spec §4.7).
    @Test func whatAnExceptionDoesNotReach() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(
            """
            [{"trigger":{"url-filter":"ads","if-domain":["*goodsite.test"]},"action":{"type":"ignore-previous-rules"}},
             {"trigger":{"url-filter":"ads"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"ads","request-method":"get","if-top-url":["goodsite"]},"action":{"type":"block-cookies"}},
             {"trigger":{"url-filter":"ads","if-top-url":["goodsite"]},"action":{"type":"ignore-following-rules"}},
             {"trigger":{"url-filter":"ads"},"action":{"type":"block-cookies"}}]
            """, "list.json", in: directory)
        let run = try CLITests.run([
            "explain", list, "--url", "https://cdn.test/ads.js", "--type", "script", "--top-url",
            "https://goodsite.test/page", "--method", "get",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                "rule 1 at \(list):2:2: fired (block), not cancelled by rule 0's ignore-previous-rules (it cancels only the rules before it)"
            ))
        #expect(
            run.stdout.contains("rule 2 at \(list):3:2: stopped by if-top-url (with a request-method, WebKit tests it"))
        #expect(
            run.stdout.contains(
                "rule 4 at \(list):5:2: fired (block-cookies), cancelled by rule 3's ignore-following-rules"))
        // WebKit's answer: the block stays, the block-cookies after the ignore-following-rules goes.
        #expect(run.stdout.contains(#""blockedLoad":true,"blockedCookies":false"#))
        // An unless- condition with a request-method is not applied (spec §4.6): the rule fires on the
        // page it names.
        let unless = try CLITests.write(
            #"[{"trigger":{"url-filter":"ads","request-method":"get","unless-top-url":["goodsite"]},"action":{"type":"block"}}]"#,
            "unless.json", in: directory)
        let notApplied = try CLITests.run([
            "explain", unless, "--url", "https://cdn.test/ads.js", "--type", "script", "--top-url",
            "https://goodsite.test/", "--method", "get",
        ])
        #expect(notApplied.stdout.contains("fired (block), its unless-top-url not applied (with a request-method"))
    }

    /// With `--json --requests`, output line N answers input line N: a bad line is an `{"error": …}`
    /// line (with the request's `id` when it could be read), and a request's `id` is echoed, as
    /// `match --requests` does.
    @Test func batchLinesKeepTheirPlace() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(
            #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#, "list.json", in: directory)
        let requests =
            #"{"url":"https://cdn.test/ads.js","id":7}"# + "\nnope\n" + #"{"url":"bad url","id":"b"}"#
            + "\n" + #"{"url":"https://cdn.test/x.js","id":"c"}"# + "\n"
        let run = try CLITests.run(["explain", list, "--requests", "-", "--json"], stdin: requests)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.first?.hasPrefix(#"{"id":7,"request":"https://cdn.test/ads.js""#) == true)
        #expect(lines.dropFirst().first == #"{"error":"line 2: invalid JSON at byte 0: invalid literal"}"#)
        #expect(lines.dropFirst(2).first?.hasPrefix(#"{"id":"b","error":"line 3: url is not a valid URL"#) == true)
        #expect(lines.last?.hasPrefix(#"{"id":"c","request""#) == true)
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
