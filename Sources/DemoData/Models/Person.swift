import Domain

/// A member of staff in the directory, with the full payload the detail endpoint returns.
public struct Person: Identifiable, Hashable, Sendable, Codable {
    public let id: EntityID
    public var givenName: String
    public var familyName: String
    public var emailAddress: String
    /// Kept as entered (e.g. `(408) 555-4301`); the directory shows it verbatim.
    public var phoneNumber: String
    public var departmentID: EntityID

    public init(
        id: EntityID,
        givenName: String,
        familyName: String,
        emailAddress: String,
        phoneNumber: String,
        departmentID: EntityID
    ) {
        self.id = id
        self.givenName = givenName
        self.familyName = familyName
        self.emailAddress = emailAddress
        self.phoneNumber = phoneNumber
        self.departmentID = departmentID
    }

    /// Given name, a space, family name — the seed's `givenName + " " + familyName`.
    public var fullName: String { givenName + " " + familyName }
}
