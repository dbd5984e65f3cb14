import PurchaseSLICore

/// A setting of ``ServerConfiguration`` outside the values that make sense, named as in the config file.
public struct InvalidSetting: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting's config-file key, e.g. `requestsPerSecondPerKey`.
    public let key: String
    /// What the setting accepts.
    public let expected: String
    /// The value given.
    public let got: String

    public var description: String { "\(key): expected \(expected), got \(got)" }
}

extension ServerConfiguration {
    /// Refuses settings that would stop or stall the service later (a rate of 0 refuses every request, a
    /// timeout of 10¹² seconds overflows), so that `serve` fails at start naming the key instead.
    public func validate() throws(InvalidSetting) {
        try Self.check("port", port, 0...65_535)
        try Self.check("maximumBodyBytes", maximumBodyBytes, 1...(1 << 30))
        try Self.check("maximumDecompressedBytes", maximumDecompressedBytes, 1...(1 << 30))
        try Self.check("maximumCompressionRatio", maximumCompressionRatio, 1...100_000)
        try Self.check("maximumEventsPerRequest", maximumEventsPerRequest, 1...1_000_000)
        try Self.check("maximumLineBytes", maximumLineBytes, 1...(1 << 30))
        try Self.check("maximumEventsPerCommit", maximumEventsPerCommit, 1...10_000_000)
        try Self.check("idleTimeoutSeconds", Int(idleTimeoutSeconds), 1...86_400)
        try Self.check("bodyTimeoutSeconds", Int(bodyTimeoutSeconds), 1...86_400)
        try Self.check("requestsPerSecondPerKey", requestsPerSecondPerKey, "a number from 0.001 to 1000000") { $0 >= 0.001 && $0 <= 1e6 }
        try Self.check("requestBurstPerKey", requestBurstPerKey, "a number from 1 to 1000000") { $0 >= 1 && $0 <= 1e6 }
        try Self.check("readRequestsPerSecond", readRequestsPerSecond, "a number from 0.001 to 1000000") { $0 >= 0.001 && $0 <= 1e6 }
        try Self.check("readBurst", readBurst, "a number from 1 to 1000000") { $0 >= 1 && $0 <= 1e6 }
        try Self.check("maximumQueryRows", maximumQueryRows, 1...10_000_000)
        try Self.checkDuration("latenessLimit", latenessLimitMillis / 1000, "a duration from 1m to 366d", 60...366 * 86_400)
        try Self.checkDuration("pruneEvery", pruneEverySeconds, "a whole number of minutes from 1m to 1d", 60...86_400)
        try Self.checkDuration("alertsEvery", alertsEverySeconds, "a whole number of minutes from 1m to 1d", 60...86_400)
        if let renderEverySeconds {
            try Self.checkDuration("renderEvery", renderEverySeconds, "a whole number of minutes from 1m to 1d", 60...86_400)
        }
        try Self.checkDuration("renderRange", renderRangeSeconds, "a whole number of minutes from 1h to 35d", 3600...35 * 86_400)
        if let rolloutEverySeconds {
            try Self.checkDuration("rolloutEvery", rolloutEverySeconds, "a whole number of minutes from 1m to 1d", 60...86_400)
        }
        if notifyHeartbeat, notifyFormat != .alertmanager {
            throw InvalidSetting(
                key: "notifyHeartbeat", expected: "false unless notifyFormat is alertmanager (a chat would get a message every minute)",
                got: "true")
        }
    }

    private static func check(_ key: String, _ value: Int, _ range: ClosedRange<Int>) throws(InvalidSetting) {
        guard range.contains(value) else {
            throw InvalidSetting(key: key, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)", got: "\(value)")
        }
    }

    private static func check(_ key: String, _ value: Double, _ expected: String, _ isValid: (Double) -> Bool) throws(InvalidSetting) {
        guard value.isFinite, isValid(value) else { throw InvalidSetting(key: key, expected: expected, got: "\(value)") }
    }

    private static func checkDuration(_ key: String, _ seconds: Int64, _ expected: String, _ range: ClosedRange<Int64>) throws(InvalidSetting) {
        guard range.contains(seconds) else {
            throw InvalidSetting(key: key, expected: expected, got: seconds > 0 ? "\(TimeStep(seconds: seconds))" : "\(seconds)s")
        }
    }
}
