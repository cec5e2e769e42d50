import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import TestSupport
import Testing

@testable import ContentRuleFormat

/// The writer lays out the compiler's index keys (``CompiledRule/indexKey``) and checks that each files
/// its rule where the matcher will look: a key that is missing, not a gram of the stored literal, or
/// not that literal's host key (or a host key for a pattern that is not host-anchored) stores the rule
/// as always checked, which is correct for every rule. The answers stay the reference matcher's.
@Suite struct IndexKeyTests {
    static let json =
        #"[{"trigger":{"url-filter":"adframe"},"action":{"type":"block"}},"#
        + #"{"trigger":{"url-filter":"^[htpsw]+:\\/\\/([a-z0-9-]+\\.)?tracker\\.test([\\/:&\\?].*)?$"},"#
        + #""action":{"type":"block-cookies"}}]"#

    static func entries(_ change: (inout CompiledRuleList) -> Void) throws -> (MappedRuleList, [RuleEntry?]) {
        var list = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
        change(&list)
        let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(list))
        return (mapped, (0..<list.rules.count).map { RuleEntry(rawValue: mapped.rule($0).entry) })
    }

    /// The compiler's code, and no code at all, are kept.
    @Test func neighbourCodesOfTheFirstOccurrenceOrNoneAreKept() throws {
        for code: UInt8 in [0x40 | (UInt8(ascii: "a") & 0x3F), 0] {  // "adfr" + "a" in "adframe"
            let (_, entries) = try Self.entries {
                $0.rules[0].indexKey = .gram(IndexHash.gram(Array("adfr".utf8), 0), neighbourCode: code)
            }
            #expect(entries == [.literal, .literal], "\(code)")
        }
    }

    @Test func compiledKeysAreStored() throws {
        let (_, entries) = try Self.entries { list in
            #expect(list.rules[0].indexKey.map { if case .gram = $0 { true } else { false } } == true)
            #expect(list.rules[1].indexKey.map { if case .host = $0 { true } else { false } } == true)
        }
        #expect(entries == [.literal, .literal])
    }

    @Test func keysThatMissTheLiteralAreStoredAsAlwaysChecked() throws {
        let elsewhere = IndexHash.gram(Array("zzzz".utf8), 0)
        let changes: [(String, (inout CompiledRuleList) -> Void)] = [
            ("no key", { $0.rules[0].indexKey = nil }),
            ("gram 0", { $0.rules[0].indexKey = .gram(0, neighbourCode: 0) }),
            ("a gram not in the literal", { $0.rules[0].indexKey = .gram(elsewhere, neighbourCode: 0) }),
            (
                "a host key for a literal pattern",
                { $0.rules[0].indexKey = .host(HostIndex.key(Array("adframe".utf8)[...])) }
            ),
            (
                "a neighbour code of another byte",
                {
                    $0.rules[0].indexKey = .gram(
                        IndexHash.gram(Array("adfr".utf8), 0), neighbourCode: 0x40 | (0x78 & 0x3F))
                }
            ),
            (
                "a neighbour code after a gram that ends the literal",
                {
                    $0.rules[0].indexKey = .gram(
                        IndexHash.gram(Array("rame".utf8), 0), neighbourCode: 0x40 | (0x61 & 0x3F))
                }
            ),
            (
                "an upper-case literal",
                {
                    $0.rules[0].urlFilter.requiredLiteral = "ADframe"
                    $0.rules[0].indexKey = .gram(IndexHash.gram(Array("ADfr".utf8), 0), neighbourCode: 0)
                }
            ),
            (
                "another literal's host key",
                { $0.rules[1].indexKey = .host(HostIndex.key(Array("other.test".utf8)[...])) }
            ),
        ]
        for (name, change) in changes {
            let (mapped, entries) = try Self.entries(change)
            #expect(entries.filter { $0 == .always }.count == 1, "\(name)")
            let matcher = ContentRuleList(identifier: "t", rules: mapped)
            for url in ["https://adframe.test/", "https://x.tracker.test/a", "https://tracker.test.evil/adframe"] {
                let load = ResourceLoadInfo(url: try #require(WebURL(url)), mainDocumentURL: nil, resourceType: .image)
                #expect(matcher.actions(for: load) == matcher.referenceActions(for: load), "\(name): \(url)")
                #expect(!matcher.actions(for: load).firedRules.isEmpty, "\(name): \(url)")
            }
        }
    }
}
