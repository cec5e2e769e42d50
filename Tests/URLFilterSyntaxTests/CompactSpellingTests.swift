import Foundation
import PCRE2Support
import TestSupport
import Testing

@testable import URLFilterSyntax

/// The compact PCRE2 spelling (`PCRE2Spelling`) checked against PCRE2 itself: a spelled literal or
/// class must match exactly the bytes it stands for, over all 256 byte values.
@Suite struct PCRE2SpellingTests {
    /// The spelling other layers read (`URLFilterPCRE2`) is the one the translator writes: the class
    /// of WebKit's `.` and the skip group of an unanchored search.
    @Test func sharedSpellingIsTheTranslators() throws {
        let universal = URLFilterCharacterSet.universal.matchedMask
        var spelled: [UInt8] = []
        PCRE2Spelling.appendClass(low: universal.low, high: universal.high, to: &spelled)
        #expect(String(decoding: spelled, as: UTF8.self) == URLFilterPCRE2.universalClass)
        let unanchored = try #require(URLFilter.parse("ad.*banner", caseSensitive: true).pcre2Pattern)
        #expect(unanchored.hasPrefix(#"\A"# + URLFilterPCRE2.skipOutsideRuns))
    }

    /// The byte values 0–255 that `regex` matches as a one-byte subject.
    static func matchedBytes(_ regex: PCRE2Regex) -> Set<UInt8> {
        let scratch = PCRE2Scratch()
        var matched: Set<UInt8> = []
        for value in 0...255 {
            let subject: [UInt8] = [UInt8(value)]
            if subject.withUnsafeBufferPointer({ regex.matches($0, scratch: scratch) }) { matched.insert(UInt8(value)) }
        }
        return matched
    }

    @Test func everyLiteralMatchesOnlyItself() throws {
        for c in UInt8(1)...127 {
            var text: [UInt8] = [UInt8(ascii: "^")]  // anchored: the subject is one byte
            PCRE2Spelling.appendLiteral(c, to: &text)
            text.append(UInt8(ascii: "$"))
            let source = String(decoding: text, as: UTF8.self)
            let regex = try PCRE2Regex(source, options: [])
            #expect(Self.matchedBytes(regex) == [c], "\(source)")
            let spelled = text.count - 2
            // Shortest form: 1 byte for printable non-metacharacters, 2 for metacharacters, 6 for controls.
            let metacharacters = Array(#"\^$.[|()?*+{"#.utf8)
            let expected = c < 0x20 || c == 0x7F ? 6 : (metacharacters.contains(c) ? 2 : 1)
            #expect(spelled == expected, "\(source)")
        }
    }

    @Test func classesMatchExactlyTheirMembers() throws {
        var generator = SeededGenerator(seed: 0xC1A55)
        var masks: [(UInt64, UInt64)] = []
        // Every single punctuation pair and triple around the class metacharacters, plus random masks.
        let interesting = Array(#"-]\^[:.=+,/!"#.utf8) + [1, 0x1F, 0x20, 0x7E, 0x7F, 0x41, 0x61]
        for a in interesting {
            for b in interesting where b != a {
                for c in [nil] + interesting.map(Optional.some) where c != a && c != b {
                    var low: UInt64 = 0
                    var high: UInt64 = 0
                    for member in [a, b, c].compactMap({ $0 }) {
                        if member < 64 { low |= 1 << UInt64(member) } else { high |= 1 << UInt64(member - 64) }
                    }
                    masks.append((low, high))
                }
            }
        }
        for _ in 0..<2000 {
            let density = UInt64.random(in: 0...3, using: &generator)
            var low = UInt64.random(in: .min ... .max, using: &generator)
            var high = UInt64.random(in: .min ... .max, using: &generator)
            for _ in 0..<density {
                low &= UInt64.random(in: .min ... .max, using: &generator)
                high &= UInt64.random(in: .min ... .max, using: &generator)
            }
            masks.append((low & ~1, high))
        }
        masks.append((~UInt64(1), ~UInt64(0)))  // `.`
        for (low, high) in masks where (low | high) != 0 {
            var text: [UInt8] = [UInt8(ascii: "^")]
            PCRE2Spelling.appendClass(low: low, high: high, to: &text)
            text.append(UInt8(ascii: "$"))
            let source = String(decoding: text, as: UTF8.self)
            let regex = try PCRE2Regex(source, options: [])
            var expected: Set<UInt8> = []
            for c in UInt8(1)...127 where (c < 64 ? low >> UInt64(c) : high >> UInt64(c - 64)) & 1 == 1 {
                expected.insert(c)
            }
            #expect(Self.matchedBytes(regex) == expected, "\(source)")
        }
    }

    /// Spellings written out from the rules (the brief's examples and the class metacharacters).
    @Test func examples() {
        #expect(URLFilter.parse(#"example\.com/a\?b=c"#, caseSensitive: true).pcre2Pattern == #"example\.com/a\?b=c"#)
        #expect(URLFilter.parse("a.b", caseSensitive: true).pcre2Pattern == #"a[\x{01}-\x{7f}]b"#)
        #expect(URLFilter.parse("^https://x/[-]", caseSensitive: false).pcre2Pattern == #"(?i)\Ahttps://x/-"#)
        #expect(URLFilter.parse(#"[\]\\^-]x"#, caseSensitive: true).pcre2Pattern == #"[\\-\^-]x"#)
        #expect(URLFilter.parse("[+.-]x", caseSensitive: true).pcre2Pattern == #"[+.-]x"#)
        #expect(URLFilter.parse("[,-.]x", caseSensitive: true).pcre2Pattern == #"[,-.]x"#)
        #expect(URLFilter.parse("[a-c]x", caseSensitive: false).pcre2Pattern == #"(?i)[A-Ca-c]x"#)
        #expect(
            URLFilter.parse(#"Ab{}|"#.replacingOccurrences(of: "|", with: #"\|"#), caseSensitive: false)
                .pcre2Pattern == #"(?i)ab\{}\|"#)
        #expect(URLFilter.parse(#"\x01\x7f"#, caseSensitive: true).pcre2Pattern == #"\x{01}\x{7f}"#)
        // A search needs a leading repeated group once (`searchCore`); anchored, it stays.
        #expect(URLFilter.parse(#"(a\(b)+c$"#, caseSensitive: true).pcre2Pattern == #"a\(bc\z"#)
        #expect(URLFilter.parse(#"^(a\(b)+c$"#, caseSensitive: true).pcre2Pattern == #"\A(?:a\(b)+c\z"#)
        #expect(
            URLFilter.parse(URLFilter.domainPattern(for: "*example.com"), caseSensitive: false).pcre2Pattern
                == #"(?i)[A-Za-z][+.A-Za-z-]*://(?:[\x{01}-.0-\x{7f}]*\.)*example\.com[/:]"#)
    }
}

extension PCRE2ASCIISubject.Spelling {
    /// The url-filter translator's spelling (what the matcher passes).
    static let urlFilter = PCRE2ASCIISubject.Spelling(
        universalClass: URLFilterPCRE2.universalClass, skipOutsideRuns: URLFilterPCRE2.skipOutsideRuns)
}
