package import ContentRuleMatcher
import Dispatch
import Locking
package import RuleListParser

#if canImport(Glibc)
    import Glibc
#endif

package enum BatchMatching {}

extension BatchMatching {
    /// What a batch's request lines had wrong, summed over the lines (``runBatch``).
    package struct BatchSummary: Sendable {
        package init() {}

        /// What a request is called in messages: a `line` of JSON Lines, a `request` of a document.
        package var unit = "line"
        package var lines = 0
        package var errorLines = 0
        /// The first line with an error: its number and the message.
        package var firstError: (line: Int, message: String)?
        package var unknownKeyLines = 0
        /// Lines naming each unknown key.
        package var unknownKeys: [String: Int] = [:]
        package var unknownMethodLines = 0
        /// The input's first line opens a JSON document (`{` or `[` alone, or a HAR's `{"log"`), not a
        /// request line.
        package var looksLikeDocument = false
        /// Under --strict, the first line with an error or a warning, and what: the batch stops there.
        package var stoppedAt: (line: Int, message: String)?

        /// Counts one request.
        package mutating func count(_ outcome: RequestOutcome) {
            lines += 1
            if let error = outcome.error {
                errorLines += 1
                if firstError == nil { firstError = (outcome.number, error) }
            }
            if !outcome.unknownKeys.isEmpty {
                unknownKeyLines += 1
                for key in outcome.unknownKeys { unknownKeys[key, default: 0] += 1 }
            }
            if outcome.unknownMethod != nil { unknownMethodLines += 1 }
        }

        package mutating func add(_ other: BatchSummary) {
            lines += other.lines
            errorLines += other.errorLines
            if firstError == nil { firstError = other.firstError }
            unknownKeyLines += other.unknownKeyLines
            unknownKeys.merge(other.unknownKeys, uniquingKeysWith: +)
            unknownMethodLines += other.unknownMethodLines
        }

        /// The lines to report on standard error at the end (none when every line was clean).
        package var report: [String] {
            var parts: [String] = []
            if errorLines > 0 {
                var text = "\(errorLines) of \(lines) \(unit == "line" ? "request lines" : "requests") with errors"
                if let (line, message) = firstError { text += " (first: \(unit) \(line): \(message))" }
                if looksLikeDocument {
                    text += " — the input looks like one JSON document: try --input-format har or adblock-rust"
                }
                parts.append(text)
            }
            if unknownKeyLines > 0 {
                let keys = unknownKeys.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                let shown = keys.prefix(8).map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
                var text = "\(unknownKeyLines) with unknown keys, ignored: \(shown)\(keys.count > 8 ? ", …" : "")"
                for format in [RequestFormat.tsurlfilter]
                where Set(["url", "frameUrl", "cpt"]).isSubset(of: keys.map(\.key) + ["url"]) {
                    text += " — tsurlfilter's keys: try --input-format \(format.rawValue)"
                }
                parts.append(text)
            }
            if unknownMethodLines > 0 { parts.append("\(unknownMethodLines) with an unknown requestMethod") }
            return parts
        }
    }

    /// The request lines a chunk matches at once, and the chunks of a window (per thread).
    /// The lines of `bytes`, without their newline and a carriage return before it (a last line
    /// without a newline counts).
    package static func lineRanges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        guard let base = bytes.baseAddress else { return lines }
        var start = 0
        while start < bytes.count {
            let newline = memchr(base + start, 0x0A, bytes.count - start)
            var end = newline.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? bytes.count
            let next = end + 1
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            lines.append(start..<end)
            start = next
        }
        return lines
    }

    /// Whether `line`, an input's first, opens a JSON document rather than being a request line.
    package static func opensDocument(_ line: ArraySlice<UInt8>) -> Bool {
        let text = line.drop { [0x20, 0x09, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let trimmed = text.reversed().drop { [0x20, 0x09, 0x0D].contains($0) }
        return trimmed.elementsEqual("{".utf8) || trimmed.elementsEqual("[".utf8)
            || text.starts(with: #"{"log""#.utf8)
    }

    package static let chunkSize = 256
    package static let chunksPerThread = 4

    /// The requests of a JSON document in `format` (adblock-rust's array, a HAR file).
    /// - Throws: ``RequestError`` when the document is not JSON or not of that shape.
    package static func documentRequests(_ document: [UInt8], format: RequestFormat, path: String) throws(RequestError)
        -> [Result<RequestFields, RequestError>]
    {
        let name = path == "-" ? "standard input" : path
        let value: JSONValue
        switch JSONReader.parse(document) {
        case .success(let parsed): value = parsed
        case .failure(let error):
            throw RequestError(
                "\(name): invalid JSON at byte \(error.byteOffset): \(error.reason) (--input-format \(format.rawValue))"
            )
        }
        let requests = format == .har ? RequestFields.harRequests(value) : RequestFields.adblockRustRequests(value)
        switch requests {
        case .success(let list): return list
        case .failure(let error): throw RequestError("\(name): \(error.message)")
        }
    }

    /// Matches `count` requests window by window on `jobs` threads, writes each window's output in
    /// order and adds what the requests had wrong to `summary`. `respond(index, &writer)` writes the
    /// result of request `index` and returns its outcome; `write` takes each window's output in order (false: stop), `progress` the requests done.
    /// Returns false when the batch must stop (a failed write, or `strict` and a bad request).
    package static func matchWindows(
        count: Int, jobs: Int, strict: Bool, summary: inout BatchSummary,
        write: ([UInt8]) -> Bool, progress: (Int) -> Void = { _ in },
        respond: @escaping @Sendable (Int, inout JSONWriter) -> RequestOutcome
    ) -> Bool {
        let chunkCount = (count + chunkSize - 1) / chunkSize
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
                for index in (chunk * chunkSize)..<min(count, (chunk + 1) * chunkSize) {
                    let outcome = respond(index, &writer)
                    writer.bytes.append(0x0A)
                    chunkSummary.count(outcome)
                    if strict {
                        let problems = outcome.error.map { [$0] } ?? outcome.warnings
                        if !problems.isEmpty {
                            chunkSummary.stoppedAt = (outcome.number, problems.joined(separator: "; "))
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
                // A failed write stops the batch: nobody reads the answers (main.swift reports the error
                // and exits 2).
                guard write(output) else { return false }
                summary.add(chunkSummary)
                if let stop = chunkSummary.stoppedAt {
                    summary.stoppedAt = stop
                    return false
                }
            }
            firstChunk += chunks
            progress(summary.lines)
        }
        return true
    }

    package static func writeError(_ message: String, into writer: inout JSONWriter) {
        writer.openObject()
        writer.key("error")
        writer.string(message)
        writer.closeObject()
    }

    /// Writes the result line for one request line (errors start with `line N:`); returns its outcome.
    package static func respond(
        to line: ArraySlice<UInt8>, lineNumber: Int, blocker: ContentBlocker, style: ResultStyle,
        format: RequestFormat = .request, into writer: inout JSONWriter
    ) -> RequestOutcome {
        let fields: RequestFields
        if let flat = RequestFields.parseFlat(line, format: format) {
            fields = flat
        } else {
            switch parseSlowly(line, format: format) {
            case .success(let parsed): fields = parsed
            case .failure(let error):
                writeError("line \(lineNumber): \(error.message)", into: &writer)
                return RequestOutcome(number: lineNumber, error: error.message, fields: nil)
            }
        }
        let error = writeResponse(
            to: fields, blocker: blocker, style: style, errorPrefix: "line \(lineNumber): ", into: &writer)
        return RequestOutcome(number: lineNumber, error: error, fields: fields)
    }

    /// A request line that is not a flat object of ASCII values (``RequestFields/parseFlat(_:)``): read
    /// by `JSONReader` as rule lists are read (no trailing commas), strict JSON besides (none of the
    /// extensions WebKit's reader accepts: ``StrictJSON/isStrictJSON(_:)``); the message says why it
    /// is not a request object.
    package static func parseSlowly(_ line: ArraySlice<UInt8>, format: RequestFormat = .request) -> Result<
        RequestFields, RequestError
    > {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            return .failure(RequestError("empty line, expected a JSON request object"))
        }
        let parsed = JSONReader.parse(line)
        let problem = StrictJSON.strictJSONProblem(line)
        guard case .success(.object(let object)) = parsed, problem == nil else {
            return .failure(RequestError(notAnObject(parsed, strictJSONProblem: problem)))
        }
        let idText = StrictJSON.rawMember("id", of: line)
        if format == .tsurlfilter { return .success(RequestFields(tsurlfilter: object, idText: idText)) }
        return .success(RequestFields(object, idText: idText))
    }

    /// Why a request line is not a JSON request object: its syntax error and where (a byte offset in
    /// the line, from 0), the kind of JSON value it is instead, or, for an object, that it is not strict
    /// JSON.
    package static func notAnObject(
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

/// Why a request cannot be decided: not a request object, or a key with a wrong value (the message
/// `match` prints after `line N: `).
package struct RequestError: Error {
    package var message: String
    package init(_ message: String) { self.message = message }
}
