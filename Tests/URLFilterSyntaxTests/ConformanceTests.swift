import PCRE2Support
import Testing
import URLFilterSyntax

/// Whether `pattern` matches `subject` the way WebKit's engine does: MatchesEverything patterns match
/// every subject; Ok patterns are searched with their PCRE2 translation.
func webKitMatches(_ pattern: String, caseSensitive: Bool, _ subject: String) throws -> Bool {
    let result = URLFilter.parse(pattern, caseSensitive: caseSensitive)
    if result.matchesEverything { return true }
    guard result.status == .ok, let source = result.pcre2Pattern else {
        Issue.record("\(pattern) was not accepted: \(result.status)")
        return false
    }
    return try PCRE2Regex(source, options: []).matches(subject)
}

@Suite struct URLFilterConformanceTests {
    @Test func conformanceFilesLoaded() {
        #expect(SyntaxCase.all.count == 87)
        #expect(MatchingCase.all.count == 4)
    }

    @Test(arguments: SyntaxCase.all)
    func urlFilterSyntax(_ testCase: SyntaxCase) {
        let result = URLFilter.parse(testCase.pattern, caseSensitive: testCase.caseSensitive)
        if let expected = testCase.expectStatus {
            #expect(result.status.rawValue == expected, "\(testCase.id)")
        }
        if let supported = testCase.expectSupported {
            #expect(result.status.isAccepted == supported, "\(testCase.id)")
        }
        if result.status == .ok {
            // Every accepted, non-universal pattern must translate to PCRE2 that compiles.
            #expect(result.pcre2Pattern != nil)
            if let source = result.pcre2Pattern {
                do {
                    _ = try PCRE2Regex(source, options: [])
                } catch {
                    // Only a huge pattern may exceed PCRE2's size limit; it must then be a plain literal.
                    #expect(error.code == 120, "\(testCase.id): \(error)")
                    #expect(result.plainLiteral?.literal.count == testCase.pattern.count)
                }
            }
        }
    }

    @Test(arguments: MatchingCase.all)
    func patternMatching(_ testCase: MatchingCase) throws {
        for input in testCase.inputs {
            var matched: Set<Int> = []
            for pattern in testCase.patterns
            where try webKitMatches(pattern.pattern, caseSensitive: pattern.caseSensitive, input.input) {
                matched.insert(pattern.id)
            }
            if let expected = input.expectedIDs {
                #expect(matched == expected, "\(testCase.id) input \(input.input)")
            }
            if let count = input.expectedCount {
                #expect(matched.count == count, "\(testCase.id) input \(input.input)")
            }
        }
    }
}
