import CSV
import Domain
import Foundation

/// CSV files: a header row of field names (and optionally `id`), then one item per record.
///
/// Cells are text and become the document a JSON line would be, by the field's type: numbers,
/// `true`/`false`, money as `USD:120.00` (major units), lists (numbers, names) separated by `|`;
/// an empty cell is no value. A cell that does not read as its type is passed on as text, so the
/// item's validation names the field and why. Quoted cells may span lines; records are numbered
/// from 2 (the header is 1).
extension CatalogImporter {
    public func runCSV(path: String, into store: any BulkLoadingStore) throws(Failure) -> Int {
        // Read whole: on Linux, Foundation's InputStream reports bytes available at the end of a
        // file, and CSV.swift's stream reader then ends every file with `cannotReadFile`.
        // (JSON Lines stream line by line and suit files of any size.)
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable("cannot read \(path) as UTF-8 text: \(error.localizedDescription)")
        }
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true, trimFields: false)
        } catch {
            throw .unreadable("\(path) is not CSV: \(error)")
        }
        guard let header = reader.headerRow, !header.isEmpty else { throw .unreadable("\(path) has no header row") }
        let writable = Set(collection.fields.filter { $0.isStored && !$0.readOnly }.map(\.name) + ["id"])
        let unknown = header.filter { !writable.contains($0) }
        if !unknown.isEmpty {
            throw .badLines(
                [
                    BadLine(
                        line: 1,
                        reason: "unknown columns \(unknown.joined(separator: ", ")); the fields are \(writable.sorted().joined(separator: ", "))")
                ],
                total: 1)
        }
        do {
            return try store.bulkLoad { loader in
                var allocator = IDAllocator()
                var badLines: [BadLine] = []
                var badCount = 0
                var record = 1
                while let cells = reader.next() {
                    record += 1
                    if cells.allSatisfy({ $0.isEmpty }) { continue }
                    do throws(ImportLineError) {
                        let item = try item(document(header: header, cells: cells), allocator: &allocator)
                        do {
                            try loader.insert(item, into: collection.name)
                        } catch {
                            throw ImportLineError(Self.reason(for: StoreError.from(error)))
                        }
                    } catch {
                        badCount += 1
                        if badLines.count < reportLimit { badLines.append(BadLine(line: record, reason: error.reason)) }
                    }
                }
                if let error = reader.error { throw Failure.unreadable("reading failed after record \(record): \(error)") }
                if badCount > 0 { throw Failure.badLines(badLines, total: badCount) }
                return loader.insertedCount
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .store(StoreError.from(error))
        }
    }

    /// A record as the JSON document of its item.
    func document(header: [String], cells: [String]) -> JSONValue {
        var members: [JSONMember] = []
        for (name, cell) in zip(header, cells) where !cell.isEmpty {
            let type = collection.field(named: name)?.type
            members.append(JSONMember(name, Self.value(cell, type: type)))
        }
        return .object(members)
    }

    static func value(_ cell: String, type: FieldType?) -> JSONValue {
        switch type {
        case .integer?, .decimal?:
            return number(cell) ?? .string(cell)
        case .boolean?:
            switch cell {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return .string(cell)
            }
        case .money?:
            let parts = cell.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let currency = Currency(code: parts[0]),
                let minor = DecimalText.scaled(parts[1], digits: currency.minorUnitDigits)
            else { return .string(cell) }
            return .object([JSONMember("minorUnits", .integer(minor)), JSONMember("currency", .string(currency.code))])
        case .numbers?:
            let elements = cell.split(separator: "|", omittingEmptySubsequences: false).map { number(String($0)) ?? .string(String($0)) }
            return .array(elements)
        case .names?:
            return .array(cell.split(separator: "|", omittingEmptySubsequences: false).map { .object([JSONMember("name", .string(String($0)))]) })
        default:
            return .string(cell)
        }
    }

    private static func number(_ text: String) -> JSONValue? {
        guard let parsed = try? JSONParser.parse(Array(text.utf8)), case .number = parsed else { return nil }
        return parsed
    }
}
