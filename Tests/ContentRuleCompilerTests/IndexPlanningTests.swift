import ContentRuleFormat
import ContentRuleModel
import TestSupport
import Testing

@testable import ContentRuleCompiler

/// The compiler files each rule reached through its literal (``RuleEntry/literal``) under an index key
/// (``IndexKey``): a host-anchored pattern under its literal's host key, any other under the gram of
/// its literal that the fewest literals contain, with the byte beside the gram as its neighbour code.
/// Expected values from those definitions.
@Suite struct IndexPlanningTests {
    /// The code names the byte after the gram, else the one before it, else nothing (low 6 bits).
    @Test func neighbourCodes() {
        func code(_ literal: String, _ gramAt: Int) -> UInt8 {
            IndexHash.neighbourCode(Array(literal.utf8)[...], gramAt: gramAt)
        }
        #expect(code("mnopq", 0) == UInt8(IndexHash.neighbourAfter) | (UInt8(ascii: "q") & 0x3F))
        #expect(code("xmnop", 1) == UInt8(ascii: "x") & 0x3F)
        #expect(code("mnop", 0) == 0)
        #expect(code("@mnop", 1) == 0)  // '@' (0x40) before the gram: a code of 0, no check
    }

    /// A literal goes under its gram the fewest literals contain (the first such offset); common URL
    /// grams only when there is no other.
    @Test func gramsTheFewestLiteralsContain() {
        func gram(_ text: String) -> UInt32 { IndexHash.gram(Array(text.utf8), 0) }
        let chosen = IndexPlanning.chooseGrams(
            [
                (0, Array("abcdwxyz".utf8)), (1, Array("abcdqqqq".utf8)), (2, Array("http".utf8)),
                (3, Array(".comabcd".utf8)),
            ],
            alsoCounted: [])
        #expect(chosen.map(\.rule) == [0, 1, 2, 3])
        #expect(chosen[0].gram == gram("bcdw"))  // abcd: 3 literals; bcdw: 1
        #expect(chosen[0].code == UInt8(IndexHash.neighbourAfter) | (UInt8(ascii: "x") & 0x3F))
        #expect(chosen[1].gram == gram("bcdq"))
        #expect(chosen[2].gram == gram("http"))  // its only gram
        #expect(chosen[3].gram == gram("coma"))  // ".com" is common; "coma" 1
    }

    /// Every literal entry of a real list gets a key: a gram of its literal, or, for a host-anchored
    /// regex pattern, its literal's host key; no other rule gets one.
    @Test func everyLiteralEntryHasAKeyOfItsLiteral() throws {
        let list = try #require(RuleListCompiler.compile(json: TestLists.bundled("easy2json/easylist.json")).list)
        var hosts = 0
        for rule in list.rules {
            guard rule.entry == .literal else {
                #expect(rule.indexKey == nil)
                continue
            }
            let literal = Array(try #require(rule.urlFilter.requiredLiteral).utf8)
            switch rule.indexKey {
            case .gram(let gram, _):
                #expect(
                    (0...(literal.count - 4)).contains { IndexHash.gram(literal, $0) == gram },
                    "\(rule.urlFilter.source)")
            case .host(let key):
                hosts += 1
                #expect(rule.urlFilter.hostAnchored && rule.urlFilter.literal == nil)
                #expect(key == HostIndex.key(literal.prefix(255)[...]))
            case nil: Issue.record("no key: \(rule.urlFilter.source)")
            }
        }
        #expect(hosts > 1000)
    }
}
