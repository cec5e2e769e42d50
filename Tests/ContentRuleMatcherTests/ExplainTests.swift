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

    /// On real lists and a seventh of the crawl: explain's fired rules are the matchers'.
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
                let fired = list.explain(load).filter(\.fired).map { UInt32($0.rule) }
                #expect(fired == list.actions(for: load).firedRules, "\(path) \(request.url)")
                checked += 1
            }
            #expect(checked > 4_000, "\(path)")
        }
    }
}
