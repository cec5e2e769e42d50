import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

/// Shared machinery for running conformance cases: compile a case's rule list(s) through the
/// binary format (so every case also checks the format round trip), and run its requests.
struct CompileFailure: Error {
    var result: RuleListCompiler.Result
}

enum Harness {
    /// Compiles `text` and makes a matcher list (through the binary rule list, encoded and read in
    /// memory). Returns the compile result when compilation fails.
    static func compile(
        _ text: String, identifier: String, extensionBaseURL: WebURL? = nil
    ) -> Result<ContentRuleList, CompileFailure> {
        let result = RuleListCompiler.compile(json: Array(text.utf8))
        guard let compiled = result.list else { return .failure(CompileFailure(result: result)) }
        do {
            return .success(
                try ContentRuleList(identifier: identifier, compiled: compiled, extensionBaseURL: extensionBaseURL))
        } catch {
            Issue.record(Comment(rawValue: "\(identifier): \(error)"))
            return .failure(CompileFailure(result: result))
        }
    }

    /// The lists of a case unit (`rules`/`rulesText`/`rulesGenerator`/`rulesGenerated` or `ruleLists`).
    static func ruleListTexts(_ unit: [String: Any], defaultIdentifier: String) throws -> [(String, String)] {
        if let lists = unit["ruleLists"] as? [[String: Any]] {
            return try lists.enumerated().map { index, list in
                let identifier = list["identifier"] as? String ?? "list\(index)"
                return (identifier, try TestData.ruleListText(list) ?? "[]")
            }
        }
        guard let text = try TestData.ruleListText(unit) else { return [] }
        return [(unit["ruleListIdentifier"] as? String ?? defaultIdentifier, text)]
    }

    /// Every list of `texts`, compiled; a list that does not compile is recorded as an issue (the
    /// data expects it to compile) and left out.
    static func compileAll(_ texts: [(String, String)], context: String, extensionBaseURL: WebURL? = nil)
        -> [ContentRuleList]
    {
        texts.compactMap { identifier, text in
            switch compile(text, identifier: identifier, extensionBaseURL: extensionBaseURL) {
            case .success(let list): return list
            case .failure(let failure):
                Issue.record(Comment(rawValue: "\(context): does not compile: \(failure.result.errors)"))
                return nil
            }
        }
    }

    /// A request object of the conformance data as a load. `PORT` stands for a test-server port.
    static func load(_ request: [String: Any]) -> ResourceLoadInfo? {
        func url(_ key: String) -> String? { (request[key] as? String)?.replacingOccurrences(of: "PORT", with: "8000") }
        guard let urlText = url("url"), let requestURL = WebURL(urlText) else { return nil }
        let mainText = url("mainDocumentURL") ?? urlText
        let main = mainText.isEmpty ? nil : WebURL(mainText)
        var frame = main
        if let frameText = url("frameURL") { frame = frameText.isEmpty ? nil : WebURL(frameText) }
        let context = LoadContext(rawValue: request["loadContext"] as? String ?? "top-frame") ?? .topFrame
        let typeName = request["resourceType"] as? String ?? "document"
        guard let type = ResourceType(requestName: typeName, loadContext: context) else { return nil }
        return ResourceLoadInfo(
            url: requestURL, mainDocumentURL: main, frameURL: frame, resourceType: type, loadContext: context,
            requestMethod: (request["requestMethod"] as? String).flatMap(RequestMethod.init(caseInsensitiveName:)))
    }

    /// A request object of the conformance data as a load a page makes (WebKit's loader: fragment
    /// dropping, second checks), from the same fields as ``load(_:)``.
    static func pageLoad(_ request: [String: Any]) -> PageLoad? {
        guard let load = load(request) else { return nil }
        return PageLoad(
            url: load.url, mainDocumentURL: load.mainDocumentURL, frameURL: load.frameURL,
            resourceType: load.resourceType, loadContext: load.loadContext, requestMethod: load.requestMethod)
    }

    /// Actions as `{type, selector?, notification?}` dictionaries for comparison with the data.
    static func describe(_ action: Action) -> [String: String] {
        var result = ["type": action.type.rawValue]
        if case .cssDisplayNone(let selector) = action { result["selector"] = selector }
        if case .notify(let notification) = action { result["notification"] = notification }
        return result
    }

    /// Compares actual actions with `expectedActions` (types only, or payloads too for `exact`).
    /// Several lists: WebKit's order between lists is a hash order, so the comparison is as multisets.
    static func checkActions(
        _ results: ContentRuleListResults, expected: [[String: Any]], exact: Bool, context: String
    ) {
        let actual = results.lists.flatMap { $0.actions.actions }.map(describe)
        var expectedDescriptions = expected.map { item -> [String: String] in
            var description = ["type": item["type"] as? String ?? ""]
            if exact {
                if let selector = item["selector"] as? String { description["selector"] = selector }
                if let notification = item["notification"] as? String { description["notification"] = notification }
            }
            return description
        }
        var actualDescriptions = actual.map { exact ? $0 : ["type": $0["type"]!] }
        if results.lists.count > 1 {
            let key = { (item: [String: String]) in
                item.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
            }
            expectedDescriptions.sort { key($0) < key($1) }
            actualDescriptions.sort { key($0) < key($1) }
        }
        #expect(actualDescriptions == expectedDescriptions, "\(context)")
    }

    /// Selectors hidden in the main document: those of its own load plus, for a load from the top
    /// frame, those of this page load's checks made for the page (a popup's navigation is another
    /// page's), each selector list split at commas.
    static func appliedSelectors(load: PageLoad, results: PageLoadResults, blocker: ContentBlocker) -> Set<String> {
        let checks = load.resourceType == .popup ? [results.first] : results.checks
        return appliedSelectors(load: results.first.load, results: checks.map(\.results), blocker: blocker)
    }

    static func appliedSelectors(load: ResourceLoadInfo, results: [ContentRuleListResults], blocker: ContentBlocker)
        -> Set<String>
    {
        var selectors = Set<String>()
        func add(_ results: ContentRuleListResults) {
            for list in results.lists {
                for selector in list.selectors + [list.globalStylesheet].compactMap({ $0 }) {
                    selectors.formUnion(selector.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                }
            }
        }
        if load.resourceType != .topDocument, let main = load.mainDocumentURL {
            add(blocker.results(for: ResourceLoadInfo(url: main, mainDocumentURL: main, resourceType: .topDocument)))
        }
        if load.loadContext == .topFrame { results.forEach(add) }
        return selectors
    }
}
