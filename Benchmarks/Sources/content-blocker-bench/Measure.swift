import Foundation

/// Monotonic nanoseconds.
@inline(__always) func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Current resident set size of this process, in MiB (`/proc/self/statm`).
func currentRSSMiB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// Peak resident set size of this process so far, in MiB (`getrusage`, Linux reports KiB).
func peakRSSMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// min / median / p99 of samples (nearest-rank percentiles).
struct Summary {
    var min: Double
    var median: Double
    var p99: Double
    var count: Int

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        func rank(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let index = Int((q * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        min = sorted.first ?? .nan
        median = rank(0.5)
        p99 = rank(0.99)
    }
}

/// Times `body` `runs` times, in milliseconds; returns the summary and the last result.
func timeRuns<T>(_ runs: Int, _ body: () throws -> T) rethrows -> (Summary, T) {
    var samples: [Double] = []
    var last: T? = nil
    for _ in 0..<Swift.max(1, runs) {
        let start = now()
        last = try body()
        samples.append(Double(now() - start) / 1e6)
    }
    return (Summary(samples), last!)
}

/// One figure of the benchmark, as written to `latest.json`.
struct Record: Encodable {
    var workload: String
    var requestSet: String?
    var engine: String
    var peer: String
    var phase: String
    var unit: String
    var min: Double?
    var median: Double?
    var p99: Double?
    var runs: Int?
    var threads: Int?
    var requests: Int?
    var blocked: Int?
    var expectedBlocked: Int?
    var rules: Int?
    var bytes: Int?
    var peakRSSMiB: Double?
    var note: String?
    // The latency pass and its targets.
    var p50: Double?
    var p90: Double?
    var p999: Double?
    var max: Double?
    var mean: Double?
    var worstURL: String?
    var worstTimesUs: [Double]?
    var rssMiB: Double?
    var rssDeltaMiB: Double?
    var firstMatchUs: Double?
    var secondMatchUs: Double?
    var oursMedianSameRequests: Double?
    var ratioToOurs: Double?
    var meanRatioToOurs: Double?
    var targets: [TargetCheck]?
    // Set by every latency pass (the worst-case pass reads them): the largest per-request time after
    // taking each request's smallest time over the runs (machine noise removed), and that request.
    var slowestBestOfRunsUs: Double?
    var slowestBestOfRunsURL: String?
    // The latency pass's last run alone when there are several — every PCRE2 pattern the
    // requests need is compiled by then, so these are the steady-state figures (the pooled ones above
    // include the first run's first-use compiles).
    var warmP50: Double?
    var warmP99: Double?
    var warmMax: Double?

    init(workload: String, requestSet: String? = nil, engine: String, peer: String, phase: String, unit: String) {
        self.workload = workload
        self.requestSet = requestSet
        self.engine = engine
        self.peer = peer
        self.phase = phase
        self.unit = unit
    }

    mutating func set(_ summary: Summary) {
        min = summary.min
        median = summary.median
        p99 = summary.p99
        runs = summary.count
    }
}
