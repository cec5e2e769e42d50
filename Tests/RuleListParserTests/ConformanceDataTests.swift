import ContentRuleModel
import Foundation
import RuleListParser
import TestSupport
import Testing

/// WebKit's own parsing tests (Tests/Data/conformance/webkit/parsing-errors.json) and the field
/// cases answered by real WebKit (Tests/Data/conformance/field/*.json).
@Suite struct ConformanceDataTests {
    struct ParsingCase: CustomTestStringConvertible, Sendable {
        var id: String
        var text: String
        var expectError: String?
        var expectMessage: String?
        var testDescription: String { id }
    }

    static func parsingCases() throws -> [ParsingCase] {
        let file = try TestData.jsonObject("webkit/parsing-errors.json")
        let cases = file["cases"] as? [[String: Any]] ?? []
        return try cases.map { item in
            ParsingCase(
                id: item["id"] as? String ?? "?", text: try TestData.ruleListText(item) ?? "",
                expectError: item["expectError"] as? String, expectMessage: item["expectErrorMessage"] as? String)
        }
    }

    @Test func parsingErrorsFileHasAllCases() throws {
        #expect(try Self.parsingCases().count == 83)
    }

    @Test(arguments: try parsingCases())
    func parsingErrors(_ testCase: ParsingCase) {
        let result = RuleListParser.parse(testCase.text)
        switch testCase.expectError {
        case nil, "JSONInvalidRegex"?:
            // No error, or one only the compiler detects.
            #expect(result.errors.isEmpty, "unexpected \(result.errors)")
        case "*"?:
            #expect(!result.errors.isEmpty)
        case let expected?:
            let first = result.diagnostics.first
            #expect(first?.severity == .error)
            #expect(first?.error?.rawValue == expected)
            #expect(first?.message == testCase.expectMessage)
        }
    }

    struct FieldCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var expectedMessage: String?
        var testDescription: String { name }
    }

    /// Every field case and variant with a single rule list (control runs excluded).
    static func fieldCases() throws -> [FieldCase] {
        let directory = TestData.conformance.appendingPathComponent("field")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var result: [FieldCase] = []
        for file in files {
            let object = try TestData.jsonObject("field/" + file)
            let id = object["id"] as? String ?? file
            var units: [(String, [String: Any])] = [(id, object)]
            for variant in object["variants"] as? [[String: Any]] ?? [] {
                units.append(("\(id) \(variant["name"] as? String ?? "?")", variant))
            }
            for (name, unit) in units where unit["control"] as? Bool != true {
                guard let text = try TestData.ruleListText(unit) else { continue }
                result.append(
                    FieldCase(name: name, text: text, expectedMessage: unit["expectCompileError"] as? String))
            }
        }
        return result
    }

    @Test(arguments: try fieldCases())
    func fieldCase(_ testCase: FieldCase) {
        let result = RuleListParser.parse(testCase.text)
        if let expected = testCase.expectedMessage, expected != ContentRuleListError.jsonInvalidRegex.message {
            #expect(result.diagnostics.first?.severity == .error)
            #expect(result.diagnostics.first?.message == expected)
        } else {
            #expect(result.errors.isEmpty, "unexpected \(result.errors)")
        }
    }

    @Test func fieldCasesIncludeTheBriefsExamples() throws {
        let names = try Self.fieldCases().map(\.name)
        for id in ["B009", "B011", "B013"] { #expect(names.contains(id)) }
    }

    @Test func cssSelectorValidityCases() throws {
        let file = try TestData.jsonObject("webkit/action-transforms.json")
        let cases = (file["cases"] as? [[String: Any]] ?? []).filter {
            $0["kind"] as? String == "css-selector-validity"
        }
        #expect(!cases.isEmpty)
        for item in cases {
            let selector = try #require(item["selector"] as? String)
            let valid = try #require(item["expectValid"] as? Bool)
            #expect(CSSSelectorValidator.isValidSelectorList(selector) == valid, "\(selector)")
        }
    }
}
