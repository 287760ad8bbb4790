import Domain
import Testing

@testable import Definitions

/// Messages that count what a rule allows read right when the count is 1 ("at most 1 digit"),
/// in write problems and in definition errors alike.
@Suite("Messages that count things")
struct CountedMessageTests {
    static func problems(_ fields: String, _ members: String) throws -> [String] {
        let catalog = try DefinitionLoader.load(text: BadDefinition.notes(fields: "      name: {type: text}\n" + fields), file: "counts.yaml")
        let notes = try #require(catalog.collection(named: "notes"))
        let id = EntityID(kind: notes.kind, timestampMilliseconds: 1, randomBits: 1)
        let json = try JSONParser.parse(Array(#"{"name":"n",\#(members)}"#.utf8))
        return ItemDocument.decode(json, in: notes, catalog: catalog, mode: .create(id)).problems.map { "\($0.pointer): \($0.detail)" }
    }

    /// (field, the members written, the problem).
    static let writes: [(String, String, String)] = [
        ("      cost: {type: decimal, scale: 1}", #""cost":1.25"#, "/cost: Must be a number with at most 1 digit after the decimal point."),
        ("      cost: {type: decimal, scale: 2}", #""cost":1.255"#, "/cost: Must be a number with at most 2 digits after the decimal point."),
        ("      cost: {type: decimal, scale: 0}", #""cost":1.5"#, "/cost: Must be a whole number."),
        ("      code: {type: text, maxLength: 1}", #""code":"ab""#, "/code: Must be at most 1 character (Unicode scalars) long."),
        ("      code: {type: text, maxLength: 2}", #""code":"abc""#, "/code: Must be at most 2 characters (Unicode scalars) long."),
        ("      code: {type: text, minLength: 1}", #""code":"""#, "/code: Must be at least 1 character (Unicode scalars) long."),
        ("      levels: {type: numbers, minItems: 1, maxItems: 1}", #""levels":[]"#, "/levels: Must have exactly 1 element."),
        ("      levels: {type: numbers, minItems: 0, maxItems: 1}", #""levels":[1,2]"#, "/levels: Must have at most 1 element."),
        ("      levels: {type: numbers, minItems: 1, maxItems: 3}", #""levels":[]"#, "/levels: Must have 1 to 3 elements."),
        ("      levels: {type: numbers, minItems: 1}", #""levels":[]"#, "/levels: Must have at least 1 element."),
        ("      levels: {type: numbers, minItems: 2}", #""levels":[1]"#, "/levels: Must have at least 2 elements."),
    ]

    @Test(arguments: writes)
    func aWriteProblemCountsInTheRightNumber(field: String, members: String, problem: String) throws {
        #expect(try Self.problems(field, members) == [problem])
    }

    /// (field, the fragment of the definition error).
    static let definitions: [(String, String)] = [
        ("      cost: {type: decimal, scale: 1, maximum: 1.25}", "has more than 1 digit after the decimal point"),
        ("      cost: {type: decimal, scale: 2, maximum: 1.255}", "has more than 2 digits after the decimal point"),
        ("      price: {type: money, currencies: [JPY], maximum: {JPY: 1.5}}", "than JPY has (no digits)"),
        ("      price: {type: money, currencies: [EUR], maximum: {EUR: 1.555}}", "than EUR has (2 digits)"),
    ]

    @Test(arguments: definitions)
    func aDefinitionErrorCountsInTheRightNumber(field: String, fragment: String) throws {
        let text = BadDefinition.notes(fields: "      name: {type: text}\n" + field)
        let errors = try #require(BadDefinitionTests.errors(loading: text, file: "counts.yaml"))
        #expect(errors.contains { $0.message.contains(fragment) }, "\(errors)")
    }
}
