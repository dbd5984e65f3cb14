public import PurchaseSLIAnalysis
import PurchaseSLICore

extension AlertContext {
    /// The grants made in `[from, to)`, judged as of `time` the way the DoubleGrant and GrantedWithoutCharge
    /// alerts judge them: what `purchase-sli grants` lists.
    public func grantList(from: Int64, to: Int64, at time: Int64) async throws -> [GrantListRow] {
        try await grantList(from: from, to: to, at: time, unpaidOnly: false)
    }

    /// The grants of ``grantList(from:to:at:)`` granted again or without a charge: what the weekly review
    /// counts. O(grants read + such grants log them).
    public func unpaidGrantList(from: Int64, to: Int64, at time: Int64) async throws -> [GrantListRow] {
        try await grantList(from: from, to: to, at: time, unpaidOnly: true)
    }

    /// The ``unpaidGrantList(from:to:at:)`` of each of `periods` (seconds), each judged as of its end, from
    /// one read of the store over them all: the weekly review's two weeks read once. A period's list is
    /// the one it would have alone: its repeats look back the same span, and a charge that arrived after
    /// its end does not pay for its grants.
    public func unpaidGrantLists(of periods: [Range<Int64>]) async throws -> [[GrantListRow]] {
        guard let from = periods.map(\.lowerBound).min(), let to = periods.map(\.upperBound).max() else { return [] }
        let read = try await storeRecord(from: from, to: to)
        let audit = try await grantAudit(from: from, to: to, ledger: read.charges, activity: read.activity)
        return periods.map { Self.grantList(of: audit, from: $0.lowerBound, to: $0.upperBound, at: $0.upperBound, unpaidOnly: true) }
    }

    private func grantList(from: Int64, to: Int64, at time: Int64, unpaidOnly: Bool) async throws -> [GrantListRow] {
        let end = max(to, time)
        let read = try await storeRecord(from: from, to: end)
        // An unpaid list reads repeats and grants without a charge alone.
        let audit = try await grantAudit(from: from, to: end, ledger: read.charges, activity: read.activity, complete: !unpaidOnly)
        return Self.grantList(of: audit, from: from, to: to, at: time, unpaidOnly: unpaidOnly)
    }

    /// The grants of `audit` made in `[from, to)` as of `time`: all, or only those granted again or
    /// without a charge.
    private static func grantList(of audit: GrantAudit, from: Int64, to: Int64, at time: Int64, unpaidOnly: Bool) -> [GrantListRow] {
        let repeats = audit.repeats(from: from * .millisPerSecond, through: to * .millisPerSecond - 1)
        let repeated = Dictionary(repeats.map { ($0.grant.record.eventID, $0.first) }, uniquingKeysWith: { first, _ in first })
        let withoutCharge = audit.withoutCharge(from: from * .millisPerSecond, through: to * .millisPerSecond - 1, at: time * .millisPerSecond)
        let uncharged = Set(withoutCharge.map(\.record.eventID))
        let listed: [GrantAudit.Grant]
        if unpaidOnly {
            // Each once, by time as the audit orders them.
            let unpaid = Dictionary((repeats.map(\.grant) + withoutCharge).map { ($0.record.eventID, $0) }, uniquingKeysWith: { first, _ in first })
            listed = GrantRecord.byTime(unpaid.values.map(\.record)).compactMap { unpaid[$0.eventID] }
        } else {
            listed = Array(audit.grants(from: from * .millisPerSecond, through: to * .millisPerSecond - 1))
        }
        return listed.map { grant in
            GrantListRow(grant: grant, repeatOf: repeated[grant.record.eventID], isWithoutCharge: uncharged.contains(grant.record.eventID))
        }
    }
}
