/// The tests' independent derivation of `URLFilterSearchFacts.asciiSubjectPattern` from the PCRE2 text
/// (the translator writes that spelling itself; `SearchFactsTests` compares the two). A faster spelling
/// of a url-filter's PCRE2 text for subjects whose bytes are all 1–127: canonical URL
/// serializations are (the URL Standard percent-encodes every other byte, and NUL is a forbidden host
/// code point), so the fast matcher searches them with this spelling.
///
/// `URLFilterSyntax.Translator` writes WebKit's `.` (code points 1–127) as the class `[\x{01}-\x{7f}]`
/// and starts an unanchored search that begins with a fixed-length run with
/// `(?:[\x{01}-\x{7f}]*+[^\x{01}-\x{7f}])*?` (skip whole runs of code points 1–127 and one byte outside
/// them), so that the text is exact for any bytes. On a subject of bytes 1–127 only:
/// - the class matches exactly what `.` matches under `(?s)` (every byte), and PCRE2 runs `.*` at the
///   end of a pattern, or before an `\z`, without stepping through the subject byte by byte (a
///   `…(?:[&/:?][\x{01}-\x{7f}]*)?\z` tail costs time linear in the URL; `…(?:[&/:?].*)?\z` does not);
/// - the skipping group cannot match once (it needs a byte outside 1–127), so the lazy `*?` matches it
///   zero times and the group can be dropped;
/// - a greedy `.*` outside every group, followed by more, in a text that does not end with `\z`, is
///   made lazy, `.*?`: whether the pattern matches does not depend on the order in which a quantifier outside
///   every atomic group and look-around tries its lengths, and the url-filter's `.*` before a literal
///   then steps forward to the literal's first occurrence instead of jumping to the URL's end and
///   stepping back over a long URL (`Benchmarks/results/2026-12-03-notes.md`). At the end, or in a
///   text ending with `\z`, it stays greedy: PCRE2 then jumps to the end at once.
///
/// The rewrite reads the text as PCRE2 does: an escape (`\` and the next byte) is copied whole, and a
/// class is compared whole, so a `[` written `\[` or a class that merely contains the same bytes is never
/// taken for the universal class.
///
/// - Complexity: O(pattern length).
enum PCRE2ASCIISubject {
    /// How the patterns to rewrite spell "any code point 1–127" and the skip over runs that contain
    /// other bytes: the translator's own spelling (`URLFilterSyntax.URLFilterPCRE2`), given by the
    /// caller so that it is written down once.
    struct Spelling: Sendable {
        let universalClass: [UInt8]
        let skipOutsideRuns: [UInt8]

        init(universalClass: String, skipOutsideRuns: String) {
            self.universalClass = Array(universalClass.utf8)
            self.skipOutsideRuns = Array(skipOutsideRuns.utf8)
        }
    }

    /// The text to search subjects of bytes 1–127 with, or nil when it would be `pattern` itself (no
    /// universal class, no skipping group).
    static func pattern(for pattern: String, spelling: Spelling) -> String? {
        let universalClass = spelling.universalClass
        let skipOutsideRuns = spelling.skipOutsideRuns
        let source = Array(pattern.utf8)
        var out: [UInt8] = Array("(?s)".utf8)
        out.reserveCapacity(source.count + 4)
        var changed = false
        var index = 0
        // Groups open at `index` (outside classes and escapes).
        var depth = 0
        // Before an end anchor, greedy is the fast order (`.*=\z` looks at the end once).
        let endsAnchored = source.reversed().starts(with: Array(#"\z"#.utf8).reversed())
        while index < source.count {
            switch source[index] {
            case UInt8(ascii: "\\"):
                let end = min(index + 2, source.count)
                out.append(contentsOf: source[index..<end])
                index = end
            case UInt8(ascii: "(") where source[index...].starts(with: skipOutsideRuns):
                index += skipOutsideRuns.count
                changed = true
            case UInt8(ascii: "["):
                let end = PCRE2MandatoryLiterals.classEnd(source, from: index)
                guard end <= source.count else { return nil }  // unterminated: leave it to PCRE2
                if source[index..<end].elementsEqual(universalClass) {
                    out.append(UInt8(ascii: "."))
                    changed = true
                    if depth == 0 && !endsAnchored && isGreedyStarBeforeMore(source, at: end) {
                        out.append(contentsOf: Array("*?".utf8))
                        index = end + 1
                        continue
                    }
                } else {
                    out.append(contentsOf: source[index..<end])
                }
                index = end
            case UInt8(ascii: "("):
                depth += 1
                out.append(source[index])
                index += 1
            case UInt8(ascii: ")"):
                depth -= 1
                out.append(source[index])
                index += 1
            default:
                out.append(source[index])
                index += 1
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : nil
    }

    /// Whether `source` has, at `index`, a greedy `*` (not `*?` or `*+`) followed by more.
    private static func isGreedyStarBeforeMore(_ source: [UInt8], at index: Int) -> Bool {
        guard index < source.count, source[index] == UInt8(ascii: "*") else { return false }
        let next = index + 1
        return next < source.count && source[next] != UInt8(ascii: "?") && source[next] != UInt8(ascii: "+")
    }
}
