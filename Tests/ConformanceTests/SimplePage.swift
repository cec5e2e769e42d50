import Foundation

/// Just enough of a page to answer the oracle's question "are all elements matching this selector
/// `display: none`?" for the simple selectors its suites use (`tag`, `#id`, `.class`, `[attr]` and
/// compounds of them). Without custom HTML, the oracle creates one element per probed selector, so a
/// selector is hidden exactly when an applied selector names it.
struct SimplePage {
    struct Element {
        var tag: String
        var attributes: [String: String]
    }
    let elements: [Element]?

    init(html: String?) {
        guard let html else {
            elements = nil
            return
        }
        var found: [Element] = []
        let tag = try! NSRegularExpression(pattern: #"<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>"#)
        let attribute = try! NSRegularExpression(pattern: #"([a-zA-Z-]+)\s*=\s*['"]([^'"]*)['"]"#)
        let text = html as NSString
        for match in tag.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            let attributesText = text.substring(with: match.range(at: 2))
            var attributes: [String: String] = [:]
            for pair in attribute.matches(
                in: attributesText, range: NSRange(location: 0, length: (attributesText as NSString).length))
            {
                attributes[(attributesText as NSString).substring(with: pair.range(at: 1)).lowercased()] =
                    (attributesText as NSString).substring(with: pair.range(at: 2))
            }
            found.append(Element(tag: text.substring(with: match.range(at: 1)).lowercased(), attributes: attributes))
        }
        elements = found
    }

    /// Whether the elements `selector` matches are all hidden by `applied`. A selector this page cannot
    /// evaluate (a combinator, a pseudo-class) is hidden exactly when an applied selector is the same.
    func isHidden(_ selector: String, by applied: Set<String>) -> Bool {
        let evaluable = !selector.trimmingCharacters(in: .whitespaces).contains { " >+~:()".contains($0) }
        guard let elements, evaluable else { return applied.contains(selector) }
        let matching = elements.filter { Self.matches(selector, $0) }
        return !matching.isEmpty && matching.allSatisfy { element in applied.contains { Self.matches($0, element) } }
    }

    /// A compound selector of `tag`, `#id`, `.class` and `[attr]` parts.
    static func matches(_ selector: String, _ element: Element) -> Bool {
        var rest = Substring(selector.trimmingCharacters(in: .whitespaces))
        func name() -> String {
            let end = rest.firstIndex { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } ?? rest.endIndex
            defer { rest = rest[end...] }
            return String(rest[..<end])
        }
        let tag = name()
        if !tag.isEmpty && tag.lowercased() != element.tag { return false }
        while let first = rest.first {
            rest = rest.dropFirst()
            switch first {
            case "#": if element.attributes["id"] != name() { return false }
            case ".":
                let classes = (element.attributes["class"] ?? "").split(separator: " ").map(String.init)
                if !classes.contains(name()) { return false }
            case "[":
                let attribute = name().lowercased()
                rest = rest.drop { $0 != "]" }.dropFirst()
                if element.attributes[attribute] == nil { return false }
            default: return false
            }
        }
        return true
    }
}
