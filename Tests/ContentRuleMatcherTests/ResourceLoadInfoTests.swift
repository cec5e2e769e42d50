import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Testing

/// `ResourceLoadInfo` keeps a frame URL that is the top URL once; its properties read and write as
/// plain stored ones would: the frame URL defaults to the top URL at `init` (spec §4.1) and is
/// independent of it after.
@Suite struct ResourceLoadInfoTests {
    static func url(_ text: String) throws -> WebURL { try #require(WebURL(text)) }

    @Test func frameURLDefaultsToTheTopURLAndStaysItsOwn() throws {
        let top = try Self.url("https://top.example/page")
        let other = try Self.url("https://frame.example/")
        var load = ResourceLoadInfo(
            url: try Self.url("https://cdn.test/a.js"), mainDocumentURL: top, resourceType: .script)
        #expect(load.frameURL == top && load.mainDocumentURL == top)
        // Changing the top URL leaves the frame URL the old top URL.
        load.mainDocumentURL = other
        #expect(load.mainDocumentURL == other && load.frameURL == top)
        load.frameURL = nil
        #expect(load.frameURL == nil && load.mainDocumentURL == other)
        var explicit = ResourceLoadInfo(
            url: try Self.url("https://cdn.test/a.js"), mainDocumentURL: top, frameURL: other, resourceType: .script)
        #expect(explicit.frameURL == other)
        explicit.frameURL = top
        explicit.mainDocumentURL = nil
        #expect(explicit.frameURL == top && explicit.mainDocumentURL == nil)
        let noTop = ResourceLoadInfo(
            url: try Self.url("https://cdn.test/a.js"), mainDocumentURL: nil, resourceType: .image)
        #expect(noTop.frameURL == nil && noTop.mainDocumentURL == nil)
    }

    @Test func equalityAndHashCompareTheFrameURLAsRead() throws {
        let top = try Self.url("https://top.example/")
        let request = try Self.url("https://cdn.test/a.js")
        let defaulted = ResourceLoadInfo(url: request, mainDocumentURL: top, resourceType: .script)
        let explicit = ResourceLoadInfo(url: request, mainDocumentURL: top, frameURL: top, resourceType: .script)
        #expect(defaulted == explicit)
        #expect(Set([defaulted, explicit]).count == 1)
        let otherFrame = ResourceLoadInfo(
            url: request, mainDocumentURL: top, frameURL: try Self.url("https://frame.example/"),
            resourceType: .script)
        #expect(defaulted != otherFrame)
        var reset = otherFrame
        reset.frameURL = top
        #expect(reset == defaulted)
        #expect(defaulted != ResourceLoadInfo(url: request, mainDocumentURL: top, resourceType: .image))
    }

    /// An absent top or frame URL reads as nil wherever it is set, whatever URL the load keeps in its
    /// place, and compares unequal to every present URL; each combination of present and absent top
    /// and frame URLs, through `init` and through the setters.
    @Test func absentURLsStayAbsent() throws {
        let request = try Self.url("https://cdn.test/a.js")
        let candidates: [WebURL?] = try [
            nil, Self.url("http://a/"), Self.url("https://top.example/"), Self.url("about:blank"),
        ]
        for top in candidates {
            for frame in candidates {
                var load = ResourceLoadInfo(url: request, mainDocumentURL: top, frameURL: frame, resourceType: .image)
                #expect(load.mainDocumentURL == top && load.frameURL == (frame ?? top))
                let stated = ResourceLoadInfo(
                    url: request, mainDocumentURL: top, frameURL: frame ?? top, resourceType: .image)
                #expect(load == stated && load.hashValue == stated.hashValue)
                load.mainDocumentURL = nil
                #expect(load.mainDocumentURL == nil && load.frameURL == (frame ?? top))
                load.frameURL = nil
                #expect(load.frameURL == nil && load.mainDocumentURL == nil)
                load.mainDocumentURL = top
                #expect(load.mainDocumentURL == top && load.frameURL == nil)
                // The URL kept in place of an absent one (`http://a/` among them) never compares equal.
                for other in candidates where other != top {
                    #expect(load != ResourceLoadInfo(url: request, mainDocumentURL: other, resourceType: .image))
                }
            }
        }
    }

    @Test func onlyDataURLsAreNotEvaluated() throws {
        for (text, evaluated) in [
            ("data:text/plain,ad", false), ("DATA:,x", false), ("https://data.example/", true),
            ("datax:ad", true), ("dat:a", true), ("https://example.com/data:", true),
        ] {
            let load = ResourceLoadInfo(url: try Self.url(text), mainDocumentURL: nil, resourceType: .image)
            #expect(load.isEvaluated == evaluated, "\(text)")
        }
    }

    /// A load's request URL as WebKit's loads show it (`requestURL(_:forLoadOf:)`): the fragment of an
    /// http(s) URL dropped, except for popup, media, ping and CSP report loads (WebKitGTK 2.50.6,
    /// `Tests/Data/oracle-notes/fragments.json`); other schemes and URLs without a fragment as given.
    @Test func requestURLDropsTheFragmentAsWebKitsLoadsDo() throws {
        let url = try #require(WebURL("https://a.test/x.gif?q#frag"))
        for type: ResourceType in [.image, .script, .styleSheet, .font, .fetch, .other, .topDocument, .childDocument] {
            #expect(
                ResourceLoadInfo.requestURL(url, forLoadOf: type).serialization == "https://a.test/x.gif?q", "\(type)")
        }
        for type: ResourceType in [.popup, .media, .ping, .cspReport] {
            #expect(ResourceLoadInfo.requestURL(url, forLoadOf: type) == url, "\(type)")
        }
        let other = try #require(WebURL("foo://a.test/x#frag"))
        #expect(ResourceLoadInfo.requestURL(other, forLoadOf: .image) == other)
        let plain = try #require(WebURL("http://a.test/x"))
        #expect(ResourceLoadInfo.requestURL(plain, forLoadOf: .image) == plain)
        let empty = try #require(WebURL("http://a.test/x#"))
        #expect(ResourceLoadInfo.requestURL(empty, forLoadOf: .image).serialization == "http://a.test/x")
    }
}

/// A load has exactly one resource type: a set of several, or none, traps in the initializers and when
/// set (the process running it exits with a failure); every single type is accepted.
@Suite struct SingleResourceTypeTests {
    @Test func everySingleTypeIsAccepted() throws {
        let url = try #require(WebURL("https://x.test/"))
        for (_, type) in ResourceType.requestNames {
            #expect(type.isSingleType)
            _ = ResourceLoadInfo(url: url, mainDocumentURL: nil, resourceType: type)
            _ = PageLoad(url: url, mainDocumentURL: nil, resourceType: type)
        }
        #expect(!ResourceType([.script, .image]).isSingleType)
        #expect(!ResourceType([]).isSingleType)
    }

    @Test func aSetOfTypesTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ResourceLoadInfo(
                url: WebURL("https://x.test/")!, mainDocumentURL: nil, resourceType: [.script, .image])
        }
        await #expect(processExitsWith: .failure) {
            _ = PageLoad(url: WebURL("https://x.test/")!, mainDocumentURL: nil, resourceType: [])
        }
        await #expect(processExitsWith: .failure) {
            var load = ResourceLoadInfo(url: WebURL("https://x.test/")!, mainDocumentURL: nil, resourceType: .image)
            load.resourceType = []
        }
    }
}
