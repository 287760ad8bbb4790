import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Progress of a long command on standard error: a redrawn bar on a terminal, plain lines otherwise.
///
/// On a terminal (`isatty`) one line is redrawn at most ten times a second with the count, the
/// rate and the time left. When the output goes to a file or a CI log, redrawing would leave
/// hundreds of lines, so a plain line is written every 10 % (or every 5 seconds when the total is
/// unknown) instead.
final class ProgressReporter {
    private let label: String
    private let unit: String
    private let isTerminal: Bool
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var lastPlainStep = -1
    private var lastPlainTime = Date()
    private var drewBar = false

    init(label: String, unit: String, isTerminal: Bool = isatty(STDERR_FILENO) != 0) {
        self.label = label
        self.unit = unit
        self.isTerminal = isTerminal
    }

    /// Reports `count` done; `fraction` (0...1) of the whole, when it is known, gives the bar and ETA.
    func update(count: Int, fraction: Double?) {
        let now = Date()
        if isTerminal {
            guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            write("\r\u{1B}[2K" + bar(count: count, fraction: fraction, now: now))
            drewBar = true
        } else if let fraction {
            let step = Int(fraction * 10)
            guard step > lastPlainStep else { return }
            lastPlainStep = step
            write(line(count: count, fraction: fraction, now: now) + "\n")
        } else if now.timeIntervalSince(lastPlainTime) >= 5 {
            lastPlainTime = now
            write(line(count: count, fraction: nil, now: now) + "\n")
        }
    }

    /// Shows what happens after the counted work (e.g. committing), which has no count of its own.
    func note(_ text: String) {
        if isTerminal {
            write("\r\u{1B}[2K\(label): \(text)")
            drewBar = true
        } else {
            write("\(label): \(text)\n")
        }
    }

    /// Ends the progress display with a summary line.
    func finish(count: Int, message: String) {
        if isTerminal && drewBar { write("\r\u{1B}[2K") }
        let seconds = Date().timeIntervalSince(started)
        write("\(message) (\(Self.grouped(count)) \(unit) in \(Self.duration(seconds)), \(Self.grouped(rate(count, seconds)))/s)\n")
    }

    /// Clears a bar so that an error message starts on a clean line.
    func abandon() {
        if isTerminal && drewBar { write("\r\u{1B}[2K") }
    }

    private func bar(count: Int, fraction: Double?, now: Date) -> String {
        let seconds = now.timeIntervalSince(started)
        var text = "\(label) "
        if let fraction {
            let width = 30
            let filled = Int((fraction * Double(width)).rounded(.down))
            text += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            text += String(format: "%3.0f%% ", fraction * 100)
        }
        text += "\(Self.grouped(count)) \(unit)  \(Self.grouped(rate(count, seconds)))/s"
        if let eta = eta(fraction: fraction, seconds: seconds) { text += "  ETA \(Self.duration(eta))" }
        return text
    }

    private func line(count: Int, fraction: Double?, now: Date) -> String {
        let seconds = now.timeIntervalSince(started)
        var text = "\(label): \(Self.grouped(count)) \(unit)"
        if let fraction { text += String(format: " (%.0f%%)", fraction * 100) }
        text += ", \(Self.grouped(rate(count, seconds)))/s"
        if let eta = eta(fraction: fraction, seconds: seconds) { text += ", ETA \(Self.duration(eta))" }
        return text
    }

    private func rate(_ count: Int, _ seconds: Double) -> Int {
        seconds > 0 ? Int(Double(count) / seconds) : 0
    }

    private func eta(fraction: Double?, seconds: Double) -> Double? {
        guard let fraction, fraction > 0.001, fraction < 1 else { return nil }
        return seconds * (1 - fraction) / fraction
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `1234567` → `1,234,567`, independent of the locale.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if seconds < 10 { return String(format: "%.1f s", seconds) }
        if whole < 60 { return "\(whole) s" }
        return "\(whole / 60) min \(whole % 60) s"
    }
}
