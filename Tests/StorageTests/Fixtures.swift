import DemoData
import Domain

@testable import Storage

/// Small items for write tests; every call makes new ids.
enum Fixtures {
    static func product(_ name: String = "Desk Lamp", minorUnits: Int64 = 4_999) -> Product {
        Product(
            id: EntityID.generate(kind: .product), name: name, shortDescription: "Warm light", longDescription: "A lamp.",
            price: Money(minorUnits: minorUnits, currency: "EUR"))
    }

    static func department(_ name: String = "Research") -> Department {
        Department(id: EntityID.generate(kind: .department), name: name)
    }

    static func person(in department: EntityID, given: String = "Ana", family: String = "Silva") -> Person {
        Person(
            id: EntityID.generate(kind: .person), givenName: given, familyName: family, emailAddress: "\(given).\(family)@example.com",
            phoneNumber: "(212) 555-0100", departmentID: department)
    }

    static func track(_ title: String = "Take 1") -> Track {
        Track(
            id: EntityID.generate(kind: .track), title: title,
            channels: [
                AudioChannel(id: EntityID.generate(kind: .channel), name: "Left"), AudioChannel(id: EntityID.generate(kind: .channel), name: "Right"),
            ])
    }

    static func sample(of track: EntityID, at milliseconds: Int64) -> AudioSample {
        AudioSample(id: EntityID.generate(kind: .sample), trackID: track, timestampMilliseconds: milliseconds, levels: [0.25, -0.5])
    }

    /// One new item of every collection, in an order that inserts references first.
    static func oneOfEach() -> [StoredItem] {
        let department = department()
        let track = track()
        return [
            .product(product()), .department(department), .person(person(in: department.id)),
            .article(Article(id: EntityID.generate(kind: .article), headline: "Héllo", markdown: "# Héllo\n\nBody")),
            .document(Document(id: EntityID.generate(kind: .document), title: "Notes", body: "  ")),
            .track(track), .sample(sample(of: track.id, at: 10)),
        ]
    }
}
