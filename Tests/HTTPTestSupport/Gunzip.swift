import CZlib

/// gzip's inverse, for tests that check what the server compressed.
public enum Gunzip {
    /// The bytes of a gzip member; nil when `input` is not one or inflates past `limit` bytes.
    public static func decompress(_ input: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard CZlib_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                guard output.count <= limit else { return nil }
                if status == Z_STREAM_END { return stream.avail_in == 0 ? output : nil }
                guard status == Z_OK else { return nil }
                if produced == 0 && stream.avail_in == 0 { return nil }
            }
        }
    }
}
