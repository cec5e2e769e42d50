import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import TestSupport
import Testing

/// Limits of the binary format itself (field widths, `Documentation/BinaryFormat.md`), which WebKit
/// does not have: a list over one is a clear error (`BinaryRuleListError.tooLarge`), never a trap.
@Suite struct FormatLimitTests {
    /// One notify rule whose notification has `bytes` bytes (stored as it is, unlike css-display-none
    /// selectors, which symbol coding shortens).
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

    @Test func actionOverTheLimitIsAnError() throws {
        let compiled = try Self.list(notificationBytes: 1 << 24)
        #expect(performing: { _ = try BinaryRuleList.encode(compiled) }, throws: Self.isTooLarge)
        #expect(
            performing: { _ = try ContentRuleList(identifier: "big", compiled: compiled) },
            throws: { error in
                guard case .binary(let inner) = error as? ContentRuleListLoadError else { return false }
                return Self.isTooLarge(inner)
            })
    }

    @Test func actionAtTheLimitIsKept() throws {
        let list = try ContentRuleList(
            identifier: "big", compiled: try Self.list(notificationBytes: (1 << 24) - 1))
        let load = try #require(Hostile.script("https://t.test/x.js"))
        let actions = list.actions(for: load).actions
        #expect(actions.count == 1)
        #expect(actions.first == .notify(notification: String(repeating: "n", count: (1 << 24) - 1)))
    }
}
