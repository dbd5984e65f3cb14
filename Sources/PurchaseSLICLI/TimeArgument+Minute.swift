import ArgumentParser
import PurchaseSLICore

extension TimeArgument {
    /// The time `text` gives, rounded down to its minute; a `ValidationError` naming `--option` otherwise.
    static func minute(_ text: String, option: String, nowSeconds: Int64) throws -> Int64 {
        guard let time = TimeArgument(text, nowSeconds: nowSeconds) else {
            throw ValidationError("--\(option): expected \(TimeArgument.forms), got \"\(text)\".")
        }
        return time.seconds - time.seconds.floorDividedBy(.secondsPerMinute).remainder
    }
}
