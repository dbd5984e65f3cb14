import PurchaseSLICore

/// Turning attempts into start and terminal events, queued for delivery.
extension TrafficGenerator {
    mutating func emitStart(_ attempt: Attempt) {
        emit(event(attempt, .start, at: attempt.startMillis), delay: attempt.deliveryDelay)
    }

    @discardableResult
    mutating func emitFailure(
        _ attempt: Attempt, _ reason: FailureReason, after elapsed: Int64, transactionID: String?
    ) -> Int64 {
        emitTerminal(
            attempt, .failure, after: elapsed, statusCode: reason.statusCode, transactionID: transactionID,
            errorDescription: reason.errorDescription)
    }

    mutating func emitSuccess(_ attempt: Attempt, after elapsed: Int64, transactionID: String) {
        emitTerminal(
            attempt, .success, after: elapsed, statusCode: 200, transactionID: transactionID,
            resultDescription: attempt.action == .retry ? "transaction finished" : "purchased",
            responseDescription: attempt.product.grantDescription)
    }

    mutating func emitConflict(_ attempt: Attempt, after elapsed: Int64, transactionID: String) {
        emitTerminal(
            attempt, .alreadyGranted, after: elapsed, statusCode: 409, transactionID: transactionID,
            resultDescription: "transaction finished", responseDescription: "409 already granted")
    }

    /// Emits the attempt's terminal event `elapsed` ms after its start; returns the event's time.
    @discardableResult
    mutating func emitTerminal(
        _ attempt: Attempt, _ result: ResultType, after elapsed: Int64, statusCode: Int? = nil,
        transactionID: String? = nil, resultDescription: String? = nil, responseDescription: String? = nil,
        errorDescription: String? = nil
    ) -> Int64 {
        var terminal = event(attempt, result, at: attempt.startMillis + elapsed)
        terminal.statusCode = statusCode
        terminal.transactionID = transactionID
        terminal.durationMs = elapsed
        terminal.resultDescription = resultDescription
        terminal.responseDescription = responseDescription
        terminal.errorDescription = errorDescription
        emit(terminal, delay: attempt.deliveryDelay)
        return terminal.timestampMillis
    }

    mutating func event(_ attempt: Attempt, _ result: ResultType, at millis: Int64) -> PurchaseEvent {
        let labels = parameters.catalog.labels(of: attempt, seed: parameters.seed)
        return PurchaseEvent(
            eventID: EventIDFormat.uuid(high: random.next(), low: random.next()), timestampMillis: millis,
            productID: labels.productID, planID: labels.planID, groupID: attempt.product.groupID,
            offerID: labels.offerID, actionType: attempt.action, resultType: result,
            appVersion: labels.appVersion, platform: attempt.client.platform,
            osVersion: labels.osVersion, variant: attempt.client.variant,
            // A purchase knows what it costs; a restore or a retry charges nothing new.
            price: attempt.action == .purchase ? attempt.product.price : nil, currency: attempt.action == .purchase ? "USD" : nil,
            appAccountToken: attempt.appAccountToken, app: parameters.app)
    }

    /// Records the store's charge of a purchase at `millis` (when the run records charges). A charge
    /// nothing will grant (`neverGranted`) is refunded half the time, 2 to 8 hours later within the run;
    /// whether and when comes from the transaction id, not from a random stream.
    mutating func recordCharge(_ attempt: Attempt, transactionID: String, at millis: Int64, neverGranted: Bool = false) {
        guard charges != nil, millis < parameters.endMillis else { return }
        var charge = SimulatedCharge(
            transactionID: transactionID, productID: parameters.catalog.labels(of: attempt, seed: parameters.seed).productID,
            isSubscription: attempt.product.groupID != nil,
            price: attempt.product.price, currency: "USD", chargedMillis: millis, appAccountToken: attempt.appAccountToken)
        let hash = (UInt64(transactionID) ?? 0) &* 0x9E37_79B9_7F4A_7C15
        let refund = millis + 2 * Self.hourMillis + Int64(hash >> 34 % UInt64(6 * Self.hourMillis))
        if neverGranted, hash >> 33 & 1 == 1, refund < parameters.endMillis { charge.refundedMillis = refund }
        charges!.append(charge)
    }

    /// A purchase's account token: a UUID made from the seed and the attempt's start (not drawn from the
    /// random stream, which stays as it was).
    func accountToken(startMillis: Int64) -> String {
        func mixed(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let key = parameters.seed ^ UInt64(bitPattern: startMillis)
        return EventIDFormat.uuid(high: mixed(key), low: mixed(key ^ 0x5555_5555_5555_5555))
    }

    /// Queues an event for delivery `delay` ms after its time; a few are delivered twice.
    mutating func emit(_ event: PurchaseEvent, delay: Int64) {
        let emitMillis = event.timestampMillis + delay
        queue.push(event, emitMillis: emitMillis)
        if random.chance(Self.duplicateRate) {
            queue.push(event, emitMillis: emitMillis + 500 + Int64(random.below(120_000)))
        }
    }
}
