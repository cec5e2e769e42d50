// Translation of normalized terms (spec §3.4) into PCRE2 source with WebKit's matching semantics
// (spec §3.6), and extraction of literals for pre-filtering. Iterative (explicit stacks); the PCRE2
// text is built as bytes, in its shortest exact spelling (see `PCRE2Spelling`).

struct Translator {
    let tree: URLFilterTermTree
    let caseSensitive: Bool
    /// Set terms written without their `+` (see `searchCore`): in `pcre2Pattern` only.
    private var matchedOnce: Set<Int> = []
    /// Writing ``URLFilterSearchFacts/asciiSubjectPattern``: `.` for WebKit's `.`, no skip over runs
    /// outside 1–127, a top-level `.*` before more made lazy.
    private var asciiSubject = false

    init(tree: URLFilterTermTree, caseSensitive: Bool) {
        self.tree = tree
        self.caseSensitive = caseSensitive
    }

    private func isDotStar(_ index: Int) -> Bool {
        let node = tree.nodes[index]
        if case .characterSet(let set) = node.atom {
            return set.isUniversal && node.quantifier == .zeroOrMore
        }
        return false
    }

    /// The PCRE2 text of the url-filter.
    ///
    /// Searches stay linear in the URL where a plain translation would backtrack quadratically: a
    /// `.*` followed by a fixed-length run of characters `S` and another `.*` is written
    /// `(?>[…]*?S)[…]*` — once the first `S` is found, a later `S` can only allow fewer matches of the
    /// rest (which begins with `.*`), so trying later ones is wasted work; and an unanchored pattern
    /// that begins with a fixed-length run `X` followed by `.*` is written
    /// `\A(?:[…]*+[^\x{01}-\x{7f}])*?(?>[…]*?X)[…]*…`, for the same reason (the first `X` of a run
    /// of code points 1–127 ends first; no match crosses a byte outside them). The language is
    /// unchanged; only the search order is. A plain search of `X.*Y.*Z` where `X` occurs often and `Z`
    /// never would retry from every `X` and every `Y` (SECURITY.md, "Searches are linear in the URL").
    func pcre2Pattern() -> String { pcre2Pattern(asciiSubject: false) }

    /// The PCRE2 text, or with `asciiSubject` its spelling for subjects of bytes 1–127
    /// (``URLFilterSearchFacts/asciiSubjectPattern``, always returned here).
    func pcre2Pattern(asciiSubject: Bool) -> String {
        // Case-insensitive: every set is already closed under ASCII case folding, so `(?i)` changes no
        // set; it lets a letter and its other case be written as the bare letter (smaller, faster code).
        var out: [UInt8] = []
        out.reserveCapacity(tree.nodes.count * 2 + 8)
        if asciiSubject { out.append(contentsOf: [0x28, 0x3F, 0x73, 0x29]) }  // (?s)
        if !caseSensitive { out.append(contentsOf: [0x28, 0x3F, 0x69, 0x29]) }  // (?i)
        var translator = self
        translator.asciiSubject = asciiSubject
        let terms: [Int]
        // `searchCore` also drops the leading `.*` of an unanchored search.
        (terms, translator.matchedOnce) = searchCore(flattened(tree.topLevel[...]))
        return translator.pcre2Pattern(terms, prefix: out)
    }

    private func pcre2Pattern(_ terms: [Int], prefix: [UInt8]) -> String {
        var out = prefix
        var next = 0
        if tree.isAnchoredAtStart {
            out.append(contentsOf: [0x5C, 0x41])  // \A
        } else if let star = terms.firstIndex(where: isDotStar), star > 0, isFixedLength(terms[..<star]),
            terms[(star + 1)...].contains(where: { !isDotStar($0) })
        {
            // Every term matches only code points 1–127, so a match lies inside one run of them: skip
            // whole runs and one byte outside 1–127 each (possessive: a step per run, not per byte),
            // fewest first, then take that run's first `X`.
            out.append(contentsOf: [0x5C, 0x41])  // \A
            // On subjects of bytes 1–127 there is no such byte to skip to.
            if !asciiSubject { out.append(contentsOf: URLFilterPCRE2.skipOutsideRuns.utf8) }
            appendFirstOccurrence(of: terms[..<star], after: terms[star], to: &out)
            next = star
        }
        while next < terms.count {
            let index = terms[next]
            if isDotStar(index), let end = terms[(next + 1)...].firstIndex(where: isDotStar), end > next + 1,
                isFixedLength(terms[(next + 1)..<end])
            {
                appendFirstOccurrence(of: terms[(next + 1)..<end], after: index, to: &out)
                next = end
                continue
            }
            appendTerm(index, to: &out)
            // Outside every group, with more after it, in a text not anchored at the end: lazy steps
            // forward to what follows (``URLFilterSearchFacts/asciiSubjectPattern``).
            if asciiSubject && isDotStar(index) && next + 1 < terms.count && !endsWithEndOfInput(terms) {
                out.append(0x3F)
            }
            next += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The search facts of the PCRE2 text `exact` (``pcre2Pattern()``'s), read from the terms it was
    /// written from: the same core terms, each as ``appendTerm(_:to:)`` writes it.
    ///
    /// - Complexity: O(number of terms) plus the writing of the ASCII-subject spelling.
    func searchFacts(exact: String) -> URLFilterSearchFacts {
        var translator = self
        let terms: [Int]
        (terms, translator.matchedOnce) = searchCore(flattened(tree.topLevel[...]))
        var runs = MandatoryRunCollector(caseless: !caseSensitive)
        var repeatsAGroup = false
        // `\A` and the skip group (repeated lazily) require no literal.
        runs.endRun()
        var stack = Array(terms.reversed())
        while let index = stack.popLast() {
            let node = tree.nodes[index]
            let quantifier = translator.quantifier(index)
            let repeats = quantifier == .zeroOrMore || quantifier == .oneOrMore
            switch node.atom {
            case .group(let children):
                if quantifier == .one {
                    stack.append(contentsOf: children.reversed())  // written in place, no parentheses
                } else {
                    runs.endRun()  // `(?:…)` and its quantifier: nothing in it is required in place
                    repeatsAGroup = repeatsAGroup || repeats
                }
            case .characterSet(let set):
                let characters = set.matchedCount
                if set.matchesEndOfInput {
                    // `\z`, or `(?:…|\z)`; quantified, `(?:\z)` or `(?:…|\z)` and the quantifier.
                    if quantifier != .one {
                        runs.endRun()
                        repeatsAGroup = repeatsAGroup || repeats
                    } else if characters == 0 {
                        runs.endOfInput()
                    } else {
                        runs.giveUp()  // an alternation in place
                    }
                    continue
                }
                // `(?!)` with its quantifier is a group too.
                if characters == 0 { repeatsAGroup = repeatsAGroup || repeats }
                if let character = writtenCharacter(set), quantifier == .one || quantifier == .oneOrMore {
                    runs.append(character)
                    if quantifier == .oneOrMore { runs.endRun() }
                } else {
                    runs.endRun()
                }
            }
        }
        let ascii = pcre2Pattern(asciiSubject: true)
        let unchanged = ascii.utf8.count == exact.utf8.count + 4 && ascii.utf8.dropFirst(4).elementsEqual(exact.utf8)
        return runs.facts(repeatsAGroup: repeatsAGroup, asciiSubjectPattern: unchanged ? nil : ascii)
    }

    /// The one character ``appendSet(_:caseSensitive:dot:to:)`` writes for `set` as a literal (not a
    /// class): a single code point, or under `(?i)` a letter and its other case (the lower-case one).
    private func writtenCharacter(_ set: URLFilterCharacterSet) -> UInt8? {
        let (low, high) = set.matchedMask
        let count = low.nonzeroBitCount + high.nonzeroBitCount
        let first = UInt8(low != 0 ? low.trailingZeroBitCount : 64 + high.trailingZeroBitCount)
        if count == 1 { return first }
        if count == 2 && !caseSensitive, let other = URLFilterCharacterSet.otherCase(first), set.hasMatched(other) {
            return other
        }
        return nil
    }

    /// Whether the last of `terms` is written `\z` (an unquantified end of input and no character).
    private func endsWithEndOfInput(_ terms: [Int]) -> Bool {
        guard let last = terms.last, quantifier(last) == .one, case .characterSet(let set) = tree.nodes[last].atom
        else { return false }
        return set.matchesEndOfInput && set.matchedCount == 0
    }

    /// Appends `(?>D*?S)`: the dot-star term `star` made lazy, then the fixed-length run `fixed`, in an
    /// atomic group — the first occurrence of `S`, never a later one.
    private func appendFirstOccurrence(of fixed: ArraySlice<Int>, after star: Int, to out: inout [UInt8]) {
        out.append(contentsOf: [0x28, 0x3F, 0x3E])  // (?>
        appendTerm(star, to: &out)
        out.append(0x3F)  // lazy
        for index in fixed { appendTerm(index, to: &out) }
        out.append(0x29)
    }

    /// Whether every term matches exactly one character (an unquantified set that does not match the
    /// end of input).
    private func isFixedLength(_ terms: ArraySlice<Int>) -> Bool {
        terms.allSatisfy { index in
            let node = tree.nodes[index]
            guard quantifier(index) == .one, case .characterSet(let set) = node.atom else { return false }
            return !set.matchesEndOfInput
        }
    }

    /// Appends the PCRE2 text of one term (a set or a group, with its quantifier).
    private func appendTerm(_ term: Int, to out: inout [UInt8]) {
        enum Piece {
            case node(Int)
            case close(URLFilterQuantifier)
        }
        var stack: [Piece] = [.node(term)]
        while let piece = stack.popLast() {
            switch piece {
            case .close(let quantifier):
                out.append(0x29)
                Self.appendQuantifier(quantifier, to: &out)
            case .node(let index):
                let node = tree.nodes[index]
                switch node.atom {
                case .characterSet(let set):
                    let quantifier = quantifier(index)
                    if quantifier == .one || Self.isSingleAtom(set) {
                        Self.appendSet(set, caseSensitive: caseSensitive, dot: asciiSubject, to: &out)
                    } else {
                        out.append(contentsOf: [0x28, 0x3F, 0x3A])  // (?:
                        Self.appendSet(set, caseSensitive: caseSensitive, dot: asciiSubject, to: &out)
                        out.append(0x29)
                    }
                    Self.appendQuantifier(quantifier, to: &out)
                case .group(let children):
                    if node.quantifier == .one {
                        // No alternation inside groups: an unquantified group is just its sequence.
                        stack.append(contentsOf: children.reversed().map { .node($0) })
                    } else {
                        out.append(contentsOf: [0x28, 0x3F, 0x3A])  // (?:
                        stack.append(.close(node.quantifier))
                        stack.append(contentsOf: children.reversed().map { .node($0) })
                    }
                }
            }
        }
    }

    static func appendQuantifier(_ quantifier: URLFilterQuantifier, to out: inout [UInt8]) {
        switch quantifier {
        case .one: break
        case .zeroOrOne: out.append(0x3F)
        case .zeroOrMore: out.append(0x2A)
        case .oneOrMore: out.append(0x2B)
        }
    }

    /// Whether `appendSet` writes one quantifiable atom (everything but a bare `\z`).
    static func isSingleAtom(_ set: URLFilterCharacterSet) -> Bool {
        !(set.matchesEndOfInput && set.matchedCount == 0)
    }

    /// PCRE2 text for one character set: `(?!)` for no character, a literal, a class (with `dot`, `.`
    /// for code points 1–127, exact under `(?s)` on subjects of those bytes); with end of input, `\z`
    /// or `(?:…|\z)`.
    static func appendSet(_ set: URLFilterCharacterSet, caseSensitive: Bool, dot: Bool, to out: inout [UInt8]) {
        let (low, high) = set.matchedMask
        let count = low.nonzeroBitCount + high.nonzeroBitCount
        let endOfInput = set.matchesEndOfInput
        if endOfInput {
            if count == 0 {
                out.append(contentsOf: [0x5C, 0x7A])  // \z
                return
            }
            out.append(contentsOf: [0x28, 0x3F, 0x3A])  // (?:
        }
        let first = UInt8(low != 0 ? low.trailingZeroBitCount : 64 + high.trailingZeroBitCount)
        if count == 0 {
            out.append(contentsOf: [0x28, 0x3F, 0x21, 0x29])  // (?!)
        } else if count == 1 {
            PCRE2Spelling.appendLiteral(first, to: &out)
        } else if count == 2 && !caseSensitive, let other = URLFilterCharacterSet.otherCase(first),
            set.hasMatched(other)
        {
            PCRE2Spelling.appendLiteral(other, to: &out)  // the lower-case letter; `(?i)` adds the other
        } else if dot && count == 127 {
            out.append(0x2E)  // .
        } else {
            PCRE2Spelling.appendClass(low: low, high: high, to: &out)
        }
        if endOfInput { out.append(contentsOf: [0x7C, 0x5C, 0x7A, 0x29]) }  // |\z)
    }

    /// The single character a set stands for, if it is one (a letter and its other case count as one
    /// character when case-insensitive), lower-cased when case-insensitive.
    func literalCharacter(_ set: URLFilterCharacterSet) -> UInt8? {
        guard !set.matchesEndOfInput else { return nil }
        let (low, high) = set.matchedMask
        let count = low.nonzeroBitCount + high.nonzeroBitCount
        guard count == 1 || count == 2 else { return nil }
        let first = UInt8(low != 0 ? low.trailingZeroBitCount : 64 + high.trailingZeroBitCount)
        let other = URLFilterCharacterSet.otherCase(first)
        if count == 1 {
            if !caseSensitive, other != nil { return nil }
            return first
        }
        if !caseSensitive, let other, set.hasMatched(other) {
            return other  // sorted: upper case first, lower case second
        }
        return nil
    }

    /// The quantifier a term is written with: its own, or `.one` for a set in `matchedOnce`.
    private func quantifier(_ index: Int) -> URLFilterQuantifier {
        matchedOnce.contains(index) ? .one : tree.nodes[index].quantifier
    }

    /// The part of `terms` (flattened) a search needs. Only whether the URL matches counts (spec §3.6),
    /// so at the start of an unanchored search and at the end of the pattern:
    /// - an optional term (`?`, `*`) decides nothing and is dropped: a match of the rest is a match of
    ///   the whole with that term empty, and a match of the whole contains a match of the rest;
    /// - a repeated term `X+` is needed once: a match of `X+R` ends with a match of `XR` (the last
    ///   repetition), and `RX+` begins with `RX`. A group then becomes its terms, in place.
    /// An end anchor is a required term (an end-of-input set), so a pattern anchored at the end keeps its
    /// last terms. The exponential shapes of WorstCaseTests' hostile url-filters become plain searches:
    /// `(.*a)*b` and `(aa?)*b` search `b`, `(a+)+b` searches `ab`.
    /// - Returns: the terms and the sets among them to write without their `+`.
    private func searchCore(_ terms: [Int]) -> (terms: [Int], once: Set<Int>) {
        var core = terms[...]
        var once: Set<Int> = []
        /// Shortens or rewrites the end term `index`; false when it must stay as it is.
        func reduce(_ index: Int, atStart: Bool) -> Bool {
            let node = tree.nodes[index]
            switch node.quantifier {
            case .zeroOrOne, .zeroOrMore:
                core = atStart ? core.dropFirst() : core.dropLast()
                return true
            case .oneOrMore where !once.contains(index):
                guard case .group(let children) = node.atom else {
                    once.insert(index)
                    return true
                }
                let inner = flattened(children[...])
                core = atStart ? (inner + core.dropFirst())[...] : (core.dropLast() + inner)[...]
                return true
            default:
                return false
            }
        }
        // Each step may copy the terms (a group opened at an end), so the steps are capped: stopping
        // early is always right, the rest is just searched as it is.
        var steps = 0
        var changed = true
        while changed && steps < 64 {
            changed = false
            if !tree.isAnchoredAtStart, let first = core.first, reduce(first, atStart: true) { changed = true }
            if let last = core.last, reduce(last, atStart: false) { changed = true }
            steps += 1
        }
        return (Array(core), once)
    }

    /// The top-level terms with unquantified groups expanded in place.
    private func flattened(_ terms: ArraySlice<Int>) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(terms.count)
        var stack = Array(terms.reversed())
        while let index = stack.popLast() {
            let node = tree.nodes[index]
            if case .group(let children) = node.atom, node.quantifier == .one {
                stack.append(contentsOf: children.reversed())
            } else {
                out.append(index)
            }
        }
        return out
    }

    /// `requiredLiteral` and `plainLiteral` from one walk of the flattened terms.
    func literals() -> (required: String?, plain: PlainLiteral?) {
        let terms = flattened(tree.topLevel[...])
        return (requiredLiteral(terms), plainLiteral(terms))
    }

    func requiredLiteral() -> String? { requiredLiteral(flattened(tree.topLevel[...])) }

    private func requiredLiteral(_ terms: [Int]) -> String? {
        var run: [UInt8] = []
        var best: [UInt8] = []
        func close() {
            if run.count > best.count { swap(&best, &run) }
            run.removeAll(keepingCapacity: true)
        }
        for index in terms {
            let node = tree.nodes[index]
            guard case .characterSet(let set) = node.atom, let c = literalCharacter(set) else {
                close()
                continue
            }
            switch node.quantifier {
            case .one:
                run.append(c)
            case .oneOrMore:
                run.append(c)
                close()
                run.append(c)
            case .zeroOrOne, .zeroOrMore:
                close()
            }
        }
        close()
        return best.isEmpty ? nil : String(decoding: best, as: UTF8.self)
    }

    func plainLiteral() -> PlainLiteral? { plainLiteral(flattened(tree.topLevel[...])) }

    private func plainLiteral(_ flatTerms: [Int]) -> PlainLiteral? {
        var terms = flatTerms[...]
        var anchoredAtStart = tree.isAnchoredAtStart
        if let first = terms.first, isDotStar(first) {
            terms = terms.dropFirst()
            anchoredAtStart = false
        }
        var anchoredAtEnd = false
        if let last = terms.last, case .characterSet(let set) = tree.nodes[last].atom,
            set.isEndOfLineAssertion,
            !set.isInverted, tree.nodes[last].quantifier == .one
        {
            terms = terms.dropLast()
            anchoredAtEnd = true
        }
        var literal: [UInt8] = []
        literal.reserveCapacity(terms.count)
        for index in terms {
            let node = tree.nodes[index]
            guard node.quantifier == .one, case .characterSet(let set) = node.atom,
                let c = literalCharacter(set)
            else {
                return nil
            }
            literal.append(c)
        }
        guard !literal.isEmpty else { return nil }
        return PlainLiteral(
            literal: String(decoding: literal, as: UTF8.self), anchoredAtStart: anchoredAtStart,
            anchoredAtEnd: anchoredAtEnd)
    }
}
