/// The staff directory of the seed: people in sections by department, departments by name.
///
/// Ordering is locale-independent so that pages are stable for every client: names compare by
/// their search-folded form (`Émile` sorts with `Emile`, case ignored), then exactly, then by id.
public enum StaffDirectory {
    /// People paired with their departments: departments by name, people by family then given name.
    ///
    /// People whose department is not in `departments` are left out; storage keeps that from happening.
    public static func ordered(people: [Person], departments: [Department]) -> [(person: Person, department: Department)] {
        let departmentKeys = departments.map(SortKey.init)
        let departmentOrder = departmentKeys.indices.sorted { departmentKeys[$0] < departmentKeys[$1] }.map { departments[$0] }
        var rankByID: [EntityID: (rank: Int, department: Department)] = [:]
        for (rank, department) in departmentOrder.enumerated() where rankByID[department.id] == nil {
            rankByID[department.id] = (rank, department)
        }
        // Keys are computed once per person (folding inside the comparator would repeat it
        // n log n times), and indices are sorted rather than the large entries themselves.
        var entries: [(person: Person, department: Department)] = []
        var keys: [SortKey] = []
        for person in people {
            guard let entry = rankByID[person.departmentID] else { continue }
            entries.append((person, entry.department))
            keys.append(SortKey(person, rank: entry.rank))
        }
        return keys.indices.sorted { keys[$0] < keys[$1] }.map { entries[$0] }
    }

    /// The directory's sections; departments without people have no section.
    public static func sections(people: [Person], departments: [Department], in context: RenderContext) -> [RowSection] {
        RowSection.grouping(ordered(people: people, departments: departments), in: context)
    }

    /// Folded names, then exact names, then id: a total order independent of any locale.
    private struct SortKey: Comparable {
        var rank: Int
        var folded: [String]
        var exact: [String]
        var id: EntityID

        init(_ department: Department) {
            rank = 0
            folded = [searchFolded(department.name)]
            exact = [department.name]
            id = department.id
        }

        init(_ person: Person, rank: Int) {
            self.rank = rank
            folded = [searchFolded(person.familyName), searchFolded(person.givenName)]
            exact = [person.familyName, person.givenName]
            id = person.id
        }

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
            if lhs.folded != rhs.folded { return lhs.folded.lexicographicallyPrecedes(rhs.folded) }
            if lhs.exact != rhs.exact { return lhs.exact.lexicographicallyPrecedes(rhs.exact) }
            return lhs.id < rhs.id
        }
    }
}
