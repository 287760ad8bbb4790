import Testing

@testable import Definitions

@Suite("Definitions with mistakes")
struct BadDefinitionTests {
    @Test(arguments: BadDefinition.all)
    func reportsTheMistakeWhereItIs(_ bad: BadDefinition) throws {
        let errors = try #require(Self.errors(loading: bad.yaml, file: "bad.yaml"))
        let first = try #require(errors.first)
        #expect(first.code == bad.code, "\(errors)")
        #expect(first.line == bad.line, "\(errors)")
        #expect(first.column == bad.column, "\(errors)")
        #expect(first.message.contains(bad.fragment), "\(errors)")
        #expect(first.file == "bad.yaml")
        #expect(first.description == "bad.yaml:\(bad.line):\(bad.column): \(first.message) [\(bad.code)]")
    }

    @Test func theCasesCoverManyKindsOfMistake() {
        #expect(BadDefinition.all.count >= 30)
        #expect(Set(BadDefinition.all.map(\.code)).count >= 30)
    }

    @Test func theValidBaseLoads() throws {
        let catalog = try DefinitionLoader.load(text: BadDefinition.notes(), file: "notes.yaml")
        #expect(catalog.collections.map(\.name) == ["notes"])
        #expect(catalog.collections.first?.defaultSort == [])
        #expect(catalog.collections.first?.search == [.field(0)])
        #expect(catalog.collections.first?.empty == .defaultEmpty)
    }

    @Test func severalMistakesAreAllReportedInFileOrder() throws {
        let yaml = BadDefinition.notes(
            fields: "      name: {type: txt}\n      size: {type: integer, minimum: 5, maximum: 1}\n      id: {type: text}",
            row: "    row: {title: nme}",
            extra: "    sort: [size, body]\n    filters: {q: {field: size}}\n    colour: red")
        let errors = try #require(Self.errors(loading: yaml, file: "many.yaml"))
        #expect(
            errors.map(\.code) == [
                "unknown-type", "min-greater-than-max", "reserved-field-name", "unknown-field", "sort-on-missing-field", "reserved-filter-name",
                "unknown-key",
            ], "\(errors)")
        #expect(errors.map(\.line) == [7, 8, 9, 10, 11, 12, 13])
    }

    @Test func anUnreadableFileIsOneErrorAtTheStart() {
        do {
            _ = try DefinitionLoader.load(path: "/nonexistent/definition.yaml")
            Issue.record("a missing file loads")
        } catch {
            #expect(error.errors.map(\.code) == ["unreadable-file"])
            #expect(error.errors.first?.line == 1 && error.errors.first?.column == 1)
            #expect(error.errors.first?.file == "/nonexistent/definition.yaml")
        }
    }

    static func errors(loading text: String, file: String) -> [DefinitionError]? {
        do {
            _ = try DefinitionLoader.load(text: text, file: file)
            return nil
        } catch {
            return error.errors
        }
    }
}
