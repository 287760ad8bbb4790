/// A titled group of rows — in the staff directory, one department and its people.
///
/// The id is the department's id, so a section keeps its identity when the department is renamed.
public struct RowSection: Identifiable, Hashable, Sendable, Codable {
    public var id: EntityID
    public var header: String
    public var rows: [RenderRow]

    public init(id: EntityID, header: String, rows: [RenderRow]) {
        self.id = id
        self.header = header
        self.rows = rows
    }

    /// Groups an ordered list of people with their departments into sections, keeping order.
    ///
    /// Consecutive people of one department share a section; sections appear in the order of
    /// their department's first person. Callers pass entries already ordered (see
    /// ``StaffDirectory``). A department that reappears later is merged into its first section
    /// rather than opening a second one, because two sections with one id would break list identity.
    public static func grouping(
        _ entries: some Sequence<(person: Person, department: Department)>,
        in context: RenderContext
    ) -> [RowSection] {
        var sections: [RowSection] = []
        var indexByDepartment: [EntityID: Int] = [:]
        for (person, department) in entries {
            let row = person.row(in: context)
            if let last = sections.indices.last, sections[last].id == department.id {
                sections[last].rows.append(row)
            } else if let index = indexByDepartment[department.id] {
                sections[index].rows.append(row)
            } else {
                indexByDepartment[department.id] = sections.count
                sections.append(RowSection(id: department.id, header: department.name, rows: [row]))
            }
        }
        return sections
    }
}
