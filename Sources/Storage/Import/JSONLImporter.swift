import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Imports a JSON Lines file into one collection: all of it, or nothing.
///
/// Every line is decoded, validated and inserted inside one bulk-load transaction. A bad line
/// does not stop the run: the rest are still checked (references and duplicate ids included)
/// so the report names every bad line, then the transaction rolls back. Blank lines are skipped.
public struct JSONLImporter {
    public let collection: StoredCollection
    /// Bad lines described in a failure at most; the failure still counts all of them.
    public var reportLimit: Int

    public init(collection: StoredCollection, reportLimit: Int = 20) {
        self.collection = collection
        self.reportLimit = max(1, reportLimit)
    }

    /// A line that could not be imported, and why.
    public struct BadLine: Sendable, Hashable, CustomStringConvertible {
        /// 1-based.
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// How far an import got; lines are counted as read, whether good or bad.
    public struct Progress: Sendable {
        public var lines: Int
        public var bytesRead: Int64
        public var totalBytes: Int64
        /// 0...1 of the file read, nil when the size is unknown.
        public var fraction: Double? { totalBytes > 0 ? min(1, Double(bytesRead) / Double(totalBytes)) : nil }
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The first `reportLimit` bad lines, and how many there were in all; nothing was imported.
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

    /// Imports `path` into `store`; returns the number of items imported.
    public func run(path: String, into store: SQLiteStore, progress: (Progress) -> Void = { _ in }) throws(Failure) -> Int {
        guard let file = fopen(path, "r") else {
            throw .unreadable("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var status = stat()
        let totalBytes = fstat(fileno(file), &status) == 0 ? Int64(status.st_size) : 0
        do {
            return try store.bulkLoad { loader in
                try readLines(file, totalBytes: totalBytes, loader: loader, progress: progress)
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .store(StoreError.from(error))
        }
    }

    private func readLines(_ file: UnsafeMutablePointer<FILE>, totalBytes: Int64, loader: BulkLoader, progress: (Progress) -> Void) throws
        -> Int
    {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let decoder = JSONDecoder()
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
                    let item = try parse(Data(bytes), decoder: decoder, allocator: &allocator)
                    do {
                        try loader.insert(item)
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

    private func parse(_ data: Data, decoder: JSONDecoder, allocator: inout IDAllocator) throws(ImportLineError) -> StoredItem {
        let line: any ImportLine
        do {
            switch collection {
            case .products: line = try decoder.decode(ProductLine.self, from: data)
            case .departments: line = try decoder.decode(DepartmentLine.self, from: data)
            case .people: line = try decoder.decode(PersonLine.self, from: data)
            case .articles: line = try decoder.decode(ArticleLine.self, from: data)
            case .documents: line = try decoder.decode(DocumentLine.self, from: data)
            case .tracks: line = try decoder.decode(TrackLine.self, from: data)
            case .samples: line = try decoder.decode(SampleLine.self, from: data)
            }
        } catch let error as DecodingError {
            throw ImportLineError(Self.reason(for: error))
        } catch {
            throw ImportLineError("not valid JSON")
        }
        if let id = line.id, id.kind != collection.kind {
            throw ImportLineError("id \"\(id)\" is not a \(collection.kind.rawValue)_ id")
        }
        return try line.item(id: line.id ?? allocator.next(collection.kind), allocator: &allocator)
    }

    static func reason(for error: StoreError) -> String {
        switch error {
        case .versionMismatch: "an item with this id already exists"
        case .invalidReference(let field, let id): "\(field.dropFirst("/".count)) \"\(id)\" does not exist"
        case .notFound(_, let id), .missing(_, let id): "\(id) does not exist"
        case .stillReferenced(let reason), .unavailable(let reason), .incompatibleDefinition(let reason): reason
        case .changesExpired: "the change log expired"
        }
    }

    static func reason(for error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce(into: "") { path, key in
                if let index = key.intValue {
                    path += "[\(index)]"
                } else {
                    path += (path.isEmpty ? "" : ".") + key.stringValue
                }
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"\(path(context.codingPath + [key]))\""
        case .typeMismatch(let type, let context):
            let expected = type == String.self ? "a string" : (type is any BinaryInteger.Type ? "an integer" : "\(type)")
            return context.codingPath.isEmpty ? "expected a JSON object" : "field \"\(path(context.codingPath))\": expected \(expected)"
        case .valueNotFound(_, let context):
            return "field \"\(path(context.codingPath))\" must not be null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "field \"\(path(context.codingPath))\": \(context.debugDescription)"
        @unknown default:
            return "cannot be decoded"
        }
    }
}
