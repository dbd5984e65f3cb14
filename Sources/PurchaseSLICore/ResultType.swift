/// The outcome an SLI event reports for one step of a purchase attempt.
public enum ResultType: String, Sendable, Hashable, CaseIterable, Codable {
    /// An attempt began; `attempts` counts these.
    case start
    /// The server verified the receipt and granted the reward.
    case success
    /// The server answered 409 "already granted": the grant happened earlier.
    case alreadyGranted
    /// The attempt failed (store error, verification error, server error).
    case failure
    /// The user cancelled, or the store reported a cancel (payment-info detour).
    case cancel
    /// The purchase waits for approval (Ask to Buy); neither success nor failure.
    case pending

    /// Whether the result ends an attempt (everything but `start`).
    public var isTerminal: Bool { self != .start }

    /// Whether the result counts in the success-rate denominator (`valid`).
    public var isValid: Bool { self == .success || self == .alreadyGranted || self == .failure }

    /// Whether the outcome means the server granted the purchase (`success` or `alreadyGranted`): what
    /// reconciles a store's charge.
    public var isGrant: Bool { self == .success || self == .alreadyGranted }

    /// The accepted spellings, for error messages and help text.
    public static let spellings = allCases.map(\.rawValue).joined(separator: ", ")
}
