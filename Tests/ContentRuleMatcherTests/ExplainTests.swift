import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

@testable import ContentRuleMatcher

/// `ContentRuleList.explain(_:)`: every rule whose url-filter matched, and what stopped the others.
/// Its fired rules are the matcher's (`firedRules` of the reference and the fast strategy); each kind
/// of stop is shown on a rule built for it.
@Suite struct ExplainTests {
    static let rules = """
        [{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},
         {"trigger":{"url-filter":"ads","resource-type":["image"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"ads","load-type":["first-party"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"ads","load-context":["child-frame"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"ads","request-method":"post"},"action":{"type":"block"}},
         {"trigger":{"url-filter":"ads","if-domain":["other.test"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"ads","unless-domain":["news.test"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"track"},"action":{"type":"block"}},
         {"trigger":{"url-filter":".*"},"action":{"type":"block-cookies"}},
         {"trigger":{"url-filter":"ads","if-domain":["news.test"]},"action":{"type":"ignore-previous-rules"}}]
        """

    @Test func eachStopIsNamed() throws {
        let list = try #require(TestLists.compile(Self.rules).list)
        let load = try #require(TestLists.script("https://cdn.test/ads.js", top: "https://news.test/"))
        let traces = list.explain(load)
        #expect(traces.map(\.rule) == [0, 1, 2, 3, 4, 5, 6, 8, 9])  // rule 7's url-filter does not match
        #expect(
            traces.map(\.stoppedBy) == [
                nil, .resourceType, .loadType, .loadContext, .requestMethod, .condition(.ifDomain),
                .condition(.unlessDomain),
                nil, nil,
            ])
        #expect(traces.map(\.matchesEveryURL) == [false, false, false, false, false, false, false, true, false])
        #expect(traces.filter(\.fired).map { UInt32($0.rule) } == list.referenceActions(for: load).firedRules)
    }

    /// Rules with random flags against loads of every kind: explain fires the rules the reference
    /// strategy fires, and names a flag that does not admit the load for every other one.
    @Test func generatedFlagsAgreeWithTheReference() throws {
        var generator = SeededGenerator(seed: 7)
        let types = ResourceType.triggerNames
        func pick(_ names: [String]) -> [String] { names.filter { _ in generator.next() % 3 == 0 } }
        var rules: [String] = []
        for _ in 0..<300 {
            var trigger = [#""url-filter":"ads""#]
            let chosen = pick(types)
            if !chosen.isEmpty { trigger.append(#""resource-type":["\#(chosen.joined(separator: #"",""#))"]"#) }
            let loadTypes = pick(["first-party", "third-party"])
            if !loadTypes.isEmpty { trigger.append(#""load-type":["\#(loadTypes.joined(separator: #"",""#))"]"#) }
            let contexts = pick(["top-frame", "child-frame"])
            if !contexts.isEmpty { trigger.append(#""load-context":["\#(contexts.joined(separator: #"",""#))"]"#) }
            if generator.next() % 4 == 0 {
                trigger.append(#""request-method":"\#(["get", "post", "head"][Int(generator.next() % 3)])""#)
            }
            rules.append(#"{"trigger":{\#(trigger.joined(separator: ","))},"action":{"type":"block"}}"#)
        }
        let list = try #require(TestLists.compile("[" + rules.joined(separator: ",") + "]").list)
        for _ in 0..<400 {
            let type = ResourceType.requestNames[Int(generator.next() % UInt64(ResourceType.requestNames.count))].1
            let context: LoadContext = generator.next() % 2 == 0 ? .topFrame : .childFrame
            let top = generator.next() % 2 == 0 ? "https://cdn.test/" : "https://news.test/"
            let method = [RequestMethod?.none, .get, .post, .head][Int(generator.next() % 4)]
            let load = ResourceLoadInfo(
                url: try #require(WebURL("https://cdn.test/ads.js")), mainDocumentURL: WebURL(top), resourceType: type,
                loadContext: context, requestMethod: method)
            let traces = list.explain(load)
            #expect(traces.count == 300)
            #expect(traces.filter(\.fired).map { UInt32($0.rule) } == list.referenceActions(for: load).firedRules)
        }
    }

    /// The first trace where explain's and the reference's differ (a rule missing from one is compared
    /// with `nil`), or nil when they are equal.
    static func difference(_ traces: [RuleTrace], _ reference: [RuleTrace]) -> String? {
        for index in 0..<max(traces.count, reference.count) {
            let found = index < traces.count ? traces[index] : nil
            let expected = index < reference.count ? reference[index] : nil
            if found != expected {
                return "trace \(index): \(String(describing: found)), reference \(String(describing: expected))"
            }
        }
        return nil
    }

    /// Rules the literal and host indexes do not file are reported whatever stops them: one reached
    /// through its `if-domain` entries, rules whose url-filter matches every URL with each kind of
    /// top-URL condition, always-checked rules (a frame-URL condition, a request method with a
    /// condition, no literal to index); none has the top URL or flags the matcher would try it for.
    @Test func rulesOutsideTheIndexesAreReported() throws {
        let list = try #require(
            TestLists.compile(
                """
                [{"trigger":{"url-filter":"^https?://","if-domain":["news.test"]},"action":{"type":"block"}},
                 {"trigger":{"url-filter":".*","if-domain":["news.test"]},"action":{"type":"block"}},
                 {"trigger":{"url-filter":".*","unless-top-url":["other"]},"action":{"type":"block"}},
                 {"trigger":{"url-filter":".*","if-top-url":["news"]},"action":{"type":"block"}},
                 {"trigger":{"url-filter":"ads","if-frame-url":["frame"]},"action":{"type":"block"}},
                 {"trigger":{"url-filter":"ads","request-method":"post","unless-domain":["x.test"]},
                  "action":{"type":"block"}},
                 {"trigger":{"url-filter":"a.s","resource-type":["image"]},"action":{"type":"block"}},
                 {"trigger":{"url-filter":".*","if-domain":["other.test"],"resource-type":["image"]},
                  "action":{"type":"block"}}]
                """
            ).list)
        #expect((0..<list.rules.ruleCount).map { list.rules.rule($0).entry } == [1, 3, 3, 3, 2, 2, 2, 3])
        let load = try #require(TestLists.script("https://cdn.test/ads.js", top: "https://other.test/"))
        let traces = list.explain(load)
        #expect(traces.map(\.rule) == Array(0..<8))
        #expect(
            traces.map(\.stoppedBy) == [
                .condition(.ifDomain), .condition(.ifDomain), .condition(.unlessTopURL), .condition(.ifTopURL),
                .condition(.ifFrameURL), .requestMethod, .resourceType, .resourceType,
            ])
        #expect(traces == list.referenceExplain(load))
    }

    /// Generated rules reached every way (literal and host index, `if-domain` entries, always checked,
    /// url-filter matching every URL), with random flags and conditions, against generated loads:
    /// explain's traces are those of trying every rule (`referenceExplain`), and rules of each way
    /// in are reported both fired and stopped.
    @Test func generatedLoadsAgreeWithTheReferenceExplain() throws {
        var generator = SeededGenerator(seed: 11)
        func pick<T>(_ values: [T]) -> T { values[Int(generator.next() % UInt64(values.count))] }
        func some(_ names: [String]) -> [String] { names.filter { _ in generator.next() % 5 == 0 } }
        let urlFilters = [
            "ads", "banner", "/track/", "ads\\.test", "Tracker", "^https://cdn\\.", "\\.js$", "ad[0-9]+\\.js",
            "^https?://([^/]+\\.)?ads\\.test/", "^[htpsw]+://([a-z0-9-]+\\.)?ads\\.test[/:]",
            "^[htpsw]+://([a-z0-9-]+\\.)?cdn\\.test[/:]", "^[htpsw]+://([a-z0-9-]+\\.)?ads\\.", "b.n.er", "^https?://",
            ".*", "^https://", "tps:", "[0-9][0-9]", "frame\\.html$",
        ]
        let conditions: [(key: String, values: [String])?] = [
            nil, nil, nil, ("if-domain", ["news.test"]), ("if-domain", ["*site.test", "ads.test"]),
            ("unless-domain", ["news.test", "*site.test"]), ("if-top-url", ["news"]),
            ("unless-top-url", ["^https://www\\."]), ("if-frame-url", ["frame"]), ("unless-frame-url", ["frame"]),
        ]
        var rules: [[String: Any]] = []
        for _ in 0..<400 {
            var trigger: [String: Any] = ["url-filter": pick(urlFilters)]
            if generator.next() % 4 == 0 { trigger["url-filter-is-case-sensitive"] = true }
            let types = some(ResourceType.triggerNames)
            if !types.isEmpty { trigger["resource-type"] = types }
            let loadTypes = some(["first-party", "third-party"])
            if !loadTypes.isEmpty { trigger["load-type"] = loadTypes }
            let contexts = some(["top-frame", "child-frame"])
            if !contexts.isEmpty { trigger["load-context"] = contexts }
            if generator.next() % 8 == 0 { trigger["request-method"] = pick(["get", "post"]) }
            if let condition = pick(conditions) { trigger[condition.key] = condition.values }
            let action: [String: Any] =
                generator.next() % 6 == 0 ? ["type": "css-display-none", "selector": ".ad"] : ["type": "block"]
            rules.append(["trigger": trigger, "action": action])
        }
        let json = try JSONSerialization.data(withJSONObject: rules)
        let list = try #require(TestLists.compile(Array(json)).list)
        // The way in of each rule of the compiled list, by its index in the JSON.
        var entries: [Int: UInt8] = [:]
        for number in 0..<list.rules.ruleCount {
            entries[Int(list.rules.sourceIndex(ofRule: number))] = list.rules.rule(number).entry
        }
        // `ads.ads.test`: the host index gives a rule filed under `ads.` twice (at the host and after
        // its first label), explain reports it once.
        let hosts = [
            "cdn.test", "ads.test", "www.ads.test", "ads.ads.test", "news.test", "www.site.test", "TRACKER.test",
        ]
        let paths = [
            "/ads.js", "/banner/ad12.js", "/Tracker/x", "/track/", "/b1n2er", "/", "/news/frame.html", "/tps:",
        ]
        let tops = [
            nil, "https://news.test/", "https://www.site.test/a", "http://other.test/news", "https://ads.test/",
        ]
        let frames = [nil, "https://news.test/frame", "https://other.test/"]
        var fired: Set<UInt8> = []
        var stopped: Set<UInt8> = []
        for _ in 0..<1_500 {
            let url = try #require(
                WebURL(pick(["https://", "http://"]) + pick(hosts) + pick(paths) + pick(["", "?q=ads"])))
            let load = ResourceLoadInfo(
                url: url, mainDocumentURL: pick(tops).flatMap { WebURL($0) },
                frameURL: pick(frames).flatMap { WebURL($0) },
                resourceType: pick(ResourceType.requestNames).1, loadContext: pick([.topFrame, .childFrame]),
                requestMethod: pick([nil, .get, .post]), loadType: pick([nil, .firstParty, .thirdParty]))
            let traces = list.explain(load)
            #expect(
                Self.difference(traces, list.referenceExplain(load)) == nil,
                "\(url) top \(load.mainDocumentURL?.serialization ?? "none")")
            for trace in traces {
                let entry = try #require(entries[trace.rule])
                if trace.fired { fired.insert(entry) } else { stopped.insert(entry) }
            }
        }
        #expect(fired == [0, 1, 2, 3])
        #expect(stopped == [0, 1, 2, 3])
        let data = try #require(TestLists.document("data:text/plain,ads"))
        #expect(list.explain(data).isEmpty && list.referenceExplain(data).isEmpty)
    }

    /// On real lists and a seventh of the crawl: explain's fired rules are the matchers', and its
    /// traces are those of trying every rule (`referenceExplain`).
    @Test(.slowTier, .tags(.corpus), .enabled(if: TestData.shared != nil, "needs ../shared/corpus"))
    func firedRulesAgreeOnTheCrawl() throws {
        let requests = try #require(try Corpus.tsurlfilterRequests())
        for path in [
            "abp-content-blockers/easylist_min+exceptionrules_content_blocker.json", "brave-ios/block-ads.json",
            "den-blocklists/liste-fr.json",
        ] {
            let text = try #require(try Corpus.ruleListText(path))
            let list = try #require(TestLists.compile(text).list, "\(path)")
            var checked = 0
            // Every seventh request (the CLI test, ExplainCLITests, takes every request through explain).
            for request in requests.enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
                guard let url = WebURL(request.url),
                    let type = ResourceType(requestName: request.resourceType, loadContext: .topFrame)
                else { continue }
                let load = ResourceLoadInfo(
                    url: url, mainDocumentURL: WebURL(request.mainDocumentURL), resourceType: type)
                let traces = list.explain(load)
                #expect(Self.difference(traces, list.referenceExplain(load)) == nil, "\(path) \(request.url)")
                let fired = traces.filter(\.fired).map { UInt32($0.rule) }
                #expect(fired == list.actions(for: load).firedRules, "\(path) \(request.url)")
                checked += 1
            }
            #expect(checked > 4_000, "\(path)")
        }
    }
}
