import ContentRuleURL
import Foundation
import Testing

/// Canonical http(s) URLs (the fast path) serialize to themselves. Speed is measured in Benchmarks/, not here.
struct CanonicalRoundTripTests {
    @Test func canonicalURLsRoundTrip() {
        let inputs = (0..<2000).map { "https://cdn\($0 % 50).example.com/assets/v\($0)/script.js?x=\($0)&y=z#top" }
        var total = 0
        for _ in 0..<10 {
            for input in inputs {
                guard let url = WebURL(input) else {
                    Issue.record("\(input) did not parse")
                    return
                }
                total &+= url.serialization.utf8.count
                #expect(url.serialization == input)
            }
        }
        #expect(total > 0)
    }
}
