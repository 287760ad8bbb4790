import Domain
import FuzzSupport
import HTTPServer
import Storage

@testable import APIServer

/// Request bodies into items: a POST's document, or a PATCH's merge patch over a stored item.
///
/// The first byte picks the collection and whether the rest is a create or a patch, the way
/// `ItemsController` does it. Invariants: an item comes back exactly when no field failed;
/// every failure names a JSON pointer; the item keeps the id it is given and obeys every rule of
/// `ValidationLimits`, and decodes again from its own writable document unchanged.
private func id(_ kind: EntityKind, _ bits: UInt32) -> EntityID {
    EntityID(kind: kind, timestampMilliseconds: 1_700_000_000_000, randomBits: bits)
}

private let stored: [StoredCollection: StoredItem] = [
    .products: .product(
        Product(
            id: id(.product, 1), name: "Keyboard", shortDescription: "Quiet", longDescription: "",
            price: Money(minorUnits: 12_000, currency: "EUR"))),
    .departments: .department(Department(id: id(.department, 2), name: "Sales")),
    .people: .person(
        Person(
            id: id(.person, 3), givenName: "Ann", familyName: "Lee", emailAddress: "ann@example.com", phoneNumber: "+1 555",
            departmentID: id(.department, 2))),
    .articles: .article(Article(id: id(.article, 4), headline: "News", markdown: "# News")),
    .documents: .document(Document(id: id(.document, 5), title: "Plan", body: "Text")),
    .tracks: .track(
        Track(
            id: id(.track, 6), title: "Mix", channels: [AudioChannel(id: id(.channel, 7), name: "L"), AudioChannel(id: id(.channel, 8), name: "R")])),
    .samples: .sample(AudioSample(id: id(.sample, 9), trackID: id(.track, 6), timestampMilliseconds: 0, levels: [0.5, 0.25])),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzItemDecoder(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let selector = Int(input.byte())
    let collection = StoredCollection.allCases[selector % StoredCollection.allCases.count]
    guard let body = try? JSONParser.parse(input.rest()), let current = stored[collection] else { return 0 }
    let mode: ItemDecoder.Mode
    let document: JSONValue
    if (selector / StoredCollection.allCases.count) % 2 == 0 {
        mode = .create(id(collection.kind, 99))
        document = body
    } else {
        mode = .replace(current)
        document = MergePatch.apply(body, to: WritableDocument.json(for: current))
    }
    let outcome = ItemDecoder.decode(document, as: collection, mode: mode)
    fuzzCheck(
        (outcome.item != nil) == outcome.errors.isEmpty, "item \(outcome.item == nil ? "missing" : "present") with \(outcome.errors.count) errors")
    for error in outcome.errors {
        fuzzCheck(error.pointer.isEmpty || error.pointer.utf8.first == UInt8(ascii: "/"), "pointer \(error.pointer.debugDescription)")
    }
    guard let item = outcome.item else { return 0 }
    fuzzCheck(item.id == mode.id, "item \(item.id) for mode id \(mode.id)")
    checkLimits(item)
    let written = WritableDocument.json(for: item)
    for reference in outcome.references {
        fuzzCheck(reference.pointer.utf8.first == UInt8(ascii: "/") && reference.id.kind == reference.collection.kind, "reference \(reference)")
    }
    let again = ItemDecoder.decode(written, as: collection, mode: .replace(item))
    fuzzCheck(again.item == item, "its writable document decodes to \(String(describing: again.item)), errors \(again.errors)")
    return 0
}

private func checkLimits(_ item: StoredItem) {
    func text(_ value: String, _ rule: TextRule, _ field: String) {
        fuzzCheck(!value.utf8.contains(0), "NUL in \(field)")
        fuzzCheck(value.unicodeScalars.count <= rule.maxCharacters, "\(field) has \(value.unicodeScalars.count) scalars")
        fuzzCheck(!rule.required || !value.allSatisfy(\.isWhitespace), "\(field) is blank")
    }
    switch item {
    case .product(let product):
        text(product.name, ValidationLimits.productName, "name")
        text(product.shortDescription, ValidationLimits.shortDescription, "shortDescription")
        text(product.longDescription, ValidationLimits.longDescription, "longDescription")
        fuzzCheck(ValidationLimits.minorUnits.contains(product.price.minorUnits), "minorUnits \(product.price.minorUnits)")
        fuzzCheck(Currency(code: product.price.currency) != nil, "currency \(product.price.currency.debugDescription)")
    case .department(let department):
        text(department.name, ValidationLimits.departmentName, "name")
    case .person(let person):
        text(person.givenName, ValidationLimits.personName, "givenName")
        text(person.familyName, ValidationLimits.personName, "familyName")
        text(person.emailAddress, ValidationLimits.emailAddress, "emailAddress")
        text(person.phoneNumber, ValidationLimits.phoneNumber, "phoneNumber")
        fuzzCheck(ItemDecoder.emailProblem(person.emailAddress) == nil, "emailAddress \(person.emailAddress.debugDescription)")
        fuzzCheck(ItemDecoder.phoneProblem(person.phoneNumber) == nil, "phoneNumber \(person.phoneNumber.debugDescription)")
        fuzzCheck(person.departmentID.kind == .department, "departmentID \(person.departmentID)")
    case .article(let article):
        text(article.headline, ValidationLimits.headline, "headline")
        text(article.markdown, ValidationLimits.markdown, "markdown")
    case .document(let document):
        text(document.title, ValidationLimits.documentTitle, "title")
        text(document.body, ValidationLimits.documentBody, "body")
    case .track(let track):
        text(track.title, ValidationLimits.trackTitle, "title")
        fuzzCheck(ValidationLimits.channelCount.contains(track.channels.count), "\(track.channels.count) channels")
        fuzzCheck(Set(track.channels.map(\.id)).count == track.channels.count, "channel ids repeat")
        for channel in track.channels {
            text(channel.name, ValidationLimits.channelName, "channels[].name")
            fuzzCheck(channel.id.kind == .channel, "channel id \(channel.id)")
        }
    case .sample:
        fuzzCheck(false, "a sample was decoded")
    }
}
