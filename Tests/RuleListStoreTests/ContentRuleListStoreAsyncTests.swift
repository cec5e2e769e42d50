import ContentRuleMatcher
import ContentRuleModel
import Foundation
import Locking
import Testing

@testable import RuleListStore

/// The store's asynchronous compile: progress reported up to every rule, the same stored list and source
/// as the plain compile, a failed or cancelled compile that stores nothing and keeps the old list.
/// Expected answers: the rules' own actions and the JSON bytes given.
@Suite struct ContentRuleListStoreAsyncTests {
    typealias Store = ContentRuleListStoreTests

    @Test func compilesWithProgressAndStores() async throws {
        let store = try Store.temporaryStore()
        let reports = Locked<[RuleListCompiler.Progress]>([])
        let list = try await store.compileContentRuleList(forIdentifier: "my list/v1", json: Array(Store.block.utf8)) {
            progress in reports.withLock { $0.append(progress) }
        }
        #expect(try Store.actions(list, "https://x.test/ads.js") == [.block])
        #expect(reports.withLock { $0.first } == RuleListCompiler.Progress(ruleCount: 1, rulesCompiled: 0))
        #expect(reports.withLock { $0.last } == RuleListCompiler.Progress(ruleCount: 1, rulesCompiled: 1))
        let found = try store.lookUpContentRuleList(forIdentifier: "my list/v1")
        #expect(try Store.actions(found, "https://x.test/ads.js") == [.block])
        #expect(try store.contentRuleListSource(forIdentifier: "my list/v1") == Array(Store.block.utf8))
    }

    @Test func failedCompileKeepsTheOldList() async throws {
        let store = try Store.temporaryStore()
        try store.compileContentRuleList(forIdentifier: "ads", encodedContentRuleList: Store.block)
        let invalid = Array(#"[{"trigger":{"url-filter":"(ads"},"action":{"type":"block"}}]"#.utf8)
        await #expect {
            try await store.compileContentRuleList(forIdentifier: "ads", json: invalid) { _ in }
        } throws: { error in
            guard case .compileFailed(identifier: "ads", let diagnostics)? = error as? ContentRuleListStoreError else {
                return false
            }
            return diagnostics.first?.error == .jsonInvalidRegex
        }
        #expect(try store.contentRuleListSource(forIdentifier: "ads") == Array(Store.block.utf8))
    }

    @Test func cancelledCompileStoresNothing() async throws {
        let store = try Store.temporaryStore()
        try store.compileContentRuleList(forIdentifier: "ads", encodedContentRuleList: Store.block)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.compileContentRuleList(forIdentifier: "ads", json: Array(Store.cookies.utf8)) { _ in
            }
        }
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(try store.contentRuleListSource(forIdentifier: "ads") == Array(Store.block.utf8))
        let missing = "/nonexistent/rules.json"
        await #expect(throws: ContentRuleListStoreError.self) {
            try await store.compileContentRuleList(forIdentifier: "x", contentsOfFile: missing) { _ in }
        }
        #expect(try store.availableContentRuleListIdentifiers() == ["ads"])
    }
}
