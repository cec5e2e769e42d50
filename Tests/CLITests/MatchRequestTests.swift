import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `match`: warnings for request methods no rule can name, what a bad request line says, unique list
/// identifiers, and the progress line on a terminal.
@Suite struct MatchRequestTests {
    /// A `request-method: post` rule: it fires for POST in any case, and not for a request without a
    /// method (`ContentRuleModel.RequestMethod`, spec: the method is compared ASCII case-insensitively).
    static let postOnly = #"[{"trigger":{"url-filter":"form","request-method":"post"},"action":{"type":"block"}}]"#

    static func object(_ line: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// `--method BOGUS` is matched as a request without a method (WebKit's `RequestMethod::None`): the
    /// same answer as without `--method`, exit 0, and one warning on standard error. A known method in
    /// any case gives no warning.
    @Test func unknownMethodFromFlagsWarnsOnStandardError() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.postOnly, "list.json", in: directory)
        let request = ["match", list, "--url", "https://x.test/form"]
        let none = try CLITests.run(request)
        let bogus = try CLITests.run(request + ["--method", "BOGUS"])
        #expect(bogus.status == 0)
        #expect(bogus.stdout == none.stdout)
        #expect(try Self.object(bogus.stdout)["blockedLoad"] as? Bool == false)
        #expect(
            bogus.stderr == "content-blocker match: warning: unknown request method 'BOGUS': matched as no method\n")
        for method in ["POST", "post", "PoSt"] {
            let run = try CLITests.run(request + ["--method", method])
            #expect(run.stderr.isEmpty, "\(method)")
            #expect(try Self.object(run.stdout)["blockedLoad"] as? Bool == true, "\(method)")
        }
        let get = try CLITests.run(request + ["--method", "Get"])
        #expect(get.stderr.isEmpty)
        #expect(get.stdout == none.stdout)
    }

    /// In a batch the warning is in the line's `"warnings"`, after unknown keys; a line that fails
    /// keeps its warnings; a line that is not a JSON object says why (where the syntax breaks, or
    /// what JSON value it is).
    @Test func batchWarningsAndBadLines() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.postOnly, "list.json", in: directory)
        let input = [
            #"{"url":"https://x.test/form","requestMethod":"GETT"}"#,
            #"{"url":"https://x.test/form","requestMethod":"pOsT"}"#,
            #"{"url":"https://x.test/form","requestMethod":"BOGUS","zz":1,"resourceType":"picture"}"#,
            #"{"url":1,"extra":true}"#,
            #"{"url":"#,
            "not json",
            "[1,2]",
            #""text""#,
            "42",
            "null",
            #"{"id":[1,],"url":"https://x.test/ads.js"}"#,
            #"{"url":"https://x.test/ads.js",}"#,
            #"{"url":"https://x.test/ads.js","id":1e999}"#,
        ].joined(separator: "\n")
        let run = try CLITests.run(["match", list, "--requests", "-"], stdin: input)
        #expect(run.status == 1, "\(run.stderr)")
        let objects = try run.stdout.split(separator: "\n").map { try Self.object($0) }
        try #require(objects.count == 13, "\(run.stdout)")
        #expect(objects[0]["warnings"] as? [String] == ["unknown request method 'GETT': matched as no method"])
        #expect(objects[0]["blockedLoad"] as? Bool == false)
        #expect(objects[1]["warnings"] == nil)
        #expect(objects[1]["blockedLoad"] as? Bool == true)
        #expect(
            objects[2]["error"] as? String
                == "line 3: unknown resourceType 'picture' (valid: document, top-document, child-document, image,"
                + " style-sheet, script, font, svg-document, media, popup, ping, fetch, websocket, csp-report, other)")
        #expect(
            objects[2]["warnings"] as? [String] == [
                "unknown request key 'zz' ignored", "unknown request method 'BOGUS': matched as no method",
            ])
        #expect(objects[3]["error"] as? String == "line 4: url must be a string")
        #expect(objects[3]["warnings"] as? [String] == ["unknown request key 'extra' ignored"])
        // Byte offsets are within the line, from 0 (JSONReader's).
        let errors = objects[4...].map { $0["error"] as? String ?? "" }
        #expect(errors[0].hasPrefix("line 5: invalid JSON at byte 7: "), "\(errors[0])")
        #expect(errors[1].hasPrefix("line 6: invalid JSON at byte 0: "), "\(errors[1])")
        #expect(errors[2] == "line 7: valid JSON but not an object (an array)")
        #expect(errors[3] == "line 8: valid JSON but not an object (a string)")
        #expect(errors[4] == "line 9: valid JSON but not an object (a number)")
        #expect(errors[5] == "line 10: valid JSON but not an object (null)")
        // Trailing commas are refused as in rule lists (Foundation's reader alone let them through).
        #expect(errors[6] == "line 11: invalid JSON at byte 9: trailing comma in an array")
        #expect(errors[7].hasPrefix("line 12: invalid JSON at byte "), "\(errors[7])")
        // Valid for WebKit's reader, refused by Foundation's (a number out of Double's range).
        #expect(
            errors[8]
                == "line 13: invalid JSON at byte 36: the number 1e999 is out of range")
    }

    /// Request lines are strict JSON: what WebKit's reader accepts beyond it (`\v` and `\xHH` escapes,
    /// control characters unescaped in strings, lone UTF-16 surrogates, numbers beyond Double's range,
    /// nesting deeper than 512) gives the line an error; the nearest strict lines are answered.
    @Test func requestLinesAreStrictJSON() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(CLITests.blockAds, "list.json", in: directory)
        let url = #""url":"https://x.test/ads.js""#
        func nested(_ depth: Int) -> String {
            String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        }
        let strings = { (texts: [String]) in texts.map { "{\(url),\"s\":\"\($0)\"}" } }
        let refused =
            strings([#"\v"#, #"\x41"#, "a\tb", "a\u{1}b", #"\uD800"#, #"\uDC00"#, #"\uD800\u0041"#, #"\uD800x"#])
            + ["1e999", "-2e308", nested(512)].map { "{\(url),\"n\":\($0)}" }
        let answered =
            strings([#"\uD83D\uDE00"#, #"\/\b\f\n\r\t\u0000"#, "\u{7F}é"])
            + ["1.7976931348623157e308", "1e-400", nested(511)].map { "{\(url),\"n\":\($0)}" }
        let run = try CLITests.run(
            ["match", list, "--requests", "-"], stdin: (refused + answered).joined(separator: "\n"))
        #expect(run.status == 1, "\(run.stderr)")
        let objects = try run.stdout.split(separator: "\n").map { try Self.object($0) }
        try #require(objects.count == refused.count + answered.count, "\(run.stdout)")
        // Where each refused line goes wrong (the string's or the number's first byte) and why.
        let string = "{\(url),\"s\":\"".utf8.count
        let number = "{\(url),\"n\":".utf8.count
        let lone = "a lone UTF-16 surrogate escape"
        let control = "a control character in a string must be escaped"
        let expected: [(Int, String)] = [
            (string, #"the escape \v is not JSON"#), (string, #"the escape \x is not JSON"#), (string + 1, control),
            (string + 1, control), (string, lone), (string, lone), (string, lone), (string, lone),
            (number, "the number 1e999 is out of range"), (number, "the number -2e308 is out of range"),
            (number + 511, "nested deeper than 512 levels"),
        ]
        for (index, (line, (offset, reason))) in zip(refused, expected).enumerated() {
            #expect(
                objects[index]["error"] as? String == "line \(index + 1): invalid JSON at byte \(offset): \(reason)",
                "\(line.prefix(60))")
        }
        for (offset, line) in answered.enumerated() {
            #expect(objects[refused.count + offset]["blockedLoad"] as? Bool == true, "\(line.prefix(60))")
        }
    }

    /// A request's `id` is echoed exactly as the line writes it (a tool pairs answers with requests by
    /// it: a number keeps every digit, an object its keys, order and repeats), whatever JSON value it
    /// is; the last `id` of a line is the one read. A key spelled with an escape (`"i\u0064"`) is
    /// the same key and is echoed as its parsed value.
    @Test func idsAreEchoedAsWritten() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(CLITests.blockAds, "list.json", in: directory)
        let ids = [
            "1", "-7", "1.0", "1e2", "-0", "1.5", "-0.25", "1e-7", "0.1", "1e16", "1e300", "12345678901234567890",
            "9007199254740993", #""a\"b\\c\u00e9/\u0001""#, "true", "false", "null", #"[1,"x",[],{}]"#,
            #"{"b":1,"a":{"c":[0.5]}}"#, #"{"a":1,"a":2}"#, #"{ "s": "}]," , "t" : [ ] }"#,
        ]
        var input = ids.map { #"{"id":"# + $0 + #","url":"https://x.test/ads.js"}"# }
        input.append(#"{"id":1,"url":"https://x.test/ads.js","id":[2]}"#)
        input.append(#"{"i\u0064":3.50,"url":"https://x.test/ads.js"}"#)
        let run = try CLITests.run(["match", list, "--requests", "-"], stdin: input.joined(separator: "\n"))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        try #require(lines.count == input.count, "\(run.stdout)")
        for (line, id) in zip(lines, ids + ["[2]", "3.5"]) {
            #expect(line.hasPrefix(#"{"id":"# + id + #","url":"#), "\(id) → \(line.prefix(60))")
        }
    }

    /// WebKit matches a load's http(s) URL without its fragment for most types (the resource loader
    /// drops it) and with it for popup, media, ping and csp-report; the top URL keeps its fragment.
    /// Expected values from WebKitGTK 2.50.6 (`Tests/Data/oracle-notes/fragments.json`, the oracle
    /// run with fragments kept; svg-document was inconclusive there and is left out).
    @Test func requestURLFragmentsAreMatchedAsWebKitsLoadsMatchThem() throws {
        let directory = try CLITests.temporaryDirectory()
        let notes = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf: TestData.repositoryRoot.appendingPathComponent("Tests/Data/oracle-notes/fragments.json")
                )) as? [String: Any])
        let types: [String: [String]] = [
            "image": ["image"], "script": ["script"], "style-sheet": ["style-sheet"], "font": ["font"],
            "fetch": ["fetch"], "xhr": ["fetch"], "beacon": ["other"], "document": ["document"],
            "child-frame": ["document", "--context", "child-frame"], "popup": ["popup"], "media": ["media"],
            "ping": ["ping"], "csp-report": ["csp-report"],
        ]
        var checked = 0
        for (number, entry) in (notes["suites"] as? [[String: Any]] ?? []).enumerated() {
            let suite = try #require(entry["suite"] as? [String: Any])
            let rules = try JSONSerialization.data(withJSONObject: try #require(suite["rules"]))
            let list = try CLITests.write(String(decoding: rules, as: UTF8.self), "list\(number).json", in: directory)
            for result in entry["results"] as? [[String: Any]] ?? [] {
                let id = result["id"] as? String ?? ""
                guard let type = types[result["type"] as? String ?? ""] else { continue }
                var arguments = ["match", list, "--url", result["url"] as? String ?? "", "--type"] + type
                if type != ["document"] { arguments += ["--top-url", result["main"] as? String ?? ""] }
                let run = try CLITests.run(arguments)
                let answer = try Self.object(run.stdout)
                #expect(answer["blockedLoad"] as? Bool == (result["outcome"] as? String == "blocked"), "\(id)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// Lists with the same file name get distinct identifiers in results: the first keeps the name,
    /// later ones get the first free `-2`, `-3`, … (a file already named `list-2` keeps its name).
    @Test func listIdentifiersAreUnique() throws {
        let directory = try CLITests.temporaryDirectory()
        var paths: [String] = []
        for folder in ["a", "b", "c"] {
            let sub = directory.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            paths.append(try CLITests.write(CLITests.blockAds, folder == "c" ? "list-2.json" : "list.json", in: sub))
        }
        let run = try CLITests.run(["match", paths[0], paths[1], paths[2], paths[0], "--url", "https://x.test/ads"])
        #expect(run.status == 0, "\(run.stderr)")
        let lists = try #require(try Self.object(run.stdout)["lists"] as? [[String: Any]])
        #expect(lists.map { $0["list"] as? String } == ["list", "list-3", "list-2", "list-4"])
        let actions = try #require(try Self.object(run.stdout)["actions"] as? [[String: Any]])
        #expect(Set(actions.map { $0["list"] as? String }).count == 4)
        #expect(try CLITests.run(["match", "--help"]).stdout.contains("list-2"))
    }

    /// Opens a pseudo-terminal: the controller's and the terminal's descriptors. Swift cannot import
    /// `posix_openpt` or the `_IOR` macros: these are Linux's `TIOCSPTLCK` and `TIOCGPTN`
    /// (asm-generic/ioctls.h, the values on x86-64 and arm64).
    static func openTerminal() throws -> (controller: Int32, terminal: Int32) {
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(controller >= 0)
        var unlock: CInt = 0
        var number: CUnsignedInt = 0
        try #require(ioctl(controller, UInt(0x4004_5431), &unlock) == 0)
        try #require(ioctl(controller, UInt(0x8004_5430), &number) == 0)
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(terminal >= 0)
        return (controller, terminal)
    }

    /// Runs `arguments` with standard error on a new terminal, and standard output on that terminal
    /// too or in `outputFile`: what the terminal showed.
    static func runOnTerminal(_ arguments: [String], outputFile: String?) throws -> String {
        let (controller, terminal) = try openTerminal()
        defer { close(controller) }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = arguments
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.standardError = handle
        if let outputFile {
            _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: outputFile)
        } else {
            process.standardOutput = handle
        }
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            close(terminal)
            throw error
        }
        close(terminal)
        // Read until the child's end closes the terminal (EIO); the child blocks if nobody reads.
        var shown: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(controller, &buffer, buffer.count)
            if count > 0 {
                shown += buffer[0..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: shown, as: UTF8.self)
    }

    /// A batch whose results go to the terminal that would show the progress line shows no progress
    /// (it would share a line with the next result); with results in a file, the terminal shows the
    /// progress line, overwritten in place and cleared at the end, and the file holds only results.
    @Test func progressLineNeverSharesALineWithResults() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(CLITests.blockAds, "list.json", in: directory)
        let count = 3_000
        let requests = try CLITests.write(
            String(repeating: #"{"url":"https://x.test/ads.js"}"# + "\n", count: count), "requests.jsonl",
            in: directory)
        // One thread: a window is 4 chunks of 256 lines, so progress would follow lines 1024, 2048, 3000.
        let arguments = ["match", list, "--requests", requests, "--jobs", "1", "--brief"]
        let shared = try Self.runOnTerminal(arguments, outputFile: nil)
        #expect(!shared.contains("matched"))
        // The terminal turns each newline into CR LF: every line it shows is a whole result.
        let lines = shared.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == count)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"url":"#) && $0.hasSuffix("}") })

        let output = directory.appendingPathComponent("results.jsonl").path
        let progress = try Self.runOnTerminal(arguments, outputFile: output)
        #expect(progress.contains("\r\u{1B}[Kmatched 1024 requests"), "\(progress.debugDescription)")
        #expect(progress.contains("matched \(count) requests"))
        #expect(progress.hasSuffix("\r\u{1B}[K"))
        let results = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(results.count == count)
        #expect(results.allSatisfy { $0.hasPrefix(#"{"url":"#) && $0.hasSuffix("}") })
    }
}
