// Translation of normalized terms (spec §3.4) into PCRE2 source with WebKit's matching semantics
// (spec §3.6), and extraction of literals for pre-filtering. Iterative (explicit stacks).

struct Translator {
    let tree: URLFilterTermTree
    let caseSensitive: Bool

    /// Top-level terms with the leading canonical `.*` of an unanchored search dropped.
    private var searchTerms: ArraySlice<Int> {
        var terms = tree.topLevel[...]
        if !tree.isAnchoredAtStart, let first = terms.first, isDotStar(first) {
            terms = terms.dropFirst()
        }
        return terms
    }

    private func isDotStar(_ index: Int) -> Bool {
        let node = tree.nodes[index]
        if case .characterSet(let set) = node.atom {
            return set.isUniversal && node.quantifier == .zeroOrMore
        }
        return false
    }

    func pcre2Pattern() -> String {
        enum Piece {
            case node(Int)
            case text(String)
        }
        // Case-insensitive: every set is already closed under ASCII case folding, so `(?i)` changes no
        // set; it lets a letter and its other case be written as the bare letter (smaller, faster code).
        var out = (caseSensitive ? "" : "(?i)") + (tree.isAnchoredAtStart ? #"\A"# : "")
        var stack: [Piece] = searchTerms.reversed().map { .node($0) }
        while let piece = stack.popLast() {
            switch piece {
            case .text(let text):
                out += text
            case .node(let index):
                let node = tree.nodes[index]
                switch node.atom {
                case .characterSet(let set):
                    let (text, isSingleAtom) = Self.setSource(set, caseSensitive: caseSensitive)
                    if node.quantifier == .one || isSingleAtom {
                        out += text + node.quantifier.suffix
                    } else {
                        out += "(?:" + text + ")" + node.quantifier.suffix
                    }
                case .group(let children):
                    if node.quantifier == .one {
                        // No alternation inside groups: an unquantified group is just its sequence.
                        stack.append(contentsOf: children.reversed().map { .node($0) })
                    } else {
                        stack.append(.text(")" + node.quantifier.suffix))
                        stack.append(contentsOf: children.reversed().map { .node($0) })
                        stack.append(.text("(?:"))
                    }
                }
            }
        }
        return out
    }

    /// PCRE2 text for one character set and whether it is a single quantifiable atom.
    static func setSource(_ set: URLFilterCharacterSet, caseSensitive: Bool) -> (String, Bool) {
        let characters = set.matchedCharacters
        let body: String
        switch characters.count {
        case 0: body = "(?!)"
        case 1: body = escape(characters[0])
        case 2 where !caseSensitive && URLFilterCharacterSet.otherCase(characters[0]) == characters[1]:
            body = escape(characters[1])
        default: body = classSource(characters)
        }
        if set.matchesEndOfInput {
            return characters.isEmpty ? (#"\z"#, false) : ("(?:" + body + #"|\z)"#, true)
        }
        return (body, true)
    }

    static func escape(_ c: UInt8) -> String {
        if isAlpha(c) || isDigit(c) { return String(UnicodeScalar(c)) }
        let hex = String(c, radix: 16)
        return #"\x{"# + (hex.count == 1 ? "0" + hex : hex) + "}"
    }

    static func classSource(_ characters: [UInt8]) -> String {
        var out = "["
        var i = 0
        while i < characters.count {
            var j = i
            while j + 1 < characters.count && characters[j + 1] == characters[j] + 1 { j += 1 }
            if j - i >= 2 {
                out += escape(characters[i]) + "-" + escape(characters[j])
            } else {
                for k in i...j { out += escape(characters[k]) }
            }
            i = j + 1
        }
        return out + "]"
    }

    /// The single character a set stands for, if it is one (a letter and its other case count as one
    /// character when case-insensitive), lower-cased when case-insensitive.
    func literalCharacter(_ set: URLFilterCharacterSet) -> UInt8? {
        guard !set.matchesEndOfInput, set.matchedCount <= 2 else { return nil }
        let characters = set.matchedCharacters
        if characters.count == 1 {
            if !caseSensitive, URLFilterCharacterSet.otherCase(characters[0]) != nil { return nil }
            return characters[0]
        }
        if !caseSensitive, characters.count == 2,
            URLFilterCharacterSet.otherCase(characters[0]) == characters[1]
        {
            return characters[1]  // sorted: upper case first, lower case second
        }
        return nil
    }

    /// The top-level terms with unquantified groups expanded in place.
    private func flattened(_ terms: ArraySlice<Int>) -> [Int] {
        var out: [Int] = []
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

    func requiredLiteral() -> String? {
        var best: [UInt8] = []
        var run: [UInt8] = []
        func close() {
            if run.count > best.count { best = run }
            run = []
        }
        for index in flattened(tree.topLevel[...]) {
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
                run = [c]
            case .zeroOrOne, .zeroOrMore:
                close()
            }
        }
        close()
        return best.isEmpty ? nil : String(decoding: best, as: UTF8.self)
    }

    func plainLiteral() -> PlainLiteral? {
        var terms = flattened(tree.topLevel[...])
        var anchoredAtStart = tree.isAnchoredAtStart
        if let first = terms.first, isDotStar(first) {
            terms.removeFirst()
            anchoredAtStart = false
        }
        var anchoredAtEnd = false
        if let last = terms.last, case .characterSet(let set) = tree.nodes[last].atom,
            set.isEndOfLineAssertion,
            !set.isInverted, tree.nodes[last].quantifier == .one
        {
            terms.removeLast()
            anchoredAtEnd = true
        }
        var literal: [UInt8] = []
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
