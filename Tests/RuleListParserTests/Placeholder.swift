import Testing

@Test func placeholderRuleListParserTests() { #expect(Bool(true)) }
