public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// Listing, declaring and removing maintenance windows, for `purchase-sli maintenance` and `/v1/maintenance`
/// alike: the declaration is checked field by field (``MaintenanceDeclaration``), then against the windows
/// in force, since each one silences burn-rate alerts: at most ``maximumStoredWindows`` are kept, and at
/// most ``maximumSharePercent`` % of any 28 days may be maintenance unless the declaration says `force`.
public struct MaintenanceScheduling: Sendable {
    /// The most windows the store keeps (the policy's not counted); a new one beyond is refused until one is removed.
    public static let maximumStoredWindows = 200
    /// The largest share of any 28 days that windows may cover together, in percent, without `force`.
    public static let maximumSharePercent: Int64 = 25

    let stored: MaintenanceWindowRepository
    let policyWindows: [MaintenanceWindow]

    /// Windows kept in `store`, next to the policy's `policyWindows` (listed with them, and counted for the share).
    public init(store: any SQLRecordStore, policyWindows: [MaintenanceWindow]) {
        self.stored = MaintenanceWindowRepository(store.sql)
        self.policyWindows = policyWindows
    }

    /// The policy's windows and the stored ones, in the calendar's order.
    public func windows() async throws -> [MaintenanceWindow] {
        MaintenanceCalendar(policyWindows + (try await stored.windows())).windows
    }

    /// Removes the stored window `id` and gives it back; nil when none is stored by that id (a policy's
    /// window is removed from its file).
    public func remove(id: String) async throws -> MaintenanceWindow? {
        try await stored.remove(id: id)
    }

    /// Checks `declaration` and keeps the window it declares, named `id` unless it names itself. The
    /// windows kept are read, checked against and added to in one transaction, so that two declarations
    /// at once (of this process or another) cannot both pass the cap or the share only one of them fits in.
    /// - Throws: ``MaintenanceWindowError`` naming the field at fault, or ``MaintenanceRefusal`` when the
    ///   windows would be too many or cover too much, or its id is taken.
    public func declare(_ declaration: MaintenanceDeclaration, id: String, nowSeconds: Int64) async throws -> MaintenanceWindow {
        let window = try declaration.window(id: id, createdSeconds: nowSeconds, source: .stored, nowSeconds: nowSeconds)
        let (policyWindows, force) = (policyWindows, declaration.force == true)
        do {
            try await stored.declare(window) { stored in
                guard stored.count < Self.maximumStoredWindows else { throw MaintenanceRefusal.tooManyWindows(stored.count) }
                if !force, let share = MaintenanceCalendar(policyWindows + stored).busiestShare(adding: window, nowSeconds: nowSeconds),
                    share.coveredSeconds * 100 > MaintenanceCalendar.shareSpanSeconds * Self.maximumSharePercent
                {
                    throw MaintenanceRefusal.tooMuchOfTheTime(share)
                }
            }
        } catch let taken as MaintenanceWindowConflict {
            throw MaintenanceRefusal.idTaken(taken.id)
        }
        return window
    }
}

/// Why a well-formed maintenance window was not kept: too many are kept, they would cover too much of
/// some 28 days, or its id is taken.
public struct MaintenanceRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Hashable {
        case tooManyWindows(Int)
        case tooMuchOfTheTime(MaintenanceShare)
        case idTaken(String)
    }
    private let kind: Kind

    /// `count` windows are kept already, the most.
    public static func tooManyWindows(_ count: Int) -> Self { Self(kind: .tooManyWindows(count)) }
    /// The windows would cover `share` of some 28 days.
    public static func tooMuchOfTheTime(_ share: MaintenanceShare) -> Self { Self(kind: .tooMuchOfTheTime(share)) }
    /// A window named `id` is kept.
    public static func idTaken(_ id: String) -> Self { Self(kind: .idTaken(id)) }

    /// Whether the refusal is that the id is taken (the caller says how to remove it).
    public var takenID: String? { if case .idTaken(let id) = kind { id } else { nil } }

    /// Whether `force` would let the window in.
    public var isOverridable: Bool { if case .tooMuchOfTheTime = kind { true } else { false } }

    public var description: String {
        switch kind {
        case .tooManyWindows(let count):
            "\(count) maintenance windows are kept, the most (\(MaintenanceScheduling.maximumStoredWindows)): remove one before declaring another"
        case .tooMuchOfTheTime(let share):
            "with it, maintenance would cover \(TimeStep(seconds: share.coveredSeconds)) of the 28 days from "
                + "\(RFC3339.format(seconds: share.startSeconds))\(share.app.isEmpty ? "" : " for app \(share.app)") "
                + "(\(Int((share.fraction * 100).rounded(.up))) %); at most \(MaintenanceScheduling.maximumSharePercent) % of any 28 days "
                + "may be maintenance without force"
        case .idTaken(let id): "a window named \(id) exists"
        }
    }
}
