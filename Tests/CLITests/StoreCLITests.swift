import Foundation
import TestSupport
import Testing

/// `content-blocker store …` end to end, and several processes using one store at once.
@Suite struct StoreCLITests {
    static let block = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#
    static let cookies = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block-cookies"}}]"#

    @Test func compileListMatchSourceRemove() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.block, "list.json", in: directory)
        let store = directory.appendingPathComponent("store").path
        let compiled = try CLITests.run(["store", "compile", "a/b ü", list, "--store", store])
        #expect(compiled.status == 0 && compiled.stdout.isEmpty)
        #expect(try CLITests.run(["store", "list", "--store", store]).stdout == "a/b ü\n")
        let matched = try CLITests.run([
            "store", "match", "a/b ü", "--store", store, "--url", "https://x.test/ads.js", "--type", "script",
        ])
        #expect(matched.status == 0)
        #expect(matched.stdout.contains(#""blockedLoad":true"#) && matched.stdout.contains(#""list":"a/b ü""#))
        #expect(try CLITests.run(["store", "source", "a/b ü", "--store", store]).stdout == Self.block)
        #expect(try CLITests.run(["store", "remove", "a/b ü", "--store", store]).status == 0)
        #expect(try CLITests.run(["store", "list", "--store", store]).stdout.isEmpty)
        // From standard input, and the default store under XDG_DATA_HOME is not used with --store.
        let fromStdin = try CLITests.run(["store", "compile", "x", "-", "--store", store], stdin: Self.cookies)
        #expect(fromStdin.status == 0)
        #expect(try CLITests.run(["store", "source", "x", "--store", store]).stdout == Self.cookies)
    }

    /// Commands that only read do not create a store: a mistyped `--store` is not answered as an empty
    /// store left behind; `store compile` creates it.
    @Test func readingDoesNotCreateTheStore() throws {
        let directory = try CLITests.temporaryDirectory()
        let store = directory.appendingPathComponent("typo").path
        #expect(try CLITests.run(["store", "list", "--store", store]).stdout.isEmpty)
        for command in [
            ["store", "source", "x"], ["store", "remove", "x"], ["store", "match", "x", "--url", "https://a.test/"],
            ["store", "explain", "x", "--url", "https://a.test/"],
        ] {
            let run = try CLITests.run(command + ["--store", store])
            #expect(run.status == 1, "\(command)")
            #expect(run.stderr.contains("no content rule list is stored as 'x' (no store at \(store))"), "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: store))
        // An invalid list: every error, or the first N with --max-errors; nothing stored.
        let invalid = try CLITests.write(
            #"[{"trigger":{"url-filter":"(a"},"action":{"type":"block"}},{"trigger":{"url-filter":"[z-a]"},"action":{"type":"block"}}]"#,
            "invalid.json", in: directory)
        let limited = try CLITests.run(["store", "compile", "x", invalid, "--store", store, "--max-errors", "1"])
        #expect(limited.status == 1)
        #expect(limited.stderr.contains("1 more not shown (--max-errors 1)"), "\(limited.stderr)")
        let list = try CLITests.write(Self.block, "list.json", in: directory)
        #expect(try CLITests.run(["store", "compile", "x", list, "--store", store]).status == 0)
        #expect(try CLITests.run(["store", "list", "--store", store]).stdout == "x\n")
    }

    /// `store list --json`: one JSON array, which keeps identifiers with a newline or a quote whole (the
    /// plain listing cannot).
    @Test func listAsJSON() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.block, "list.json", in: directory)
        let store = directory.appendingPathComponent("store").path
        #expect(try CLITests.run(["store", "list", "--json", "--store", store]).stdout == "[]\n")
        for identifier in ["line\nbreak", #"say "hi""#] {
            #expect(try CLITests.run(["store", "compile", identifier, list, "--store", store]).status == 0)
        }
        let listed = try CLITests.run(["store", "list", "--json", "--store", store]).stdout
        let identifiers = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String]
        #expect(identifiers == ["line\nbreak", #"say "hi""#])
    }

    /// Two processes compiling different lists for one identifier over and over while a third looks it
    /// up: every process succeeds, every look-up sees one whole list, and the store ends with one file
    /// (no temporary file left) holding one of the two sources.
    @Test func processesRaceOnOneIdentifier() throws {
        let directory = try CLITests.temporaryDirectory()
        let lists = [
            try CLITests.write(Self.block, "block.json", in: directory),
            try CLITests.write(Self.cookies, "cookies.json", in: directory),
        ]
        let store = directory.appendingPathComponent("store").path
        // Three shells started at once (no `&`: a shell started by Foundation's Process waits forever for
        // background jobs, its SIGCHLD being blocked).
        let compile = """
            for i in $(seq 1 15); do "$0" store compile shared "$2" --store "$1" 2>/dev/null || echo "fail $2 $i"; done
            """
        let match = """
            for i in $(seq 1 15); do
                out=$("$0" store match shared --store "$1" --url https://x.test/ads.js --type script 2>&1) || {
                    case "$out" in *"no content rule list is stored"*) ;; *) echo "fail match $i: $out" ;; esac
                    continue
                }
                case "$out" in
                    *'"blockedLoad":true,"blockedCookies":false'*|*'"blockedLoad":false,"blockedCookies":true'*) ;;
                    *) echo "mixed $i: $out" ;;
                esac
            done
            """
        let shells = [(compile, lists[0]), (compile, lists[1]), (match, "")].map { script, list in
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", script, CLITests.executable.path, store, list]
            let out = Pipe()
            shell.standardOutput = out
            return (shell, out)
        }
        for (shell, _) in shells { try shell.run() }
        var output = ""
        for (shell, out) in shells {
            output += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            shell.waitUntilExit()
        }
        #expect(output.isEmpty, "\(output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
        #expect(names == [".lock", "ContentRuleList-shared"])
        let source = try CLITests.run(["store", "source", "shared", "--store", store]).stdout
        #expect(source == Self.block || source == Self.cookies)
    }
}
