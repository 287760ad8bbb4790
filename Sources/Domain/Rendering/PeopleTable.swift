/// The people table of the seed: Given Name, Family Name, E-Mail Address; compact shows full name over e-mail.
public enum PeopleTable {
    public static let givenName = TableColumn(id: "givenName", title: "Given Name", sortable: true)
    public static let familyName = TableColumn(id: "familyName", title: "Family Name", sortable: true)
    public static let emailAddress = TableColumn(id: "emailAddress", title: "E-Mail Address", sortable: true)

    public static let columns = [givenName, familyName, emailAddress]

    /// The row for `person`; text is shown as entered, so the context is unused.
    public static func row(for person: Person, in context: RenderContext) -> TableRow {
        TableRow(
            id: person.id,
            cells: [
                givenName.id: person.givenName,
                familyName.id: person.familyName,
                emailAddress.id: person.emailAddress,
            ],
            compact: CompactSummary(title: person.fullName, subtitle: person.emailAddress)
        )
    }

    public static func table(_ people: some Sequence<Person>, in context: RenderContext) -> RenderTable {
        RenderTable(columns: columns, rows: people.map { row(for: $0, in: context) })
    }
}
