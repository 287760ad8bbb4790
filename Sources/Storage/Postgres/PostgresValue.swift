/// A parameter of a PostgreSQL statement (nil in a parameter list is SQL NULL).
///
/// Sent in libpq's text format, with no type: the server reads each `$n` as the type the statement
/// gives it (a column, an operator, a cast), so `.integer(42)` fills a `numeric` column and
/// `.text("2026-11-20")` a `date`. Where nothing in the statement names a type (`SELECT $1`), the
/// server takes text: cast in the SQL (`$1::int8`).
enum PostgresValue: Sendable, Equatable {
    /// UTF-8 text without NUL characters (PostgreSQL's text cannot hold them).
    case text(String)
    case integer(Int64)
    /// Sent with the shortest digits that read back as the same `Double`; infinities and NaN by name.
    case double(Double)
    /// Sent as bytea's hex form, `\x` and two lowercase digits a byte.
    case bytes([UInt8])
    case boolean(Bool)
}

extension PostgresValue {
    /// Appends the value's text form, without a terminating NUL.
    ///
    /// Throws 22021 (character not in repertoire, what the server says of a NUL in text) for a text
    /// with a NUL: libpq reads text parameters as C strings and would cut it there without a word.
    func render(into buffer: inout [UInt8]) throws(StoreError) {
        switch self {
        case .text(let text):
            guard !text.utf8.contains(0) else {
                throw PostgresFailure(sqlstate: "22021", message: "a text parameter holds a NUL character, which PostgreSQL text cannot").storeError
            }
            buffer.append(contentsOf: text.utf8)
        case .integer(let integer):
            Self.appendDecimal(integer, to: &buffer)
        case .double(let double):
            // Swift's description is the shortest text that reads back as the same double ("0.1",
            // "-0.0", "1e+300"): float8in reads it with strtod. Its "inf" and "nan" are spelt as
            // PostgreSQL spells them, which every version reads.
            let text =
                if double.isNaN { "NaN" } else if double.isInfinite { double < 0 ? "-Infinity" : "Infinity" } else { double.description }
            buffer.append(contentsOf: text.utf8)
        case .bytes(let bytes):
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(UInt8(ascii: "x"))
            for byte in bytes {
                buffer.append(Self.hexDigits[Int(byte >> 4)])
                buffer.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        case .boolean(let boolean):
            buffer.append(contentsOf: (boolean ? "true" : "false").utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Without a `String` on the way: ids and counts are most of a hot path's parameters.
    private static func appendDecimal(_ integer: Int64, to buffer: inout [UInt8]) {
        if integer < 0 { buffer.append(UInt8(ascii: "-")) }
        let start = buffer.count
        var magnitude = integer.magnitude
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        buffer[start...].reverse()
    }
}
