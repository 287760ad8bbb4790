import Foundation

private let launchLock = NSLock()

extension Process {
    /// `run()`, one launch at a time in this test process. Seen once in the full suite on Linux:
    /// two launches at the same moment, from different threads, crashed inside Foundation's
    /// `Process.run()` (a bad read in memmove, while another launch listed /proc/self/fd).
    /// A launch takes milliseconds; the children still run side by side.
    public func runSerially() throws {
        launchLock.lock()
        defer { launchLock.unlock() }
        try run()
    }
}
