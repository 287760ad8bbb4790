import Domain
import Foundation
import GRDB

/// Turns items into column values and rows back into items, in `CollectionTable.columns` order.
///
/// Hand-written rather than Codable records: a page decodes up to 200 rows per request, and
/// reading columns by index is what keeps a page in tens of microseconds.
enum ItemColumns {
    /// The values of `columns` for `item`; `departmentKey` is the folded name of a person's department.
    static func values(of item: StoredItem, departmentKey: String = "") throws -> [(any DatabaseValueConvertible)?] {
        let keys = SearchKeys.of(item)
        switch item {
        case .product(let product):
            return [
                product.name, product.shortDescription, product.longDescription, product.price.minorUnits,
                product.price.currency, keys?.title, keys?.subtitle,
            ]
        case .department(let department):
            return [department.name, keys?.title, keys?.subtitle]
        case .person(let person):
            return [
                person.givenName, person.familyName, person.emailAddress, person.phoneNumber, person.departmentID.rawValue,
                departmentKey, searchFolded(person.familyName), searchFolded(person.givenName), searchFolded(person.emailAddress),
                keys?.title, keys?.subtitle,
            ]
        case .article(let article):
            return [article.headline, article.markdown, keys?.title, keys?.subtitle]
        case .document(let document):
            return [document.title, document.body, keys?.title, keys?.subtitle]
        case .track(let track):
            let channels = String(decoding: try JSONEncoder().encode(track.channels), as: UTF8.self)
            return [track.title, channels, keys?.title, keys?.subtitle]
        case .sample(let sample):
            return [sample.trackID.rawValue, sample.timestampMilliseconds, levelsBlob(sample.levels)]
        }
    }

    /// The item in a row that starts with `id, version, columns…`.
    static func decode(_ row: Row, in collection: StoredCollection) throws -> Versioned<StoredItem> {
        let id = try entityID(row, 0, kind: collection.kind)
        let version: Int64 = row[1]
        let item: StoredItem
        switch collection {
        case .products:
            item = .product(
                Product(
                    id: id, name: row[2], shortDescription: row[3], longDescription: row[4],
                    price: Money(minorUnits: row[5], currency: row[6])))
        case .departments:
            item = .department(Department(id: id, name: row[2]))
        case .people:
            item = .person(
                Person(
                    id: id, givenName: row[2], familyName: row[3], emailAddress: row[4], phoneNumber: row[5],
                    departmentID: try entityID(row, 6, kind: .department)))
        case .articles:
            item = .article(Article(id: id, headline: row[2], markdown: row[3]))
        case .documents:
            item = .document(Document(id: id, title: row[2], body: row[3]))
        case .tracks:
            let json: String = row[3]
            let channels = try JSONDecoder().decode([AudioChannel].self, from: Data(json.utf8))
            item = .track(Track(id: id, title: row[2], channels: channels))
        case .samples:
            let blob: Data = row[4]
            item = .sample(
                AudioSample(id: id, trackID: try entityID(row, 2, kind: .track), timestampMilliseconds: row[3], levels: levels(blob)))
        }
        return Versioned(item: item, version: version)
    }

    private static func entityID(_ row: Row, _ index: Int, kind: EntityKind) throws -> EntityID {
        let text: String = row[index]
        guard let id = EntityID(parsing: text, kind: kind) else {
            throw StoreError.unavailable("stored id \"\(text)\" is not a valid \(kind.rawValue) id")
        }
        return id
    }

    static func levelsBlob(_ levels: [Double]) -> Data {
        var data = Data(capacity: levels.count * 8)
        for level in levels {
            withUnsafeBytes(of: level.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func levels(_ blob: Data) -> [Double] {
        var levels: [Double] = []
        levels.reserveCapacity(blob.count / 8)
        blob.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                let bits = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                levels.append(Double(bitPattern: UInt64(littleEndian: bits)))
                offset += 8
            }
        }
        return levels
    }
}
