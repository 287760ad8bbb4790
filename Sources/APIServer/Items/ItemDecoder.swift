import Domain
import HTTPServer
import Storage

/// Turns a request document (a POST body, or a merge patch applied to the item) into the
/// model to store, checking every rule of ``ValidationLimits``.
///
/// Pure: references to other items (a person's department) are returned for the caller to
/// look up, so the checks can be tested as data and the store is read once per reference.
enum ItemDecoder {
    enum Mode: Sendable {
        /// A POST: the new item gets `id`; the document must not name one.
        case create(EntityID)
        /// A PATCH: the document is the whole item after the patch; its id must be the item's.
        case replace(StoredItem)

        var id: EntityID {
            switch self {
            case .create(let id): id
            case .replace(let item): item.id
            }
        }
    }

    /// An id the document names that must exist in `collection`.
    struct Reference: Sendable, Equatable {
        var pointer: String
        var collection: StoredCollection
        var id: EntityID
    }

    struct Outcome: Sendable {
        /// The model, when ``errors`` is empty.
        var item: StoredItem?
        var errors: [HTTPError.FieldError]
        var references: [Reference]
    }

    static func decode(_ document: JSONValue, as collection: StoredCollection, mode: Mode) -> Outcome {
        var reader = FieldReader()
        var references: [Reference] = []
        let item: StoredItem?
        switch collection {
        case .products: item = product(document, mode, &reader)
        case .departments: item = department(document, mode, &reader)
        case .people: item = person(document, mode, &reader, &references)
        case .articles: item = article(document, mode, &reader)
        case .documents: item = textDocument(document, mode, &reader)
        case .tracks: item = track(document, mode, &reader)
        case .samples:
            reader.fail("", "Samples are generated data and cannot be written.")
            item = nil
        }
        return Outcome(item: reader.errors.isEmpty ? item : nil, errors: reader.errors, references: references)
    }

    /// The id rule: absent on create, unchanged on replace.
    static func checkID(_ value: JSONValue?, _ mode: Mode, _ reader: inout FieldReader) {
        switch mode {
        case .create:
            if let value, value != .null { reader.fail("/id", "The id is assigned by the server; leave it out.") }
        case .replace(let item):
            if value != .string(item.id.rawValue) { reader.fail("/id", "The id cannot change; it stays \(item.id.rawValue).") }
        }
    }

    private static func product(_ document: JSONValue, _ mode: Mode, _ reader: inout FieldReader) -> StoredItem? {
        guard
            let fields = reader.object(
                document, at: "", fields: ["id", "name", "shortDescription", "longDescription", "price"], readOnly: ["links"])
        else { return nil }
        checkID(fields["id"], mode, &reader)
        let name = reader.text(fields["name"], at: "/name", ValidationLimits.productName)
        let short = reader.text(fields["shortDescription"], at: "/shortDescription", ValidationLimits.shortDescription)
        let long = reader.text(fields["longDescription"], at: "/longDescription", ValidationLimits.longDescription)
        var price = Money(minorUnits: 0, currency: "")
        if let priceFields = reader.object(fields["price"], at: "/price", fields: ["minorUnits", "currency"], readOnly: ["formatted"]) {
            price.minorUnits = reader.integer(priceFields["minorUnits"], at: "/price/minorUnits", range: ValidationLimits.minorUnits)
            price.currency = currency(priceFields["currency"], at: "/price/currency", &reader)
        }
        return .product(Product(id: mode.id, name: name, shortDescription: short, longDescription: long, price: price))
    }

    private static func currency(_ value: JSONValue?, at pointer: String, _ reader: inout FieldReader) -> String {
        guard let code = reader.string(value, at: pointer, required: true) else { return "" }
        guard Currency(code: code) != nil else {
            reader.fail(pointer, "Must be an ISO 4217 currency code this server knows, in uppercase (USD, EUR, JPY).")
            return ""
        }
        return code
    }

    private static func department(_ document: JSONValue, _ mode: Mode, _ reader: inout FieldReader) -> StoredItem? {
        guard let fields = reader.object(document, at: "", fields: ["id", "name"], readOnly: ["links"]) else { return nil }
        checkID(fields["id"], mode, &reader)
        let name = reader.text(fields["name"], at: "/name", ValidationLimits.departmentName)
        return .department(Department(id: mode.id, name: name))
    }

    private static func article(_ document: JSONValue, _ mode: Mode, _ reader: inout FieldReader) -> StoredItem? {
        guard let fields = reader.object(document, at: "", fields: ["id", "headline", "markdown"], readOnly: ["preview", "links"]) else {
            return nil
        }
        checkID(fields["id"], mode, &reader)
        let headline = reader.text(fields["headline"], at: "/headline", ValidationLimits.headline)
        let markdown = reader.text(fields["markdown"], at: "/markdown", ValidationLimits.markdown)
        return .article(Article(id: mode.id, headline: headline, markdown: markdown))
    }

    private static func textDocument(_ document: JSONValue, _ mode: Mode, _ reader: inout FieldReader) -> StoredItem? {
        guard let fields = reader.object(document, at: "", fields: ["id", "title", "body"], readOnly: ["preview", "links"]) else {
            return nil
        }
        checkID(fields["id"], mode, &reader)
        let title = reader.text(fields["title"], at: "/title", ValidationLimits.documentTitle)
        let body = reader.text(fields["body"], at: "/body", ValidationLimits.documentBody)
        return .document(Document(id: mode.id, title: title, body: body))
    }
}
