import Domain

/// A lazily generated sequence of demo products (see ``DemoData/products(count:)``).
public struct ProductStream: Sequence, Sendable {
    let seed: UInt64
    public let count: Int

    public var underestimatedCount: Int { Swift.max(count, 0) }

    public func makeIterator() -> Iterator {
        Iterator(random: SeededRandom(seed: seed, stream: DemoData.Stream.products.rawValue), count: count)
    }

    public struct Iterator: IteratorProtocol, Sendable {
        var random: SeededRandom
        let count: Int
        var index = 0

        public mutating func next() -> Product? {
            guard index < count else { return nil }
            defer { index += 1 }
            let id = DemoData.id(.product, index: index, using: &random)
            if index == 0 {
                return Product(
                    id: id,
                    name: "Keyboard",
                    shortDescription: "Mechanical",
                    longDescription: "A mechanical keyboard with tactile switches and a solid aluminium case.",
                    price: Money(minorUnits: 120_00, currency: "USD")
                )
            }
            let adjective = random.pick(DemoVocabulary.productAdjectives)
            let noun = random.pick(DemoVocabulary.productNouns)
            let finish = random.pick(DemoVocabulary.productFinishes)
            let model = modelCode()
            let first = random.pick(DemoVocabulary.productSentences)
            let second = random.pick(DemoVocabulary.productSentences)
            return Product(
                id: id,
                name: adjective + " " + noun + ", " + finish + " " + model,
                shortDescription: random.pick(DemoVocabulary.productTaglines),
                longDescription: "The \(adjective.lowercased()) \(noun.lowercased()). \(first) \(second)",
                price: price()
            )
        }

        /// A model code such as "KX-204": 676 letter pairs and 900 numbers, so that nearly every
        /// title is distinct, as in a real catalogue (a million products of 481 names made
        /// searches in title order look cheaper than they are on real data).
        private mutating func modelCode() -> String {
            let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
            var code = String.UnicodeScalarView()
            code.append(letters[random.next(below: letters.count)])
            code.append(letters[random.next(below: letters.count)])
            return String(code) + "-" + String(random.next(in: 100...999))
        }

        /// Mostly USD, some EUR and GBP, a few JPY; retail-looking amounts (…9.99, …5.00).
        private mutating func price() -> Money {
            let roll = random.next(below: 100)
            if roll >= 92 {
                return Money(minorUnits: Int64(random.next(in: 10...9_999) * 10), currency: "JPY")
            }
            let currency = roll < 70 ? "USD" : (roll < 82 ? "EUR" : "GBP")
            let major = Int64(random.next(in: 1...2_499))
            let minor: Int64
            switch random.next(below: 5) {
            case 0: minor = 99
            case 1: minor = 0
            case 2: minor = 50
            case 3: minor = 95
            default: minor = Int64(random.next(below: 100))
            }
            return Money(minorUnits: major * 100 + minor, currency: currency)
        }
    }
}
