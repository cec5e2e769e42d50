import ContentRuleURL
import Testing

/// WebURL against ada (WHATWG URL Standard); the cases and expectations are in Fixtures/whatwg-cases.json.
struct WebURLTests {
    static let parseCases = ParseCase.load("parse")
    static let relativeCases = ParseCase.load("relative")
    static let setterCases = SetterCase.load()

    private func check(_ url: WebURL?, _ expected: ExpectedURL?) {
        guard let expected else {
            #expect(url == nil, "expected invalid, got \(url?.serialization ?? "")")
            return
        }
        guard let url else {
            Issue.record("expected \(expected.href), got nil")
            return
        }
        #expect(url.serialization == expected.href)
        #expect(url.scheme == expected.scheme)
        #expect(url.hasScheme(expected.scheme))
        #expect(!url.hasScheme(expected.scheme + "x"))
        #expect(!url.hasScheme(String(expected.scheme.dropLast())))
        #expect(url.username == expected.username)
        #expect(url.password == expected.password)
        #expect(url.host == expected.host)
        #expect(url.port == expected.port)
        #expect(url.path == expected.path)
        #expect(url.query == expected.query)
        #expect(url.fragment == expected.fragment)
        #expect(url.description == expected.href)
    }

    @Test(arguments: parseCases)
    func parse(_ testCase: ParseCase) {
        check(WebURL(testCase.input), testCase.expected)
    }

    @Test(arguments: parseCases)
    func reparsingIsIdempotent(_ testCase: ParseCase) throws {
        guard let expected = testCase.expected else { return }
        let reparsed = try #require(WebURL(expected.href))
        #expect(reparsed.serialization == expected.href)
    }

    @Test(arguments: relativeCases)
    func parseRelative(_ testCase: ParseCase) throws {
        let baseString = try #require(testCase.base)
        let base = try #require(WebURL(baseString))
        check(WebURL(testCase.input, relativeTo: base), testCase.expected)
    }

    @Test(arguments: setterCases)
    func setter(_ testCase: SetterCase) throws {
        var url = try #require(WebURL(testCase.href))
        let accepted: Bool
        switch testCase.setter {
        case "scheme": accepted = url.setScheme(testCase.value!)
        case "host": accepted = url.setHost(testCase.value!)
        case "port": accepted = url.setPort(testCase.port)
        case "path": accepted = url.setPath(testCase.value!)
        case "query": accepted = url.setQuery(testCase.value)
        case "fragment": accepted = url.setFragment(testCase.value)
        case "username": accepted = url.setUsername(testCase.value!)
        case "password": accepted = url.setPassword(testCase.value!)
        default:
            Issue.record("unknown setter \(testCase.setter)")
            return
        }
        #expect(url.serialization == testCase.expected)
        #expect(accepted == testCase.accepted)
        // The result must be what parsing its own serialization gives.
        #expect(WebURL(url.serialization)?.serialization == testCase.expected)
    }

    @Test func equalityFollowsSerialization() throws {
        let a = try #require(WebURL("HTTP://Example.COM:80"))
        let b = try #require(WebURL("http://example.com/"))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != WebURL("http://example.com/x"))
    }
}
