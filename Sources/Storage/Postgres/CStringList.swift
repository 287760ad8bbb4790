/// Values laid out as C strings in one buffer, for libpq's arrays of `const char *`: a statement's
/// parameters (nil is a NULL pointer: SQL NULL) and the keywords and values of a connection.
///
/// One allocation for all of them, instead of one per value, on the path of every statement.
struct CStringList {
    private var bytes: [UInt8] = []
    /// Where each string starts in `bytes`; nil for a NULL pointer.
    private var starts: [Int?] = []

    init(_ values: [PostgresValue?]) throws(StoreError) {
        starts.reserveCapacity(values.count)
        for value in values {
            guard let value else {
                starts.append(nil)
                continue
            }
            starts.append(bytes.count)
            try value.render(into: &bytes)
            bytes.append(0)
        }
    }

    /// How many pointers `withPointers` passes, NULL ones included.
    var count: Int32 { Int32(clamping: starts.count) }

    /// Calls `body` with a pointer to each string (nil where the value was nil), valid in `body` only.
    func withPointers<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        bytes.withUnsafeBytes { buffer in
            // UInt8 and CChar may alias: reading the bytes as C characters is allowed.
            let pointers = starts.map { start in start.flatMap { buffer.baseAddress?.advanced(by: $0).assumingMemoryBound(to: CChar.self) } }
            return body(pointers)
        }
    }
}
