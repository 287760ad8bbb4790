import Domain

/// One line of a JSONL import: a model's fields as Domain encodes them, the id optional.
///
/// Each kind decodes into a small line type, then `item(_:)` validates it and builds the model:
/// the same rules a client's write must pass, so an import cannot store what the API would refuse.
protocol ImportLine: Decodable {
    var id: EntityID? { get }
    /// The validated item with `id` as its id; throws `ImportLineError` naming what is wrong.
    func item(id: EntityID, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem
}

/// Why a line cannot be imported, for "line N: why".
struct ImportLineError: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

private func requireText(_ value: String, _ field: String) throws(ImportLineError) {
    if value.allSatisfy(\.isWhitespace) { throw ImportLineError("\(field) must not be empty") }
}

private func requireKind(_ id: EntityID, _ kind: EntityKind, _ field: String) throws(ImportLineError) {
    if id.kind != kind { throw ImportLineError("\(field) \"\(id)\" is not a \(kind.rawValue)_ id") }
}

struct ProductLine: ImportLine {
    var id: EntityID?
    var name: String
    var shortDescription: String
    var longDescription: String
    var price: Money

    func item(id: EntityID, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem {
        try requireText(name, "name")
        guard Currency(code: price.currency) != nil else {
            throw ImportLineError("price.currency \"\(price.currency)\" is not a known ISO 4217 code")
        }
        guard price.minorUnits >= 0 else { throw ImportLineError("price.minorUnits must not be negative") }
        return .product(Product(id: id, name: name, shortDescription: shortDescription, longDescription: longDescription, price: price))
    }
}

struct DepartmentLine: ImportLine {
    var id: EntityID?
    var name: String

    func item(id: EntityID, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem {
        try requireText(name, "name")
        return .department(Department(id: id, name: name))
    }
}

struct PersonLine: ImportLine {
    var id: EntityID?
    var givenName: String
    var familyName: String
    var emailAddress: String
    var phoneNumber: String
    var departmentID: EntityID

    func item(id: EntityID, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem {
        try requireText(familyName, "familyName")
        try requireText(givenName, "givenName")
        try requireKind(departmentID, .department, "departmentID")
        return .person(
            Person(
                id: id, givenName: givenName, familyName: familyName, emailAddress: emailAddress, phoneNumber: phoneNumber,
                departmentID: departmentID))
    }
}

struct ArticleLine: ImportLine {
    var id: EntityID?
    var headline: String
    var markdown: String

    func item(id: EntityID, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem {
        try requireText(headline, "headline")
        return .article(Article(id: id, headline: headline, markdown: markdown))
    }
}

struct DocumentLine: ImportLine {
    var id: EntityID?
    var title: String
    var body: String

    func item(id: EntityID, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem {
        try requireText(title, "title")
        return .document(Document(id: id, title: title, body: body))
    }
}

struct TrackLine: ImportLine {
    struct Channel: Decodable {
        var id: EntityID?
        var name: String
    }

    var id: EntityID?
    var title: String
    var channels: [Channel]

    func item(id: EntityID, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem {
        try requireText(title, "title")
        var made: [AudioChannel] = []
        for (index, channel) in channels.enumerated() {
            try requireText(channel.name, "channels[\(index)].name")
            if let channelID = channel.id { try requireKind(channelID, .channel, "channels[\(index)].id") }
            made.append(AudioChannel(id: channel.id ?? allocator.next(.channel), name: channel.name))
        }
        guard Set(made.map(\.id)).count == made.count else { throw ImportLineError("channels have duplicate ids") }
        return .track(Track(id: id, title: title, channels: made))
    }
}

struct SampleLine: ImportLine {
    var id: EntityID?
    var trackID: EntityID
    var timestampMilliseconds: Int64
    var levels: [Double]

    func item(id: EntityID, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem {
        try requireKind(trackID, .track, "trackID")
        guard timestampMilliseconds >= 0 else { throw ImportLineError("timestampMilliseconds must not be negative") }
        guard levels.allSatisfy(\.isFinite) else { throw ImportLineError("levels must be finite numbers") }
        return .sample(AudioSample(id: id, trackID: trackID, timestampMilliseconds: timestampMilliseconds, levels: levels))
    }
}
