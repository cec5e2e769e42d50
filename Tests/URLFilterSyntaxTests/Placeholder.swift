import Testing

@Test func placeholderURLFilterSyntaxTests() { #expect(Bool(true)) }
