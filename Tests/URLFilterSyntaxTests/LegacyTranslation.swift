@testable import URLFilterSyntax

/// The PCRE2 translation as it was before the compact spelling (every non-alphanumeric literal written
/// `\x{hh}`), kept as the reference the compact output must agree with.
enum LegacyTranslation {
    static func pcre2Pattern(_ tree: URLFilterTermTree, caseSensitive: Bool) -> String {
        enum Piece {
            case node(Int)
            case text(String)
        }
        var terms = tree.topLevel[...]
        if !tree.isAnchoredAtStart, let first = terms.first, isDotStar(tree, first) { terms = terms.dropFirst() }
        var out = (caseSensitive ? "" : "(?i)") + (tree.isAnchoredAtStart ? #"\A"# : "")
        var stack: [Piece] = terms.reversed().map { .node($0) }
        while let piece = stack.popLast() {
            switch piece {
            case .text(let text):
                out += text
            case .node(let index):
                let node = tree.nodes[index]
                switch node.atom {
                case .characterSet(let set):
                    let (text, isSingleAtom) = setSource(set, caseSensitive: caseSensitive)
                    if node.quantifier == .one || isSingleAtom {
                        out += text + node.quantifier.suffix
                    } else {
                        out += "(?:" + text + ")" + node.quantifier.suffix
                    }
                case .group(let children):
                    if node.quantifier == .one {
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

    static func isDotStar(_ tree: URLFilterTermTree, _ index: Int) -> Bool {
        let node = tree.nodes[index]
        if case .characterSet(let set) = node.atom { return set.isUniversal && node.quantifier == .zeroOrMore }
        return false
    }

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
}
