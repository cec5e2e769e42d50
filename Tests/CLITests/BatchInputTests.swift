import Foundation
import TestSupport
import Testing

/// `match --requests` input: gzip'd files (by content, not name), `--input-format` for tsurlfilter's,
/// adblock-rust's and HAR request sets, the end-of-batch summary on standard error, `--strict` and
/// `--fields`. Expected answers: WebKit's semantics for the rules used (a `script`-only rule does not
/// block a fetch; `load-type: third-party`; `load-context: child-frame`; if-top-url against the page).
@Suite struct BatchInputTests {
    /// Blocks scripts with "ads", third-party loads of "tracker", child-frame loads of "frame", and any
    /// load whose top URL is on shop.test and whose URL has "promo".
    static let rules = """
        [{"trigger":{"url-filter":"ads","resource-type":["script"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"tracker","load-type":["third-party"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"frame","load-context":["child-frame"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"promo","if-top-url":["^https://shop\\\\.test/"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".banner"}}]
        """

    static func blocked(_ stdout: String) throws -> [Bool?] {
        try stdout.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["blockedLoad"] as? Bool
        }
    }

    static func gzip(_ path: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    @Test func tsurlfilterLinesGzipped() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.rules, "list.json", in: directory)
        let lines = [
            #"{"frameUrl":"https://news.test/","url":"https://cdn.test/ads.js","cpt":"script"}"#,
            #"{"frameUrl":"https://news.test/","url":"https://cdn.test/ads.js","cpt":"xhr"}"#,
            #"{"frameUrl":"https://news.test/","url":"https://news.test/tracker.gif","cpt":"image"}"#,
            #"{"frameUrl":"https://news.test/","url":"https://other.test/tracker.gif","cpt":"image"}"#,
            #"{"frameUrl":"https://shop.test/","url":"https://cdn.test/promo.css","cpt":"stylesheet"}"#,
            #"{"frameUrl":"https://news.test/","url":"https://cdn.test/promo.css","cpt":"stylesheet"}"#,
            #"{"frameUrl":"https://news.test/","url":"https://cdn.test/a.vtt","cpt":"beamer"}"#,
        ]
        let plain = try CLITests.write(lines.joined(separator: "\n") + "\n", "crawl.txt", in: directory)
        let zipped = directory.appendingPathComponent("crawl.data")  // no .gz: found by its content
        try Self.gzip(plain).write(to: zipped)
        let run = try CLITests.run(["match", list, "--requests", zipped.path, "--input-format", "tsurlfilter"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(try Self.blocked(run.stdout) == [true, false, false, true, true, false, nil])
        #expect(
            run.stdout.split(separator: "\n").last?.contains(
                "unknown cpt 'beamer' (valid: cspviolationreport, document,") == true)
        #expect(
            run.stderr.hasPrefix(
                "content-blocker match: 1 of 7 request lines with errors (first: line 7: unknown cpt 'beamer'"))
        // Without the format: answered as requests whose keys are unknown, said on standard error.
        let unformatted = try CLITests.run(["match", list, "--requests", zipped.path])
        #expect(unformatted.status == 0)
        #expect(
            unformatted.stderr
                == "content-blocker match: 7 with unknown keys, ignored: cpt (7), frameUrl (7) — tsurlfilter's keys: "
                + "try --input-format tsurlfilter\n")
        let strict = try CLITests.run(["match", list, "--requests", zipped.path, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.split(separator: "\n").count == 1)  // up to the line that stopped it
        #expect(strict.stderr.hasPrefix("content-blocker match: line 1: unknown request key 'cpt' ignored;"))
        // The same lines plain give the same answers; corrupt and cut gzip data are I/O errors.
        let again = try CLITests.run(["match", list, "--requests", plain, "--input-format", "tsurlfilter"])
        #expect(again.stdout == run.stdout)
        let data = try Self.gzip(plain)
        try data.prefix(data.count - 12).write(to: zipped)
        let cut = try CLITests.run(["match", list, "--requests", zipped.path])
        #expect(cut.status == 2)
        #expect(cut.stderr.contains("the gzip stream is cut short"), "\(cut.stderr)")
        try Data([0x1F, 0x8B, 0x41, 0x42, 0x43]).write(to: zipped)
        let corrupt = try CLITests.run(["match", list, "--requests", zipped.path])
        #expect(corrupt.status == 2)
        #expect(corrupt.stderr.contains("not a valid gzip stream (zlib: "), "\(corrupt.stderr)")
    }

    @Test func adblockRustRequestSet() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.rules, "list.json", in: directory)
        let requests = try CLITests.write(
            """
            [
              {"url": "https://cdn.test/ads.js", "sourceUrl": "https://news.test/", "type": "script", "filters": []},
              {"url": "https://cdn.test/frame.html", "sourceUrl": "https://news.test/", "type": "subdocument"},
              {"url": "https://cdn.test/frame.html", "sourceUrl": "https://news.test/", "type": "main_frame"},
              {"url": "https://x.test/tracker", "sourceUrl": "http://", "type": "xhr"},
              {"url": "not a url", "sourceUrl": "https://news.test/", "type": "image"}
            ]
            """, "requests.json", in: directory)
        let run = try CLITests.run([
            "match", list, "--requests", requests, "--input-format", "adblock-rust", "--fields", "blockedLoad,loadType",
        ])
        #expect(run.status == 1)
        // No valid source URL: no top URL, the null origin, to which a load with a host is third-party
        // (WebKit's `ResourceLoadInfo::isThirdParty`).
        #expect(try Self.blocked(run.stdout) == [true, true, false, true, nil])
        #expect(run.stdout.split(separator: "\n")[3] == #"{"loadType":"third-party","blockedLoad":true}"#)
        #expect(
            run.stderr.hasPrefix(
                "content-blocker match: 1 of 5 requests with errors (first: request 5: url is not a valid URL"))
        let notArray = try CLITests.write(#"{"url":"x"}"#, "object.json", in: directory)
        let refused = try CLITests.run(["match", list, "--requests", notArray, "--input-format", "adblock-rust"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("an adblock-rust request set is a JSON array"))
    }

    @Test func harFile() throws {
        let directory = try CLITests.temporaryDirectory()
        let list = try CLITests.write(Self.rules, "list.json", in: directory)
        func entry(_ url: String, _ page: String?, chrome: String? = nil, mime: String = "") -> String {
            let pageref = page.map { #""pageref":"\#($0)","# } ?? ""
            let type = chrome.map { #""_resourceType":"\#($0)","# } ?? ""
            return
                #"{\#(pageref)\#(type)"request":{"method":"GET","url":"\#(url)"},"response":{"content":{"mimeType":"\#(mime)"}}}"#
        }
        let entries = [
            entry("https://shop.test/", "p1", chrome: "document"),
            entry("https://cdn.test/promo.js", "p1", chrome: "script"),  // top URL shop.test: blocked
            entry("https://cdn.test/ads.js", "p1", mime: "application/javascript"),  // a script by MIME type
            entry("https://cdn.test/ads.css", "p1", mime: "text/css"),  // a style sheet: "ads" is for scripts
            entry("https://cdn.test/frame.html", "p1", chrome: "document"),  // the page's second document
            entry("https://other.test/tracker.png", "p1", chrome: "image"),  // third-party
            entry("https://news.test/promo.png", "p2", chrome: "image"),  // page p2 is news.test
            entry("https://news.test/x", nil, chrome: "fetch"),
            entry("https://news.test/x", "p1", chrome: "prefetchish"),
        ]
        let har = """
            {"log":{"version":"1.2","pages":[{"id":"p1","title":"https://shop.test/"},{"id":"p2","title":"https://news.test/"}],
            "entries":[\(entries.joined(separator: ",\n"))]}}
            """
        let path = try CLITests.write(har, "visit.har", in: directory)
        let run = try CLITests.run(["match", list, "--requests", path, "--input-format", "har"])
        #expect(run.status == 1)
        #expect(try Self.blocked(run.stdout) == [false, true, true, false, true, true, false, false, nil])
        // Brief by default: the global stylesheet (the css-display-none rule of every load) is sized, not
        // listed.
        #expect(run.stdout.split(separator: "\n").first?.contains(#""globalStylesheetBytes":7"#) == true)
        #expect(run.stderr.contains("(first: request 9: unknown _resourceType 'prefetchish' (valid: "))
        // Without the format: every line of the document is an error, and the summary says what it looks like.
        let pretty = try CLITests.write(
            "{\n  \"log\": {\"entries\": []}\n}\n", "pretty.har", in: directory)
        let unformatted = try CLITests.run(["match", list, "--requests", pretty])
        #expect(unformatted.status == 1)
        #expect(
            unformatted.stderr.hasSuffix(
                "— the input looks like one JSON document: try --input-format har or adblock-rust\n"),
            "\(unformatted.stderr)")
        let full = try CLITests.run(["match", list, "--requests", path, "--input-format", "har", "--full"])
        #expect(full.stdout.split(separator: "\n").first?.contains(#""globalStylesheet":".banner""#) == true)
    }

    /// tsurlfilter's crawl through `--input-format tsurlfilter` (gzip'd, `frameUrl` and `cpt` read)
    /// gives the answers of the same requests written as request lines by the test corpus reader.
    @Test(.slowTier, .tags(.corpus), .enabled(if: TestData.shared != nil, "needs ../shared/corpus"))
    func tsurlfilterCrawlMatchesItsMapping() throws {
        guard let shared = TestData.shared, let requests = try Corpus.tsurlfilterRequests() else { return }
        let directory = try CLITests.temporaryDirectory()
        let list = TestData.repositoryRoot.appendingPathComponent("rules/easy2json/easylist.json").path
        let sample = Array(requests.prefix(2_000))
        let lines = try sample.map { request in
            String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "url": request.url, "mainDocumentURL": request.mainDocumentURL,
                    "resourceType": request.resourceType,
                ]), as: UTF8.self)
        }
        let converted = try CLITests.write(lines.joined(separator: "\n") + "\n", "converted.jsonl", in: directory)
        let gz = shared.appendingPathComponent("corpus/requests/tsurlfilter/requests.json.gz").path
        let expected = try CLITests.run(["match", list, "--requests", converted, "--fields", "blockedLoad,actions"])
        let run = try CLITests.run([
            "match", list, "--requests", gz, "--input-format", "tsurlfilter", "--fields", "blockedLoad,actions",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let answered = run.stdout.split(separator: "\n").prefix(sample.count)
        #expect(Array(answered) == expected.stdout.split(separator: "\n"))
    }
}
