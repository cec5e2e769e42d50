// The term builder: WebKit's `PatternParser` delegate in `Source/WebCore/contentextensions/URLFilterParser.cpp`
// plus the term predicates of `Term.h` (`isEndOfLineAssertion`, `matchesAtLeastOneCharacter`,
// `isKnownToMatchAnyString`, `isUniversalTransition`). Predicates on groups use facts cached when the
// group closes, so nothing recurses on nesting depth.

/// Facts about a term's atom, computed once when the atom is complete.
struct NodeInfo {
    /// The atom (ignoring its quantifier) consumes at least one character.
    var atomConsumes: Bool
    /// `Term::isUniversalTransition` (sets: exact; groups: a single universal child).
    var isUniversal: Bool
    /// Groups with exactly one child: that child's index.
    var singleChild: Int?
    /// Groups with exactly one child: `isKnownToMatchAnyString` of that child.
    var singleChildKnownAny: Bool
}

extension PatternParser {
    var hasError: Bool { status != .ok }

    mutating func fail(_ reason: URLFilterParseStatus, _ span: Range<Int>) {
        guard status == .ok else { return }
        status = reason
        statusSpan = span
    }

    mutating func addNode(_ term: URLFilterTerm, _ nodeInfo: NodeInfo) -> Int {
        nodes.append(term)
        info.append(nodeInfo)
        return nodes.count - 1
    }

    mutating func addSetNode(_ set: URLFilterCharacterSet, span: Range<Int>) -> Int {
        addNode(
            URLFilterTerm(atom: .characterSet(set), span: span),
            NodeInfo(
                atomConsumes: !set.isEndOfLineAssertion, isUniversal: set.isUniversal, singleChild: nil,
                singleChildKnownAny: false))
    }

    // MARK: Term predicates (Term.h)

    func isEndOfLine(_ i: Int) -> Bool {
        if case .characterSet(let set) = nodes[i].atom { return set.isEndOfLineAssertion }
        return false
    }

    func matchesAtLeastOneCharacter(_ i: Int) -> Bool {
        switch nodes[i].quantifier {
        case .zeroOrOne, .zeroOrMore: return false
        case .one, .oneOrMore: return !isEndOfLine(i) && info[i].atomConsumes
        }
    }

    func isKnownToMatchAnyString(_ i: Int) -> Bool {
        let quantifier = nodes[i].quantifier
        switch nodes[i].atom {
        case .characterSet:
            return info[i].isUniversal && quantifier == .zeroOrMore
        case .group:
            guard let child = info[i].singleChild else { return false }
            if info[i].singleChildKnownAny { return true }
            guard info[child].isUniversal else { return false }
            let childQuantifier = nodes[child].quantifier
            return quantifier == .zeroOrMore
                || (quantifier == .zeroOrOne && childQuantifier == .oneOrMore)
                || (quantifier == .oneOrMore && childQuantifier == .zeroOrOne)
        }
    }

    // MARK: Delegate callbacks

    mutating func sinkFloatingTerm() {
        guard let term = floating else { return }
        floating = nil
        if hasProcessedEndOfLineAssertion {
            fail(.misplacedEndOfLine, nodes[term].span)
            return
        }
        if isEndOfLine(term) { hasProcessedEndOfLineAssertion = true }
        if openGroups.isEmpty {
            sunk.append(term)
        } else {
            openGroups[openGroups.count - 1].children.append(term)
        }
    }

    /// A pattern character or an escape producing one (`$` arrives here as character 0).
    mutating func atomCharacter(_ ch: UInt32) {
        guard !hasError else { return }
        guard ch < 128 else {
            fail(.nonASCII, tokenStart..<index)
            return
        }
        sinkFloatingTerm()
        var set = URLFilterCharacterSet()
        set.add(UInt8(ch), caseSensitive: caseSensitive)
        floating = addSetNode(set, span: tokenStart..<index)
    }

    mutating func atomDot() {
        guard !hasError else { return }
        sinkFloatingTerm()
        floating = addSetNode(.universal, span: tokenStart..<index)
    }

    mutating func atomBuiltInClass(_ start: Int) {
        guard !hasError else { return }
        sinkFloatingTerm()
        fail(.unsupportedCharacterClass, start..<index)
    }

    mutating func quantifyAtom(_ minimum: UInt32, _ maximum: UInt32) {
        guard !hasError, let term = floating else { return }
        let quantifier: URLFilterQuantifier
        switch (minimum, maximum) {
        case (0, 1): quantifier = .zeroOrOne
        case (0, quantifyInfinite): quantifier = .zeroOrMore
        case (1, quantifyInfinite): quantifier = .oneOrMore
        default:
            fail(.invalidQuantifier, tokenStart..<index)
            return
        }
        nodes[term].quantifier = quantifier
        nodes[term].span = nodes[term].span.lowerBound..<index
    }

    mutating func assertionBOL() {
        guard !hasError else { return }
        if floating != nil || !sunk.isEmpty || !openGroups.isEmpty {
            fail(.misplacedStartOfLine, tokenStart..<index)
            return
        }
        hasBeginningOfLineAssertion = true
    }

    mutating func classBegin(inverted: Bool) {
        guard !hasError else { return }
        sinkFloatingTerm()
        classSet = URLFilterCharacterSet(inverted: inverted)
        classStart = tokenStart
    }

    mutating func classAtom(_ ch: UInt32) {
        guard !hasError else { return }
        guard ch < 128 else {
            // WebKit would hit a release assertion here; report the pattern as non-ASCII instead.
            fail(.nonASCII, tokenStart..<index)
            return
        }
        classSet.add(UInt8(ch), caseSensitive: caseSensitive)
    }

    mutating func classRange(_ first: UInt32, _ last: UInt32) {
        guard !hasError else { return }
        guard last < 128 else {
            fail(.nonASCII, tokenStart..<index)
            return
        }
        for ch in first...last { classSet.add(UInt8(ch), caseSensitive: caseSensitive) }
    }

    mutating func classEnd() {
        guard !hasError else { return }
        floating = addSetNode(classSet, span: classStart..<index)
    }

    mutating func subpatternBegin() {
        guard !hasError else { return }
        sinkFloatingTerm()
        openGroups.append((children: [], start: tokenStart))
    }

    mutating func parenthesesEnd() {
        guard !hasError else { return }
        sinkFloatingTerm()
        guard let group = openGroups.popLast() else { return }
        var nodeInfo = NodeInfo(
            atomConsumes: false, isUniversal: false, singleChild: nil, singleChildKnownAny: false)
        nodeInfo.atomConsumes = group.children.contains { matchesAtLeastOneCharacter($0) }
        if group.children.count == 1 {
            let child = group.children[0]
            nodeInfo.singleChild = child
            nodeInfo.isUniversal = info[child].isUniversal
            nodeInfo.singleChildKnownAny = isKnownToMatchAnyString(child)
        }
        floating = addNode(
            URLFilterTerm(atom: .group(children: group.children), span: group.start..<index), nodeInfo)
    }

    // MARK: Finalization

    /// WebKit's `PatternParser::finalize` minus the NFA: sinks, normalizes (spec §3.4) and detects
    /// "matches everything" (spec §3.5).
    mutating func finalize() {
        guard !hasError else { return }
        sinkFloatingTerm()
        guard !hasError else { return }
        simplifySunkTerms()
        if !sunk.contains(where: { matchesAtLeastOneCharacter($0) }) {
            fail(.matchesEverything, 0..<bytes.count)
        }
    }

    mutating func dotStar() -> Int {
        if let existing = canonicalDotStar { return existing }
        let index = addSetNode(.universal, span: 0..<0)
        nodes[index].quantifier = .zeroOrMore
        canonicalDotStar = index
        return index
    }

    mutating func simplifySunkTerms() {
        guard !sunk.isEmpty else { return }
        let canonical = dotStar()
        var result: [Int] = []
        result.reserveCapacity(sunk.count + 1)
        var isAfterDotStar = false
        for term in sunk {
            let knownAny = isKnownToMatchAnyString(term)
            if isAfterDotStar && knownAny { continue }
            isAfterDotStar = knownAny
            result.append(knownAny ? canonical : term)
        }
        if !hasBeginningOfLineAssertion && !isKnownToMatchAnyString(result[0]) {
            result.insert(canonical, at: 0)
        }
        if result.count > 2 && isEndOfLine(result[result.count - 1])
            && isKnownToMatchAnyString(result[result.count - 2])
        {
            result.removeLast(2)
        }
        if let last = result.last, isEndOfLine(last) {
            sunk = result
            return
        }
        while let last = result.last, !matchesAtLeastOneCharacter(last) { result.removeLast() }
        sunk = result
    }
}
