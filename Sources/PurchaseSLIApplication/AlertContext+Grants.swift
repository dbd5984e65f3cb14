public import PurchaseSLIAnalysis
public import PurchaseSLICore

extension AlertContext {
    /// The grants made in `[from, to)`, judged as of `time` the way the DoubleGrant and GrantedWithoutCharge
    /// alerts judge them: what `purchase-sli grants` lists.
    public func grantList(from: Int64, to: Int64, at time: Int64) throws -> [GrantListRow] {
        let end = max(to, time)
        let audit = try grantAudit(
            from: from, to: end, ledger: try chargeLedger(from: from, to: end), activity: try storeActivity(from: from, to: end))
        let repeated = Dictionary(
            audit.repeats(from: from * 1000, through: to * 1000 - 1).map { ($0.grant.record.eventID, $0.first) },
            uniquingKeysWith: { first, _ in first })
        let uncharged = Set(audit.withoutCharge(from: from * 1000, through: to * 1000 - 1, at: time * 1000).map(\.record.eventID))
        return audit.grants(from: from * 1000, through: to * 1000 - 1).map { grant in
            GrantListRow(grant: grant, repeatOf: repeated[grant.record.eventID], isWithoutCharge: uncharged.contains(grant.record.eventID))
        }
    }
}
