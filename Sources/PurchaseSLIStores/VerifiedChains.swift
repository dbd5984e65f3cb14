import JWTKit
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `x5c` chains verified so far, with the span over which they hold: whether a chain leads to a
/// trusted root with the App Store's markers does not depend on the time, only its certificates'
/// validity does, so a chain verified once needs only that span checked for a later signing date.
final class VerifiedChains: Sendable {
    /// A verified chain: its leaf's key and when all its certificates are valid.
    struct Entry: Sendable {
        let validity: ClosedRange<Date>
        let keys: JWTKeyCollection
    }

    /// Most chains kept; the App Store signs with a handful at a time.
    private static let capacity = 32
    private let entries = Mutex<[[String]: Entry]>([:])

    /// The keys of `chain`, verified by `verify` unless a verification of it holds at `time`.
    func keys(
        for chain: [String], at time: Date, verify: () async throws(StoreNotificationError) -> Entry
    ) async throws(StoreNotificationError) -> JWTKeyCollection {
        if let known = entries.withLock({ $0[chain] }), known.validity.contains(time) { return known.keys }
        let entry = try await verify()
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[chain] = entry
        }
        return entry.keys
    }
}
