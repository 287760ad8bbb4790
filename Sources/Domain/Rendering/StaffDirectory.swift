/// The staff directory of the seed: people in sections by department, departments by name.
///
/// Ordering is locale-independent so that pages are stable for every client: names compare by
/// their search-folded form (`Émile` sorts with `Emile`, case ignored), then exactly, then by id.
public enum StaffDirectory {
    /// People paired with their departments: departments by name, people by family then given name.
    ///
    /// People whose department is not in `departments` are left out; storage keeps that from happening.
    public static func ordered(people: [Person], departments: [Department]) -> [(person: Person, department: Department)] {
        let byID = Dictionary(departments.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let departmentOrder = departments.sorted(by: precedes)
        let rank = Dictionary(departmentOrder.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        return people
            .compactMap { person in byID[person.departmentID].map { (person: person, department: $0) } }
            .sorted { lhs, rhs in
                let left = rank[lhs.department.id] ?? 0
                let right = rank[rhs.department.id] ?? 0
                if left != right { return left < right }
                return precedes(lhs.person, rhs.person)
            }
    }

    /// The directory's sections; departments without people have no section.
    public static func sections(people: [Person], departments: [Department], in context: RenderContext) -> [RowSection] {
        RowSection.grouping(ordered(people: people, departments: departments), in: context)
    }

    static func precedes(_ lhs: Department, _ rhs: Department) -> Bool {
        compare([lhs.name], [rhs.name]) ?? (lhs.id < rhs.id)
    }

    static func precedes(_ lhs: Person, _ rhs: Person) -> Bool {
        compare([lhs.familyName, lhs.givenName], [rhs.familyName, rhs.givenName]) ?? (lhs.id < rhs.id)
    }

    /// Compares name lists by folded form, then exact form; nil when they are equal.
    private static func compare(_ lhs: [String], _ rhs: [String]) -> Bool? {
        let left = lhs.map(searchFolded)
        let right = rhs.map(searchFolded)
        if left != right { return left.lexicographicallyPrecedes(right) }
        if lhs != rhs { return lhs.lexicographicallyPrecedes(rhs) }
        return nil
    }
}
