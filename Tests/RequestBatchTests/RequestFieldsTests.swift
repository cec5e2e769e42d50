import Foundation
import RuleListParser
import TestSupport
import Testing

@testable import RequestBatch

/// The one-pass reader of request lines (`RequestFields.parseFlat`) against the general one
/// (`JSONReader`, strict JSON, `JSONObject`): wherever the one-pass reader answers, both give the same
/// fields, `id` text and unknown keys; where it declines, the general reader decides. Lines: hand-written
/// edge cases and generated lines of every value kind, escape and spacing.
@Suite struct RequestFieldsTests {
    static func describe(_ fields: RequestFields) -> String {
        func value(_ value: RequestFields.Value) -> String {
            switch value {
            case .absent: return "-"
            case .string(let text): return "s:" + text
            case .notAString: return "x"
            case .invalid(let message): return "invalid:" + message
            }
        }
        let headers: String
        switch fields.requestHeaders {
        case nil: headers = "-"
        case .success(let list)?: headers = list.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        case .failure(let error)?: headers = "error:" + error.message
        }
        return [
            value(fields.url), value(fields.mainDocumentURL), value(fields.frameURL), value(fields.resourceType),
            value(fields.loadContext), value(fields.requestMethod), value(fields.loadType), headers,
            fields.idText.map { String(decoding: $0, as: UTF8.self) } ?? "-", fields.unknownKeys.joined(separator: ","),
        ].joined(separator: " | ")
    }

    /// `parseFlat` answers only where the general reader accepts the line, and then with the same fields.
    static func check(_ line: String) -> (flat: Bool, agrees: Bool) {
        let bytes = Array(line.utf8)[...]
        guard let flat = RequestFields.parseFlat(bytes) else { return (false, true) }
        guard case .success(let slow) = BatchMatching.parseSlowly(bytes) else { return (true, false) }
        return (true, describe(flat) == describe(slow))
    }

    @Test func handWrittenLines() {
        let lines = [
            #"{"url":"https://x.test/a","resourceType":"script"}"#,
            #" { "url" : "https://x.test/a" , "id" : -12.5 } "#,
            #"{"id":"a\"b\\c\/d\u0041\n","url":"x"}"#,
            #"{"url":"a","url":"b","zz":null,"zz":true,"aa":false}"#,
            #"{"url":1,"mainDocumentURL":null,"frameURL":true,"loadType":0}"#,
            #"{"requestHeaders":"x","url":"a"}"#,
            #"{"httpMethod":"POST","url":"a"}"#,
            #"{}"#,
            #"{"id":0}"#,
        ]
        for line in lines {
            let outcome = Self.check(line)
            #expect(outcome.flat, "read by the one-pass reader: \(line)")
            #expect(outcome.agrees, "\(line)")
        }
        // Declined: the general reader decides (errors, nesting, exponents, non-ASCII, escaped keys, …).
        let declined = [
            #"{"url":"a",}"#, #"{"url":"a"} x"#, #"{"url":[1]}"#, #"{"requestHeaders":{"a":"b"}}"#, #"{"id":1e5}"#,
            #"{"id":01}"#, #"{"id":1234567890123456}"#, #"{"url":"é"}"#, #"{"\u0075rl":"a"}"#, #"{"s":"\v"}"#,
            #"{"s":"\uD800"}"#, "{\"s\":\"a\tb\"}", #"{"id":-}"#, #"{"id":1.}"#, #"{"id":tru}"#, "", "[]",
        ]
        for line in declined {
            #expect(!Self.check(line).flat, "declined: \(line)")
        }
    }

    @Test func generatedLinesAgree() {
        var generator = SeededGenerator(seed: 0x5EED_F1E1D5)
        let keys = [
            "url", "mainDocumentURL", "frameURL", "resourceType", "loadContext", "requestMethod", "loadType", "id",
            "httpMethod", "requestHeaders", "cpt", "frameUrl", "u\\u0072l", "",
        ]
        let values = [
            #""https://x.test/ads.js""#, #""""#, #""a\"b""#, #""\u0041\u00e9\u4e2d""#, #""\ud83d\ude00""#,
            #""\/\b\f\n\r\t""#,
            "0", "-0", "12", "-3.25", "1e3", "1E-2", "123456789012345", "1234567890123456", "true", "false", "null",
            "[]", "{}", #"{"a":"b"}"#, #""é""#, #""\x41""#, "01", ".5",
        ]
        let spaces = ["", " ", "\t", "  "]
        var flat = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 5)
            var members: [String] = []
            for _ in 0..<count {
                let key = keys[Int(generator.next() % UInt64(keys.count))]
                let value = values[Int(generator.next() % UInt64(values.count))]
                let space = spaces[Int(generator.next() % UInt64(spaces.count))]
                members.append("\"\(key)\"\(space):\(space)\(value)")
            }
            let space = spaces[Int(generator.next() % UInt64(spaces.count))]
            let line = space + "{" + members.joined(separator: "," + space) + "}" + space
            let outcome = Self.check(line)
            if outcome.flat { flat += 1 }
            #expect(outcome.agrees, "\(line)")
        }
        #expect(flat > 5_000, "the one-pass reader answered \(flat) of 20,000 lines")
    }
}
