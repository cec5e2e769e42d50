/// Literal strings that every match of a PCRE2 pattern contains, read off the pattern text: the tests'
/// independent reading of what `URLFilterSearchFacts` finds on the url-filter's terms
/// (`SearchFactsTests` compares the two on every pattern of the bundled lists and the corpus). The
/// matcher read these facts off the text itself before the binary format stored them.
///
/// The reading is conservative: a run is reported only when the text certainly requires it. It follows
/// the pattern at the top level and inside groups that are not quantified (their content is required
/// once, in place); a quantified or special group (look-around, options), a class, `.`, an escape that
/// stands for a class or an assertion, and a character followed by a quantifier other than `+` end the
/// current run. A character followed by `+` is required once and ends the run after it. Any `|` outside a
/// class (alternation), `\Q`, a back reference by name, `(*` verbs or an option setting after the start
/// give no runs at all. Only the options `(?i)` at the very start are understood: the runs are then
/// lower-cased (ASCII) and must be looked for in the lower-cased subject. A run read up to a `\z`
/// (nothing between them) is also the suffix of every subject the pattern matches.
///
/// - Complexity: O(pattern length) time and memory; no recursion (nesting depth is the input's).
enum PCRE2MandatoryLiterals {
    /// The runs of at least `minimumLength` bytes every match contains, longest first, at most `limit`,
    /// and whether the pattern is caseless (`(?i)` at the start).
    static func runs(
        in pattern: [UInt8], minimumLength: Int = 3, limit: Int = 2
    ) -> (caseless: Bool, runs: [[UInt8]]) {
        let found = analysis(of: pattern, minimumLength: minimumLength, limit: limit)
        return (found.caseless, found.runs)
    }

    /// What ``analysis(of:minimumLength:limit:)`` reads off a pattern.
    struct Analysis: Sendable, Equatable {
        /// `(?i)` at the start: ``runs`` and ``suffix`` are lower-cased and must be looked for in the
        /// lower-cased subject.
        var caseless: Bool
        /// Runs every match contains (see ``PCRE2MandatoryLiterals/runs(in:minimumLength:limit:)``).
        var runs: [[UInt8]]
        /// A run every match ends the subject with: the run just before a `\z` the pattern requires
        /// (any length; empty when there is none).
        var suffix: [UInt8]
        /// How many times a byte occurs in the runs every match contains, runs of any length counted
        /// (they are pieces of one concatenation: distinct bytes of the match), ascending by byte; only
        /// the bytes of runs shorter than the minimum length, which ``runs`` leaves out (`.*.*.*x`,
        /// `.*a.*a.*a.*b`). A subject holding a byte fewer times cannot match (lower-cased, as the
        /// runs, when ``caseless``).
        var byteDemand: [ByteDemand]
    }

    /// A byte every match holds at least `count` times.
    struct ByteDemand: Sendable, Equatable {
        var byte: UInt8
        var count: Int32
    }

    /// ``runs(in:minimumLength:limit:)`` and the literal suffix the subject must end with.
    static func analysis(of pattern: [UInt8], minimumLength: Int = 3, limit: Int = 2) -> Analysis {
        var index = 0
        var caseless = false
        if pattern.starts(with: Array("(?i)".utf8)) {
            caseless = true
            index = 4
        }
        var suffix: [UInt8] = []
        guard let closes = matchingParentheses(pattern) else {
            return Analysis(caseless: caseless, runs: [], suffix: [], byteDemand: [])
        }
        var runs: [[UInt8]] = []
        var run: [UInt8] = []
        // Per byte: occurrences in all runs, and whether one is in a run shorter than the minimum.
        var counts = [Int32](repeating: 0, count: 256)
        var inShortRun = [Bool](repeating: false, count: 256)
        func endRun() {
            for byte in run {
                counts[Int(byte)] += 1
                if run.count < minimumLength { inShortRun[Int(byte)] = true }
            }
            if run.count >= minimumLength { runs.append(run) }
            run.removeAll(keepingCapacity: true)
        }
        while index < pattern.count {
            let byte = pattern[index]
            var literal: UInt8?
            var next = index + 1
            switch byte {
            case UInt8(ascii: "("):
                guard let close = closes[index] else {
                    return Analysis(caseless: caseless, runs: [], suffix: [], byteDemand: [])
                }
                let quantified = close + 1 < pattern.count && isQuantifier(pattern[close + 1])
                endRun()
                if quantified || !isTransparentGroup(pattern, at: index) {
                    index = skipQuantifier(pattern, after: close + 1)
                    continue
                }
                index += pattern[index + 1] == UInt8(ascii: "?") ? 3 : 1  // into the group
                continue
            case UInt8(ascii: ")"):
                endRun()
                index += 1
                continue
            case UInt8(ascii: "["):
                next = classEnd(pattern, from: index)
            case UInt8(ascii: "\\"):
                guard index + 1 < pattern.count else {
                    return Analysis(caseless: caseless, runs: [], suffix: [], byteDemand: [])
                }
                let escaped = pattern[index + 1]
                next = index + 2
                if escaped == UInt8(ascii: "x") {
                    guard let (value, end) = hexEscape(pattern, from: index + 2) else {
                        return Analysis(caseless: caseless, runs: [], suffix: [], byteDemand: [])
                    }
                    literal = value
                    next = end
                } else if "QkgN".utf8.contains(escaped) {
                    return Analysis(caseless: caseless, runs: [], suffix: [], byteDemand: [])
                } else if "pPo".utf8.contains(escaped) {
                    // \p{…}, \pL, \o{…}: a class or a code point, not read here
                    guard next < pattern.count else {
                        return Analysis(caseless: caseless, runs: [], suffix: [], byteDemand: [])
                    }
                    if pattern[next] == UInt8(ascii: "{") {
                        guard let close = pattern[next...].firstIndex(of: UInt8(ascii: "}")) else {
                            return Analysis(caseless: caseless, runs: [], suffix: [], byteDemand: [])
                        }
                        next = close + 1
                    } else {
                        next += 1
                    }
                } else if escaped == UInt8(ascii: "c") {
                    next += 1  // \cX: a control character, not read here
                } else if !isAlphanumeric(escaped) {
                    literal = escaped
                } else if escaped == UInt8(ascii: "z") {
                    // The run read just before (nothing between: a group edge or any non-literal ends
                    // it) is at the end of every match, and `\z` is the end of the subject.
                    suffix = run
                }  // else a class (\d …) or an assertion (\A …): not a literal
            case UInt8(ascii: "|"):
                return Analysis(caseless: caseless, runs: [], suffix: [], byteDemand: [])
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                break
            default:
                literal = byte
            }
            let quantifier = next < pattern.count ? pattern[next] : 0
            if let value = literal, !isQuantifier(quantifier) || quantifier == UInt8(ascii: "+") {
                run.append(caseless && value >= 0x41 && value <= 0x5A ? value | 0x20 : value)
            }
            if next < pattern.count && isQuantifier(quantifier) || literal == nil { endRun() }
            index = skipQuantifier(pattern, after: next)
        }
        endRun()
        runs.sort { $0.count > $1.count }
        let demand = (0..<256).filter { inShortRun[$0] }.map {
            ByteDemand(byte: UInt8($0), count: counts[$0])
        }
        return Analysis(caseless: caseless, runs: Array(runs.prefix(limit)), suffix: suffix, byteDemand: demand)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    private static func isQuantifier(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "{")
    }

    /// The index after a quantifier (with its lazy `?` or possessive `+`) starting at `index`, or `index`.
    private static func skipQuantifier(_ pattern: [UInt8], after index: Int) -> Int {
        guard index < pattern.count, isQuantifier(pattern[index]) else { return index }
        var end = index + 1
        if pattern[index] == UInt8(ascii: "{") {
            while end < pattern.count && pattern[end] != UInt8(ascii: "}") { end += 1 }
            end += 1
        }
        if end < pattern.count && (pattern[end] == UInt8(ascii: "?") || pattern[end] == UInt8(ascii: "+")) { end += 1 }
        return end
    }

    /// `(`, `(?:` or `(?>`: a group whose content, when it is not quantified, is required in place.
    private static func isTransparentGroup(_ pattern: [UInt8], at index: Int) -> Bool {
        guard index + 1 < pattern.count else { return false }
        if pattern[index + 1] != UInt8(ascii: "?") { return pattern[index + 1] != UInt8(ascii: "*") }
        guard index + 2 < pattern.count else { return false }
        return pattern[index + 2] == UInt8(ascii: ":") || pattern[index + 2] == UInt8(ascii: ">")
    }

    /// The index after the class starting at `start` (`[`), following PCRE2: a `]` right after `[` or
    /// `[^` is a member; `\` escapes the next byte. Past the end of `pattern` when it is unterminated.
    static func classEnd(_ pattern: [UInt8], from start: Int) -> Int {
        var index = start + 1
        if index < pattern.count && pattern[index] == UInt8(ascii: "^") { index += 1 }
        if index < pattern.count && pattern[index] == UInt8(ascii: "]") { index += 1 }
        while index < pattern.count && pattern[index] != UInt8(ascii: "]") {
            index += pattern[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return index + 1
    }

    /// `{hh…}` or `hh` after `\x`: the byte value (≤ 0xFF) and the index after the escape.
    private static func hexEscape(_ pattern: [UInt8], from start: Int) -> (UInt8, Int)? {
        func digit(_ byte: UInt8) -> Int? {
            switch byte {
            case 0x30...0x39: return Int(byte - 0x30)
            case 0x41...0x46, 0x61...0x66: return Int(byte | 0x20) - 0x61 + 10
            default: return nil
            }
        }
        var value = 0
        var index = start
        if index < pattern.count && pattern[index] == UInt8(ascii: "{") {
            index += 1
            while index < pattern.count, let d = digit(pattern[index]) {
                value = value * 16 + d
                guard value <= 0xFF else { return nil }
                index += 1
            }
            guard index < pattern.count, pattern[index] == UInt8(ascii: "}"), index > start + 1 else { return nil }
            return (UInt8(value), index + 1)
        }
        while index < pattern.count && index < start + 2, let d = digit(pattern[index]) {
            value = value * 16 + d
            index += 1
        }
        return (UInt8(value), index)
    }

    /// For each `(` outside classes and escapes, the index of its `)`; nil when they do not pair up or
    /// when an option setting other than the leading `(?i)` or a `(*` verb appears.
    private static func matchingParentheses(_ pattern: [UInt8]) -> [Int: Int]? {
        var closes: [Int: Int] = [:]
        var open: [Int] = []
        var index = pattern.starts(with: Array("(?i)".utf8)) ? 4 : 0
        while index < pattern.count {
            switch pattern[index] {
            case UInt8(ascii: "\\"):
                index += 2
                continue
            case UInt8(ascii: "["):
                index = classEnd(pattern, from: index)
                continue
            case UInt8(ascii: "("):
                if index + 1 < pattern.count, pattern[index + 1] == UInt8(ascii: "*") { return nil }
                if index + 2 < pattern.count, pattern[index + 1] == UInt8(ascii: "?"),
                    !":>=!<".utf8.contains(pattern[index + 2])
                {
                    return nil  // an option setting such as (?-i) or (?i:…)
                }
                open.append(index)
            case UInt8(ascii: ")"):
                guard let start = open.popLast() else { return nil }
                closes[start] = index
            default: break
            }
            index += 1
        }
        return open.isEmpty ? closes : nil
    }
}
