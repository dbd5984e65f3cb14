public import PurchaseSLICore
public import PurchaseSLIStorage

/// `rollout confirm ID`: a person's confirmation of a live rollout action that awaits one. The action's
/// record becomes ``RolloutAction/Outcome/confirmed``, naming who confirmed and when; `serve`'s next
/// rollout check pauses the release, and the audit record names the confirmation beside the evidence.
public struct RolloutConfirmation: Sendable {
    /// Why an action could not be confirmed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong and what to do.
        public let description: String
    }

    /// The longest name of the person confirming, in Unicode scalars.
    public static let maximumNameLength = 200

    private let actions: RolloutActionRepository

    /// A confirmation of actions in `store`.
    public init(store: any SQLRecordStore) {
        actions = RolloutActionRepository(store.sql)
    }

    /// Confirms the action whose ``RolloutAction/id`` is `id`, by `person` at `seconds`; returns it as stored.
    /// The action is read, checked and kept in one transaction: of two confirmations at once, the second
    /// finds it confirmed.
    /// - Throws: ``Failure`` when no action has that id, it does not await confirmation, or `person` is
    ///   not a printable name of at most ``maximumNameLength`` characters.
    public func confirm(id: String, by person: String, atSeconds seconds: Int64) async throws -> RolloutAction {
        guard let name = PersonText.cleaned(person, maximum: Self.maximumNameLength) else {
            throw Failure(description: "--by: expected a person's name of 1 to \(Self.maximumNameLength) printable characters")
        }
        return try await actions.update { actions in try Self.confirmed(id: id, among: actions, by: name, atSeconds: seconds) }
    }

    /// The action `id` among `actions`, confirmed by `name` at `seconds`.
    private static func confirmed(id: String, among actions: [RolloutAction], by name: String, atSeconds seconds: Int64) throws -> RolloutAction {
        guard let action = actions.last(where: { $0.id == id.lowercased() }) else {
            let waiting = actions.filter { $0.outcome == .awaitingConfirmation }.map(\.id)
            throw Failure(
                description: "no rollout action has id \(id); "
                    + (waiting.isEmpty ? "none awaits confirmation" : "awaiting confirmation: \(waiting.joined(separator: ", "))"))
        }
        guard action.outcome == .awaitingConfirmation else {
            throw Failure(
                description: "rollout action \(action.id) (\(action.store.displayName), \(action.candidate)) does not await confirmation: "
                    + "it is \(action.outcome.rawValue)")
        }
        var confirmed = action
        confirmed.outcome = .confirmed
        confirmed.detail = "confirmed by \(name) at \(RFC3339.format(seconds: seconds)) (rollout confirm); \(action.detail)"
        confirmed.timeSeconds = seconds
        return confirmed
    }
}
