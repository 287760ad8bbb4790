import DemoData
import Domain

@testable import Storage

/// The order a list must have, computed in memory the way the store defines it: text keys by
/// their `searchFolded` form compared bytewise, numbers numerically, each key in its direction,
/// then the id ascending.
enum ExpectedOrder {
    enum Key: Comparable {
        case text([UInt8])
        case integer(Int64)

        static func < (lhs: Key, rhs: Key) -> Bool {
            switch (lhs, rhs) {
            case (.text(let left), .text(let right)): left.lexicographicallyPrecedes(right)
            case (.integer(let left), .integer(let right)): left < right
            case (.integer, .text): true
            case (.text, .integer): false
            }
        }
    }

    /// The keys a sort by `field` compares; money: currency, then amount.
    static func values(of item: StoredItem, field: String) -> [Key] {
        if case .product(let product) = item, field == "price" {
            return [.text(Array(product.price.currency.utf8)), .integer(product.price.minorUnits)]
        }
        return [value(of: item, field: field)]
    }

    static func value(of item: StoredItem, field: String) -> Key {
        func text(_ value: String) -> Key { .text(Array(searchFolded(value).utf8)) }
        switch (item, field) {
        case (.product(let product), "name"): return text(product.name)
        case (.product(let product), "price"): return .integer(product.price.minorUnits)
        case (.department(let department), "name"): return text(department.name)
        case (.person(let person), "familyName"): return text(person.familyName)
        case (.person(let person), "givenName"): return text(person.givenName)
        case (.person(let person), "emailAddress"): return text(person.emailAddress)
        case (.article(let article), "headline"): return text(article.headline)
        case (.document(let document), "title"): return text(document.title)
        case (.track(let track), "title"): return text(track.title)
        case (.sample(let sample), "timestamp"): return .integer(sample.timestampMilliseconds)
        default: return .integer(0)
        }
    }

    /// `items` in the order of `sort`; with `departments`, grouped by department name first.
    static func sorted(_ items: [StoredItem], by sort: [SortKey], departments: [EntityID: Department]? = nil) -> [EntityID] {
        func keys(_ item: StoredItem) -> [(Key, Bool)] {
            var keys: [(Key, Bool)] = []
            if let departments, case .person(let person) = item {
                keys.append((.text(Array(searchFolded(departments[person.departmentID]?.name ?? "").utf8)), false))
                keys.append((.text(Array(person.departmentID.rawValue.utf8)), false))
            }
            for key in sort { keys += values(of: item, field: key.field).map { ($0, key.descending) } }
            keys.append((.text(Array(item.id.rawValue.utf8)), false))
            return keys
        }
        let keyed = items.map { (keys($0), $0.id) }
        return keyed.sorted { lhs, rhs in
            for ((left, descending), (right, _)) in zip(lhs.0, rhs.0) where left != right {
                return descending ? right < left : left < right
            }
            return false
        }.map(\.1)
    }
}

extension DemoDataset {
    func items(_ collection: StoredCollection) -> [StoredItem] {
        switch collection {
        case .products: products.map(StoredItem.product)
        case .departments: departments.map(StoredItem.department)
        case .people: people.map(StoredItem.person)
        case .articles: articles.map(StoredItem.article)
        case .documents: documents.map(StoredItem.document)
        case .tracks: tracks.map(StoredItem.track)
        case .samples: samples.map(StoredItem.sample)
        }
    }

    var departmentsByID: [EntityID: Department] {
        Dictionary(uniqueKeysWithValues: departments.map { ($0.id, $0) })
    }
}

/// The standard dataset of seed 1, as a seeded store holds it.
let standardDataset = DemoData(seed: 1).dataset(volume: .standard)
