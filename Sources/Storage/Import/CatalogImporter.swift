import Domain
import Foundation

/// Why one line of an import was refused.
struct ImportLineError: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Imports a JSON Lines file into one collection of a catalog store: every line is one item's
/// fields as the API writes them (an `id` of the collection's kind is optional), validated by
/// the collection's definition. All lines or none: when any line is bad, each bad line is
/// reported with its number (up to `reportLimit`) and nothing is written.
public struct CatalogImporter {
    public let collection: CollectionDefinition
    public let catalog: Catalog
    public var reportLimit: Int

    public init(collection: CollectionDefinition, catalog: Catalog, reportLimit: Int = 20) {
        self.collection = collection
        self.catalog = catalog
        self.reportLimit = max(1, reportLimit)
    }

    /// A line that cannot be imported, and why.
    public struct BadLine: Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// How far the reading is: lines and bytes read of the file's size.
    public struct Progress: Sendable {
        public var lines: Int
        public var bytesRead: Int64
        public var totalBytes: Int64
        public var fraction: Double? { totalBytes > 0 ? min(1, Double(bytesRead) / Double(totalBytes)) : nil }
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// Bad lines (the first `reportLimit`) and how many there were; nothing was imported.
        case badLines([BadLine], total: Int)
        case unreadable(String)
        case store(StoreError)

        public var description: String {
            switch self {
            case .badLines(let lines, let total):
                let more = total > lines.count ? "\n… and \(total - lines.count) more bad lines" : ""
                return lines.map(\.description).joined(separator: "\n") + more
            case .unreadable(let reason): return reason
            case .store(let error): return "the database failed: \(error)"
            }
        }
    }

    static func reason(for error: StoreError) -> String {
        switch error {
        case .versionMismatch: "an item with this id already exists"
        case .invalidReference(let field, let id): "\(field.dropFirst("/".count)) \"\(id)\" does not exist"
        case .missing(_, let id): "\(id) does not exist"
        case .stillReferenced(let reason), .unavailable(let reason), .incompatibleDefinition(let reason), .invariant(let reason): reason
        case .sqlite(let failure): failure.description
        case .postgres(let failure): failure.description
        case .changesExpired: "the change log expired"
        case .inGroup(let operation, let failure): "operation \(operation): \(reason(for: failure))"
        case .treeCycle(let field): "\(field.dropFirst("/".count)) would make the item its own ancestor"
        case .treeTooDeep(let field, let depth): "\(field.dropFirst("/".count)) names a parent more than \(depth) levels deep"
        }
    }

    public func run(path: String, into store: any BulkLoadingStore, progress: (Progress) -> Void = { _ in }) throws(Failure) -> Int {
        guard let file = fopen(path, "r") else {
            throw .unreadable("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var status = stat()
        let totalBytes = fstat(fileno(file), &status) == 0 ? Int64(status.st_size) : 0
        do {
            return try store.bulkLoad { loader in try readLines(file, totalBytes: totalBytes, loader: loader, progress: progress) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .store(StoreError.from(error))
        }
    }

    private func readLines(_ file: UnsafeMutablePointer<FILE>, totalBytes: Int64, loader: CatalogBulkLoader, progress: (Progress) -> Void) throws
        -> Int
    {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        var allocator = IDAllocator()
        var badLines: [BadLine] = []
        var badCount = 0
        var lineNumber = 0
        var bytesRead: Int64 = 0
        while true {
            let length = getline(&buffer, &capacity, file)
            guard length >= 0, let buffer else { break }
            lineNumber += 1
            bytesRead += Int64(length)
            let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
            if !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                do throws(ImportLineError) {
                    let item = try parse(Array(bytes), allocator: &allocator)
                    do {
                        try loader.insert(item, into: collection.name)
                    } catch {
                        throw ImportLineError(Self.reason(for: error))
                    }
                } catch {
                    badCount += 1
                    if badLines.count < reportLimit { badLines.append(BadLine(line: lineNumber, reason: error.reason)) }
                }
            }
            if lineNumber % 4_096 == 0 { progress(Progress(lines: lineNumber, bytesRead: bytesRead, totalBytes: totalBytes)) }
        }
        if ferror(file) != 0 { throw Failure.unreadable("reading failed after line \(lineNumber)") }
        progress(Progress(lines: lineNumber, bytesRead: bytesRead, totalBytes: totalBytes))
        if badCount > 0 { throw Failure.badLines(badLines, total: badCount) }
        return loader.insertedCount
    }

    /// One line as an item: its own id when it gives one, else a new one.
    private func parse(_ bytes: [UInt8], allocator: inout IDAllocator) throws(ImportLineError) -> Item {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ImportLineError("not valid JSON: \(error)")
        }
        return try item(document, allocator: &allocator)
    }

    /// A document as an item: its own id when it gives one, else a new one; every rule checked.
    func item(_ document: JSONValue, allocator: inout IDAllocator) throws(ImportLineError) -> Item {
        guard case .object(var members) = document else { throw ImportLineError("not a JSON object") }
        var id: EntityID?
        if let index = members.firstIndex(where: { $0.key == "id" }) {
            guard case .string(let text) = members[index].value, let given = EntityID(parsing: text, kind: collection.kind) else {
                throw ImportLineError("id is not a \(collection.kind.rawValue)_ id")
            }
            id = given
            members.remove(at: index)
        }
        let outcome = ItemDocument.decode(
            .object(members), in: collection, catalog: catalog, mode: .create(id ?? allocator.next(collection.kind)), server: true)
        guard outcome.problems.isEmpty, let item = outcome.item else {
            throw ImportLineError(outcome.problems.map { "\($0.pointer.isEmpty ? "the item" : $0.pointer): \($0.detail)" }.joined(separator: "; "))
        }
        return item
    }
}
