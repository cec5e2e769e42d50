public import ContentRuleFormat
public import ContentRuleURL
import Locking
import PCRE2Support
import URLFilterSyntax

/// A compiled content rule list ready to match, identified by a string (WebKit's `ContentExtension`).
///
/// Reads the binary rule list in place (`MappedRuleList`, module ContentRuleFormat): opening a file maps it and validates it,
/// nothing is decoded or compiled up front. PCRE2 patterns are compiled the first time a request
/// needs them; the answers of conditions that depend only on the top URL are computed once per
/// distinct top URL and flag combination and cached.
///
/// Immutable from the outside and `Sendable`: one instance can be queried from many threads at once
/// (its caches are behind locks or, for compiled patterns, written once and read without a lock; PCRE2
/// match data is per thread).
public final class ContentRuleList: Sendable {
    /// The list's identifier (the CLI uses the file name without extension).
    public let identifier: String
    /// The binary rule list this list reads.
    package let rules: MappedRuleList
    /// Base URL for `redirect` `extension-path` actions (empty for plain WKContentRuleLists).
    public let extensionBaseURL: WebURL?
    let regexes: RegexCache
    let topURLCache = TopURLCache()
    /// ``UniversalBaseline`` per flag combination (at most resource types × load types × contexts × methods).
    let baselines = Locked<[LoadFlags: UniversalBaseline]>([:])
    let alwaysChecked: [Int32]
    let universal: [Int32]
    let topURLRules: [Int32]
    let domainFallbacks: [(rule: Int32, domain: Int)]
    let globalStylesheet: String?

    /// Makes a list from a binary rule list already opened.
    /// - Complexity: O(number of always-checked, universal and top-URL rules).
    public init(identifier: String, rules: MappedRuleList, extensionBaseURL: WebURL? = nil) {
        self.identifier = identifier
        self.rules = rules
        self.extensionBaseURL = extensionBaseURL
        regexes = RegexCache(patternCount: rules.patternCount, domainCount: rules.domainCount)
        alwaysChecked = rules.alwaysCheckedRules
        universal = rules.universalRules
        topURLRules = rules.topURLRules
        domainFallbacks = rules.domainFallbacks
        globalStylesheet = rules.globalStylesheet
    }

    /// Encodes `compiled` as a binary rule list in memory and reads it (the same path as a file).
    /// - Throws: ``ContentRuleListLoadError/binary(_:)`` with `BinaryRuleListError.tooLarge` when
    ///   the list exceeds a limit of the binary format (`BinaryRuleList.encode(_:)`); any other error
    ///   would mean the encoding could not be read back (a bug).
    public convenience init(identifier: String, compiled: CompiledRuleList, extensionBaseURL: WebURL? = nil)
        throws(ContentRuleListLoadError)
    {
        let mapped: MappedRuleList
        do {
            mapped = try MappedRuleList(bytes: BinaryRuleList.encode(compiled))
        } catch {
            throw .binary(error)
        }
        self.init(identifier: identifier, rules: mapped, extensionBaseURL: extensionBaseURL)
    }

    /// Maps and validates a binary rule list file written by `content-blocker compile`.
    ///
    /// - Parameter loading: `.memoryMapped` (the default: no copy; the file must then only be replaced
    ///   by renaming a new file over it, never rewritten in place while the list is in use — see
    ///   `FileLoading`) or `.copied` (read into memory: immune to later changes of the file).
    /// - Throws: ``ContentRuleListLoadError`` for I/O errors, damaged files and wrong versions.
    /// - Complexity: O(file size) for the checksum and validation; no decoding.
    public convenience init(
        identifier: String, contentsOfFile path: String, loading: FileLoading = .memoryMapped,
        extensionBaseURL: WebURL? = nil
    ) throws(ContentRuleListLoadError) {
        let mapped: MappedRuleList
        do {
            mapped = try MappedRuleList(contentsOfFile: path, loading: loading)
        } catch {
            throw .binary(error)
        }
        self.init(identifier: identifier, rules: mapped, extensionBaseURL: extensionBaseURL)
    }

    /// Compiles every PCRE2 pattern of the list now and reports the first that PCRE2 rejects.
    ///
    /// Matching never needs this: a pattern that does not compile is treated as matching nothing.
    /// `content-blocker inspect` calls it to vouch for a file.
    /// - Complexity: PCRE2 compilation of every stored pattern.
    public func compileAllPatterns() throws(ContentRuleListLoadError) {
        for id in 0..<rules.patternCount where rules.pattern(id).kind == .regex {
            if let error = regexes.patternRegex(id, in: rules).error {
                throw .pattern(id: id, error: error)
            }
        }
        for id in 0..<rules.domainCount {
            if let error = regexes.domainRegex(id, in: rules).error { throw .pattern(id: id, error: error) }
        }
    }
}

/// Why a rule list could not be made ready to match.
public enum ContentRuleListLoadError: Error, Sendable, CustomStringConvertible {
    case binary(BinaryRuleListError)
    /// A stored PCRE2 pattern does not compile (only reported by ``ContentRuleList/compileAllPatterns()``).
    case pattern(id: Int, error: String)

    public var description: String {
        switch self {
        case .binary(let error): return error.description
        case .pattern(let id, let error): return "stored pattern \(id) does not compile: \(error)"
        }
    }
}

/// PCRE2 patterns compiled on first use, shared by all threads: one slot per stored pattern and per
/// domain entry (``WriteOnceSlots``). A look-up takes no lock (two atomic loads); a pattern is
/// compiled once, under one of 16 locks (by slot), so that threads that need the same pattern at
/// once do not each compile it, and threads that need different ones rarely wait for each other.
///
/// Slots come in chunks allocated the first time one of their slots is filled: making the cache
/// costs O(patterns / chunk size), not a slot per pattern, so that opening a list does not pay for
/// patterns it may never need.
final class RegexCache: Sendable {
    /// A compiled pattern, immutable once made: a class, so that a look-up hands out one reference
    /// instead of copying (and retaining) each field.
    final class Compiled: Sendable {
        let regex: PCRE2Regex?
        let error: String?
        /// Literals every match contains besides the pattern's stored required literal
        /// (`PCRE2MandatoryLiterals`), lower-cased when `caseless`: the fast matcher's second prefilter.
        let mandatory: [[UInt8]]
        /// What every match ends the subject with (`PCRE2MandatoryLiterals.Analysis.suffix`), lower-cased
        /// when `caseless`; often empty.
        let suffix: [UInt8]
        /// Bytes every match holds at least so many times (`PCRE2MandatoryLiterals.Analysis.byteDemand`),
        /// lower-cased when `caseless`: checked against the lower-cased URL's byte counts.
        let byteDemand: [PCRE2MandatoryLiterals.ByteDemand]
        /// `!byteDemand.isEmpty`, read without touching the array (most patterns have none).
        let hasByteDemand: Bool
        let caseless: Bool

        init(
            regex: PCRE2Regex?, error: String?, mandatory: [[UInt8]] = [], suffix: [UInt8] = [],
            byteDemand: [PCRE2MandatoryLiterals.ByteDemand] = [], caseless: Bool = false
        ) {
            self.regex = regex
            self.error = error
            self.mandatory = mandatory
            self.suffix = suffix
            // Case-sensitive bytes are counted in the lower-cased URL too: both cases of a letter add up.
            var demand: [UInt8: Int32] = [:]
            for entry in byteDemand { demand[IndexHash.lowercased(entry.byte), default: 0] += entry.count }
            self.byteDemand = demand.sorted { $0.key < $1.key }.map {
                PCRE2MandatoryLiterals.ByteDemand(byte: $0.key, count: $0.value)
            }
            hasByteDemand = !self.byteDemand.isEmpty
            self.caseless = caseless
        }

        /// Whether the lower-cased URL's byte counts hold every byte of ``byteDemand`` often enough.
        @inline(never)
        func byteDemandMet(_ counts: UnsafeBufferPointer<Int32>) -> Bool {
            byteDemand.allSatisfy { counts[Int($0.byte)] >= $0.count }
        }
    }
    private let slots: WriteOnceSlots<Compiled>
    private let patternCount: Int
    private let domainCount: Int
    /// Held while a pattern of slot `key` (`key & 15`) is compiled.
    private let compileLocks: [Locked<Void>]

    init(patternCount: Int, domainCount: Int) {
        self.patternCount = patternCount
        self.domainCount = domainCount
        // Stored patterns, domain entries, then the stored patterns' ASCII-subject spellings.
        slots = WriteOnceSlots(count: 2 * patternCount + domainCount)
        compileLocks = (0..<16).map { _ in Locked(()) }
    }

    /// Calls `body` with ``patternRegex(_:in:asciiSubject:)``: a cached pattern without retaining it.
    @inline(__always)
    func withPatternRegex<Result>(
        _ id: Int, in rules: MappedRuleList, asciiSubject: Bool = false, _ body: (Compiled) -> Result
    ) -> Result {
        if let result = slots.withObject(at: asciiSubject ? asciiKey(id) : id, body) { return result }
        return body(patternRegex(id, in: rules, asciiSubject: asciiSubject))
    }

    @inline(__always) private func asciiKey(_ id: Int) -> Int { patternCount + domainCount + id }

    private static let schemeSeparator = Array("://".utf8)

    /// The url-filter translator's spelling of `.` and of its skip group, which the ASCII-subject
    /// rewrite reads.
    private static let translatorSpelling = PCRE2ASCIISubject.Spelling(
        universalClass: URLFilterPCRE2.universalClass, skipOutsideRuns: URLFilterPCRE2.skipOutsideRuns)

    /// Stored pattern `id`, compiled; with `asciiSubject`, in the spelling that is exact only for
    /// subjects whose bytes are all 1–127 (``PCRE2ASCIISubject``; the stored text itself when that
    /// changes nothing). Both have the same mandatory literals (those of the stored text).
    func patternRegex(_ id: Int, in rules: MappedRuleList, asciiSubject: Bool = false) -> Compiled {
        guard asciiSubject else {
            return cached(id, source: { rules.regexSource(id) }, prefilter: prefilter(id, rules))
        }
        if let found = slots[asciiKey(id)] { return found }
        let stored = rules.regexSource(id)
        guard let ascii = PCRE2ASCIISubject.pattern(for: stored, spelling: Self.translatorSpelling) else {
            let same = patternRegex(id, in: rules)
            return compileLocks[asciiKey(id) & 15].withLock { _ in
                slots[asciiKey(id)] ?? slots.store(same, at: asciiKey(id))
            }
        }
        let mandatoryFromStored = prefilter(id, rules)
        return cached(asciiKey(id), source: { ascii }, prefilter: { mandatoryFromStored(stored, $1) })
    }

    private func prefilter(_ id: Int, _ rules: MappedRuleList) -> (String, PCRE2Regex) -> Compiled {
        { source, regex in
            let found = PCRE2MandatoryLiterals.analysis(of: Array(source.utf8), minimumLength: 2, limit: .max)
            let required = Array(rules.pattern(id).required)
            // Longest first, at most two, leaving out what adds nothing: a caseless run inside the
            // (lower-cased) required literal, checked first, and `://`, in nearly every URL.
            let mandatory = found.runs.filter { run in
                run != Self.schemeSeparator
                    && (!found.caseless || !required.indices.contains { required[$0...].starts(with: run) })
            }.prefix(2)
            return Compiled(
                regex: regex, error: nil, mandatory: Array(mandatory), suffix: found.suffix,
                byteDemand: found.byteDemand, caseless: found.caseless)
        }
    }

    /// The PCRE2 pattern of a domain entry: generated from the domain for indexed entries, stored otherwise.
    func domainRegex(_ id: Int, in rules: MappedRuleList) -> Compiled {
        cached(patternCount + id) {
            let domain = rules.domain(id)
            let text = String(decoding: domain.text, as: UTF8.self)
            guard domain.indexed else { return text }
            return DomainConditionPattern.pcre2(
                domain: text, subdomains: domain.subdomains, caseSensitive: domain.caseSensitive)
        }
    }

    private func cached(
        _ key: Int, source: () -> String,
        prefilter: (String, PCRE2Regex) -> Compiled = { Compiled(regex: $1, error: nil) }
    ) -> Compiled {
        if let found = slots[key] { return found }
        return compileLocks[key & 15].withLock { _ in
            // Another thread may have compiled it while this one waited.
            if let found = slots[key] { return found }
            return slots.store(Self.compile(source(), prefilter: prefilter), at: key)
        }
    }

    private static func compile(_ text: String, prefilter: (String, PCRE2Regex) -> Compiled) -> Compiled {
        do {
            return prefilter(text, try PCRE2Regex(text, options: []))
        } catch {
            return Compiled(regex: nil, error: error.description)
        }
    }
}
