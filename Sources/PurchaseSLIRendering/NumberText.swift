import Foundation

/// Numbers, shares and durations as people read them, the same in every output.
public enum NumberText {
    /// A share as a percentage: two decimals near 0 % and 100 %, else one; "n/a" for nil.
    public static func percent(_ value: Double?) -> String {
        guard let value else { return "n/a" }
        let scaled = value * 100
        return scaled >= 99.95 || scaled < 10 ? String(format: "%.2f %%", scaled) : String(format: "%.1f %%", scaled)
    }

    /// A difference of two shares in percentage points, with its sign: "−1.25 points".
    public static func points(_ value: Double) -> String {
        signed(value) + " points"
    }

    /// The size of a difference of two shares in percentage points: "0.95 points".
    public static func magnitude(_ value: Double) -> String {
        String(format: "%.2f points", abs(value) * 100)
    }

    /// A difference of two shares as signed percentage points without the unit: "−1.25".
    public static func signed(_ value: Double) -> String {
        String(format: "%+.2f", value * 100).replacingOccurrences(of: "-", with: "−")
    }

    /// A relative change as a signed whole percentage: "+80 %", "−62 %".
    public static func signedPercent(_ value: Double) -> String {
        String(format: "%+.0f %%", value * 100).replacingOccurrences(of: "-", with: "−")
    }

    /// A count with thousands separators: 12,345.
    public static func count(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (value < 0 ? "−" : "") + String(result.reversed())
    }

    /// An amount of money with two decimals and thousands separators, then its currency: "1,234.50 USD";
    /// past what whole cents can count (a store's price near Int64.max), in scientific notation.
    public static func money(_ amount: Double, currency: String) -> String {
        guard amount.isFinite, abs(amount) < 1e15 else { return String(format: "%.2e", amount) + " " + currency }
        let cents = Int64((amount * 100).rounded())
        return "\(count(cents / 100)).\(String(format: "%02d", abs(cents % 100))) \(currency)"
    }

    /// A short duration to the second under a minute: "43 s", else as ``duration(_:)``.
    public static func seconds(_ seconds: Int64) -> String {
        seconds < .secondsPerMinute ? "\(max(0, seconds)) s" : duration(seconds)
    }

    /// A time from milliseconds, as precise as a person reads it: "0.9 s" under 10 s, "43 s" under a minute,
    /// "4 min 12 s" under an hour, else as ``duration(_:)``.
    public static func elapsed(millis: Int64) -> String {
        let millis = max(0, millis)
        if millis < 10_000 { return String(format: "%.1f s", Double(millis) / .millisPerSecond) }
        let seconds = millis / .millisPerSecond
        if seconds < .secondsPerMinute { return "\(seconds) s" }
        if seconds < .secondsPerHour {
            return seconds % .secondsPerMinute == 0
                ? "\(seconds / .secondsPerMinute) min" : "\(seconds / .secondsPerMinute) min \(seconds % .secondsPerMinute) s"
        }
        return duration(seconds)
    }

    /// A duration in minutes, hours and days: "45 min", "2 h 5 min", "3 d 4 h".
    public static func duration(_ seconds: Int64) -> String {
        let minutes = max(0, seconds) / 60
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 1440 { return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min" }
        return minutes % 1440 / 60 == 0 ? "\(minutes / 1440) d" : "\(minutes / 1440) d \(minutes % 1440 / 60) h"
    }

    /// A p-value: "p = 3.1e-08", or "p < 1e-300" when it underflows.
    public static func pValue(_ value: Double) -> String {
        value < 1e-300 ? "p < 1e-300" : value >= 0.001 ? String(format: "p = %.3f", value) : String(format: "p = %.1e", value)
    }
}
