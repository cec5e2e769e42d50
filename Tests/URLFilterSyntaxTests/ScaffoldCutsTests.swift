import Testing
import URLFilterSyntax

/// The scaffolding of a PCRE2 text the translator wrote: before its first run of three or more ASCII
/// letters or digits outside a class, an escape or a `(?i` group, and after its last such run
/// (offsets by hand from that definition).
@Suite struct ScaffoldCutsTests {
    @Test func cutsAroundTheFirstAndLastRuns() throws {
        func cuts(_ text: String) -> [Int]? { ScaffoldCuts.of(text).map { [$0.prefixEnd, $0.suffixStart] } }
        // WebKit's host anchor: `htpsw` is a class, `a-z0-9` too; the host name's runs are "doubleclick", "net".
        let host = #"^[htpsw]+:\/\/([a-z0-9-]+\.)?doubleclick\.net([\/:&\?].*)?$"#
        #expect(cuts(host) == [29, 45])
        #expect(cuts("abc") == [0, 3])
        #expect(cuts("ab") == nil)  // no run of three
        #expect(cuts(#"\x{41}\x{42}\x{43}"#) == nil)  // escapes are not runs
        #expect(cuts("(?i)abc(?:x)") == [4, 7])  // the `i` of `(?i` is not a run's start
        #expect(cuts("[abc]de") == nil)  // a class, then a run of two
        #expect(cuts("ab1/cd2") == [0, 7])
        #expect(cuts("x/track/y") == [2, 7])
    }
}
