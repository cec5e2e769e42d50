import ContentRuleURL
import Foundation
import Testing

/// A coarse guard against pathological slowness on the common case (canonical http(s) URLs).
struct PerformanceTests {
    @Test func canonicalURLsParseQuickly() {
        let inputs = (0..<2000).map { "https://cdn\($0 % 50).example.com/assets/v\($0)/script.js?x=\($0)&y=z#top" }
        let start = Date()
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
        let seconds = Date().timeIntervalSince(start)
        print("parsed 20000 canonical URLs in \(seconds) s")
        #expect(total > 0)
        #expect(seconds < 10, "20000 canonical URLs took \(seconds) s")
    }
}
