// store-and-match RULES.json REQUESTS.jsonl [STORE-DIRECTORY]
//
// What a tool built on swift-content-blocker does, with the public products only (`import
// RuleListStore` brings the matcher, the model and URLs): compile a JSON rule list into a store, look
// it up as another process would, and decide a batch of requests on every core. Prints one line per
// request (blocked or not) in input order, then a summary. Exit status: 0, 1 when the rule list does
// not compile, 2 for a usage or I/O error.
import Foundation
import RuleListStore

/// A request line: the keys `content-blocker match --requests` reads, the ones this example uses.
struct Request: Decodable {
    var url: String
    var mainDocumentURL: String?
    var resourceType: String?
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("store-and-match: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 || arguments.count == 3 else {
    fail("usage: store-and-match RULES.json REQUESTS.jsonl [STORE-DIRECTORY]", status: 2)
}
let rulesPath = arguments[arguments.startIndex]
let requestsPath = arguments[arguments.startIndex + 1]
let directory =
    arguments.count == 3
    ? arguments[arguments.startIndex + 2]
    : NSTemporaryDirectory() + "store-and-match-\(ProcessInfo.processInfo.processIdentifier)"

// 1. Compile into a store (WKContentRuleListStore's compileContentRuleList), then look the list up.
let list: ContentRuleList
do {
    let store = try ContentRuleListStore(directory: directory)
    try store.compileContentRuleList(forIdentifier: "rules", contentsOfFile: rulesPath)
    list = try store.lookUpContentRuleList(forIdentifier: "rules")
} catch {
    switch error {
    case .compileFailed(_, let diagnostics):
        for diagnostic in diagnostics { FileHandle.standardError.write(Data("\(rulesPath): \(diagnostic)\n".utf8)) }
        fail("the rule list does not compile", status: 1)
    default:
        fail(error.description, status: 2)
    }
}
let blocker = ContentBlocker(lists: [list])

// 2. Read the requests: a load as a page makes it (PageLoad), with exactly one resource type.
guard let text = try? String(contentsOfFile: requestsPath, encoding: .utf8) else {
    fail("\(requestsPath): cannot be read", status: 2)
}
let loads: [PageLoad?] = text.split(separator: "\n").map { line in
    guard let request = try? JSONDecoder().decode(Request.self, from: Data(line.utf8)),
        let url = WebURL(request.url),
        let type = ResourceType(requestName: request.resourceType ?? "document", loadContext: .topFrame)
    else { return nil }
    return PageLoad(url: url, mainDocumentURL: request.mainDocumentURL.flatMap(WebURL.init), resourceType: type)
}

// 3. Decide them on every core: `ContentBlocker` is Sendable and its lists answer from any thread.
/// Whether each load is blocked (`nil` for a line that is not a request), in input order: one task per
/// core, each deciding a run of the loads.
func decide(_ loads: [PageLoad?], with blocker: ContentBlocker) async -> [Bool?] {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let size = max(1, (loads.count + cores - 1) / cores)
    return await withTaskGroup(of: (Int, [Bool?]).self) { group in
        for start in stride(from: 0, to: loads.count, by: size) {
            let run = Array(loads[start..<min(start + size, loads.count)])
            group.addTask { (start, run.map { load in load.map { blocker.results(for: $0).blockedLoad } }) }
        }
        var answers = [Bool?](repeating: nil, count: loads.count)
        for await (start, part) in group { answers.replaceSubrange(start..<(start + part.count), with: part) }
        return answers
    }
}

var blocked = 0
for (index, answer) in await decide(loads, with: blocker).enumerated() {
    switch answer {
    case true?:
        blocked += 1
        print("\(index + 1): blocked")
    case false?: print("\(index + 1): loaded")
    case nil: print("\(index + 1): not a request")
    }
}
print("\(loads.count) requests, \(blocked) blocked, list stored in \(directory)")
