import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import TestSupport
import Testing

@testable import ContentRuleFormat

/// Limits of the binary format itself (field widths, `Documentation/BinaryFormat.md`), which WebKit
/// does not have: a list over one is a clear error (`BinaryRuleListError.tooLarge`), never a trap.
/// The real limits need inputs of 256 MiB or 16 million entries, so the action-bytes limit is
/// lowered here (`BinaryRuleListWriter.encode(_:maximumActionBytes:)`) to test both of its sides.
@Suite struct FormatLimitTests {
    /// One notify rule whose notification has `bytes` bytes (its action bytes in `APAY`).
    static func list(notificationBytes bytes: Int) throws -> CompiledRuleList {
        let json =
            #"[{"trigger":{"url-filter":"x"},"action":{"type":"notify","notification":""#
            + String(repeating: "n", count: bytes) + #""}}]"#
        return try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
    }

    static func isTooLarge(_ error: any Error) -> Bool {
        if case .tooLarge = error as? BinaryRuleListError { return true }
        return false
    }

    @Test func actionBytesOverTheLimitAreAnError() throws {
        let compiled = try Self.list(notificationBytes: 1_001)
        #expect(
            performing: { _ = try BinaryRuleListWriter.encode(compiled, maximumActionBytes: 1_000) },
            throws: Self.isTooLarge)
    }

    /// TMPL ids are 12 bits: more templates than ``TextTemplates/maximumCount`` are an error; cuts outside
    /// a text store it whole.
    @Test func templateLimitAndCutsOutsideTheText() throws {
        let json = #"[{"trigger":{"url-filter":"^https?://tracker[0-9]\\.test/"},"action":{"type":"block"}}]"#
        var compiled = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
        var many = compiled
        many.templates = TextTemplates(prefixes: (0...TextTemplates.maximumCount).map { Array("prefix-\($0)".utf8) })
        #expect(performing: { _ = try BinaryRuleList.encode(many) }, throws: Self.isTooLarge)
        let text = try #require(compiled.rules[0].urlFilter.pcre2Pattern)
        compiled.templates = TextTemplates(prefixes: [Array(text.utf8.prefix(10))])
        for cut in [(0, 1000), (-1, 3), (12, 11)] {
            compiled.rules[0].urlFilter.scaffold = ScaffoldCut(prefixEnd: cut.0, suffixStart: cut.1)
            let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(compiled))
            #expect(mapped.regexSource(mapped.rule(0).pattern) == text, "\(cut)")
        }
        compiled.rules[0].urlFilter.scaffold = ScaffoldCut(prefixEnd: 10, suffixStart: 12)
        let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(compiled))
        #expect(mapped.regexSource(mapped.rule(0).pattern) == text)
        #expect(mapped.sections.templates.count == 1)
        #expect(mapped.pattern(mapped.rule(0).pattern).templates >> 8 & 0xFFF == 0)  // the text uses it
    }

    @Test func actionBytesAtTheLimitAreKept() throws {
        let bytes = try BinaryRuleListWriter.encode(try Self.list(notificationBytes: 1_000), maximumActionBytes: 1_000)
        let list = ContentRuleList(identifier: "limit", rules: try MappedRuleList(bytes: bytes))
        let load = try #require(TestLists.script("https://t.test/x.js"))
        #expect(list.actions(for: load).actions == [.notify(notification: String(repeating: "n", count: 1_000))])
    }

    /// A 16 MiB action, far above what real lists hold, is written and read back.
    @Test func largeActionIsKept() throws {
        let list = try ContentRuleList(
            identifier: "big", compiled: try Self.list(notificationBytes: 16 << 20))
        let load = try #require(TestLists.script("https://t.test/x.js"))
        let actions = list.actions(for: load).actions
        #expect(actions.count == 1)
        #expect(actions.first == .notify(notification: String(repeating: "n", count: 16 << 20)))
    }
}
