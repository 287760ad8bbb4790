import Domain
import Testing

@testable import Definitions

@Suite("A JSON definition")
struct JSONDefinitionTests {
    static let yaml = """
        rowserver: 1
        collections:
          teams:
            idPrefix: tea
            title: {en: Teams, de: Teams, ja: チーム}
            fields:
              name: {type: text, required: true, maxLength: 80}
              members: {type: names, idPrefix: mem, maxItems: 20}
              budget: {type: money, currencies: [USD, EUR], default: {minorUnits: 1000, currency: EUR}}
              founded: {type: date, minimum: 2000-01-01, default: 2020-02-29}
            row: {title: name, subtitle: members, trailing: budget, image: person.3}
            sort: [name, budget, founded]
            defaultSort: [-founded]
            search: [name]
            limit: {default: 20, max: 100}
          tickets:
            idPrefix: tkt
            title: Tickets
            fields:
              subject: {type: text, required: true, pattern: "[A-Z].*"}
              state:
                type: enum
                values: {open: {en: Open, de: Offen}, closed: {en: Closed, de: Geschlossen}}
                default: open
              team: {type: reference, to: teams, required: true, link: team}
              opened: {type: dateTime, default: "2026-11-24T17:00:00+01:00"}
              effort: {type: decimal, scale: 1, minimum: 0.5, default: 1.5}
              scores: {type: numbers, fractionDigits: 0, default: [1, 2.5]}
              urgent: {type: boolean, default: false}
              summary: {template: "{subject} ({state})"}
            row: {title: {template: "{subject}", preview: 30}, subtitle: state, trailing: team}
            sort: {subject: subject, when: opened}
            filters:
              state: {field: state, op: oneOf}
              team: {field: team, description: {en: The team's tickets}}
              since: {field: opened, op: atLeast}
            sections: {by: state, name: status}
            table:
              columns: [subject, {field: effort, id: hours, title: Hours, align: leading}]
              compact: {title: summary}
            empty: {title: No Tickets}
            writable: false
        """

    static let json = """
        {
          "rowserver": 1,
          "collections": {
            "teams": {
              "idPrefix": "tea",
              "title": {"en": "Teams", "de": "Teams", "ja": "チーム"},
              "fields": {
                "name": {"type": "text", "required": true, "maxLength": 80},
                "members": {"type": "names", "idPrefix": "mem", "maxItems": 20},
                "budget": {"type": "money", "currencies": ["USD", "EUR"], "default": {"minorUnits": 1000, "currency": "EUR"}},
                "founded": {"type": "date", "minimum": "2000-01-01", "default": "2020-02-29"}
              },
              "row": {"title": "name", "subtitle": "members", "trailing": "budget", "image": "person.3"},
              "sort": ["name", "budget", "founded"],
              "defaultSort": ["-founded"],
              "search": ["name"],
              "limit": {"default": 20, "max": 100}
            },
            "tickets": {
              "idPrefix": "tkt",
              "title": "Tickets",
              "fields": {
                "subject": {"type": "text", "required": true, "pattern": "[A-Z].*"},
                "state": {
                  "type": "enum",
                  "values": {"open": {"en": "Open", "de": "Offen"}, "closed": {"en": "Closed", "de": "Geschlossen"}},
                  "default": "open"
                },
                "team": {"type": "reference", "to": "teams", "required": true, "link": "team"},
                "opened": {"type": "dateTime", "default": "2026-11-24T17:00:00+01:00"},
                "effort": {"type": "decimal", "scale": 1, "minimum": 0.5, "default": 1.5},
                "scores": {"type": "numbers", "fractionDigits": 0, "default": [1, 2.5]},
                "urgent": {"type": "boolean", "default": false},
                "summary": {"template": "{subject} ({state})"}
              },
              "row": {"title": {"template": "{subject}", "preview": 30}, "subtitle": "state", "trailing": "team"},
              "sort": {"subject": "subject", "when": "opened"},
              "filters": {
                "state": {"field": "state", "op": "oneOf"},
                "team": {"field": "team", "description": {"en": "The team's tickets"}},
                "since": {"field": "opened", "op": "atLeast"}
              },
              "sections": {"by": "state", "name": "status"},
              "table": {
                "columns": ["subject", {"field": "effort", "id": "hours", "title": "Hours", "align": "leading"}],
                "compact": {"title": "summary"}
              },
              "empty": {"title": "No Tickets"},
              "writable": false
            }
          }
        }
        """

    @Test func loadsTheSameAsItsYAMLTwin() throws {
        let fromYAML = try DefinitionLoader.load(text: Self.yaml, file: "twin.yaml")
        let fromJSON = try DefinitionLoader.load(text: Self.json, file: "twin.json")
        #expect(fromYAML.collections.map(\.name) == fromJSON.collections.map(\.name))
        for (lhs, rhs) in zip(fromYAML.collections, fromJSON.collections) {
            #expect(CollectionSnapshot(lhs) == CollectionSnapshot(rhs))
        }
    }

    @Test func resolvesTypedValuesDefaultsAndBounds() throws {
        let catalog = try DefinitionLoader.load(text: Self.json, file: "twin.json")
        let teams = try #require(catalog.collection(named: "teams"))
        let tickets = try #require(catalog.collection(named: "tickets"))
        #expect(teams.fields[2].defaultValue == .money(Money(minorUnits: 1000, currency: "EUR")))
        #expect(teams.fields[2].rules.currencies == ["USD", "EUR"])
        #expect(teams.fields[3].rules.minimum == 10_957)
        #expect(teams.fields[3].defaultValue == .text("2020-02-29"))
        #expect(teams.defaultSort == [SortKey("founded", descending: true)])
        #expect(teams.limits == ListLimits(defaultLimit: 20, maxLimit: 100))
        #expect(teams.row.image == .symbol("person.3"))
        #expect(tickets.fields[1].type.enumCases.map(\.value) == ["open", "closed"])
        #expect(tickets.fields[1].type.enumCases.first?.label[.deDE] == "Offen")
        #expect(tickets.fields[3].defaultValue == .integer(1_795_536_000_000))
        #expect(tickets.fields[4].type == .decimal(scale: 1))
        #expect(tickets.fields[4].rules.minimum == 5)
        #expect(tickets.fields[4].defaultValue == .integer(15))
        #expect(tickets.fields[5].defaultValue == .numbers([1, 2.5]))
        #expect(tickets.fields[6].defaultValue == .boolean(false))
        #expect(tickets.row.title == ValueSpec(.template(Template(parts: [.field(0)], text: "{subject}")), preview: 30))
        #expect(tickets.sorts == [SortDefinition(name: "subject", field: 0), SortDefinition(name: "when", field: 3)])
        #expect(tickets.defaultSort == [SortKey("subject")])
        #expect(tickets.filters.map(\.operation) == [.oneOf, .equals, .atLeast])
        #expect(tickets.sections == SectionDefinition(name: "status", field: 1))
        #expect(tickets.search == [ValueSpec(.template(Template(parts: [.field(0)], text: "{subject}")), preview: 30), .field(1)])
        #expect(tickets.table?.columns.last == .value(id: "hours", title: LocalizedText("Hours"), value: .field(4), alignment: .leading))
        #expect(tickets.table?.compactTitle == .field(7))
        #expect(tickets.table?.compactSubtitle == nil)
        #expect(tickets.empty.description == EmptyStateDefinition.defaultEmpty.description)
        #expect(tickets.searchEmpty == .defaultSearchEmpty)
        #expect(tickets.filteredEmpty == .defaultFilteredEmpty)
        #expect(!tickets.writable)
        #expect(tickets.fields[2].reference == ReferenceOptions(link: "team"))
    }
}

/// A collection's resolved parts as one comparable value (the definition is a class).
struct CollectionSnapshot: Equatable {
    var name: String
    var kind: EntityKind
    var title: LocalizedText
    var fields: [FieldDefinition]
    var row: RowDefinition
    var sorts: [SortDefinition]
    var defaultSort: [SortKey]
    var filters: [FilterDefinition]
    var search: [ValueSpec]
    var sections: SectionDefinition?
    var table: TableDefinition?
    var empty: EmptyStateDefinition
    var searchEmpty: EmptyStateDefinition
    var filteredEmpty: EmptyStateDefinition
    var limits: ListLimits
    var parent: ParentDefinition?
    var writable: Bool

    init(_ collection: CollectionDefinition) {
        name = collection.name
        kind = collection.kind
        title = collection.title
        fields = collection.fields
        row = collection.row
        sorts = collection.sorts
        defaultSort = collection.defaultSort
        filters = collection.filters
        search = collection.search
        sections = collection.sections
        table = collection.table
        empty = collection.empty
        searchEmpty = collection.searchEmpty
        filteredEmpty = collection.filteredEmpty
        limits = collection.limits
        parent = collection.parent
        writable = collection.writable
    }
}
