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
    /// ``rulesOutsideIndexes``, once found.
    let outsideIndexes = Locked<[UnindexedRule]?>(nil)
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
    /// - Parameters:
    ///   - identifier: the list's identifier (``identifier``).
    ///   - path: the binary rule list file.
    ///   - loading: `.memoryMapped` (the default: no copy; the file must then only be replaced by
    ///     renaming a new file over it, never rewritten in place while the list is in use — see
    ///     `FileLoading`) or `.copied` (read into memory: immune to later changes of the file).
    ///   - extensionBaseURL: the base URL of `redirect` actions' `extension-path` (``extensionBaseURL``).
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

    /// The error in a sentence.
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
        /// (``RegexSearchPlan/mandatory``), lower-cased when `caseless`: the fast matcher's second prefilter.
        let mandatory: [[UInt8]]
        /// What every match ends the subject with (``RegexSearchPlan/suffix``), lower-cased when
        /// `caseless`; often empty.
        let suffix: [UInt8]
        /// Bytes every match holds at least so many times, in the lower-cased URL
        /// (``RegexSearchPlan/byteDemand``).
        let byteDemand: [(byte: UInt8, count: Int32)]
        /// `!byteDemand.isEmpty`, read without touching the array (most patterns have none).
        let hasByteDemand: Bool
        let caseless: Bool

        init(regex: PCRE2Regex?, error: String?, plan: RegexSearchPlan? = nil) {
            self.regex = regex
            self.error = error
            mandatory = plan?.mandatory ?? []
            suffix = plan?.suffix ?? []
            byteDemand = plan?.byteDemand.map { ($0.byte, Int32($0.count)) } ?? []
            hasByteDemand = !byteDemand.isEmpty
            caseless = plan?.caseless ?? false
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

    /// Stored pattern `id`, compiled with its search plan (SRCH, read once); with `asciiSubject`, in
    /// the plan's spelling that is exact only for subjects whose bytes are all 1–127
    /// (``RegexSearchPlan/asciiSubjectPattern``; the stored text itself when the plan has none). Both
    /// have the same prefilters.
    func patternRegex(_ id: Int, in rules: MappedRuleList, asciiSubject: Bool = false) -> Compiled {
        guard asciiSubject else {
            return cached(id, source: { rules.regexSource(id) }, plan: rules.searchPlan(id))
        }
        if let found = slots[asciiKey(id)] { return found }
        let plan = rules.searchPlan(id)
        guard let ascii = plan?.asciiSubjectPattern else {
            let same = patternRegex(id, in: rules)
            return compileLocks[asciiKey(id) & 15].withLock { _ in
                slots[asciiKey(id)] ?? slots.store(same, at: asciiKey(id))
            }
        }
        return cached(asciiKey(id), source: { ascii }, plan: plan)
    }

    /// The PCRE2 pattern of a domain entry: the translator's text for the stored domain when the hash
    /// table holds the entry (``URLFilter/parseDomainCondition(_:caseSensitive:)``, no parsing for such
    /// entries), the stored text otherwise.
    func domainRegex(_ id: Int, in rules: MappedRuleList) -> Compiled {
        if let found = slots[patternCount + id] { return found }
        let domain = rules.domain(id)
        let text = String(decoding: domain.text, as: UTF8.self)
        guard domain.indexed else {
            return cached(patternCount + id, source: { text }, repeatsAGroup: rules.domainRepeatsAGroup(id))
        }
        let parsed = URLFilter.parseDomainCondition(
            (domain.subdomains ? "*" : "") + text, caseSensitive: domain.caseSensitive)
        return cached(
            patternCount + id, source: { parsed.pcre2Pattern ?? "" },
            repeatsAGroup: parsed.searchFacts?.repeatsAGroup ?? false)
    }

    private func cached(
        _ key: Int, source: () -> String, plan: RegexSearchPlan? = nil, repeatsAGroup: Bool? = nil
    ) -> Compiled {
        if let found = slots[key] { return found }
        return compileLocks[key & 15].withLock { _ in
            // Another thread may have compiled it while this one waited.
            if let found = slots[key] { return found }
            let compiled: Compiled
            do {
                let regex = try PCRE2Regex(
                    source(), options: [], repeatsAGroup: repeatsAGroup ?? plan?.repeatsAGroup ?? false)
                compiled = Compiled(regex: regex, error: nil, plan: plan)
            } catch {
                compiled = Compiled(regex: nil, error: String(describing: error))
            }
            return slots.store(compiled, at: key)
        }
    }
}
