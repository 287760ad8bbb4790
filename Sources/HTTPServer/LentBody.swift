import CMicroHTTPD

/// A response body lent to libmicrohttpd instead of copied into it.
///
/// Given `MHD_RESPMEM_MUST_COPY`, libmicrohttpd mallocs and copies every body, per response, a
/// kept page on every hit. Here the body's array is held by a box that libmicrohttpd releases
/// (through its free callback) once it has sent and destroyed the response, and libmicrohttpd
/// reads the array's own storage meanwhile. The storage neither moves nor changes while the box
/// lives: the box's `let` is a reference to it that no one mutates.
final class LentBody: Sendable {
    let bytes: [UInt8]

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A libmicrohttpd response carrying `body`; nil when libmicrohttpd cannot make one (memory).
    static func response(_ body: [UInt8]) -> OpaquePointer? {
        guard !body.isEmpty else { return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) }
        let box = Unmanaged.passRetained(LentBody(body))
        let made = box.takeUnretainedValue().bytes.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer_with_free_callback_cls(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), releaseLentBody, box.toOpaque())
        }
        // On failure libmicrohttpd never calls the free callback: the box is still ours.
        if made == nil { box.release() }
        return made
    }
}

/// libmicrohttpd's free callback for a `LentBody`: called once, when the response is destroyed.
private func releaseLentBody(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<LentBody>.fromOpaque(cls).release()
}
