// Release-build benchmark of the SQLite store of the demo definition on a real file (synchronous=FULL):
//   swift run -c release StorageBenchmark [--products N] [--dir PATH] [--writes N] [--keep]
// Not a test: the figures depend on the disk's fsync cost and the machine.
import Definitions
import DemoData
import Domain
import Foundation
import Storage

#if canImport(Glibc)
    import Glibc
#endif

var arguments = BenchmarkArguments(CommandLine.arguments.dropFirst())
let directory = URL(fileURLWithPath: arguments.directory).appendingPathComponent("storage-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { if !arguments.keep { try? FileManager.default.removeItem(at: directory) } }
let path = arguments.database ?? directory.appendingPathComponent("bench.sqlite").path
say("StorageBenchmark: \(arguments.products) products in \(path)\n")
let catalog = try DefinitionLoader.demo()
guard let products = catalog.collection(named: "products"), let people = catalog.collection(named: "people") else {
    say("the demo definition lacks products or people")
    exit(1)
}

// 1. Bulk load: what `rowserver generate --products N` does, minus the other collections.
let loadStart = ContinuousClock.now
if arguments.phases.contains("generate") && arguments.database == nil {
    let store = try CatalogStore(path: path, catalog: catalog)
    _ = try store.bulkLoad { loader in
        for product in DemoData(seed: 1).products(count: arguments.products) {
            try loader.insert(DemoItems.product(product, in: products), into: "products")
        }
    }
    try store.close()
}
let loadSeconds = (ContinuousClock.now - loadStart).seconds
if arguments.phases.contains("generate") && arguments.database == nil {
    report(
        "generate \(arguments.products) products",
        String(
            format: "%.1f s (%.0f products/s), file %@", loadSeconds,
            Double(arguments.products) / loadSeconds, fileSize(path)))
}

// 1b. The same products through `rowserver import` (JSON Lines, ids assigned by the store).
if arguments.phases.contains("import") {
    let jsonl = directory.appendingPathComponent("products.jsonl").path
    try writeProductLines(count: arguments.products, to: jsonl)
    let importPath = directory.appendingPathComponent("import.sqlite").path
    let importStart = ContinuousClock.now
    let imported = try CatalogImporter(collection: products, catalog: catalog).run(
        path: jsonl, into: CatalogStore(path: importPath, catalog: catalog))
    let importSeconds = (ContinuousClock.now - importStart).seconds
    report(
        "import \(imported) products from JSONL",
        String(
            format: "%.1f s (%.0f lines/s), file %@", importSeconds,
            Double(imported) / importSeconds, fileSize(jsonl)))
}

if !arguments.phases.contains("open") && !arguments.phases.contains("pages") && !arguments.phases.contains("search")
    && !arguments.phases.contains("writes")
{
    exit(0)
}

// 2. Opening an existing database (migrations checked, versions loaded).
var openTimes: [Duration] = []
for _ in 0..<(arguments.phases.contains("open") ? 5 : 0) {
    let start = ContinuousClock.now
    let store = try CatalogStore(path: path, catalog: catalog)
    try store.checkHealth()
    openTimes.append(ContinuousClock.now - start)
    try store.close()
}
report("open existing database", "p50 \(microseconds(percentile(openTimes, 0.5)))")

let store = try CatalogStore(path: path, catalog: catalog)
say("RSS after open: \(residentMiB()) MiB\n")

// 3. Page 1 and a page ~half-way in, per order.
for sort in !arguments.phases.contains("pages")
    ? [] : [[SortKey("name")], [SortKey("price", descending: true)], [SortKey("price", descending: true), SortKey("name")]]
{
    let label = sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")
    let first = CatalogQuery(collection: products, sort: sort, limit: 50)
    let deep = try position(store, query: first, depth: arguments.products / 2)
    let firstTimes = try timed(1_000) { _ = try store.page(first) }
    var deepQuery = first
    deepQuery.after = deep
    let deepTimes = try timed(1_000) { _ = try store.page(deepQuery) }
    report(
        "page of 50, sort=\(label)",
        "page 1 p50 \(microseconds(percentile(firstTimes, 0.5))), page at \(arguments.products / 2) p50 \(microseconds(percentile(deepTimes, 0.5)))")
}
say("")

// 4. Search: a mix of common and rare words, short texts that match many rows or none,
// other orders, a cursor deep in the results, and people in sections. p50 and max per query.
struct SearchCase {
    var collection = "products"
    var text: String
    var sort: [SortKey]? = nil
    var sections = false
    /// Results to skip with a cursor before timing (0: the first page).
    var depth = 0
}
let price = [SortKey("price", descending: true)]
let searchCases: [SearchCase] =
    !arguments.phases.contains("search")
    ? []
    : ["keyboard", "mug", "lamp", "ergo", "tripod", "smart", "usb", "kettle", "chair", "mouse", "walnut", "wireless"]
        .map { SearchCase(text: $0) }
        + ["heated phone case", "sketchbook", "walnut chair", "bamboo tea kettle", "MECH", "e", "ke", "q", "zx", "ß", "🦊", "qqqq", "xyzzy"]
        .map { SearchCase(text: $0) }
        + [
            SearchCase(text: "smart", sort: price), SearchCase(text: "walnut", sort: price), SearchCase(text: "q", sort: price),
            SearchCase(text: "zx", sort: price), SearchCase(text: "heated phone case", sort: price),
            SearchCase(text: "smart", depth: 5_000), SearchCase(text: "wireless", sort: price, depth: 5_000),
            SearchCase(text: "e", depth: 5_000), SearchCase(text: "walnut chair", sort: price, depth: 1_000),
            SearchCase(collection: "people", text: "jose"), SearchCase(collection: "people", text: "a", sections: true),
            SearchCase(collection: "people", text: "555-4", sections: true), SearchCase(collection: "people", text: "zz"),
        ]
var queryMedians: [Duration] = []
var worst = (label: "", p50: Duration.zero, max: Duration.zero)
for test in searchCases {
    let definition = test.collection == "people" ? people : products
    var query = CatalogQuery(collection: definition, sort: test.sort, search: test.text, sections: test.sections, limit: 50)
    if test.depth > 0 { query.after = try position(store, query: query, depth: test.depth) }
    let count = try store.page(CatalogQuery(collection: definition, sort: test.sort, search: test.text, limit: 200)).items.count
    var cpuTimes: [Duration] = []
    let times = try timed(200) {
        let cpu = threadCPUTime()
        _ = try store.page(query)
        cpuTimes.append(threadCPUTime() - cpu)
    }
    let (p50, slowest) = (percentile(times, 0.5), times.max() ?? .zero)
    queryMedians.append(p50)
    var label = "search \(test.collection == "people" ? "people " : "")q=\"\(test.text)\""
    if let sort = test.sort { label += " sort=" + sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",") }
    if test.depth > 0 { label += " after \(test.depth)" }
    if slowest > worst.max { worst = (label, p50, slowest) }
    report(
        label,
        "p50 \(microseconds(p50)), max \(microseconds(slowest)), CPU p50 \(microseconds(percentile(cpuTimes, 0.5))) (\(count)\(count == 200 ? "+" : "") rows)"
    )
}
if !searchCases.isEmpty {
    report("search, median of the p50s above", microseconds(percentile(queryMedians, 0.5)))
    report("search, slowest", "\(worst.label): p50 \(microseconds(worst.p50)), max \(microseconds(worst.max))")
}
say("RSS after reads: \(residentMiB()) MiB (peak \(peakMiB()) MiB)\n")

// 5. Acknowledged writes with 32 concurrent writers, and one writer for comparison.
for writers in !arguments.phases.contains("writes") ? [] : [1, 32] {
    let total = writers == 1 ? min(arguments.writes / 10, 1_000) : arguments.writes
    let before = store.writeCounters
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for writer in 0..<writers {
            group.addTask {
                var random = SeededRandom(seed: UInt64(writer))
                for index in stride(from: writer, to: total, by: writers) {
                    let id = EntityID.generate(kind: .product, at: 1_800_000_000_000 + Int64(writers * 10_000_000 + index), using: &random)
                    let product = Product(
                        id: id, name: "Benchmark \(index)", shortDescription: "Written by writer \(writer)", longDescription: "",
                        price: Money(minorUnits: Int64(index), currency: "USD"))
                    _ = try await store.insert(DemoItems.product(product, in: products), into: "products")
                }
            }
        }
        try await group.waitForAll()
    }
    let seconds = (ContinuousClock.now - start).seconds
    let after = store.writeCounters
    let writes = after.writes - before.writes
    let commits = after.commits - before.commits
    report(
        "\(writers) concurrent writer\(writers == 1 ? "" : "s"), synchronous=FULL",
        String(
            format: "%.0f acknowledged writes/s, %.0f commits/s (%d writes, %d commits, %.1f writes/commit)",
            Double(writes) / seconds, Double(commits) / seconds, writes, commits, Double(writes) / Double(max(commits, 1))))
}
say("\nPeak RSS: \(peakMiB()) MiB")

// MARK: - Helpers

/// Prints unbuffered, so figures already measured are seen even if a later step fails.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

struct BenchmarkArguments {
    var products = 1_000_000
    var writes = 20_000
    var directory = FileManager.default.temporaryDirectory.path
    var keep = false
    /// An existing database to measure instead of generating one (phase "generate" is skipped).
    var database: String?
    var phases: Set<String> = ["generate", "import", "open", "pages", "search", "writes"]

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--products": products = iterator.next().flatMap(Int.init) ?? products
            case "--writes": writes = iterator.next().flatMap(Int.init) ?? writes
            case "--dir": directory = iterator.next() ?? directory
            case "--keep": keep = true
            case "--db": database = iterator.next()
            case "--phases": phases = Set((iterator.next() ?? "").split(separator: ",").map(String.init))
            default: say("ignoring unknown argument \(argument)")
            }
        }
    }
}

/// Writes `count` demo products as JSON Lines without ids, as an export from elsewhere would look.
func writeProductLines(count: Int, to path: String) throws {
    struct Line: Encodable {
        var name: String
        var shortDescription: String
        var longDescription: String
        var price: Money
    }
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let encoder = JSONEncoder()
    var buffer = Data()
    for product in DemoData(seed: 1).products(count: count) {
        buffer += try encoder.encode(
            Line(name: product.name, shortDescription: product.shortDescription, longDescription: product.longDescription, price: product.price))
        buffer.append(0x0A)
        if buffer.count > 1 << 20 {
            try handle.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }
    try handle.write(contentsOf: buffer)
}

/// The keyset position `depth` rows into `query`'s order, found by walking pages of 200.
func position(_ store: CatalogStore, query: CatalogQuery, depth: Int) throws -> [SortValue]? {
    var query = query
    query.limit = 200
    var walked = 0
    var after: [SortValue]?
    while walked < depth {
        let page = try store.page(query)
        walked += page.items.count
        guard let next = page.nextAfter else { break }
        after = next
        query.after = next
    }
    return after
}

/// Runs `body` `count` times (after a warm-up), or fewer when it takes more than `budget`.
func timed(_ count: Int, budget: Duration = .seconds(3), _ body: () throws -> Void) throws -> [Duration] {
    for _ in 0..<min(count, 3) { try body() }
    var times: [Duration] = []
    times.reserveCapacity(count)
    let start = ContinuousClock.now
    for _ in 0..<count {
        let before = ContinuousClock.now
        try body()
        times.append(ContinuousClock.now - before)
        if times.count >= 5 && ContinuousClock.now - start > budget { break }
    }
    return times
}

func percentile(_ times: [Duration], _ fraction: Double) -> Duration {
    let sorted = times.sorted()
    guard !sorted.isEmpty else { return .zero }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func microseconds(_ duration: Duration) -> String {
    let value = duration.seconds * 1e6
    return value >= 10_000 ? String(format: "%.1f ms", value / 1_000) : String(format: "%.0f µs", value)
}

func report(_ label: String, _ value: String) {
    say("\(label.padding(toLength: 48, withPad: " ", startingAt: 0)) \(value)")
}

func fileSize(_ path: String) -> String {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return String(format: "%.0f MiB", Double(size) / 1_048_576)
}

func procStatus(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// CPU time of this thread: on a machine others load, closer to the unloaded latency than wall time.
func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

func residentMiB() -> Int { procStatus("VmRSS") / 1_024 }
func peakMiB() -> Int { procStatus("VmHWM") / 1_024 }

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
