import Foundation

/// One attempt: its `start` event was recorded by ``PurchaseSLI/begin(_:productID:planID:groupID:offerID:appAccountToken:)``;
/// ``finish(_:)`` records its one terminal event.
public final class PurchaseAttempt: Sendable {
    private let sli: PurchaseSLI
    private let start: SLIEvent
    private let finished = Locked(false)

    init(sli: PurchaseSLI, start: SLIEvent) {
        self.sli = sli
        self.start = start
    }

    /// Records how the attempt ended, and returns once the event is on disk. A second finish is
    /// ignored (and logged): an attempt has one outcome.
    public func finish(_ outcome: SLIOutcome, responseDescription: String? = nil) async {
        await finish(outcome, responseDescription: responseDescription, transactionID: nil)
    }

    /// Records how the attempt ended; the terminal event names `transactionID` (when the outcome names none)
    /// besides what the start named.
    func finish(_ outcome: SLIOutcome, responseDescription: String? = nil, transactionID knownTransactionID: String?) async {
        let isFirst = finished.withLock { done in
            defer { done = true }
            return !done
        }
        sli.attemptsInFlight.end(start.eventID)
        guard isFirst else {
            sli.configuration.log?("purchase-sli: a second finish (\(outcome)) of the attempt \(start.eventID) for \(start.productID) was ignored")
            return
        }
        var event = start
        event.eventID = UUID().uuidString.lowercased()
        event.timestamp = Date()
        event.resultType = outcome.resultType
        event.durationMs = max(0, Int((event.timestamp.timeIntervalSince(start.timestamp) * 1000).rounded()))
        event.responseDescription = responseDescription
        event.transactionID = knownTransactionID ?? start.transactionID
        switch outcome {
        case .success(let transactionID), .alreadyGranted(let transactionID):
            event.transactionID = transactionID ?? event.transactionID
            if case .alreadyGranted = outcome { event.statusCode = 409 }
        case let .failure(error, statusCode):
            (event.errorDescription, event.statusCode) = (error, statusCode)
        case .cancel, .pending:
            break
        }
        await sli.record(event)
    }
}
