import Domain

extension DemoData {
    /// The seed's staff directory: (given, family, phone, department index).
    static let seedPeople: [(String, String, String, Int)] = [
        ("Juan", "Chavez", "(408) 555-4301", 0),
        ("Mei", "Chen", "(919) 555-2481", 0),
        ("Bill", "James", "(408) 555-4450", 1),
        ("Anne", "Johnson", "(417) 555-9311", 1),
    ]

    /// Departments in creation order: Sales, Engineering, then the rest of the list.
    func makeDepartments(count: Int) -> [Department] {
        var random = random(.departments)
        let names = DemoVocabulary.departments
        return (0..<max(count, 0)).map { index in
            let name = index < names.count ? names[index] : "Department \(index + 1)"
            return Department(id: Self.id(.department, index: index, using: &random), name: name)
        }
    }

    /// The four seed people, then people with (often accented) names spread over all departments.
    ///
    /// E-mail addresses are the ASCII-folded names (`josé garcía` → `jose.garcia@example.com`),
    /// numbered when a name repeats, so they are unique.
    func makePeople(count: Int, departments: [Department]) -> [Person] {
        guard !departments.isEmpty else { return [] }
        var random = random(.people)
        var usedEmails: Set<String> = []
        var people: [Person] = []
        people.reserveCapacity(max(count, 0))
        for index in 0..<max(count, 0) {
            let id = Self.id(.person, index: index, using: &random)
            let given: String
            let family: String
            let phone: String
            let department: Department
            if index < Self.seedPeople.count, Self.seedPeople[index].3 < departments.count {
                let seed = Self.seedPeople[index]
                (given, family, phone, department) = (seed.0, seed.1, seed.2, departments[seed.3])
            } else {
                given = random.pick(DemoVocabulary.givenNames)
                family = random.pick(DemoVocabulary.familyNames)
                let area = random.pick(DemoVocabulary.areaCodes)
                let line = String(random.next(in: 100...9_999))
                phone = "(\(area)) 555-" + String(repeating: "0", count: 4 - line.count) + line
                department = random.pick(departments)
            }
            let email = Self.uniqueEmail(given: given, family: family, used: &usedEmails)
            people.append(
                Person(id: id, givenName: given, familyName: family, emailAddress: email, phoneNumber: phone, departmentID: department.id)
            )
        }
        return people
    }

    static func uniqueEmail(given: String, family: String, used: inout Set<String>) -> String {
        func local(_ name: String) -> String {
            String(searchFolded(name).unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }.map(Character.init))
        }
        let base = local(given) + "." + local(family)
        var candidate = base
        var number = 2
        while used.contains(candidate) {
            candidate = base + String(number)
            number += 1
        }
        used.insert(candidate)
        return candidate + "@example.com"
    }
}
