import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL

/// A request ready for our matcher (URLs parsed once, outside the timed loop).
struct PreparedLoad: @unchecked Sendable {
    var load: ResourceLoadInfo
}

/// One of our matching strategies over one compiled list.
struct OurEngine: Sendable {
    var name: String
    var peer: String
    var blocks: @Sendable (ResourceLoadInfo) -> Bool

    /// "ours": what users call, `ContentBlocker.results(for:)`.
    static func ours(_ list: ContentRuleList) -> OurEngine {
        let blocker = ContentBlocker(lists: [list])
        return OurEngine(name: "ours", peer: "swift-content-blocker ContentBlocker") {
            blocker.results(for: $0).blockedLoad
        }
    }

    /// "reference": every rule in order, one PCRE2 search each (the conformance-tested matcher).
    static func reference(_ list: ContentRuleList) -> OurEngine {
        let blocker = ContentBlocker(lists: [list], engine: .reference)
        return OurEngine(name: "reference", peer: "swift-content-blocker reference matcher (rules in order, PCRE2)") {
            blocker.results(for: $0).blockedLoad
        }
    }
}

extension BenchRequest {
    /// Our `ResourceLoadInfo`, or nil when the URL does not parse (counted as not blocked by no one:
    /// such requests are dropped by `prepare`).
    func loadInfo() -> ResourceLoadInfo? {
        guard let url = WebURL(self.url) else { return nil }
        let top = frameUrl.isEmpty ? nil : WebURL(frameUrl)
        let context: LoadContext = self.context == "child-frame" ? .childFrame : .topFrame
        guard let resourceType = ResourceType(requestName: type, loadContext: context) else { return nil }
        return ResourceLoadInfo(url: url, mainDocumentURL: top, resourceType: resourceType, loadContext: context)
    }
}
