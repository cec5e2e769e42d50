import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `compile -o` destinations (links, modes, an empty name), `inspect`'s selector count and help, and
/// `check`'s summary line.
@Suite struct CompileAndInspectTests {
    static func mode(_ path: String) throws -> mode_t {
        var status = stat()
        try #require(stat(path, &status) == 0)
        return status.st_mode & 0o7777
    }

    static func temporaryFiles(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".tmp") }
    }

    /// `-o LINK` writes through the link as `cp` and `>` do: an existing target is replaced, a missing
    /// one is created (also through a relative link and a chain of links); the links stay links.
    @Test func outputThroughSymbolicLinks() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(CLITests.blockAds, "list.json", in: directory)
        let expected = directory.appendingPathComponent("expected.cbrl").path
        #expect(try CLITests.run(["compile", list, "-o", expected]).status == 0)
        let compiled = try Data(contentsOf: URL(fileURLWithPath: expected))

        let dangling = directory.appendingPathComponent("dangling.cbrl").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "missing.cbrl")
        let run = try CLITests.run(["compile", list, "-o", dangling])
        #expect(run.status == 0, "\(run.stderr)")
        let target = directory.appendingPathComponent("missing.cbrl").path
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == compiled)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == "missing.cbrl")

        let chain = directory.appendingPathComponent("chain.cbrl").path
        let sub = directory.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: chain, withDestinationPath: "sub/link.cbrl")
        try FileManager.default.createSymbolicLink(
            atPath: sub.appendingPathComponent("link.cbrl").path, withDestinationPath: "../final.cbrl")
        #expect(try CLITests.run(["compile", list, "-o", chain]).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: directory.appendingPathComponent("final.cbrl").path)) == compiled)

        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(try CLITests.run(["compile", list, "-o", dangling]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == compiled)
        #expect(try Self.temporaryFiles(in: directory).isEmpty)
        #expect(try Self.temporaryFiles(in: sub).isEmpty)

        let loop = directory.appendingPathComponent("loop.cbrl").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop.cbrl")
        let looping = try CLITests.run(["compile", list, "-o", loop])
        #expect(looping.status == 2)
        #expect(looping.stderr.contains("symbolic link"), "\(looping.stderr)")
    }

    /// A new output file gets 0666 less the umask (as `>` gives it); a file replaced keeps its mode.
    @Test func outputModes() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(CLITests.blockAds, "list.json", in: directory)
        for (umask, expected): (String, mode_t) in [("077", 0o600), ("022", 0o644), ("002", 0o664)] {
            let output = directory.appendingPathComponent("new-\(umask).cbrl").path
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = [
                "-c", "umask \(umask) && exec \"$0\" compile \"$1\" -o \"$2\"", CLITests.executable.path, list, output,
            ]
            shell.standardError = FileHandle.nullDevice
            try shell.run()
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0)
            #expect(try Self.mode(output) == expected, "umask \(umask)")
        }
        for kept: mode_t in [0o600, 0o640, 0o604, 0o755] {
            let output = directory.appendingPathComponent("kept-\(String(kept, radix: 8)).cbrl").path
            try Data("old".utf8).write(to: URL(fileURLWithPath: output))
            #expect(chmod(output, kept) == 0)
            #expect(try CLITests.run(["compile", list, "-o", output]).status == 0)
            #expect(try Self.mode(output) == kept)
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) != Data("old".utf8))
        }
    }

    /// `-o ''` is a usage error (exit 2, the usage hint), not a failed rename.
    @Test func emptyOutputNameIsAUsageError() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(CLITests.blockAds, "list.json", in: directory)
        for arguments in [["-o", ""], ["--output="]] {
            let run = try CLITests.run(["compile", list] + arguments)
            #expect(run.status == 2)
            #expect(run.stderr.contains("-o needs a file name"), "\(run.stderr)")
            #expect(run.stderr.contains("--help"))
            #expect(!run.stderr.contains("rename"))
        }
        #expect(try Self.temporaryFiles(in: directory).isEmpty)
    }

    /// The global stylesheet's selectors are counted at top-level commas only: selectors from real
    /// lists (EasyList and others: commas inside attribute values, `rgb(…)`, escaped quotes) and
    /// `:is(…)`/`:not(…)` lists and commas in comments count once each. Each rule's count is known from how it is written.
    @Test func globalStylesheetSelectorsCountTopLevelCommas() throws {
        let selectors: [(selector: String, count: Int)] = [
            (#"a[href*="x,y"]"#, 1),
            (":is(.p,.q)", 1),
            (".a:not(.b, .c), .d", 2),
            (#"a[title='a,b'], [data-x="\",\""]"#, 2),
            (#"[data-x="a\",b"]"#, 1),
            (#".x\,y"#, 1),
            (#".dds, a[rel="nofollow,noindex"]"#, 2),
            (#"div[style^="color: rgb(238, 238, 238);"]"#, 1),
            (#".ai_widget, .azimg, .inserter-5, div[onclick^="ga('send', 'event', 'Ad',"]"#, 4),
            (#"#pave300x250, #pave695x90, #paves214x157, a[href^="link,"]"#, 4),
            (
                #".o-ProductSliderItem[data-ssr-as*="\"clickUrl\":\"https://retail-api.sa-tech.de/api/"], .o-SearchProductListItem[data-ssr-as*="\"clickUrl\":\"https://retail-api.sa-tech.de/api/"]"#,
                2
            ),
            (".sharing-btn:not(.btn-comments):not(.btn-copy-url):not(.btn-mail)", 1),
            (#"#adv_unisound ~ #ad_module_cont > [id^="ad_module"]"#, 1),
            (".a /* x, y */ .b, .c", 2),
            (".ad", 1),
        ]
        let rules = selectors.map { selector, _ -> [String: Any] in
            ["trigger": ["url-filter": ".*"], "action": ["type": "css-display-none", "selector": selector]]
        }
        let directory = try CLITests.temporaryDirectory()
        let json = String(decoding: try JSONSerialization.data(withJSONObject: rules), as: UTF8.self)
        let list = try CLITests.write(json, "list.json", in: directory)
        let output = directory.appendingPathComponent("list.cbrl").path
        let compile = try CLITests.run(["compile", list, "-o", output])
        try #require(compile.status == 0, "\(compile.stderr)")
        let inspect = try CLITests.run(["inspect", "--json", output])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect(report["globalStylesheetSelectors"] as? Int == selectors.map(\.count).reduce(0, +))
        // All of them are in the global stylesheet: the count is about splitting, not about which rules.
        let match = try CLITests.run(["match", list, "--url", "https://x.test/"])
        let result = try #require(try JSONSerialization.jsonObject(with: Data(match.stdout.utf8)) as? [String: Any])
        let lists = try #require(result["lists"] as? [[String: Any]])
        #expect(lists.first?["globalStylesheet"] as? String == selectors.map(\.selector).joined(separator: ","))
    }

    /// `inspect --json` answers in JSON on failure too (as `check --json` does): a damaged file gives
    /// `{"file","error"}` and exit 1, a missing one `{"file","ioError"}` and exit 2.
    @Test func inspectJSONReportsFailures() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(CLITests.blockAds, "list.json", in: directory)
        let binary = directory.appendingPathComponent("list.cbrl").path
        #expect(try CLITests.run(["compile", list, "-o", binary]).status == 0)
        let truncated = directory.appendingPathComponent("truncated.cbrl").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: binary)).prefix(100)).write(
            to: URL(fileURLWithPath: truncated))
        let missing = directory.appendingPathComponent("missing.cbrl").path
        for (path, key, status) in [(truncated, "error", Int32(1)), (missing, "ioError", 2), (list, "error", 1)] {
            let run = try CLITests.run(["inspect", "--json", path])
            #expect(run.status == status, "\(path)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect(object["file"] as? String == path)
            #expect((object[key] as? String)?.isEmpty == false, "\(path): \(run.stdout)")
            #expect(!run.stderr.isEmpty)
        }
        #expect(try CLITests.run(["inspect", "--json", binary]).status == 0)
    }

    @Test func inspectHelpNamesItsOptions() throws {
        let help = try CLITests.run(["inspect", "--help"])
        #expect(help.status == 0)
        // Described under OPTIONS, not only named in the usage line.
        let lines = help.stdout.split(separator: "\n").map { $0.drop { $0 == " " } }
        #expect(lines.contains { $0.hasPrefix("--json ") })
        #expect(lines.contains { $0.hasPrefix("-h, --help ") })
    }

    @Test func checkSummaryCountsRulesInTheRightNumber() throws {
        let directory = try CLITests.temporaryDirectory()
        let one = try CLITests.write(CLITests.blockAds, "one.json", in: directory)
        let two = try CLITests.write(
            #"[{"trigger":{"url-filter":"a"},"action":{"type":"block"}},{"trigger":{"url-filter":"b"},"action":{"type":"block"}}]"#,
            "two.json", in: directory)
        let run = try CLITests.run(["check", one, two])
        #expect(run.stdout == "\(one): valid (1 rule)\n\(two): valid (2 rules)\n")
        let compile = try CLITests.run(["compile", one, "-o", directory.appendingPathComponent("one.cbrl").path])
        #expect(compile.stderr.contains(": 1 rule → "), "\(compile.stderr)")
    }
}
