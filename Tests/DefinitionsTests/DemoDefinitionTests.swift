import Testing

@testable import Definitions

@Suite("The embedded demo definition")
struct DemoDefinitionTests {
    @Test func theDemoFileIsEmbedded() {
        #expect(DemoDefinition.text.contains("idPrefix: prd"))
    }
}
