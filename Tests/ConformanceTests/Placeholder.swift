import Testing

@Test func placeholderConformanceTests() { #expect(Bool(true)) }
