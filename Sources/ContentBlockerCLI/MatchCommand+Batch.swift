import ContentRuleMatcher
import RequestBatch

extension MatchCommand {
    /// Matches requests on `jobs` threads as they are read (``RequestLines``): each run of lines read is
    /// cut into chunks, a window of chunks is matched concurrently (`DispatchQueue.concurrentPerform`),
    /// and the window's output is written in input order before the next window starts. Every input
    /// line (or, for a document format, every request of the document) gives one output line (under
    /// `strict`, up to the first with an error or a warning, which stops the batch). Request lines are
    /// read straight from their bytes (``RequestFields/parseFlat(_:format:)``) and results written as
    /// bytes (``JSONWriter``). gzip'd input is inflated (``RequestLines``).
    /// - Returns: what the lines had wrong.
    static func runBatch(
        _ blocker: ContentBlocker, requestsPath: String, jobs: Int,
        style: BatchMatching.ResultStyle = BatchMatching.ResultStyle(),
        strict: Bool = false, format: RequestFormat = .request
    ) throws -> BatchMatching.BatchSummary {
        var reader = try RequestLines(path: requestsPath)
        defer {
            reader.close()
            // Also when a read error ends the batch: its message then starts a line of its own.
            Console.endProgress()
        }
        var summary = BatchMatching.BatchSummary()
        guard format.isLines else {
            summary.unit = "request"
            var document: [UInt8] = []
            while let batch = try reader.next() { document += batch.bytes }
            let requests: [Result<RequestFields, RequestError>]
            do {
                requests = try BatchMatching.documentRequests(document, format: format, path: requestsPath)
            } catch {
                throw RuntimeError(error.message)
            }
            _ = BatchMatching.matchWindows(
                count: requests.count, jobs: jobs, strict: strict, summary: &summary, write: Self.write,
                progress: Self.progress
            ) { index, writer in
                switch requests[index] {
                case .success(let fields):
                    let error = BatchMatching.writeResponse(
                        to: fields, blocker: blocker, style: style, errorPrefix: "request \(index + 1): ", into: &writer
                    )
                    return RequestOutcome(number: index + 1, error: error, fields: fields)
                case .failure(let error):
                    BatchMatching.writeError("request \(index + 1): \(error.message)", into: &writer)
                    return RequestOutcome(number: index + 1, error: error.message, fields: nil)
                }
            }
            return summary
        }
        while let batch = try reader.next() {
            let bytes = batch.bytes
            let lines = batch.lines
            if let first = lines.first, first.number == 1, format == .request {
                summary.looksLikeDocument = BatchMatching.opensDocument(bytes[first.range])
            }
            let going = BatchMatching.matchWindows(
                count: lines.count, jobs: jobs, strict: strict, summary: &summary, write: Self.write,
                progress: Self.progress
            ) { index, writer in
                let (number, range) = lines[index]
                return BatchMatching.respond(
                    to: bytes[range], lineNumber: number, blocker: blocker, style: style, format: format, into: &writer)
            }
            guard going else { break }
        }
        return summary
    }

    /// Writes a window of results to standard output; false when the write failed (main.swift reports
    /// it and exits 2).
    private static func write(_ output: [UInt8]) -> Bool { Console.outBytes(output) }

    private static func progress(_ requests: Int) { Console.progress("matched \(requests) requests") }
}
