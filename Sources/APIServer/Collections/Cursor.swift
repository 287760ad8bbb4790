import Crypto
import Domain
import Foundation
import HTTPServer
import Storage

/// A keyset position, sealed into an opaque token bound to the query it came from.
///
/// The payload is a format byte (which also says the direction: the page after the position,
/// or the page before it), an 8-byte fingerprint of the query's shape (collection, parent, sort,
/// filters, search, grouping, view — everything but the limit), then the sort values of the row
/// at the position. A cursor used with any other shape, edited, truncated or made up fails to
/// open: 400 `INVALID_CURSOR`.
enum Cursor {
    /// Where a cursor opens a page: after a row's position (`links.next`), or before it (`links.prev`).
    enum Position: Equatable {
        case after([SortValue])
        case before([SortValue])
    }

    static let afterFormat: UInt8 = 1
    static let beforeFormat: UInt8 = 2

    static func seal(after values: [SortValue], shape: some CursorShape, signer: TokenSigner) -> String {
        seal(format: afterFormat, values, shape: shape, signer: signer)
    }

    static func seal(before values: [SortValue], shape: some CursorShape, signer: TokenSigner) -> String {
        seal(format: beforeFormat, values, shape: shape, signer: signer)
    }

    private static func seal(format: UInt8, _ values: [SortValue], shape: some CursorShape, signer: TokenSigner) -> String {
        var payload: [UInt8] = [format]
        payload += shape.fingerprint
        payload.append(UInt8(clamping: values.count))
        for value in values {
            switch value {
            case .integer(let number):
                payload.append(1)
                withUnsafeBytes(of: number.bigEndian) { payload += $0 }
            case .text(let text):
                payload.append(0)
                let bytes = Array(text.utf8)
                withUnsafeBytes(of: UInt32(clamping: bytes.count).bigEndian) { payload += $0 }
                payload += bytes
            }
        }
        return signer.seal(payload)
    }

    static func open(_ token: String, shape: some CursorShape, signer: TokenSigner) throws(HTTPError) -> Position {
        guard let payload = signer.open(token) else {
            throw .badRequest("INVALID_CURSOR", "The cursor is not one this server issued, or it was altered.", parameter: "cursor")
        }
        var reader = ByteReader(payload)
        let format = reader.byte()
        guard format == afterFormat || format == beforeFormat, reader.bytes(8) == shape.fingerprint, let count = reader.byte() else {
            throw .badRequest(
                "INVALID_CURSOR", "The cursor belongs to another query (collection, sort, filters, search or view).", parameter: "cursor")
        }
        var values: [SortValue] = []
        for _ in 0..<count {
            switch reader.byte() {
            case 1:
                guard let raw = reader.bytes(8) else { break }
                values.append(.integer(Int64(bigEndian: raw.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })))
            case 0:
                guard let lengthBytes = reader.bytes(4) else { break }
                let length = Int(UInt32(bigEndian: lengthBytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
                guard let text = reader.bytes(length), let string = String(validating: text, as: UTF8.self) else { break }
                values.append(.text(string))
            default: break
            }
        }
        guard values.count == Int(count), reader.isAtEnd else {
            throw .badRequest("INVALID_CURSOR", "The cursor is malformed.", parameter: "cursor")
        }
        return format == beforeFormat ? .before(values) : .after(values)
    }
}

/// The parts of a list query that a cursor is bound to.
/// What a cursor is bound to: the query it continues, as a short fingerprint.
protocol CursorShape {
    var fingerprint: [UInt8] { get }
}

/// Reads a byte buffer front to back; every read is bounds-checked.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}
