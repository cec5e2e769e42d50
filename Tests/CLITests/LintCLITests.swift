import Foundation
import TestSupport
import Testing

/// `content-blocker lint`'s exit status and what it writes besides the warnings (their text is in the
/// golden files).
@Suite struct LintCLITests {
    /// Three warnings: `if-domains` (an unknown key) in each rule, and rule 1 a duplicate of rule 0.
    static let threeWarnings = """
        [{"trigger":{"url-filter":"tracker","if-domains":["a.test"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"tracker","if-domains":["a.test"]},"action":{"type":"block"}}]
        """

    /// `--max-warnings N` as ESLint's: exit 1 only above N warnings in all the files (default 0, -1 no
    /// limit); every warning is printed whatever N; an invalid list gives 1 whatever N.
    @Test func maxWarningsIsAThreshold() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.threeWarnings, "list.json", in: directory)
        let invalid = try CLITests.write(
            #"[{"trigger":{"url-filter":"(ads"},"action":{"type":"block"}}]"#, "bad.json", in: directory)
        for (arguments, status) in [
            ([String](), Int32(1)), (["--max-warnings", "0"], 1), (["--max-warnings", "2"], 1),
            (["--max-warnings", "3"], 0), (["--max-warnings", "50"], 0),
        ] {
            let run = try CLITests.run(["lint", list] + arguments)
            #expect(run.status == status, "\(arguments)")
            #expect(run.stderr.split(separator: "\n").count == 3, "\(arguments): \(run.stderr)")
            #expect(run.stdout.contains("3 warnings"), "\(arguments)")
        }
        #expect(try CLITests.run(["lint", invalid, "--max-warnings", "50"]).status == 1)
        // -1: no limit; the count is over all the files, as ESLint counts.
        #expect(try CLITests.run(["lint", list, "--max-warnings", "-1"]).status == 0)
        #expect(try CLITests.run(["lint", list, list, "--max-warnings", "5"]).status == 1)
        #expect(try CLITests.run(["lint", list, list, "--max-warnings", "6"]).status == 0)
        let negative = try CLITests.run(["lint", list, "--max-warnings", "-2"])
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("a whole number, or -1 for no limit"))
        // An invalid list names the checks it was not given.
        let invalidRun = try CLITests.run(["lint", invalid])
        #expect(
            invalidRun.stdout.contains("not checked on an invalid list: matches-everything"), "\(invalidRun.stdout)")
    }

    /// A file that cannot be read is an `ioError` object with `--json` (as `check --json` writes it),
    /// and exit status 2; the other files are linted.
    @Test func anUnreadableFileIsReportedInJSON() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.threeWarnings, "list.json", in: directory)
        let missing = directory.appendingPathComponent("missing.json").path
        let run = try CLITests.run(["lint", "--json", list, missing])
        #expect(run.status == 2)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(object["file"] as? String == missing)
        #expect(object["valid"] as? Bool == false)
        #expect((object["ioError"] as? String)?.contains("No such file") == true)
    }
}
