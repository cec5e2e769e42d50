import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleModel
import RequestBatch
import RuleListParser

#if canImport(Glibc)
    import Glibc
#endif

struct CheckCommand: Command {
    static let listsArgument = Positional(
        valueName: "LIST.json", noun: "rule list", help: "A JSON rule list, or `-` for standard input.",
        count: .oneOrMore)
    static let jsonFlag = Flag(
        "--json",
        help: """
            Print one JSON object per file on standard output instead of the summary line ({file, valid,
            rules, diagnostics: [{severity, error, message, rule, key, detail, byteOffset?, line, column}]};
            a file that cannot be read has "ioError").
            """)
    /// `--max-errors N` (check and compile).
    static let maxErrorsOption = Option<PositiveInteger>(
        "--max-errors", valueName: "N",
        help: "Print at most N diagnostics of a file on standard error, then how many more there are.",
        defaultValue: "all")

    static let configuration = CommandConfiguration(
        name: "check", abstract: "Validate rule lists; report every error with its rule index and key.",
        discussion: """
            Validates Safari content-blocker rule lists exactly as WebKit does. Every error is reported, one
            line per rule, on standard error as `FILE:LINE:COLUMN: error: rule N: KEY: message` (LINE and COLUMN,
            from 1, of the value the error is about; COLUMN counts characters); the first error of a file
            is the one WebKit reports (WebKit's message, then our detail in parentheses), the others follow
            in file order.
            """,
        arguments: [listsArgument], options: [jsonFlag.declaration, maxErrorsOption.declaration],
        exitStatuses: [
            (0, "all lists valid"), (1, "some list invalid"),
            (2, "usage or I/O error (a file that cannot be read is reported and the others are still checked)"),
        ])

    var lists: [String]
    var json: Bool
    var maxErrors: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        lists = arguments[Self.listsArgument]
        json = arguments[Self.jsonFlag]
        maxErrors = arguments[Self.maxErrorsOption]?.value
        try RuleListInput.readStandardInputOnce(lists)
    }

    func run() throws -> Int32 {
        var allValid = true
        var unreadable = false
        for path in lists {
            let bytes: [UInt8]
            do {
                bytes = try RuleListInput.read(path)
            } catch {
                // Reported, and the other files are still checked; the exit status says 2.
                unreadable = true
                Console.err("content-blocker: \(error.message)")
                if json {
                    Console.out(
                        JSON.object([
                            ("file", .string(path)), ("valid", .bool(false)), ("rules", .null),
                            ("diagnostics", .array([])), ("ioError", .string(error.message)),
                        ]).text)
                }
                continue
            }
            let result = RuleListCompiler.compile(json: bytes)
            let errors = result.errors
            allValid = allValid && errors.isEmpty
            if json {
                Console.out(Self.report(path: path, result: result).text)
            } else {
                RuleListInput.report(result.diagnostics, file: path, limit: maxErrors)
                if errors.isEmpty {
                    let rules = result.list?.sourceRuleCount ?? 0
                    Console.out("\(path): valid (\(rules) rule\(rules == 1 ? "" : "s"))")
                } else {
                    Console.out("\(path): invalid (\(errors.count) error\(errors.count == 1 ? "" : "s"))")
                }
            }
        }
        return unreadable ? 2 : allValid ? 0 : 1
    }

    static func report(path: String, result: RuleListCompiler.Result) -> JSON {
        let diagnostics = result.diagnostics.map { diagnostic -> JSON in
            var writer = JSONWriter()
            writer.diagnostic(diagnostic)
            return .raw(String(decoding: writer.bytes, as: UTF8.self))
        }
        return .object([
            ("file", .string(path)), ("valid", .bool(result.errors.isEmpty)),
            ("rules", result.list.map { .int($0.sourceRuleCount) } ?? .null),
            ("diagnostics", .array(diagnostics)),
        ])
    }
}

/// Large values the compile command keeps until the process exits: freeing a few hundred thousand
/// small objects one by one takes longer than the process exit that reclaims them at once.
enum Retained {
    nonisolated(unsafe) static var objects: [Any] = []
}

struct CompileCommand: Command {
    static let listArgument = Positional(
        valueName: "LIST.json", noun: "rule list", help: "The JSON rule list, or `-` for standard input.",
        count: .one)
    static let outputOption = Option<String>(
        "-o", "--output", valueName: "OUT",
        help: """
            Where to write the binary rule list: a file, or `-` for standard output. A symbolic link is
            written through (its target is created if missing); a character device or a pipe (`/dev/null`,
            `/dev/stdout`, a FIFO) is written to as it is; a directory is refused, as is the rule list
            itself. A replaced file keeps its mode; a new one gets 0666 less the umask. The replacement is a
            new file: other hard links to the old one keep the old contents, and it belongs to whoever
            compiled it (a writable directory lets anyone replace a file there, read-only or not).
            """, required: true)
    static let timingsFlag = Flag(
        "--timings",
        help: """
            Print the time of each phase (read, parse, compile, encode, write) and the total PCRE2 text size
            on standard error.
            """)

    static let configuration = CommandConfiguration(
        name: "compile", abstract: "Compile a JSON rule list into a binary rule list.",
        discussion: """
            Compiles a Safari content-blocker rule list (JSON, or `-` for standard input) into a binary rule
            list. The output is written to a temporary file and renamed, so OUT is either the old file or
            the complete new one. An invalid list prints its errors (as `check` does), exits 1 and writes
            nothing.
            """,
        arguments: [listArgument],
        options: [outputOption.declaration, timingsFlag.declaration, CheckCommand.maxErrorsOption.declaration],
        exitStatuses: [
            (0, "compiled"),
            (
                1,
                """
                invalid rule list (or one too large for the binary format: more than 2^24 − 1 patterns,
                conditions or domain entries, 256 MiB of actions)
                """
            ),
            (2, "usage or I/O error"),
        ])

    var path: String
    var output: String
    var timings: Bool
    var maxErrors: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        path = arguments[Self.listArgument][0]
        output = arguments[Self.outputOption] ?? ""
        timings = arguments[Self.timingsFlag]
        maxErrors = arguments[CheckCommand.maxErrorsOption]?.value
        guard !output.isEmpty else { throw UsageError("-o needs a file name (or - for standard output), not ''") }
        if output != "-" && path != "-" && sameFile(path, output) {
            throw UsageError("-o \(output) is the rule list being compiled: it would be overwritten")
        }
    }

    func run() throws -> Int32 {
        let start = monotonicSeconds()
        var phases: [(String, Double)] = []
        var last = start
        func phase(_ name: String) {
            let now = monotonicSeconds()
            phases.append((name, now - last))
            last = now
        }
        let bytes = try RuleListInput.read(path)
        phase("read")
        // The JSON document is kept (see `Retained`); an invalid one is parsed again for its diagnostic.
        let document = try? JSONReader.parse(bytes).get()
        let parsed = document.map { RuleListParser.parse(value: $0) } ?? RuleListParser.parse(bytes)
        phase("parse")
        let (compiled, patternErrors) = RuleListCompiler.compile(parsed.rules, sourceRuleCount: parsed.ruleCount)
        phase("compile")
        let diagnostics = RuleListParser.locatedInFileOrder(parsed.diagnostics + patternErrors, json: bytes)
        RuleListInput.report(diagnostics, file: path, limit: maxErrors)
        let errorCount = diagnostics.count { $0.severity == .error }
        guard errorCount == 0, let list = compiled else {
            Console.err("\(path): invalid, nothing written (\(errorCount) error\(errorCount == 1 ? "" : "s"))")
            return 1
        }
        let encoded: [UInt8]
        do {
            encoded = try BinaryRuleList.encode(list)
        } catch {
            Console.err("\(path): \(error), nothing written")
            return 1
        }
        phase("encode")
        if output == "-" {
            // A failed write is reported once, with its reason, as the process ends (`Console.outputError`).
            guard Console.outBytes(encoded) else { return 2 }
        } else if isStream(output) {
            // A device or a pipe (`/dev/null`, `/dev/stdout`, a FIFO): no file to replace, written as is.
            guard Console.write(encoded, toStream: output) else {
                throw RuntimeError("\(output): write failed: \(String(cString: strerror(errno)))")
            }
        } else {
            do {
                try AtomicFile.write(encoded, to: output)
            } catch {
                throw RuntimeError(error.description)
            }
        }
        phase("write")
        Retained.objects = [bytes, document as Any, parsed, list, encoded]
        if timings {
            let text = phases.map { "\($0.0) \(Int($0.1 * 1000)) ms" }.joined(separator: ", ")
            Console.err("timings: \(text); PCRE2 text \(pcre2TextBytes(list)) bytes")
        }
        let milliseconds = Int((monotonicSeconds() - start) * 1000)
        Console.err(
            "\(path): \(list.sourceRuleCount) rule\(list.sourceRuleCount == 1 ? "" : "s") → \(output) (\(encoded.count) bytes, \(list.actionSlots.count) action slot\(list.actionSlots.count == 1 ? "" : "s")) in \(milliseconds) ms"
        )
        return 0
    }
}

/// Whether `path` (links followed) is a character device, a FIFO or a socket: a stream, written to
/// directly rather than replaced.
func isStream(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    let type = status.st_mode & S_IFMT
    return type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK
}

/// Whether both paths name one existing file (same device and inode, links followed).
func sameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
}

/// Total UTF-8 bytes of the PCRE2 text of every url-filter and condition pattern of `list`.
func pcre2TextBytes(_ list: CompiledRuleList) -> Int {
    var total = 0
    for rule in list.rules {
        total += rule.urlFilter.pcre2Pattern?.utf8.count ?? 0
        for pattern in rule.condition?.patterns ?? [] { total += pattern.pcre2Pattern?.utf8.count ?? 0 }
    }
    return total
}

func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
