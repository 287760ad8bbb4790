import Domain

/// Hand-made ids and models shared by the tests; each id is distinct and easy to read in failures.
enum Fixtures {
    static func id(_ kind: EntityKind, _ n: UInt64) -> EntityID {
        EntityID(kind: kind, timestampMilliseconds: 1_767_225_600_000 + n, randomBits: UInt32(n))
    }

    static let keyboard = Product(
        id: id(.product, 1),
        name: "Keyboard",
        shortDescription: "Mechanical",
        longDescription: "A mechanical keyboard.",
        price: Money(minorUnits: 120_00, currency: "USD")
    )

    static let sales = Department(id: id(.department, 1), name: "Sales")
    static let engineering = Department(id: id(.department, 2), name: "Engineering")

    static let juan = person(3, "Juan", "Chavez", "(408) 555-4301", sales)
    static let mei = person(4, "Mei", "Chen", "(919) 555-2481", sales)
    static let bill = person(5, "Bill", "James", "(408) 555-4450", engineering)
    static let anne = person(6, "Anne", "Johnson", "(417) 555-9311", engineering)

    static func person(_ n: UInt64, _ given: String, _ family: String, _ phone: String, _ department: Department) -> Person {
        Person(
            id: id(.person, n),
            givenName: given,
            familyName: family,
            emailAddress: "\(given.lowercased()).\(family.lowercased())@example.com",
            phoneNumber: phone,
            departmentID: department.id
        )
    }

    static let enUS = RenderContext(locale: .enUS)
}
