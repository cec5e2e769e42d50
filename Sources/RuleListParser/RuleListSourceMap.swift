package import ContentRuleModel

#if canImport(Glibc)
    import Glibc
#endif

/// Where things are in the text of a JSON rule list: the line and column of a byte, and the value a
/// rule's key path names. Made from a text the JSON reader accepted (``locate(_:)`` handles
/// diagnostics of any text: a JSON syntax error has its byte offset).
///
/// - Complexity: O(n) to make (one pass over the text for lines and rules); a key path is then found
///   by a walk through its rule only.
package struct RuleListSourceMap: Sendable {
    private let bytes: [UInt8]
    /// The byte offset of each line's first byte.
    private let lineStarts: [Int]
    /// The byte offset of each element of the top-level array (empty when the text is not one).
    private let ruleStarts: [Int]
    /// Per block of ``blockSize`` bytes, the UTF-8 continuation bytes before it: a column is found in
    /// at most a block's bytes, however long its line (a rule list is often one line).
    private let continuationsBefore: [Int]
    private static let blockSize = 1024

    package init(json: some Collection<UInt8>) {
        let bytes = Array(json)
        self.bytes = bytes
        var lines = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count, let newline = memchr(base + start, 0x0A, buffer.count - start) {
                start = UnsafePointer(newline.assumingMemoryBound(to: UInt8.self)) - base + 1
                lines.append(start)
            }
        }
        lineStarts = lines
        var continuations = [0]
        continuations.reserveCapacity(bytes.count / Self.blockSize + 1)
        var count = 0
        for block in stride(from: 0, to: bytes.count, by: Self.blockSize) {
            count += bytes[block..<min(block + Self.blockSize, bytes.count)].count { $0 & 0xC0 == 0x80 }
            continuations.append(count)
        }
        continuationsBefore = continuations
        var walker = Walker(bytes: bytes)
        ruleStarts = walker.topLevelElements()
    }

    /// The 1-based line and column (in Unicode scalars) of byte `offset`.
    package func position(ofByte offset: Int) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let column =
            offset - lineStarts[low] - (continuations(before: offset) - continuations(before: lineStarts[low])) + 1
        return (low + 1, column)
    }

    /// The UTF-8 continuation bytes before byte `offset`.
    private func continuations(before offset: Int) -> Int {
        let block = offset / Self.blockSize
        return continuationsBefore[block]
            + bytes[(block * Self.blockSize)..<offset].count { $0 & 0xC0 == 0x80 }
    }

    /// The byte offset of the value `keyPath` names in rule `rule` (`trigger.if-domain[2]`), or of
    /// the deepest part of the path the text has (a missing key: its object); the rule's own offset
    /// for no key path; `nil` for a rule the text does not have.
    package func byteOffset(rule: Int, keyPath: String?) -> Int? {
        guard rule >= 0, rule < ruleStarts.count else { return nil }
        var walker = Walker(bytes: bytes)
        return walker.find(Self.components(of: keyPath ?? ""), from: ruleStarts[rule])
    }

    /// The JSON text of rule `rule`, as written; nil for a rule the text does not have.
    package func ruleText(rule: Int) -> String? {
        guard rule >= 0, rule < ruleStarts.count else { return nil }
        var walker = Walker(bytes: bytes)
        walker.index = ruleStarts[rule]
        walker.skipValue()
        return String(decoding: bytes[ruleStarts[rule]..<min(walker.index, bytes.count)], as: UTF8.self)
    }

    /// The keys of rule `rule`'s objects (the rule, its trigger, its action and their objects) written
    /// more than once, each with its key path and the offset of the repeated key's value, in text order.
    package func repeatedKeys(rule: Int) -> [(keyPath: String, offset: Int)] {
        guard rule >= 0, rule < ruleStarts.count else { return [] }
        var walker = Walker(bytes: bytes)
        var found: [(keyPath: String, offset: Int)] = []
        walker.collectRepeatedKeys(at: ruleStarts[rule], path: "", into: &found)
        return found
    }

    /// `diagnostics` with their ``RuleListDiagnostic/line`` and ``RuleListDiagnostic/column`` set.
    package func locate(_ diagnostics: [RuleListDiagnostic]) -> [RuleListDiagnostic] {
        diagnostics.map { diagnostic in
            var located = diagnostic
            // A rule's diagnostic is placed at its value; one about the document (its top level not
            // an array) at the document's first character.
            let offset =
                diagnostic.byteOffset
                ?? diagnostic.ruleIndex.flatMap { byteOffset(rule: $0, keyPath: diagnostic.keyPath) }
                ?? (diagnostic.error == .jsonTopLevelStructureNotAnArray
                    ? bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } : nil)
            if let offset {
                (located.line, located.column) = position(ofByte: offset)
            }
            return located
        }
    }

    /// A key path's parts: keys and array positions (`trigger.if-domain[2]` → trigger, if-domain, 2).
    enum Component: Equatable {
        case key([UInt8])
        case index(Int)
    }

    static func components(of keyPath: String) -> [Component] {
        var components: [Component] = []
        for part in keyPath.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                if bracket > rest.startIndex { components.append(.key(Array(rest[..<bracket].utf8))) }
                rest = rest[bracket...]
                while rest.first == "[", let close = rest.firstIndex(of: "]"),
                    let index = Int(rest.dropFirst().prefix(upTo: close))
                {
                    components.append(.index(index))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                components.append(.key(Array(rest.utf8)))
            }
        }
        return components
    }

    /// Steps through JSON text the reader accepted.
    private struct Walker {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// Past the value at `index` (a string, a container, a number or a literal).
        mutating func skipValue() {
            guard index < bytes.count else { return }
            switch bytes[index] {
            case 0x22: skipString()
            case 0x7B, 0x5B:
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case 0x22:
                        skipString()
                        continue
                    case 0x7B, 0x5B: depth += 1
                    case 0x7D, 0x5D:
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return
                        }
                    default: break
                    }
                    index += 1
                }
            default:
                while index < bytes.count, ![0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                }
            }
        }

        /// Past the string at `index`; returns its raw contents' range.
        @discardableResult
        mutating func skipString() -> Range<Int> {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != 0x22 { index += bytes[index] == 0x5C ? 2 : 1 }
            let end = min(index, bytes.count)
            index += 1
            return start..<end
        }

        /// The offsets of the top-level array's elements.
        mutating func topLevelElements() -> [Int] {
            skipSpace()
            guard index < bytes.count, bytes[index] == 0x5B else { return [] }
            return elementStarts()
        }

        /// The offsets of the elements of the array at `index`; leaves `index` past the array.
        mutating func elementStarts() -> [Int] {
            var starts: [Int] = []
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == 0x5D {
                index += 1
                return starts
            }
            while index < bytes.count {
                skipSpace()
                starts.append(index)
                skipValue()
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x2C else {
                    index += 1
                    return starts
                }
                index += 1
            }
            return starts
        }

        /// Adds the repeated keys of the object at `start` and of the objects in it to `found`.
        mutating func collectRepeatedKeys(
            at start: Int, path: String, into found: inout [(keyPath: String, offset: Int)]
        ) {
            index = start
            guard index < bytes.count, bytes[index] == 0x7B else { return }
            index += 1
            var seen: Set<[UInt8]> = []
            var members: [(key: [UInt8], value: Int)] = []
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x22 else { break }
                let key = Array(bytes[skipString()])
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x3A else { break }
                index += 1
                skipSpace()
                members.append((key, index))
                skipValue()
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x2C else { break }
                index += 1
            }
            for (key, value) in members {
                let keyPath = (path.isEmpty ? "" : path + ".") + String(decoding: key, as: UTF8.self)
                if !seen.insert(key).inserted { found.append((keyPath, value)) }
                collectRepeatedKeys(at: value, path: keyPath, into: &found)
            }
        }

        /// The offset of the value `path` names from the value at `start`, or of the deepest part found.
        mutating func find(_ path: [Component], from start: Int) -> Int {
            var at = start
            for component in path {
                index = at
                guard index < bytes.count else { return at }
                var found: Int?
                switch (component, bytes[index]) {
                case (.key(let name), 0x7B):
                    // Every member: the last of a repeated key is the one the reader keeps.
                    index += 1
                    while true {
                        skipSpace()
                        guard index < bytes.count, bytes[index] == 0x22 else { break }
                        let key = skipString()
                        skipSpace()
                        guard index < bytes.count, bytes[index] == 0x3A else { break }
                        index += 1
                        skipSpace()
                        if bytes[key].elementsEqual(name) { found = index }
                        skipValue()
                        skipSpace()
                        guard index < bytes.count, bytes[index] == 0x2C else { break }
                        index += 1
                    }
                case (.index(let position), 0x5B):
                    let starts = elementStarts()
                    if position < starts.count { found = starts[position] }
                default: break
                }
                guard let found else { return at }
                at = found
            }
            return at
        }
    }
}

extension RuleListParser {
    /// `diagnostics` of the rule list `json`, located (line and column) and in file order, except
    /// that WebKit's error — the first error as WebKit meets them — stays first.
    /// - Complexity: nothing when there are no diagnostics; otherwise O(n) in the text's size.
    package static func locatedInFileOrder(_ diagnostics: [RuleListDiagnostic], json: some Collection<UInt8>)
        -> [RuleListDiagnostic]
    {
        guard !diagnostics.isEmpty else { return diagnostics }
        return locatedInFileOrder(diagnostics, map: RuleListSourceMap(json: json))
    }

    /// ``locatedInFileOrder(_:json:)`` with the text's source map made already.
    package static func locatedInFileOrder(_ diagnostics: [RuleListDiagnostic], map: RuleListSourceMap)
        -> [RuleListDiagnostic]
    {
        let located = map.locate(diagnostics)
        let webKits = located.firstIndex { $0.severity == .error }
        var rest = Array(located.enumerated().filter { $0.offset != webKits })
        rest.sort { a, b in
            switch (a.element.line, b.element.line) {
            case (let lineA?, let lineB?):
                if lineA != lineB { return lineA < lineB }
                let (columnA, columnB) = (a.element.column ?? 0, b.element.column ?? 0)
                return columnA != columnB ? columnA < columnB : a.offset < b.offset
            case (nil, nil): return a.offset < b.offset
            case (nil, _?): return false
            case (_?, nil): return true
            }
        }
        return (webKits.map { [located[$0]] } ?? []) + rest.map(\.element)
    }
}
