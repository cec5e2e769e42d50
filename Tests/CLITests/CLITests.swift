import Foundation
import TestSupport
import Testing

/// End-to-end tests of the `content-blocker` executable: standard output, standard error, exit status.
@Suite struct CLITests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: URL { TestData.contentBlockerExecutable }

    /// Runs the CLI with `arguments`, `stdin` on standard input, in `directory` (by default the test's).
    static func run(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        try TemporaryDirectory.make("cli")
    }

    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test(arguments: [
        ["--help"], ["check", "--help"], ["compile", "--help"], ["match", "--help"], ["inspect", "-h"],
    ])
    func help(_ arguments: [String]) throws {
        let run = try Self.run(arguments)
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: content-blocker"))
    }

    @Test func usageErrorsExitTwo() throws {
        let unknown = try Self.run(["chek"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown command 'chek'"))
        let option = try Self.run(["check", "--jsn", "x.json"])
        #expect(option.status == 2)
        #expect(option.stderr.contains("Did you mean '--json'?"))
        let shortEquals = try Self.run(["compile", "x.json", "-o=out.cbrl"])
        #expect(shortEquals.status == 2)
        #expect(shortEquals.stderr.contains("A short option's value follows a space: '-o out.cbrl'"))
        #expect(try !Self.run(["compile", "x.json", "-x=1"]).stderr.contains("short option"))
        #expect(try !Self.run(["store", "compile", "a", "x.json", "--id"]).stderr.contains("Did you mean '-h'"))
        // What only a batch reads is refused with a single request.
        for (flag, value) in [("--jobs", "2"), ("--strict", nil), ("--input-format", "har")] {
            let single = try Self.run(
                ["match", "x.json", "--url", "https://a.test/", flag] + [value].compactMap { $0 })
            #expect(single.status == 2, "\(flag)")
            #expect(single.stderr.contains("\(flag) applies to --requests"), "\(single.stderr)")
        }
        let missing = try Self.run(["check", "/nonexistent/list.json"])
        #expect(missing.status == 2)
        // A single-value option given twice would lose its first value silently ;
        // --active-actions is the repeatable one.
        for arguments in [
            ["compile", "x.json", "-o", "a", "-o", "b"], ["compile", "x.json", "-o", "a", "--output", "b"],
            ["match", "x.json", "--url", "https://a.test/", "--type", "image", "--type", "script"],
        ] {
            let twice = try Self.run(arguments)
            #expect(twice.status == 2, "\(arguments)")
            #expect(twice.stderr.contains("given more than once"), "\(arguments)")
        }
    }

    @Test func checkReportsEveryErrorWithWebKitsFirst() throws {
        let directory = try Self.temporaryDirectory()
        let list = """
            [{"trigger":{"url-filter":"ok"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"a|b"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"x","if-domain":["Example.com"]},"action":{"type":"block"}},
             {"trigger":{"url-filter":"y"},"action":{"type":"nope"}}]
            """
        let path = try Self.write(list, "bad.json", in: directory)
        let run = try Self.run(["check", path])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        // WebKit reports parse errors before regex errors (spec §2.2): rule 2's is its error and comes
        // first; the others follow in file order (rule 1, then rule 3), each with its line and column.
        #expect(lines.count == 3)
        #expect(
            lines.first
                == "\(path):3:44: error: rule 2: trigger.if-domain[0]: Domains must be lower case ASCII. Use punycode to encode non-ASCII characters."
        )
        #expect(
            lines.dropFirst().first?.hasPrefix(
                "\(path):2:27: error: rule 1: trigger.url-filter: Invalid or unsupported regular expression.") == true)
        #expect(lines.last?.hasPrefix("\(path):4:49: error: rule 3: action.type: Invalid action type.") == true)
        #expect(run.stdout == "\(path): invalid (3 errors)\n")
    }

    @Test func checkJSONAndStandardInput() throws {
        let run = try Self.run(["check", "--json", "-"], stdin: "[]")
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["error"] as? String == "JSONContainsNoRules")
        #expect(diagnostics.first?["message"] as? String == "Empty extension.")
    }

    @Test func compileInvalidWritesNothingAndKeepsOldOutput() throws {
        let directory = try Self.temporaryDirectory()
        let bad = try Self.write(
            #"[{"trigger":{"url-filter":"a{2}"},"action":{"type":"block"}}]"#, "bad.json", in: directory)
        let output = directory.appendingPathComponent("out.cbrl").path
        let first = try Self.run(["compile", bad, "-o", output])
        #expect(first.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        try Data("previous".utf8).write(to: URL(fileURLWithPath: output))
        _ = try Self.run(["compile", bad, "-o", output])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix(".tmp")
        }
        #expect(leftovers.isEmpty)
    }

    /// `compile -o` refuses the rule list itself and a directory (exit 2, nothing changed), writes to a
    /// device or a pipe as it is (`/dev/null`, `/dev/stdout`), and `-o -` writes the binary rule list to
    /// standard output.
    @Test func compileOutputDestinations() throws {
        let directory = try Self.temporaryDirectory()
        let json = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#
        let list = try Self.write(json, "list.json", in: directory)
        let itself = try Self.run(["compile", list, "-o", list])
        #expect(itself.status == 2)
        #expect(itself.stderr.contains("overwritten"))
        #expect(try String(contentsOfFile: list, encoding: .utf8) == json)
        let folder = try Self.run(["compile", list, "-o", directory.path])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("not a regular file"))
        #expect(try Self.run(["compile", list, "-o", "/dev/null"]).status == 0)
        let full = try Self.run(["compile", list, "-o", "/dev/full"])
        #expect(full.status == 2)
        #expect(full.stderr.contains("/dev/full: write failed: No space left on device"), "\(full.stderr)")
        let output = directory.appendingPathComponent("out.cbrl").path
        #expect(try Self.run(["compile", list, "-o", output]).status == 0)
        for destination in ["-", "/dev/stdout"] {
            let toStdout = Process()
            toStdout.executableURL = Self.executable
            toStdout.arguments = ["compile", list, "-o", destination]
            let pipe = Pipe()
            toStdout.standardOutput = pipe
            toStdout.standardError = FileHandle.nullDevice
            try toStdout.run()
            let streamed = pipe.fileHandleForReading.readDataToEndOfFile()
            toStdout.waitUntilExit()
            #expect(toStdout.terminationStatus == 0, "\(destination)")
            #expect(streamed == (try Data(contentsOf: URL(fileURLWithPath: output))), "\(destination)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path))
    }

    /// `inspect` and `match` name a file they cannot open once, and `inspect` exits 2 for it (an I/O
    /// error, as its help says) but 1 for a file that is not a binary rule list, with a hint.
    @Test func unreadableAndWrongFilesAreNamedOnce() throws {
        let directory = try Self.temporaryDirectory()
        let missing = directory.appendingPathComponent("missing.cbrl").path
        let inspect = try Self.run(["inspect", missing])
        #expect(inspect.status == 2)
        #expect(inspect.stderr.components(separatedBy: missing).count == 2, "\(inspect.stderr)")
        let match = try Self.run(["match", missing, "--url", "https://a.test/"])
        #expect(match.status == 2)
        #expect(match.stderr.components(separatedBy: missing).count == 2, "\(match.stderr)")
        let json = try Self.write("[]", "list.json", in: directory)
        let notBinary = try Self.run(["inspect", json])
        #expect(notBinary.status == 1)
        #expect(notBinary.stderr.contains("compile"))
    }

    @Test(.slowTier) func compiledAndJSONListsAnswerAlike() throws {
        let directory = try Self.temporaryDirectory()
        let list = TestData.repositoryRoot.appendingPathComponent("rules/easy2json/easylist.json").path
        let output = directory.appendingPathComponent("easylist.cbrl").path
        let compile = try Self.run(["compile", list, "-o", output])
        #expect(compile.status == 0, "\(compile.stderr)")
        let inspect = try Self.run(["inspect", "--json", output])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("\"sourceRules\":10136"))
        let requests = TestData.repositoryRoot.appendingPathComponent("rules/sample-requests.jsonl").path
        let fromJSON = try Self.run(["match", list, "--requests", requests])
        let fromBinary = try Self.run(["match", output, "--requests", requests])
        #expect(fromJSON.status == 1)  // the last sample line is not a URL on purpose
        #expect(fromBinary.status == 1)
        #expect(fromJSON.stdout == fromBinary.stdout)
        let lines = fromBinary.stdout.split(separator: "\n")
        #expect(lines.count == 13)
        #expect(lines.last?.hasPrefix(#"{"error":"#) == true)
    }

    @Test func matchOneRequestFromFlags() throws {
        let directory = try Self.temporaryDirectory()
        let list = try Self.write(
            """
            [{"trigger":{"url-filter":"^https?://([^/]+\\\\.)?tracker\\\\.test[/:]","load-type":["third-party"]},"action":{"type":"block"}},
             {"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".ad"}},
             {"trigger":{"url-filter":"upgrade"},"action":{"type":"make-https"}}]
            """, "demo.json", in: directory)
        let blocked = try Self.run([
            "match", list, "--url", "https://cdn.tracker.test/t.js", "--top-url", "https://news.example/", "--type",
            "script",
        ])
        #expect(blocked.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(blocked.stdout.utf8)) as? [String: Any])
        #expect(object["blockedLoad"] as? Bool == true)
        #expect(object["loadType"] as? String == "third-party")
        let lists = try #require(object["lists"] as? [[String: Any]])
        #expect(lists.first?["list"] as? String == "demo")
        #expect(lists.first?["globalStylesheet"] as? String == ".ad")
        let firstParty = try Self.run(["match", list, "--url", "https://tracker.test/", "--type", "document"])
        #expect(firstParty.stdout.contains(#""blockedLoad":false"#))
        let upgraded = try Self.run(["match", list, "--url", "http://site.test/upgrade"])
        #expect(upgraded.stdout.contains(#""madeHTTPS":true"#))
        #expect(upgraded.stdout.contains(#""requestURL":"https://site.test/upgrade""#))
    }

    /// A list named by a path that is a pipe or a device (`<(…)`, `/dev/stdin`) is read to its end, as
    /// `check` and `compile` read it (it was refused with "open failed: not a regular file").
    @Test func listsFromPipesAreRead() throws {
        let list = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#
        let match = try CLITests.run(["match", "/dev/stdin", "--url", "https://a.test/ads.js"], stdin: list)
        #expect(match.status == 0, "\(match.stderr)")
        #expect(match.stdout.contains(#""blockedLoad":true"#))
        // inspect reads it too, and says what it is not.
        let inspect = try CLITests.run(["inspect", "/dev/stdin"], stdin: list)
        #expect(inspect.status == 1, "\(inspect.stderr)")
        #expect(!inspect.stderr.contains("not a regular file"), "\(inspect.stderr)")
        // An empty file (a failed download) is named so, not reported as a JSON syntax error.
        let empty = try CLITests.write("", "empty.cbrl", in: try CLITests.temporaryDirectory())
        let run = try CLITests.run(["match", empty, "--url", "https://a.test/"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("empty file: neither a binary nor a JSON rule list"), "\(run.stderr)")
    }

    @Test func versionNamesTheBinaryFormat() throws {
        let run = try Self.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("content-blocker "))
        #expect(run.stdout.contains("(binary rule list format "))
    }

    static let blockAds = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#

    /// Line N of the output answers line N of the input, whatever the line holds: blank lines, lines
    /// that are not JSON objects and bad requests give `{"error": "line N: …"}`; `id` is echoed; unknown
    /// keys are named in `warnings` (the request is answered as if they were absent).
    @Test func batchOutputPairsWithInputLines() throws {
        let directory = try Self.temporaryDirectory()
        let list = try Self.write(Self.blockAds, "list.json", in: directory)
        let input =
            [
                #"{"id":7,"url":"https://x.test/ads.js","resourceType":"script"}"#,
                "",
                "not json",
                #"{"url":1}"#,
                #"{"id":"b","url":"https://x.test/ads.js","resource-type":"script"}"#,
                "   ",
                #"{"url":"https://x.test/page"}"#,
            ].joined(separator: "\n") + "\n"
        let run = try Self.run(["match", list, "--requests", "-"], stdin: input)
        // Some lines had errors: every line is answered, the exit status is 1 and standard error sums up.
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            run.stderr == """
                content-blocker match: 4 of 7 request lines with errors (first: line 2: empty line, expected a JSON request object)
                content-blocker match: 1 with unknown keys, ignored: resource-type (1)

                """)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        try #require(lines.count == 7, "\(run.stdout)")
        let objects = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects[0]["id"] as? Int == 7)
        #expect(objects[0]["blockedLoad"] as? Bool == true)
        #expect(lines[0].hasPrefix(#"{"id":7,"#))
        for (index, fragment) in [
            (1, "empty line"), (2, "invalid JSON at byte 0"), (3, "url must be a string"), (5, "empty line"),
        ] {
            let error = objects[index]["error"] as? String
            #expect(error?.hasPrefix("line \(index + 1): ") == true, "\(lines[index])")
            #expect(error?.contains(fragment) == true, "\(lines[index])")
        }
        #expect(objects[4]["id"] as? String == "b")
        #expect(objects[4]["warnings"] as? [String] == ["unknown request key 'resource-type' ignored"])
        // Without its resource type the request is a document load: `ads` still blocks it.
        #expect(objects[4]["blockedLoad"] as? Bool == true)
        #expect(objects[6]["blockedLoad"] as? Bool == false)
        #expect(objects[6]["warnings"] == nil)
    }

    /// `match --requests -` answers each request line as it arrives: the answer to the first line is
    /// read while standard input is still open.
    @Test func batchAnswersRequestsAsTheyArrive() throws {
        let directory = try Self.temporaryDirectory()
        let list = try Self.write(Self.blockAds, "list.json", in: directory)
        let (process, input, output) = try Self.start(["match", list, "--requests", "-", "--jobs", "1"])
        input.fileHandleForWriting.write(Data(#"{"url":"https://x.test/ads.js"}"#.utf8 + [0x0A]))
        let answered = DispatchSemaphore(value: 0)
        let received = Received()
        DispatchQueue.global().async {
            received.set(output.fileHandleForReading.availableData)
            answered.signal()
        }
        let inTime = answered.wait(timeout: .now() + 60) == .success
        try input.fileHandleForWriting.close()
        if !inTime { answered.wait() }
        process.waitUntilExit()
        #expect(inTime, "no answer while standard input was open")
        #expect(String(decoding: received.get(), as: UTF8.self).contains(#""blockedLoad":true"#))
        #expect(process.terminationStatus == 0)
    }

    /// A binary list rewritten in place (`cp`, `>`) while `match --requests -` runs with it: the process
    /// keeps answering from the list it opened (it reads binary lists into memory; a memory map crashed
    /// it with SIGBUS or SIGSEGV).
    @Test func binaryListRewrittenInPlaceWhileMatching() throws {
        let directory = try Self.temporaryDirectory()
        let json = try Self.write(Self.blockAds, "list.json", in: directory)
        let other = try Self.write(
            #"[{"trigger":{"url-filter":"zzz"},"action":{"type":"block"}}]"#, "other.json", in: directory)
        let binary = directory.appendingPathComponent("list.cbrl").path
        let otherBinary = directory.appendingPathComponent("other.cbrl").path
        #expect(try Self.run(["compile", json, "-o", binary]).status == 0)
        #expect(try Self.run(["compile", other, "-o", otherBinary]).status == 0)
        let replacement = try Data(contentsOf: URL(fileURLWithPath: otherBinary))
        for rewrite in [replacement, Data(), replacement.prefix(200)] {
            #expect(try Self.run(["compile", json, "-o", binary]).status == 0)
            let (process, input, output) = try Self.start(
                ["match", binary, "--requests", "-", "--jobs", "1", "--brief"])
            let line = Data(#"{"url":"https://x.test/ads.js"}"#.utf8 + [0x0A])
            input.fileHandleForWriting.write(line)
            // The first answer: the list is open.
            let first = output.fileHandleForReading.availableData
            #expect(String(decoding: first, as: UTF8.self).contains(#""blockedLoad":true"#))
            // In place: truncated and rewritten, the same inode.
            try rewrite.write(to: URL(fileURLWithPath: binary))
            input.fileHandleForWriting.write(line)
            try input.fileHandleForWriting.close()
            let rest = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "rewritten with \(rewrite.count) bytes")
            #expect(String(decoding: rest, as: UTF8.self).contains(#""blockedLoad":true"#))
        }
    }

    /// Starts the CLI with `arguments`, standard input and output on pipes (standard error discarded).
    static func start(_ arguments: [String]) throws -> (Process, input: Pipe, output: Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, input, output)
    }

    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        func get() -> Data { lock.withLock { data } }
    }

    /// A single request from flags that is not a valid request is a usage error (exit 2, nothing on
    /// standard output); standard input cannot serve two inputs.
    @Test func badRequestFlagsAndDoubleStandardInputAreUsageErrors() throws {
        let directory = try Self.temporaryDirectory()
        let list = try Self.write(Self.blockAds, "list.json", in: directory)
        for (flags, message) in [
            (["--url", "not a url"], "invalid request: url is not a valid URL"),
            (["--url", "https://x.test/", "--type", "picture"], "--type must be one of: document, top-document"),
        ] {
            let run = try Self.run(["match", list] + flags)
            #expect(run.status == 2, "\(flags)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("content-blocker match: \(message)"), "\(run.stderr)")
        }
        #expect(try Self.run(["match", "-", "--requests", "-"], stdin: Self.blockAds).status == 2)
        // A single request's flags with --requests (each line says its own): a usage error naming the flag.
        let requests = try Self.write(#"{"url":"https://x.test/ads.js"}"# + "\n", "requests.jsonl", in: directory)
        for flag in [["--type", "image"], ["--url", "https://x.test/"], ["--top-url", "https://t.test/"]] {
            let run = try Self.run(["match", list, "--requests", requests] + flag)
            #expect(run.status == 2, "\(flag)")
            #expect(run.stderr.contains(flag[0]), "\(flag)")
        }
        #expect(try Self.run(["match", list, "--requests", requests]).status == 0)
        #expect(try Self.run(["check", "-", "-"], stdin: Self.blockAds).status == 2)
    }

    /// `check` reports a file it cannot read and still checks the others; with `--json` the file has
    /// its own object with `ioError`; the exit status is 2.
    @Test func checkGoesOnPastAnUnreadableFile() throws {
        let directory = try Self.temporaryDirectory()
        let good = try Self.write(Self.blockAds, "good.json", in: directory)
        let missing = directory.appendingPathComponent("missing.json").path
        let run = try Self.run(["check", "--json", missing, good])
        #expect(run.status == 2)
        #expect(run.stderr.contains(missing))
        let objects = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(objects.count == 2, "\(run.stdout)")
        #expect(objects[0]["file"] as? String == missing)
        #expect(objects[0]["ioError"] is String)
        #expect(objects[1]["valid"] as? Bool == true)
        let plain = try Self.run(["check", missing, good])
        #expect(plain.status == 2)
        #expect(plain.stdout.contains("\(good): valid (1 rule)\n"))
    }
    /// `--brief` leaves out css-display-none actions and global stylesheets and counts them; the other
    /// members are those of the full result.
    @Test func briefResultsCountSelectors() throws {
        let directory = try Self.temporaryDirectory()
        let list = try Self.write(
            """
            [{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".ad"}},
             {"trigger":{"url-filter":".*","if-domain":["x.test"]},"action":{"type":"css-display-none","selector":".x"}},
             {"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]
            """, "list.json", in: directory)
        let request = ["--url", "https://x.test/ads.js", "--type", "script"]
        let full = try Self.run(["match", list] + request)
        let brief = try Self.run(["match", list, "--brief"] + request)
        #expect(brief.status == 0, "\(brief.stderr)")
        let fullObject = try #require(try JSONSerialization.jsonObject(with: Data(full.stdout.utf8)) as? [String: Any])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(brief.stdout.utf8)) as? [String: Any])
        let fullActions = try #require(fullObject["actions"] as? [[String: Any]])
        let actions = try #require(object["actions"] as? [[String: Any]])
        #expect(fullActions.contains { $0["selector"] as? String == ".x" })
        #expect(actions.map { $0["type"] as? String } == ["block"])
        #expect(object["cssDisplayNoneActions"] as? Int == fullActions.count - 1)
        let lists = try #require(object["lists"] as? [[String: Any]])
        #expect(lists.first?["globalStylesheetBytes"] as? Int == ".ad".utf8.count)
        #expect(lists.first?["globalStylesheet"] == nil)
        #expect(object["blockedLoad"] as? Bool == true)
    }

    /// `--fired-rules` adds each list's fired rules: the source indices of the rules whose triggers
    /// matched (spec §4.5: url-filter, flags and condition), ignore rules and the rules they cancel
    /// included, ascending, the same from both engines; a rule of the global stylesheet is not a rule
    /// the load fires (spec §4.9).
    @Test func firedRulesNameTheMatchedRules() throws {
        let directory = try Self.temporaryDirectory()
        let list = try Self.write(
            """
            [{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},
             {"trigger":{"url-filter":".*","if-domain":["site.test"]},"action":{"type":"css-display-none","selector":".x"}},
             {"trigger":{"url-filter":"ads/keep"},"action":{"type":"ignore-previous-rules"}},
             {"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".g"}},
             {"trigger":{"url-filter":"nomatch"},"action":{"type":"block"}}]
            """, "list.json", in: directory)
        let stylesheetList = try Self.write(
            #"[{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".g"}},"#
                + #"{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#, "sheet.json", in: directory)
        func firedRules(_ list: String, _ url: String, top: String, engine: String) throws -> [Int]? {
            let output = try Self.run(
                ["match", list, "--url", url, "--top-url", top, "--type", "image", "--fired-rules", "--engine", engine])
            #expect(output.status == 0, "\(output.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            return (object["lists"] as? [[String: Any]])?.first?["firedRules"] as? [Int]
        }
        for engine in ["fast", "reference"] {
            // Rule 3 follows an ignore rule, so it is no part of the global stylesheet: it fires.
            #expect(
                try firedRules(list, "https://x.test/ads/keep", top: "https://site.test/", engine: engine) == [
                    0, 1, 2, 3,
                ])
            #expect(try firedRules(list, "https://x.test/ads/x", top: "https://other.test/", engine: engine) == [0, 3])
            #expect(
                try firedRules(stylesheetList, "https://x.test/ads", top: "https://site.test/", engine: engine) == [1])
        }
        // Without the flag, no such member.
        let plain = try Self.run(["match", list, "--url", "https://x.test/ads"])
        #expect(!plain.stdout.contains("firedRules"))
    }

    /// A failed write to standard output (here /dev/full: "No space left on device") is an I/O error:
    /// exit 2 with one line on standard error, no crash — for a batch, a single request and `check`.
    @Test func failedOutputWritesExitTwo() throws {
        let directory = try Self.temporaryDirectory()
        let list = try Self.write(Self.blockAds, "list.json", in: directory)
        let requests = try Self.write(
            String(repeating: #"{"url":"https://x.test/ads.js"}"# + "\n", count: 2_000), "requests.jsonl",
            in: directory)
        for arguments in [
            ["match", list, "--requests", requests], ["match", list, "--url", "https://x.test/"], ["check", list],
            ["compile", list, "-o", "-"],
        ] {
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "\(arguments): \(stderr)")
            #expect(stderr.contains("standard output: write failed: "), "\(arguments): \(stderr)")
            #expect(stderr.components(separatedBy: "write failed").count == 2, "once: \(arguments): \(stderr)")
            #expect(!stderr.contains("Fatal error"), "\(arguments)")
        }
    }
}
