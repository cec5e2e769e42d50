import Testing

@Test func placeholderContentRuleURLTests() { #expect(Bool(true)) }
