import PurchaseSLICore

extension TimeStep {
    /// The seconds of `text` (`1m`, `5m`, `1h`) when it is a whole number of minutes, else nil.
    static func minutes(parsing text: String) -> Int64? {
        TimeStep(parsing: text).flatMap { $0.seconds % .secondsPerMinute == 0 ? $0.seconds : nil }
    }
}
