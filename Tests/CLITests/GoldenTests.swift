import Foundation
import TestSupport
import Testing

/// The CLI's whole output, compared with the files in Tests/CLITests/Golden: every help (the tool's and
/// each subcommand's, as `--help`, `-h` and `help SUBCOMMAND` give it) and representative errors (usage
/// errors, an unreadable list, bad request lines in a batch) with their standard output, standard error
/// and exit status.
///
/// After a deliberate change of the output, run the tests with `UPDATE_GOLDEN=1` in the environment:
/// each file is rewritten with what the CLI printed (and the test passes); review the diff before
/// committing, as the files are the specification of the output, not a record of it.
@Suite struct GoldenTests {
    static let directory = TestData.repositoryRoot.appendingPathComponent("Tests/CLITests/Golden")
    static let subcommands = [
        "check", "lint", "compile", "match", "explain", "inspect", "store compile", "store list", "store match",
        "store explain",
        "store source",
        "store remove",
    ]

    /// Whether `actual` is the text of the golden file `name`; with `UPDATE_GOLDEN=1`, writes it there.
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "\(name): \(firstDifference(actual, expected))", sourceLocation: sourceLocation)
    }

    /// Where two texts first differ, by line.
    static func firstDifference(_ actual: String, _ expected: String) -> String {
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(actualLines.count, expectedLines.count) {
            let got = index < actualLines.count ? String(actualLines[index]) : "(end)"
            let wanted = index < expectedLines.count ? String(expectedLines[index]) : "(end)"
            if got != wanted {
                return "line \(index + 1) is \(got.debugDescription), expected \(wanted.debugDescription)"
            }
        }
        return "same lines"
    }

    @Test func toolHelp() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let run = try CLITests.run(arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.stderr.isEmpty, "\(arguments)")
            try Self.expectGolden(run.stdout, "help.txt")
        }
    }

    /// `SUBCOMMAND --help`, `SUBCOMMAND -h` and `help SUBCOMMAND` print the same text, on a command line
    /// whose other arguments are wrong as well.
    @Test(arguments: subcommands) func subcommandHelp(_ name: String) throws {
        let words = name.split(separator: " ").map(String.init)
        for arguments in [words + ["--help"], words + ["-h"], ["help"] + words, words + ["x", "y", "-h"]] {
            let run = try CLITests.run(arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.stderr.isEmpty, "\(arguments)")
            try Self.expectGolden(run.stdout, "help-\(words.joined(separator: "-")).txt")
        }
    }

    /// A group's help (`store`): alone, with `--help` or `-h`, and as `help store`.
    @Test func groupHelp() throws {
        for arguments in [["store"], ["store", "--help"], ["store", "-h"], ["help", "store"]] {
            let run = try CLITests.run(arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.stderr.isEmpty, "\(arguments)")
            try Self.expectGolden(run.stdout, "help-store.txt")
        }
    }

    /// The rule list and the request lines the error cases use, written to the directory they run in
    /// (so that file names in the output do not depend on where the test runs).
    static let files = [
        "list.json": #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#,
        "invalid.json": #"[{"trigger":{"url-filter":"[z-a]"},"action":{"type":"block"}},{"trigger":{}}]"#,
        "lint.json": """
        [{"trigger": {"url-filter": "ads", "if-domain": ["*.example.com"]}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "track", "if-domains": ["example.com"]}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "track", "url-filter-is-case-sensitive": "true"}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "track", "if-domains": ["example.com"]}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "a.b"}, "action": {"type": "block", "type": "block"}}]
        """,
        "target.json": """
        [{"trigger": {"url-filter": "tracker", "request-method": "post"}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "@@example\\\\.com/ads"}, "action": {"type": "block"}},
         {"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": "div:has(> .ad)"}}]
        """,
        "requests.jsonl": [
            #"{"id":1,"url":"https://x.test/ads.js","resourceType":"script"}"#,
            #"{"id":"b","url":"https://x.test/page","resource-type":"script"}"#,
            #"{"id":[1.5,1e2,-0.25,1e16,true,null,{"z":"\u00e9","a":[]}],"url":"https://x.test/page"}"#,
            "",
            "not json",
            #"{"url":1}"#,
            "[1,2]",
            #"{"url":"https://x.test/ads.js",}"#,
            #"{"url":"https://x.test/ads.js","id":1e999}"#,
            #"{"url":"https://x.test/\v"}"#,
            #"{"id":2,"url":"https://x.test/ads.js","resourceType":"picture","requestMethod":"GETT"}"#,
        ].joined(separator: "\n") + "\n",
    ]

    /// Each error case: its golden file and the command line (after `content-blocker`).
    static let errorCases: [(file: String, arguments: [String])] = [
        ("error-no-subcommand.txt", []),
        ("error-unknown-subcommand.txt", ["chek", "list.json"]),
        ("error-unknown-tool-option.txt", ["--verison"]),
        ("error-help-unknown-subcommand.txt", ["help", "mtach"]),
        ("error-unknown-option.txt", ["check", "--jsn", "list.json"]),
        ("error-option-given-twice.txt", ["compile", "list.json", "-o", "a.cbrl", "--output", "b.cbrl"]),
        ("error-missing-required-option.txt", ["compile", "list.json"]),
        ("error-bad-engine.txt", ["match", "list.json", "--url", "https://x.test/", "--engine", "bogus"]),
        ("error-bad-type.txt", ["match", "list.json", "--url", "https://x.test/", "--type", "picture"]),
        ("error-bad-context.txt", ["match", "list.json", "--url", "https://x.test/", "--context", "main-frame"]),
        ("error-bad-jobs.txt", ["match", "list.json", "--requests", "requests.jsonl", "--jobs", "0"]),
        ("error-no-list.txt", ["match", "--url", "https://x.test/"]),
        ("error-missing-list-file.txt", ["check", "missing.json", "list.json"]),
        ("error-bad-request-lines.txt", ["match", "list.json", "--requests", "requests.jsonl"]),
        ("error-store-unknown-subcommand.txt", ["store", "comple", "x", "list.json"]),
        ("error-store-not-found.txt", ["store", "remove", "missing", "--store", "store"]),
        (
            "error-store-match-not-found.txt",
            ["store", "match", "missing", "--store", "store", "--url", "https://x.test/"]
        ),
        ("error-store-invalid-list.txt", ["store", "compile", "x", "invalid.json", "--store", "store"]),
        ("error-store-missing-identifier.txt", ["store", "source", "--store", "store"]),
        ("lint-warnings.txt", ["lint", "lint.json", "list.json"]),
        ("lint-json.txt", ["lint", "--json", "--disable", "no-index-literal", "lint.json"]),
        ("lint-invalid.txt", ["lint", "invalid.json"]),
        ("error-lint-bad-code.txt", ["lint", "lint.json", "--disable", "unknown-keys"]),
        ("lint-target.txt", ["lint", "--target", "safari-16", "target.json"]),
        ("lint-target-json.txt", ["lint", "--json", "--target", "safari-18", "target.json"]),
        ("error-lint-bad-target.txt", ["lint", "target.json", "--target", "safari-20"]),
    ]

    @Test(arguments: errorCases.map(\.file)) func errorOutput(_ file: String) throws {
        let arguments = try #require(Self.errorCases.first { $0.file == file }).arguments
        let directory = try CLITests.temporaryDirectory()
        for (name, text) in Self.files { _ = try CLITests.write(text, name, in: directory) }
        let run = try CLITests.run(arguments, in: directory)
        let transcript = """
            $ \((["content-blocker"] + arguments).joined(separator: " "))
            exit status: \(run.status)
            --- stdout
            \(run.stdout)--- stderr
            \(run.stderr)
            """
        try Self.expectGolden(transcript, file)
    }
}
