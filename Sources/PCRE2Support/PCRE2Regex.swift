internal import CPCRE2
import Locking

/// A compiled PCRE2 pattern (8-bit code units), JIT-compiled when the platform supports it.
///
/// Immutable after `init`: the compiled code is only read while matching, which PCRE2 allows from
/// several threads at once as long as each thread uses its own match data — hence every match takes a
/// `PCRE2Scratch`, which must not be shared between threads. This is why the class is
/// `@unchecked Sendable`.
///
/// Resource limits: every match runs with `matchLimit` and `depthLimit`. A search that hits a limit (or
/// the JIT stack limit) is run again with PCRE2's DFA algorithm (`pcre2_dfa_match`: no backtracking,
/// one pass over the subject), which gives the same answer for patterns without back-references or
/// assertions other than `\A`/`\z` (all url-filter translations) — WebKit's own DFA never fails, so
/// a limit must not change an answer. A pattern with a repeated group (`(…)*`, `(…)+`: the shape of
/// exponential backtracking, which no url-filter of the real lists has) gets a much smaller
/// match limit (`repeatedGroupMatchLimit`): its usual searches end long before, a hostile subject
/// reaches the DFA run after about 2 µs. `PCRE2Scratch.lastMatchHitLimit` records that the
/// backtracking search hit a limit (and so the DFA algorithm answered); only when the DFA run fails
/// too (its workspace is capped, which nested plus-groups like `(a+)+` exhaust on long runs) is the
/// outcome `.limitExceeded`, reported as no match by `matches(_:scratch:)`.
public final class PCRE2Regex: @unchecked Sendable {
    let code: OpaquePointer
    /// The source and options, kept to build the DFA fallback when a search hits a limit.
    let pattern: String
    let options: PCRE2Options
    /// Number of capture groups in the pattern.
    public let captureCount: Int
    /// Whether JIT compilation succeeded.
    public let isJITCompiled: Bool
    /// Whether a search calls the JIT's machine code directly (`pcre2_jit_match`, which skips
    /// `pcre2_match`'s argument checks): JIT-compiled, and not in UTF mode.
    let runsJITDirectly: Bool
    /// Whether the pattern repeats a group (`)*` or `)+` outside a class), the shape of exponential
    /// backtracking: its backtracking searches stop at `repeatedGroupMatchLimit`.
    public let repeatsAGroup: Bool
    /// The DFA form of the pattern (`dfaSearch`), compiled on first use and kept.
    private let dfaCode = Locked<OpaquePointer?>(nil)

    /// Compiles `pattern` (its UTF-8 bytes) with `options`, then tries to JIT-compile it.
    ///
    /// - Throws: `PCRE2Error` with PCRE2's code, offset and message when the pattern does not compile.
    /// - Complexity: PCRE2 compile time, roughly linear in the pattern length.
    public convenience init(_ pattern: String, options: PCRE2Options) throws(PCRE2Error) {
        try self.init(pattern, options: options, repeatsAGroup: Self.hasRepeatedGroup(Array(pattern.utf8)))
    }

    /// Compiles `pattern` with `options` when whether it repeats a group is known already (the
    /// url-filter layer reads it off the terms the text was written from; ``repeatsAGroup``).
    ///
    /// - Throws: `PCRE2Error` with PCRE2's code, offset and message when the pattern does not compile.
    /// - Complexity: PCRE2 compile time, roughly linear in the pattern length.
    public init(_ pattern: String, options: PCRE2Options, repeatsAGroup: Bool) throws(PCRE2Error) {
        guard let context = pcre2_compile_context_create_8(nil) else {
            throw PCRE2Error(code: PCRE2_ERROR_NOMEMORY, offset: 0)
        }
        defer { pcre2_compile_context_free_8(context) }
        if options.extraOptions != 0 {
            pcre2_set_compile_extra_options_8(context, options.extraOptions)
        }
        var errorCode: Int32 = 0
        var errorOffset = 0
        var utf8 = Array(pattern.utf8)
        let length = utf8.count
        utf8.append(0)
        let compiled = utf8.withUnsafeBufferPointer { buffer in
            pcre2_compile_8(
                buffer.baseAddress, length, options.compileOptions, &errorCode, &errorOffset, context)
        }
        guard let compiled else { throw PCRE2Error(code: errorCode, offset: errorOffset) }
        code = compiled
        self.pattern = pattern
        self.options = options
        var captures: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        captureCount = Int(captures)
        isJITCompiled = pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE) == 0
        // `(*NO_JIT)` makes the JIT compile succeed without machine code; `(*UTF)` asks `pcre2_match`
        // to check the subject's UTF-8, which `pcre2_jit_match` skips: both keep `pcre2_match`.
        var jitSize = 0
        var allOptions: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_JITSIZE), &jitSize)
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_ALLOPTIONS), &allOptions)
        runsJITDirectly = isJITCompiled && jitSize > 0 && allOptions & PCRE2_UTF == 0
        self.repeatsAGroup = repeatsAGroup
    }

    deinit {
        pcre2_code_free_8(code)
        dfaCode.withLock { if let dfa = $0 { pcre2_code_free_8(dfa) } }
    }

    /// Whether `pattern` has `)` followed by a greedy `*` or `+`, outside a class and not escaped. The
    /// translation's own lazy group (`(?:[…]*+[^…])*?`, one step per run of ASCII bytes) is not one.
    static func hasRepeatedGroup(_ pattern: [UInt8]) -> Bool {
        var inClass = false
        var escaped = false
        var previous: UInt8 = 0
        for (position, byte) in zip(pattern.indices, pattern) {
            if escaped {
                escaped = false
                previous = 0  // an escaped character is never a group's `)`
                continue
            }
            defer { previous = byte }
            switch byte {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "["): inClass = true
            case UInt8(ascii: "]"): inClass = false
            case UInt8(ascii: "*"), UInt8(ascii: "+"):
                let lazy = position + 1 < pattern.endIndex && pattern[position + 1] == UInt8(ascii: "?")
                if !inClass && previous == UInt8(ascii: ")") && !lazy { return true }
            default: break
            }
        }
        return false
    }

    /// The match limit set on every match (`pcre2_set_match_limit`): about 1 ms of JIT backtracking on
    /// this machine class before the DFA algorithm takes over. The JIT counts about one unit per byte a
    /// lazy `.*?` steps over, so URLs of 100 KiB and more may reach it with ordinary patterns; the
    /// answer is the same, only slower.
    public static var matchLimit: UInt32 { 100_000 }
    /// The match limit of patterns that repeat a group (`repeatsAGroup`).
    public static var repeatedGroupMatchLimit: UInt32 { 200 }
    /// The depth limit set on every match (`pcre2_set_depth_limit`; the interpreter only, the JIT is
    /// bounded by the scratch's JIT stack instead).
    public static var depthLimit: UInt32 { 10_000 }

    /// Searches `subject` (or matches at its start when compiled with `.anchored`).
    ///
    /// - Returns: `true` on a match; `false` on no match **and** when a resource limit was hit (see
    ///   `matchesReportingLimit`).
    public func matches(_ subject: UnsafeBufferPointer<UInt8>, scratch: PCRE2Scratch) -> Bool {
        matchesReportingLimit(subject, scratch: scratch) == .match
    }

    /// Like `matches(_:scratch:)` but tells a limit failure apart from a clean no-match.
    public func matchesReportingLimit(_ subject: UnsafeBufferPointer<UInt8>, scratch: PCRE2Scratch)
        -> PCRE2MatchOutcome
    {
        if repeatsAGroup { pcre2_set_match_limit_8(scratch.matchContext, Self.repeatedGroupMatchLimit) }
        let rc = run(subject, matchData: scratch.matchData, context: scratch.matchContext)
        if repeatsAGroup { pcre2_set_match_limit_8(scratch.matchContext, Self.matchLimit) }
        let outcome = Self.outcome(rc)
        scratch.lastMatchHitLimit = outcome == .limitExceeded
        return outcome == .limitExceeded ? dfaSearch(subject, scratch: scratch) : outcome
    }

    /// The largest DFA workspace (in `Int32`s) a fallback search may use.
    static var dfaWorkspaceLimit: Int { 8192 }

    /// The search again with `pcre2_dfa_match`, as one anchored pass: `(?s:[\x00-\xff]*)(?:pattern)`
    /// keeps a "not started yet" state alive at every position, so the time is linear in the subject
    /// (times the pattern size) instead of quadratic. Compiled on first use and kept.
    func dfaSearch(_ subject: UnsafeBufferPointer<UInt8>, scratch: PCRE2Scratch) -> PCRE2MatchOutcome {
        guard let compiled = dfaCompiled() else { return .limitExceeded }
        var empty: UInt8 = 0
        // The DFA keeps its active states in this workspace. Nested plus-groups such as `(a+)+` need a
        // state per repetition and run out of any fixed size on long runs; the cap bounds the time such a
        // run can take (about 0.13 s on 1 MiB) before it gives up with `.limitExceeded`.
        var workspaceSize = 2048
        while true {
            var workspace = [Int32](repeating: 0, count: workspaceSize)
            let rc = workspace.withUnsafeMutableBufferPointer { buffer in
                withUnsafePointer(to: &empty) { emptyPointer in
                    pcre2_dfa_match_8(
                        compiled, subject.baseAddress ?? emptyPointer, subject.count, 0,
                        PCRE2_ANCHORED | PCRE2_DFA_SHORTEST, scratch.matchData, scratch.matchContext,
                        buffer.baseAddress, buffer.count)
                }
            }
            if rc == PCRE2_ERROR_DFA_WSSIZE && workspaceSize < Self.dfaWorkspaceLimit {
                workspaceSize *= 4
                continue
            }
            return rc == PCRE2_ERROR_DFA_WSSIZE ? .limitExceeded : Self.outcome(rc)
        }
    }

    /// The DFA form, `(?s:[\x00-\xff]*)(?:pattern)` unless anchored; nil if PCRE2 rejects it.
    private func dfaCompiled() -> OpaquePointer? {
        dfaCode.withLock { cached in
            if let cached { return cached }
            let anchored = options.contains(.anchored)
            var source = Array((anchored ? pattern : #"(?s:[\x00-\xff]*)(?:"# + pattern + ")").utf8)
            let length = source.count
            source.append(0)
            var errorCode: Int32 = 0
            var errorOffset = 0
            guard let context = pcre2_compile_context_create_8(nil) else { return nil }
            defer { pcre2_compile_context_free_8(context) }
            if options.extraOptions != 0 { pcre2_set_compile_extra_options_8(context, options.extraOptions) }
            cached = source.withUnsafeBufferPointer {
                pcre2_compile_8($0.baseAddress, length, options.compileOptions, &errorCode, &errorOffset, context)
            }
            return cached
        }
    }

    /// Convenience search in a string's UTF-8 bytes; allocates a scratch.
    public func matches(_ subject: String) -> Bool {
        let scratch = PCRE2Scratch()
        var utf8 = Array(subject.utf8)
        utf8.append(0)
        return utf8.withUnsafeBufferPointer {
            matches(UnsafeBufferPointer(rebasing: $0.dropLast()), scratch: scratch)
        }
    }

    /// The first match in `subject`'s UTF-8 bytes with its capture groups (for redirect
    /// regex-substitution). Element 0 is the whole match, element *n* group *n*; ranges are byte
    /// offsets; nil for a group that did not participate. Returns nil when there is no match (or a
    /// limit was hit).
    public func firstMatch(in subject: String) -> [Range<Int>?]? {
        let scratch = PCRE2Scratch()
        guard let matchData = pcre2_match_data_create_from_pattern_8(code, nil) else { return nil }
        defer { pcre2_match_data_free_8(matchData) }
        var utf8 = Array(subject.utf8)
        utf8.append(0)
        let rc = utf8.withUnsafeBufferPointer {
            run(
                UnsafeBufferPointer(rebasing: $0.dropLast()), matchData: matchData,
                context: scratch.matchContext)
        }
        guard rc >= 0 else { return nil }
        let pairs = min(Int(pcre2_get_ovector_count_8(matchData)), captureCount + 1)
        guard let ovector = pcre2_get_ovector_pointer_8(matchData) else { return nil }
        var result: [Range<Int>?] = []
        for group in 0...captureCount {
            if group < pairs, ovector[2 * group] != ~0 {  // ~0 is PCRE2_UNSET
                let start = ovector[2 * group]
                let end = ovector[2 * group + 1]
                result.append(start <= end ? start..<end : nil)
            } else {
                result.append(nil)
            }
        }
        return result
    }

    private func run(
        _ subject: UnsafeBufferPointer<UInt8>, matchData: OpaquePointer, context: OpaquePointer
    ) -> Int32 {
        // PCRE2 wants a non-null pointer even for an empty subject.
        var empty: UInt8 = 0
        guard let start = subject.baseAddress, !subject.isEmpty else {
            return pcre2_match_8(code, &empty, 0, 0, 0, matchData, context)
        }
        // The JIT's machine code directly: `pcre2_match` would run the same after checking the arguments
        // and options (none here). The match context's limits (and the pattern's own, when lower) and
        // JIT stack apply alike.
        if runsJITDirectly { return pcre2_jit_match_8(code, start, subject.count, 0, 0, matchData, context) }
        return pcre2_match_8(code, start, subject.count, 0, 0, matchData, context)
    }

    static func outcome(_ rc: Int32) -> PCRE2MatchOutcome {
        if rc >= 0 { return .match }  // 0: matched, ovector too small for the captures
        switch rc {
        case PCRE2_ERROR_NOMATCH, PCRE2_ERROR_PARTIAL: return .noMatch
        case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT,
            PCRE2_ERROR_JIT_STACKLIMIT:
            return .limitExceeded
        default: return .error(rc)
        }
    }
}

/// Per-thread match state for `PCRE2Regex`: match data (one ovector pair), a match context carrying the
/// limits, and a JIT stack (32 KiB growing to 1 MiB). Reusable across regexes; not thread-safe — give
/// each thread (or task) its own.
public final class PCRE2Scratch {
    let matchData: OpaquePointer
    let matchContext: OpaquePointer
    let jitStack: OpaquePointer?
    /// Whether the backtracking search of the last `matches`/`matchesReportingLimit` call with this
    /// scratch hit a resource limit (its answer then came from the DFA run, see `PCRE2Regex`).
    @exclusivity(unchecked) public internal(set) var lastMatchHitLimit = false
    /// Where the matcher stores what a pass of loads read, so that the loads are kept.
    @exclusivity(unchecked) public var sink: UInt64 = 0
    /// Whether the last `matches`/`matchesReportingLimit` answer came from the DFA algorithm: exactly
    /// when the backtracking search hit a limit.
    public var lastMatchUsedDFA: Bool { lastMatchHitLimit }
    /// Work arrays of a matcher that runs on this scratch's thread (the content-rule matcher's
    /// candidate and fired rules), kept here so that their capacity is reused from one request to the
    /// next instead of allocated each time (``takeWorkArrays()``, ``restoreWorkArrays(_:_:)``). Not
    /// checked for exclusive access at run time: like the scratch, they belong to one thread.
    @exclusivity(unchecked) private var workCandidates: [UInt64] = []
    @exclusivity(unchecked) private var workRules: [Int32] = []
    /// A work array with a larger capacity is not kept (a long URL's candidates) …
    static var workArrayCapacityKept: Int { 4096 }
    /// … and one with more elements is emptied when given back.
    static var workArrayCountKept: Int { 512 }

    /// Takes the work arrays out, leaving empty ones until ``restoreWorkArrays(_:_:)``. They may still
    /// hold elements of earlier users (emptying an array costs about as much as a short request's
    /// appends): a user appends after them and reads its own from the count it found.
    public func takeWorkArrays() -> (candidates: [UInt64], rules: [Int32]) {
        var taken: ([UInt64], [Int32]) = ([], [])
        swap(&taken.0, &workCandidates)
        swap(&taken.1, &workRules)
        return taken
    }

    /// Gives back arrays taken with ``takeWorkArrays()``: kept, emptied once they hold more than
    /// `workArrayCountKept` elements, dropped when their capacity grew past `workArrayCapacityKept`.
    public func restoreWorkArrays(_ candidates: inout [UInt64], _ rules: inout [Int32]) {
        Self.keep(&candidates)
        Self.keep(&rules)
        swap(&candidates, &workCandidates)
        swap(&rules, &workRules)
    }

    private static func keep<Element>(_ array: inout [Element]) {
        if array.capacity > workArrayCapacityKept {
            array = []
        } else if array.count > workArrayCountKept {
            array.removeAll(keepingCapacity: true)
        }
    }

    /// Allocates the match data, match context and JIT stack. Traps if PCRE2 cannot allocate them.
    public init() {
        guard let data = pcre2_match_data_create_8(1, nil),
            let context = pcre2_match_context_create_8(nil)
        else {
            fatalError("PCRE2: out of memory allocating match data")
        }
        matchData = data
        matchContext = context
        pcre2_set_match_limit_8(context, PCRE2Regex.matchLimit)
        pcre2_set_depth_limit_8(context, PCRE2Regex.depthLimit)
        jitStack = pcre2_jit_stack_create_8(32 * 1024, 1024 * 1024, nil)
        if let jitStack { pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(jitStack)) }
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_match_context_free_8(matchContext)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    }
}
