import Definitions
import Domain
import Foundation
import Testing

/// A filtered list's empty state: defined per collection or the localized default, and
/// `{filters}` as a person reads the filters.
@Suite("The filtered list's empty state")
struct FilteredEmptyTests {
    static let yaml = """
        rowserver: 1
        collections:
          tasks:
            idPrefix: tsk
            title: Tasks
            fields:
              name: {type: text, label: {en: Name, de: Name}}
              status:
                type: enum
                values: {open: {en: Open, de: Offen}, done: {en: Done, de: Erledigt}, parked: {en: Parked, de: Geparkt}}
                label: {en: Status, de: Status}
              priority: {type: integer, label: {en: Priority, de: Priorität}}
              billable: {type: boolean, label: {en: Billable, de: Abrechenbar}}
              due: {type: date, label: {en: Due, de: Fällig}}
            row: {title: name}
            filters:
              status: {field: status, op: oneOf}
              priority: {field: priority, op: atMost}
              billable: {field: billable}
              dueAfter: {field: due, op: atLeast}
            filteredEmpty:
              title: {en: "Nothing with {filters}", de: "Nichts mit {filters}"}
          notes:
            idPrefix: not
            title: Notes
            fields:
              name: {type: text}
            row: {title: name}
        """

    static func tasks() throws -> CollectionDefinition {
        let catalog = try DefinitionLoader.load(text: yaml, file: "tasks.yaml")
        return try #require(catalog.collection(named: "tasks"))
    }

    @Test func aDefinedStateKeepsTheDefaultsOtherParts() throws {
        let tasks = try Self.tasks()
        #expect(tasks.filteredEmpty.title[.deDE] == "Nichts mit {filters}")
        #expect(tasks.filteredEmpty.description == EmptyStateDefinition.defaultFilteredEmpty.description)
        #expect(tasks.filteredEmpty.image == "line.3.horizontal.decrease.circle")
        let notes = try #require(try DefinitionLoader.load(text: Self.yaml, file: "tasks.yaml").collection(named: "notes"))
        #expect(notes.filteredEmpty == .defaultFilteredEmpty)
    }

    /// The default in every locale the server has, `{filters}` in its description.
    @Test(arguments: [
        (RenderLocale.enUS, "No Matches", "No items match Status: Open. Try changing the filters."),
        (.enGB, "No Matches", "No items match Status: Open. Try changing the filters."),
        (.deDE, "Keine Treffer", "Keine Einträge entsprechen Status: Open. Versuchen Sie es mit anderen Filtern."),
        (.frFR, "Aucune correspondance", "Aucun élément ne correspond à Status: Open. Essayez d’autres filtres."),
        (.jaJP, "一致する項目なし", "Status: Openに一致する項目はありません。フィルタを変更してみてください。"),
    ])
    func theDefaultIsLocalized(locale: RenderLocale, title: String, description: String) {
        let state = EmptyStateDefinition.defaultFilteredEmpty.state(in: locale, filters: "Status: Open")
        #expect(state.title == title)
        #expect(state.description == description)
        #expect(!EmptyStateDefinition.defaultFilteredEmpty.title[locale].isEmpty)
    }

    /// Labels and values as rows show them, in the request's language.
    @Test(arguments: [
        (RenderLocale.enUS, "Status: Open or Parked, Priority ≤ 2, Billable: Yes, and Due ≥ Nov 24, 2026"),
        (.deDE, "Status: Offen oder Geparkt, Priorität ≤ 2, Abrechenbar: Ja und Fällig ≥ 24.11.2026"),
        (.frFR, "Status : Open ou Parked, Priority ≤ 2, Billable : Oui et Due ≥ 24 nov. 2026"),
    ])
    func filtersReadAsAPersonReadsThem(locale: RenderLocale, text: String) throws {
        let tasks = try Self.tasks()
        let entries: [FieldCondition] = [
            .init(field: 1, operation: .oneOf, values: [.text("open"), .text("parked")]),
            .init(field: 2, operation: .atMost, values: [.integer(2)]),
            .init(field: 3, operation: .equals, values: [.boolean(true)]),
            .init(field: 4, operation: .atLeast, values: [.text("2026-11-24")]),
        ]
        #expect(FilterSummary.text(entries, of: tasks, in: RenderContext(locale: locale)) == text)
    }

    @Test func aReferenceShowsItsTitleWhenFoundElseItsID() throws {
        let catalog = try DefinitionLoader.load(
            text: """
                rowserver: 1
                collections:
                  agents:
                    idPrefix: agt
                    title: Agents
                    fields: {name: {type: text}}
                    row: {title: name}
                  tickets:
                    idPrefix: tkt
                    title: Tickets
                    fields:
                      name: {type: text}
                      agent: {type: reference, to: agents, label: {en: Agent, de: Zuständig}}
                    row: {title: name}
                    filters: {agent: {field: agent}}
                """, file: "tickets.yaml")
        let tickets = try #require(catalog.collection(named: "tickets"))
        let agents = try #require(catalog.collection(named: "agents"))
        let known = EntityID(kind: agents.kind, timestampMilliseconds: 1_767_225_600_000, randomBits: 1)
        let unknown = EntityID(kind: agents.kind, timestampMilliseconds: 1_767_225_600_000, randomBits: 2)
        let entries = [FieldCondition(field: 1, operation: .equals, values: [.reference(known)])]
        let context = RenderContext(locale: .deDE)
        #expect(FilterSummary.text(entries, of: tickets, in: context) { $0 == known ? "Ana" : nil } == "Zuständig: Ana")
        let other = [FieldCondition(field: 1, operation: .equals, values: [.reference(unknown)])]
        #expect(FilterSummary.text(other, of: tickets, in: context) { $0 == known ? "Ana" : nil } == "Zuständig: \(unknown.rawValue)")
    }
}
