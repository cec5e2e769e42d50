import ContentRuleMatcher
import Dispatch
import Locking
import RuleListParser

extension MatchCommand {
    /// What a batch's request lines had wrong, summed over the lines (``runBatch``).
    struct BatchSummary: Sendable {
        var lines = 0
        var errorLines = 0
        /// The first line with an error: its number and the message.
        var firstError: (line: Int, message: String)?
        var unknownKeyLines = 0
        /// Lines naming each unknown key.
        var unknownKeys: [String: Int] = [:]
        var unknownMethodLines = 0
        /// Under --strict, the first line with an error or a warning, and what: the batch stops there.
        var stoppedAt: (line: Int, message: String)?

        mutating func add(_ other: BatchSummary) {
            lines += other.lines
            errorLines += other.errorLines
            if firstError == nil { firstError = other.firstError }
            unknownKeyLines += other.unknownKeyLines
            unknownKeys.merge(other.unknownKeys, uniquingKeysWith: +)
            unknownMethodLines += other.unknownMethodLines
        }

        /// The lines to report on standard error at the end (none when every line was clean).
        var report: [String] {
            var parts: [String] = []
            if errorLines > 0 {
                var text = "\(errorLines) of \(lines) request lines with errors"
                if let (line, message) = firstError { text += " (first: line \(line): \(message))" }
                parts.append(text)
            }
            if unknownKeyLines > 0 {
                let keys = unknownKeys.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                let shown = keys.prefix(8).map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
                parts.append(
                    "\(unknownKeyLines) with unknown keys, ignored: \(shown)\(keys.count > 8 ? ", …" : "")")
            }
            if unknownMethodLines > 0 { parts.append("\(unknownMethodLines) with an unknown requestMethod") }
            return parts
        }
    }

    /// The request lines a chunk matches at once, and the chunks of a window (per thread).
    static let chunkSize = 256
    static let chunksPerThread = 4

    /// Matches JSON Lines requests on `jobs` threads as they are read (``RequestLines``): each run of
    /// lines read is cut into chunks, a window of chunks is matched concurrently
    /// (`DispatchQueue.concurrentPerform`), and the window's output is written in input order before
    /// the next window starts. Every input line gives one output line (under `strict`, up to the first
    /// line with an error or a warning, which stops the batch). Request lines are read straight from
    /// their bytes (``RequestFields/parseFlat(_:)``) and results written as bytes (``JSONWriter``).
    /// - Returns: what the lines had wrong.
    static func runBatch(
        _ blocker: ContentBlocker, requestsPath: String, jobs: Int, style: ResultStyle = ResultStyle(),
        strict: Bool = false
    ) throws -> BatchSummary {
        var reader = try RequestLines(path: requestsPath)
        defer {
            reader.close()
            // Also when a read error ends the batch: its message then starts a line of its own.
            Console.endProgress()
        }
        var summary = BatchSummary()
        while let batch = try reader.next() {
            let bytes = batch.bytes
            let lines = batch.lines
            let chunkCount = (lines.count + chunkSize - 1) / chunkSize
            let window = jobs * chunksPerThread
            var firstChunk = 0
            while firstChunk < chunkCount {
                let chunks = min(window, chunkCount - firstChunk)
                let outputs = Locked(Array(repeating: ([UInt8](), BatchSummary()), count: chunks))
                let base = firstChunk
                let matchChunk = { @Sendable (offset: Int) in
                    let chunk = base + offset
                    var writer = JSONWriter(reservingCapacity: chunkSize * 512)
                    var chunkSummary = BatchSummary()
                    for (number, range) in lines[(chunk * chunkSize)..<min(lines.count, (chunk + 1) * chunkSize)] {
                        let outcome = respond(
                            to: bytes[range], lineNumber: number, blocker: blocker, style: style, into: &writer)
                        writer.bytes.append(0x0A)
                        chunkSummary.lines += 1
                        if let error = outcome.error {
                            chunkSummary.errorLines += 1
                            if chunkSummary.firstError == nil { chunkSummary.firstError = (number, error) }
                        }
                        if let fields = outcome.fields {
                            if !fields.unknownKeys.isEmpty {
                                chunkSummary.unknownKeyLines += 1
                                for key in fields.unknownKeys { chunkSummary.unknownKeys[key, default: 0] += 1 }
                            }
                            if case .string(let method) = fields.requestMethod,
                                RequestMethod(caseInsensitiveName: method) == nil
                            {
                                chunkSummary.unknownMethodLines += 1
                            }
                        }
                        if strict {
                            let problems = outcome.error.map { [$0] } ?? outcome.fields.map { warnings(for: $0) } ?? []
                            if !problems.isEmpty {
                                chunkSummary.stoppedAt = (number, problems.joined(separator: "; "))
                                break
                            }
                        }
                    }
                    let output = writer.bytes
                    outputs.withLock { $0[offset] = (output, chunkSummary) }
                }
                if jobs == 1 || chunks == 1 {
                    for offset in 0..<chunks { matchChunk(offset) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: chunks, execute: matchChunk)
                }
                for (output, chunkSummary) in outputs.withLock({ $0 }) {
                    // A failed write stops the batch: nobody reads the answers (main.swift reports
                    // the error and exits 2).
                    guard Console.outBytes(output) else { return summary }
                    summary.add(chunkSummary)
                    if let stop = chunkSummary.stoppedAt {
                        summary.stoppedAt = stop
                        return summary
                    }
                }
                firstChunk += chunks
                Console.progress("matched \(summary.lines) requests")
            }
        }
        return summary
    }

    /// Writes the result line for one request line (errors start with `line N:`); returns the request's
    /// fields when the line was a request object, and the error, if any.
    static func respond(
        to line: ArraySlice<UInt8>, lineNumber: Int, blocker: ContentBlocker, style: ResultStyle,
        into writer: inout JSONWriter
    ) -> (fields: RequestFields?, error: String?) {
        let fields: RequestFields
        if let flat = RequestFields.parseFlat(line) {
            fields = flat
        } else {
            switch parseSlowly(line) {
            case .success(let parsed): fields = parsed
            case .failure(let error):
                writer.openObject()
                writer.key("error")
                writer.string("line \(lineNumber): \(error.message)")
                writer.closeObject()
                return (nil, error.message)
            }
        }
        let error = writeResponse(
            to: fields, blocker: blocker, style: style, errorPrefix: "line \(lineNumber): ", into: &writer)
        return (fields, error)
    }

    /// A request line that is not a flat object of ASCII values (``RequestFields/parseFlat(_:)``): read
    /// by `JSONReader` as rule lists are read (no trailing commas), strict JSON besides (none of the
    /// extensions WebKit's reader accepts: ``RequestLines/isStrictJSON(_:)``); the message says why it
    /// is not a request object.
    static func parseSlowly(_ line: ArraySlice<UInt8>) -> Result<RequestFields, RequestLineError> {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            return .failure(RequestLineError("empty line, expected a JSON request object"))
        }
        let parsed = JSONReader.parse(line)
        let problem = RequestLines.strictJSONProblem(line)
        guard case .success(.object(let object)) = parsed, problem == nil else {
            return .failure(RequestLineError(notAnObject(parsed, strictJSONProblem: problem)))
        }
        return .success(RequestFields(object, idText: RequestLines.rawMember("id", of: line)))
    }

    /// Why a request line is not a JSON request object: its syntax error and where (a byte offset in
    /// the line, from 0), the kind of JSON value it is instead, or, for an object, that it is not strict
    /// JSON.
    static func notAnObject(
        _ parsed: Result<JSONValue, JSONSyntaxError>, strictJSONProblem: (offset: Int, reason: String)? = nil
    ) -> String {
        switch parsed {
        case .failure(let error):
            return "invalid JSON at byte \(error.byteOffset): \(error.reason)"
        case .success(let value):
            switch value {
            case .null: return "valid JSON but not an object (null)"
            case .bool: return "valid JSON but not an object (a boolean)"
            case .number: return "valid JSON but not an object (a number)"
            case .string: return "valid JSON but not an object (a string)"
            case .array: return "valid JSON but not an object (an array)"
            // WebKit's JSON reader, which reads rule lists, accepts a little more than strict JSON
            // (`\v`, `\xHH` escapes, numbers out of Double's range such as 1e999, …): a request line
            // must be strict JSON, and the message says where and why it is not.
            case .object:
                guard let strictJSONProblem else { return "invalid JSON" }
                return "invalid JSON at byte \(strictJSONProblem.offset): \(strictJSONProblem.reason)"
            }
        }
    }
}

/// Why a request line is not a request object.
struct RequestLineError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
