import ContentRuleFormat
import ContentRuleModel
import Locking
import RuleListParser
import TestSupport
import Testing

@testable import ContentRuleCompiler

/// `RuleListCompiler.compile(json:options:progress:) async`: the same result as the plain call, progress
/// from 0 to every rule in batches, and cancellation before the end.
@Suite struct AsyncCompileTests {
    /// 250 distinct rules: three batches of 100 (the public call's batches are 4,096 rules).
    static let json: [UInt8] = Array(
        ("["
            + (0..<250).map { #"{"trigger":{"url-filter":"ad\#($0)[0-9]"},"action":{"type":"block"}}"# }
            .joined(separator: ",") + "]").utf8)

    /// The plain call (in an async function the async overload is chosen).
    static func plain(_ json: [UInt8]) -> RuleListCompiler.Result { RuleListCompiler.compile(json: json) }

    @Test func sameResultAsThePlainCall() async throws {
        let reports = Locked<[RuleListCompiler.Progress]>([])
        let result = try await RuleListCompiler.compile(json: Self.json, options: .init(), batchSize: 100) {
            progress in reports.withLock { $0.append(progress) }
        }
        let plain = Self.plain(Self.json)
        #expect(result.list == plain.list && result.list != nil)
        #expect(result.diagnostics == plain.diagnostics)
        let counts = reports.withLock { $0.map(\.rulesCompiled) }
        #expect(counts == [0, 100, 200, 250])
        #expect(reports.withLock { $0.allSatisfy { $0.ruleCount == 250 } })
        // An invalid list: the same diagnostics.
        let invalid = Array(#"[{"trigger":{"url-filter":"[z-a]"}},{"trigger":{"url-filter":"a"},"action":{}}]"#.utf8)
        let asyncInvalid = try await RuleListCompiler.compile(json: invalid)
        #expect(asyncInvalid.list == nil)
        #expect(asyncInvalid.diagnostics == Self.plain(invalid).diagnostics)
    }

    @Test func cancellationStopsTheCompile() async {
        let task = Task {
            try await RuleListCompiler.compile(json: Self.json, options: .init(), batchSize: 100) { progress in
                if progress.rulesCompiled == 100 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await RuleListCompiler.compile(json: Self.json)
        }
        let firstOutcome = await cancelledFirst.result
        #expect(throws: CancellationError.self) { try firstOutcome.get() }
    }
}
