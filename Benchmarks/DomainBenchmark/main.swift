// Release-build benchmark of Domain's request-path work: rendering one page of rows of the demo
// definition with locale formatting (ItemRenderer). Run with `swift run -c release DomainBenchmark`.
// Not a test: numbers vary by machine.
import Definitions
import DemoData
import Domain
import Foundation

/// Keeps results alive so the optimizer cannot drop the measured work.
nonisolated(unsafe) var sink = 0

/// Runs `body` (one page) until at least `minimum` has passed and returns nanoseconds per call.
func measure(minimum: Duration = .milliseconds(300), _ body: () -> Int) -> Double {
    for _ in 0..<200 { sink &+= body() }  // warm caches and lazily built formatters
    let clock = ContinuousClock()
    var iterations = 0
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        for _ in 0..<100 { sink &+= body() }
        iterations += 100
        elapsed = clock.now - start
    } while elapsed < minimum
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
}

func report(_ label: String, _ nanosecondsPerPage: Double, rows: Int) {
    let page = String(format: "%9.0f", nanosecondsPerPage)
    let row = String(format: "%7.0f", nanosecondsPerPage / Double(rows))
    print("\(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(page) ns/page \(row) ns/row")
}

let dataset = DemoData(seed: 2026).dataset()
// A page with every currency of the demo data: the first 45 products plus EUR, GBP and JPY ones.
var productPage = Array(dataset.products.prefix(45))
for code in ["EUR", "GBP", "JPY", "EUR", "JPY"] {
    if let product = dataset.products.dropFirst(45).first(where: { $0.price.currency == code && !productPage.contains($0) }) {
        productPage.append(product)
    }
}
let mix = Dictionary(grouping: productPage, by: \.price.currency).mapValues(\.count).sorted { $0.key < $1.key }
print("Product page: \(productPage.count) rows, currencies \(mix.map { "\($0.key)×\($0.value)" }.joined(separator: " "))")
let peoplePage = Array(dataset.people.prefix(50))
let surround = dataset.tracks[dataset.tracks.count - 1]
let samplePage = Array(dataset.samples(of: surround.id).prefix(50))
print("Samples page: 50 rows × \(surround.channels.count) channels\n")

let catalog = try DefinitionLoader.demo()
func renderer(_ name: String) -> ItemRenderer {
    guard let collection = catalog.collection(named: name) else {
        print("the demo definition lacks \(name)")
        exit(1)
    }
    return ItemRenderer(collection: collection, catalog: catalog)
}
let products = renderer("products")
let people = renderer("people")
let samples = renderer("samples")
let productItems = productPage.map { DemoItems.product($0, in: products.collection) }
let peopleItems = peoplePage.map { DemoItems.person($0, in: people.collection) }
let track = DemoItems.track(surround, in: renderer("tracks").collection)
let trackReferences = ReferencedItems([track])
let channels = samples.forEachNames(parent: track)
let sampleItems = samplePage.map { DemoItems.sample($0, in: samples.collection) }
let departments = ReferencedItems(dataset.departments.map { DemoItems.department($0, in: renderer("departments").collection) })
let allPeople = dataset.people.map { DemoItems.person($0, in: people.collection) }

for locale in RenderLocale.allCases {
    let context = RenderContext(locale: locale)
    report("\(locale.rawValue) product rows", measure { productItems.map { products.row($0, in: context) }.count }, rows: productItems.count)
    report(
        "\(locale.rawValue) product table (price + 2 tips)",
        measure { productItems.map { products.tableRow($0, references: .none, in: context) }.count },
        rows: productItems.count
    )
    report(
        "\(locale.rawValue) samples table",
        measure { sampleItems.map { samples.tableRow($0, names: channels, references: trackReferences, in: context) }.count },
        rows: sampleItems.count)
}
let context = RenderContext(locale: .enUS)
report("people rows", measure { peopleItems.map { people.row($0, in: context) }.count }, rows: 50)
report("people table", measure { peopleItems.map { people.tableRow($0, references: .none, in: context) }.count }, rows: 50)
report(
    "people sections (200 people, headers by reference)",
    measure { allPeople.compactMap { people.section(of: $0, references: departments, in: context) }.count },
    rows: 200
)
let negotiation = measure { RenderContext(acceptLanguage: "fr-CH, fr;q=0.9, en;q=0.8").locale.rawValue.utf8.count }
print("RenderContext from Accept-Language (once per request): \(Int(negotiation)) ns")

// Foundation per call, for comparison with the derived layouts above (de-DE, same page).
print("\nFoundation per call, same 50-row page, de-DE:")
let german = Locale(identifier: "de-DE")
report(
    "Decimal.FormatStyle.Currency",
    measure {
        productPage.reduce(0) {
            $0 + $1.price.decimalAmount.formatted(Decimal.FormatStyle.Currency(code: $1.price.currency, locale: german)).utf8.count
        }
    },
    rows: 50
)
report(
    "Double .currency(code:).locale(_:)",
    measure {
        productPage.reduce(0) { total, product in
            let digits = product.price.currencyInfo?.minorUnitDigits ?? 2
            let amount = Double(product.price.minorUnits) / pow(10, Double(digits))
            return total + amount.formatted(.currency(code: product.price.currency).locale(german)).utf8.count
        }
    },
    rows: 50
)
let formatters = Dictionary(
    uniqueKeysWithValues: ["USD", "EUR", "GBP", "JPY"].map { code in
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.currencyCode = code
        formatter.locale = german
        return (code, formatter)
    }
)
report(
    "NumberFormatter (cached per currency)",
    measure {
        productPage.reduce(0) { total, product in
            let digits = product.price.currencyInfo?.minorUnitDigits ?? 2
            let amount = NSNumber(value: Double(product.price.minorUnits) / pow(10, Double(digits)))
            return total + (formatters[product.price.currency]?.string(from: amount)?.utf8.count ?? 0)
        }
    },
    rows: 50
)
let germanContext = RenderContext(locale: .deDE)
report("Domain RenderContext.currency", measure { productPage.reduce(0) { $0 + germanContext.currency($1.price).utf8.count } }, rows: 50)

// Bulk generation for large benchmarks: one million products, streamed.
let clock = ContinuousClock()
let start = clock.now
var generated = 0
for product in DemoData(seed: 1).products(count: 1_000_000) { generated &+= product.name.utf8.count }
sink &+= generated
print("\nGenerated 1,000,000 products in \(clock.now - start)")
print("(sink \(sink))")
