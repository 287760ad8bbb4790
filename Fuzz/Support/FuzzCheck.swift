import Foundation

/// An invariant of a fuzz target: when it does not hold, the input is reported as a crash.
///
/// libFuzzer saves the input of any run that dies; `abort()` after the message makes a broken
/// invariant a crash like any other, with the message in the fuzzer's log.
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if condition { return }
    FileHandle.standardError.write(Data("fuzz invariant failed at \(file):\(line): \(message())\n".utf8))
    abort()
}

/// The fuzzer's input as bytes, read front to back; reads past the end give zeros and nothing.
public struct FuzzInput {
    public private(set) var bytes: ArraySlice<UInt8>

    public init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        guard let data, count > 0 else {
            bytes = []
            return
        }
        bytes = Array(UnsafeBufferPointer(start: data, count: count))[...]
    }

    /// One byte used as a selector (0 when the input is exhausted).
    public mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }
}
