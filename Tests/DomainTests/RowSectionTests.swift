import Testing

@testable import Domain

@Suite("Sections")
struct RowSectionTests {
    @Test("the seed's staff directory: departments by name, people by family name")
    func staffDirectory() {
        let sections = StaffDirectory.sections(
            people: [Fixtures.anne, Fixtures.mei, Fixtures.bill, Fixtures.juan],
            departments: [Fixtures.sales, Fixtures.engineering],
            in: Fixtures.enUS
        )
        #expect(
            sections == [
                RowSection(
                    id: Fixtures.engineering.id,
                    header: "Engineering",
                    rows: [
                        RenderRow(id: Fixtures.bill.id, title: "Bill James", subtitle: "(408) 555-4450", image: "phone"),
                        RenderRow(id: Fixtures.anne.id, title: "Anne Johnson", subtitle: "(417) 555-9311", image: "phone"),
                    ]
                ),
                RowSection(
                    id: Fixtures.sales.id,
                    header: "Sales",
                    rows: [
                        RenderRow(id: Fixtures.juan.id, title: "Juan Chavez", subtitle: "(408) 555-4301", image: "phone"),
                        RenderRow(id: Fixtures.mei.id, title: "Mei Chen", subtitle: "(919) 555-2481", image: "phone"),
                    ]
                ),
            ]
        )
    }

    static let a = Department(id: Fixtures.id(.department, 10), name: "A")
    static let b = Department(id: Fixtures.id(.department, 11), name: "B")
    static func p(_ n: UInt64, _ department: Department) -> Person {
        Fixtures.person(n, "P\(n)", "F\(n)", "(000) 555-000\(n)", department)
    }

    @Test(
        "grouping keeps order and merges consecutive people of a department",
        arguments: [
            ([], []),
            ([(1, a)], [(a, [1])]),
            ([(1, a), (2, a), (3, b)], [(a, [1, 2]), (b, [3])]),
            ([(1, b), (2, a), (3, a)], [(b, [1]), (a, [2, 3])]),
            // A department that comes back joins its first section, so section ids stay unique.
            ([(1, a), (2, b), (3, a)], [(a, [1, 3]), (b, [2])]),
        ] as [([(UInt64, Department)], [(Department, [UInt64])])]
    )
    func grouping(entries: [(UInt64, Department)], expected: [(Department, [UInt64])]) {
        let sections = RowSection.grouping(entries.map { (person: Self.p($0.0, $0.1), department: $0.1) }, in: Fixtures.enUS)
        #expect(sections.map(\.id) == expected.map(\.0.id))
        #expect(sections.map(\.header) == expected.map(\.0.name))
        #expect(sections.map { $0.rows.map(\.id) } == expected.map { $0.1.map { Fixtures.id(.person, $0) } })
    }

    @Test("ordering folds accents and case, and leaves out people of unknown departments")
    func orderingFoldsAccents() {
        let zed = Fixtures.person(20, "Zed", "Zander", "", Self.a)
        let emile = Fixtures.person(21, "Émile", "Émond", "", Self.a)
        let erik = Fixtures.person(22, "erik", "edwards", "", Self.a)
        let orphan = Fixtures.person(23, "No", "Department", "", Department(id: Fixtures.id(.department, 99), name: "Gone"))
        let ordered = StaffDirectory.ordered(people: [zed, emile, orphan, erik], departments: [Self.b, Self.a])
        #expect(ordered.map(\.person.id) == [erik.id, emile.id, zed.id])
    }

    @Test("departments without people have no section")
    func emptyDepartmentsHaveNoSection() {
        let sections = StaffDirectory.sections(people: [Fixtures.juan], departments: [Fixtures.engineering, Fixtures.sales], in: Fixtures.enUS)
        #expect(sections.map(\.header) == ["Sales"])
    }
}
