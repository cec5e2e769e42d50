import ContentRuleModel
import RuleListParser
import Testing

/// WebKit's JSON dialect (spec §1.1; `Source/WTF/wtf/JSONValues.cpp`).
@Suite struct JSONDialectTests {
    static func parse(_ text: String) -> Result<JSONValue, JSONSyntaxError> { JSONReader.parse(Array(text.utf8)) }
    static func accepts(_ text: String) -> Bool {
        if case .success = parse(text) { return true }
        return false
    }

    /// (JSON text, accepted by WebKit's reader)
    static let acceptanceTable: [(String, Bool)] = [
        ("[]", true), ("[", false), ("", false), ("   ", false),
        ("[] \t\r\n", true), ("[] x", false), ("[][]", false),
        ("\u{FEFF}[]", false),  // byte-order mark
        ("[\u{0C}]", false),  // form feed is not whitespace
        ("[\u{0B}]", false),  // vertical tab is not whitespace
        ("[\u{A0}]", false),  // NBSP is not whitespace
        ("[1]", true), ("[-0]", true), ("[1.5e+3]", true), ("[1E-2]", true), ("[0.0]", true),
        ("[01]", false), ("[-01]", false), ("[+1]", false), ("[.5]", false), ("[1.]", false), ("[1e]", false),
        ("[-]", false), ("[NaN]", false), ("[Infinity]", false),
        ("[1,]", false), ("{\"a\":1,}", false), ("[,1]", false), ("{\"a\" 1}", false), ("{a:1}", false),
        ("[true,false,null]", true), ("[tru]", false), ("[nullx]", false),
        ("[\"\\x41\"]", true), ("[\"\\v\"]", true), ("[\"\\/\\b\\f\\n\\r\\t\\\\\\\"\"]", true),
        ("[\"\\x4\"]", false), ("[\"\\xZZ\"]", false), ("[\"\\q\"]", false), ("[\"\\u12\"]", false),
        ("[\"\\'\"]", false), ("[\"a\u{01}b\tc\"]", true),  // raw control characters are accepted
        ("[\"unterminated]", false),
    ]

    @Test(arguments: acceptanceTable)
    func acceptance(_ text: String, _ accepted: Bool) {
        #expect(Self.accepts(text) == accepted)
    }

    /// A leading byte order mark is refused, as WebKit refuses it (WebKitGTK 2.50.6, `oracle/webkit_compile.py`
    /// on `EF BB BF [{…}]`: "Failed to parse the JSON String."), and the reason names it.
    @Test func byteOrderMarkIsNamed() {
        guard case .failure(let error) = JSONReader.parse([0xEF, 0xBB, 0xBF] + Array("[]".utf8)) else {
            Issue.record("a byte order mark was accepted")
            return
        }
        #expect(error.byteOffset == 0)
        #expect(error.reason.contains("byte order mark"))
        let result = RuleListParser.parse(
            [0xEF, 0xBB, 0xBF] + Array(#"[{"trigger":{"url-filter":"x"},"action":{"type":"block"}}]"#.utf8))
        #expect(result.diagnostics.first?.error == .jsonInvalid)
        #expect(result.diagnostics.first?.message == "Failed to parse the JSON String.")
        #expect(result.diagnostics.first?.description.contains("byte order mark") == true)
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse([0x5B, 0x22, 0xFF, 0x22, 0x5D]).get() }
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse([0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D]).get() }
        // Invalid UTF-8 next to an escape takes the escape path.
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(Array("[\"\\n".utf8) + [0xFF, 0x22, 0x5D]).get() }
        #expect(RuleListParser.parse([0x5B, 0x22, 0xFF, 0x22, 0x5D]).diagnostics.first?.error == .jsonInvalid)
    }

    /// (escaped JSON string body, decoded value)
    static let decodingTable: [(String, String)] = [
        ("\\x41", "A"), ("\\xff", "\u{FF}"), ("\\v", "\u{0B}"), ("\\u00DC", "Ü"), ("\\/", "/"),
        ("\\uD83D\\uDCA9", "💩"), ("\\uD800", "\u{FFFD}"), ("a\\uDC00b", "a\u{FFFD}b"), ("é\\n", "é\n"),
        ("\\u0000", "\u{0}"),
        // UTF-16 decoding with replacement: only an escaped high surrogate directly followed by an
        // escaped low surrogate is a pair; every other surrogate is U+FFFD.
        ("\\uDBFF\\uDFFF", "\u{10FFFF}"), ("\\uD800\\uD800\\uDC00", "\u{FFFD}\u{10000}"),
        ("\\uD800x", "\u{FFFD}x"), ("\\uD800\\n", "\u{FFFD}\n"), ("é\\uD83D", "é\u{FFFD}"),
        ("\\uDC00\\uD800", "\u{FFFD}\u{FFFD}"), ("\\uD83D😀\\uDE00", "\u{FFFD}😀\u{FFFD}"),
    ]

    @Test(arguments: decodingTable)
    func stringDecoding(_ body: String, _ expected: String) throws {
        let value = try Self.parse("[\"" + body + "\"]").get()
        #expect(value == .array([.string(expected)]))
    }

    @Test func nestingBoundary() {
        // The top-level value has depth 0; WebKit rejects a value at depth 1001.
        func nested(_ count: Int, inner: String = "") -> String {
            String(repeating: "[", count: count) + inner + String(repeating: "]", count: count)
        }
        #expect(Self.accepts(nested(1001)))
        #expect(!Self.accepts(nested(1002)))
        #expect(Self.accepts(nested(1000, inner: "1")))
        #expect(!Self.accepts(nested(1001, inner: "1")))
        let objects = String(repeating: "{\"a\":", count: 1001) + "1" + String(repeating: "}", count: 1001)
        #expect(!Self.accepts(objects))
        #expect(!Self.accepts(String(repeating: "[", count: 200_000)))  // no stack overflow
    }

    @Test func duplicateKeysLastValueWinsFirstPositionKept() throws {
        let value = try Self.parse("{\"a\":1,\"b\":2,\"a\":3}").get()
        let object = try #require(value.objectValue)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .number(3))
    }

    @Test func syntaxErrorOffsets() {
        #expect(RuleListParser.parse("[1,]").diagnostics.first?.byteOffset == 3)
        #expect(RuleListParser.parse("[1] x").diagnostics.first?.byteOffset == 4)
        #expect(RuleListParser.parse("").diagnostics.first?.byteOffset == 0)
        #expect(RuleListParser.parse("[01]").diagnostics.first?.detail != nil)
    }

    /// Valid JSON that is not an array.
    @Test(arguments: ["123", "{}", "null", "true", "\"[]\""])
    func topLevelNotAnArray(_ text: String) {
        let result = RuleListParser.parse(text)
        #expect(result.diagnostics.map(\.error) == [.jsonTopLevelStructureNotAnArray])
    }
}
