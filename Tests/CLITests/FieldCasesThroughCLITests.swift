import Foundation
import TestSupport
import Testing

/// Every request of the field cases (`Tests/Data/conformance/field`, answered by real WebKit) through
/// `content-blocker match --requests`: the CLI decides a request as a load a page makes (fragments,
/// second checks of pings, CSP reports and popups), so its blocked / blockedCookies / madeHTTPS must be
/// WebKit's. Units whose list WebKit rejects install nothing and are covered by `check`'s tests.
@Suite struct FieldCasesThroughCLITests {
    /// The request keys `match` reads, taken from a field request as they are.
    static let requestKeys = ["url", "mainDocumentURL", "frameURL", "resourceType", "loadContext", "requestMethod"]

    @Test(.slowTier) func everyFieldRequestGivesWebKitsAnswer() throws {
        let folder = TestData.conformance.appendingPathComponent("field")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("B") && $0.hasSuffix(".json") }.sorted()
        let directory = try CLITests.temporaryDirectory()
        var checked = 0
        for file in files {
            let entry = try #require(try TestData.json(folder.appendingPathComponent(file)) as? [String: Any])
            var units = [entry]
            units += (entry["variants"] as? [[String: Any]] ?? []).filter { $0["control"] as? Bool != true }
            for (number, unit) in units.enumerated() where unit["expectCompileError"] == nil {
                let requests = unit["requests"] as? [[String: Any]] ?? []
                guard !requests.isEmpty else { continue }
                var lists: [String] = []
                if let given = unit["ruleLists"] as? [[String: Any]] {
                    for (index, list) in given.enumerated() {
                        let text = try TestData.ruleListText(list) ?? "[]"
                        lists.append(try CLITests.write(text, "\(file)-\(number)-\(index).json", in: directory))
                    }
                } else if let text = try TestData.ruleListText(unit) {
                    lists.append(try CLITests.write(text, "\(file)-\(number).json", in: directory))
                }
                guard !lists.isEmpty else { continue }
                var lines: [String] = []
                for request in requests {
                    var line: [String: Any] = [:]
                    for key in Self.requestKeys {
                        if let value = request[key] as? String {
                            line[key] = value.replacingOccurrences(of: "PORT", with: "8000")
                        }
                    }
                    let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
                    lines.append(String(decoding: data, as: UTF8.self))
                }
                let run = try CLITests.run(
                    ["match"] + lists + ["--requests", "-", "--brief"], stdin: lines.joined(separator: "\n") + "\n")
                #expect(run.status == 0, "\(file) unit \(number): \(run.stderr)")
                let answers = run.stdout.split(separator: "\n")
                #expect(answers.count == requests.count, "\(file) unit \(number)")
                for (request, answer) in zip(requests, answers) {
                    let context = "\(file) unit \(number) \(request["url"] ?? "")"
                    let result = try MatchRequestTests.object(answer)
                    #expect(result["error"] == nil, "\(context): \(answer)")
                    let expected = (request["contentBlockerExpected"] ?? request["expected"]) as? [String: Any] ?? [:]
                    for key in ["blocked", "blockedCookies", "madeHTTPS"] {
                        guard let value = expected[key] as? Bool else { continue }
                        let actual = result[key == "blocked" ? "blockedLoad" : key] as? Bool
                        #expect(actual == value, "\(context): \(key)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked >= 100, "field requests checked")
    }

    /// A ping that is not blocked is checked again as `other` (B059): the result says so in
    /// `secondCheck`, and a block there blocks the load. A script is checked once.
    @Test func secondCheckIsReported() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(
            #"""
            [{"trigger":{"url-filter":"stats"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"stats","resource-type":["ping"]},"action":{"type":"ignore-previous-rules"}}]
            """#, "list.json", in: directory)
        let base = ["match", list, "--url", "https://stats.example.net/p", "--top-url", "https://www.example.com/"]
        let ping = try MatchRequestTests.object(try CLITests.run(base + ["--type", "ping"]).stdout)
        #expect(ping["blockedLoad"] as? Bool == true)
        #expect((ping["actions"] as? [Any])?.isEmpty == true, "the first check's ignore rule dropped the block")
        let second = try #require(ping["secondCheck"] as? [String: Any])
        #expect(second["resourceType"] as? String == "other")
        #expect(second["blockedLoad"] as? Bool == true)
        let script = try MatchRequestTests.object(try CLITests.run(base + ["--type", "script"]).stdout)
        #expect(script["blockedLoad"] as? Bool == true)
        #expect(script["secondCheck"] == nil)
    }
}
