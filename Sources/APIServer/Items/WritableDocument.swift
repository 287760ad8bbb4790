import Domain
import Storage

/// The writable fields of an item as a JSON document: what a PATCH's merge patch applies to.
///
/// Exactly the fields ``ItemDecoder`` accepts (the detail's derived fields — links, formatted
/// values, previews, the embedded department — are not part of it), so decoding an unpatched
/// document gives the item back unchanged.
enum WritableDocument {
    static func json(for item: StoredItem) -> JSONValue {
        switch item {
        case .product(let product):
            return .object([
                JSONMember("id", .string(product.id.rawValue)),
                JSONMember("name", .string(product.name)),
                JSONMember("shortDescription", .string(product.shortDescription)),
                JSONMember("longDescription", .string(product.longDescription)),
                JSONMember(
                    "price",
                    .object([
                        JSONMember("minorUnits", .integer(product.price.minorUnits)),
                        JSONMember("currency", .string(product.price.currency)),
                    ])),
            ])
        case .department(let department):
            return .object([JSONMember("id", .string(department.id.rawValue)), JSONMember("name", .string(department.name))])
        case .person(let person):
            return .object([
                JSONMember("id", .string(person.id.rawValue)),
                JSONMember("givenName", .string(person.givenName)),
                JSONMember("familyName", .string(person.familyName)),
                JSONMember("emailAddress", .string(person.emailAddress)),
                JSONMember("phoneNumber", .string(person.phoneNumber)),
                JSONMember("departmentID", .string(person.departmentID.rawValue)),
            ])
        case .article(let article):
            return .object([
                JSONMember("id", .string(article.id.rawValue)),
                JSONMember("headline", .string(article.headline)),
                JSONMember("markdown", .string(article.markdown)),
            ])
        case .document(let document):
            return .object([
                JSONMember("id", .string(document.id.rawValue)),
                JSONMember("title", .string(document.title)),
                JSONMember("body", .string(document.body)),
            ])
        case .track(let track):
            let channels = track.channels.map { channel in
                JSONValue.object([JSONMember("id", .string(channel.id.rawValue)), JSONMember("name", .string(channel.name))])
            }
            return .object([
                JSONMember("id", .string(track.id.rawValue)),
                JSONMember("title", .string(track.title)),
                JSONMember("channels", .array(channels)),
            ])
        case .sample(let sample):
            // Never patched (samples are read-only); kept total for the switch.
            return .object([JSONMember("id", .string(sample.id.rawValue))])
        }
    }
}
