import PurchaseSLICore

/// The kinds of attempts: purchases, restores, retries, and the incidents' extra traffic.
extension TrafficGenerator {
    /// A user's purchase: a start, then cancel, pending, failure or success; a few are never finished. In
    /// retry-409 a 4.12.0 purchase also re-sends its receipt as a retry answered 409.
    mutating func purchase(by client: Client, at startMillis: Int64) {
        let productIndex = Product.purchaseMix.pick(&random)
        let product = Product.all[productIndex]
        var attempt = Attempt(
            product: product, offerID: product.drawOffer(&random), action: .purchase, client: client,
            startMillis: startMillis, deliveryDelay: drawDeliveryDelay())
        attempt.appAccountToken = accountToken(startMillis: startMillis)
        emitStart(attempt)
        if random.chance(0.0015) { return }  // app killed before paying: unfinished, nothing charged
        if storeIncident(attempt, productIndex: productIndex) { return }
        var cancelRate = product.cancelRate
        if parameters.scenario == .cancelSpike, productIndex == Product.coins500, schedule.isActive(at: startMillis) {
            cancelRate = 0.30
        }
        let roll = random.unit()
        if roll < cancelRate {
            let end = emitTerminal(
                attempt, .cancel, after: duration(median: 4500, sigma: 0.7), errorDescription: "payment cancelled")
            // A payment-info detour rather than a real cancel: the purchase completes later in the App Store, and
            // the next launch's retry sends its receipt.
            if roll >= product.cancelRate, random.chance(0.7) {
                let transactionID = newTransactionID()
                onStoreSideStream {
                    $0.recordCharge(attempt, transactionID: transactionID, at: end + 30_000 + Int64($0.random.below(.millisPerMinute)))
                }
                catchUpRetry(of: attempt, transactionID: transactionID, after: end, within: 3 * Self.hourMillis)
            }
            return
        }
        if roll < cancelRate + Self.pendingRate {
            emitTerminal(
                attempt, .pending, after: duration(median: 3200, sigma: 0.5),
                resultDescription: "Ask to Buy: waiting for approval")
            return
        }
        if let reason = incidentFailure(of: attempt, productIndex: productIndex)
            ?? (random.chance(Self.purchaseFailureRate)
                ? FailureReason.drawPurchase(storeKit2: client.isStoreKit2, &random) : nil)
        {
            let transactionID = reason.charged ? newTransactionID() : nil
            let end = emitFailure(attempt, reason, after: duration(median: 2400, sigma: 0.55), transactionID: transactionID)
            guard let transactionID else { return }
            recordCharge(attempt, transactionID: transactionID, at: end - 600)
            if parameters.scenario == .outage, reason.statusCode == 503, schedule.isActive(at: startMillis) {
                if random.chance(0.75) { catchUpRetry(of: attempt, transactionID: transactionID, after: end, within: 4 * Self.hourMillis) }
            } else {
                // The app finishes its unfinished transaction at the next foreground, minutes later.
                onStoreSideStream { $0.catchUpRetry(of: attempt, transactionID: transactionID, after: end, within: 8 * Self.minuteMillis) }
            }
            return
        }
        let transactionID = newTransactionID()
        let purchaseDuration = duration(median: 2200, sigma: 0.45)
        recordCharge(attempt, transactionID: transactionID, at: startMillis + purchaseDuration * 6 / 10)
        guard parameters.scenario == .retryConflicts, client.isNewVersion else {
            emitSuccess(attempt, after: purchaseDuration + grantQueueDelay(at: startMillis), transactionID: transactionID)
            if parameters.scenario == .doubleGrant, schedule.isActive(at: startMillis), random.chance(0.10) {
                grantAgain(attempt, transactionID: transactionID, after: startMillis + purchaseDuration)
            }
            return
        }
        // 4.12.0's retry also runs during the purchase: the receipt goes to the server twice.
        let retryWins = random.chance(0.1)
        let retryStart =
            retryWins
            ? startMillis + max(0, purchaseDuration - 300 - Int64(random.below(700)))
            : startMillis + purchaseDuration + 20 + Int64(random.below(300))
        let duplicate = Attempt(
            product: product, offerID: attempt.offerID, action: .retry, client: client, startMillis: retryStart,
            deliveryDelay: attempt.deliveryDelay)
        emitStart(duplicate)
        let retryDuration = duration(median: retryWins ? 200 : 300, sigma: 0.4)
        if retryWins {
            emitSuccess(duplicate, after: retryDuration, transactionID: transactionID)
            emitConflict(attempt, after: purchaseDuration, transactionID: transactionID)
        } else {
            emitSuccess(attempt, after: purchaseDuration, transactionID: transactionID)
            emitConflict(duplicate, after: retryDuration, transactionID: transactionID)
        }
    }

    /// The store-side incidents, which strike after the start: in paymentdetour a coins_500 purchase sent
    /// to confirm payment details reports cancel, the App Store charges a minute later, and nothing grants
    /// it; in appcrash the app dies after the charge, before the grant. Returns whether the incident took
    /// the attempt (drawing nothing outside the incident).
    mutating func storeIncident(_ attempt: Attempt, productIndex: Int) -> Bool {
        guard schedule.isActive(at: attempt.startMillis) else { return false }
        switch parameters.scenario {
        case .paymentDetour where productIndex == Product.coins500:
            guard random.chance(0.25) else { return false }
            let end = emitTerminal(
                attempt, .cancel, after: duration(median: 6000, sigma: 0.6), errorDescription: "payment cancelled")
            recordCharge(attempt, transactionID: newTransactionID(), at: end + 40_000 + Int64(random.below(50_000)), neverGranted: true)
            return true
        case .appCrash:
            guard random.chance(0.04) else { return false }
            recordCharge(
                attempt, transactionID: newTransactionID(), at: attempt.startMillis + duration(median: 1500, sigma: 0.4), neverGranted: true)
            return true
        default:
            return false
        }
    }

    /// The scenario's extra failure for a purchase, if it strikes this one.
    mutating func incidentFailure(of attempt: Attempt, productIndex: Int) -> FailureReason? {
        switch parameters.scenario {
        case .outage:
            return schedule.isActive(at: attempt.startMillis) && random.chance(0.9) ? .outage : nil
        case .slowBurn:
            return attempt.offerID == "winback-50" && schedule.isActive(at: attempt.startMillis) && random.chance(0.04)
                ? .offerSignature : nil
        case .rollout:
            return attempt.client.isNewVersion && attempt.client.isStoreKit2 && productIndex == Product.premiumMonthly
                && random.chance(0.085) ? .rolloutRegression : nil
        case .renewalBatch:
            return productIndex == Product.premiumMonthly && schedule.isActive(at: attempt.startMillis)
                && random.chance(0.05) ? .unfinishedRenewal : nil
        case .steady, .retryConflicts, .cancelSpike, .paymentDetour, .appCrash, .doubleGrant, .replayedReceipt, .slowGrantQueue:
            return nil
        }
    }

    /// A retry on launch or foreground: mostly 409 (granted earlier, answer lost), some first grants.
    mutating func retry(by client: Client, at startMillis: Int64) {
        let product = Product.all[Product.retryMix.pick(&random)]
        let attempt = Attempt(
            product: product, offerID: product.drawOffer(&random), action: .retry, client: client,
            startMillis: startMillis, deliveryDelay: drawDeliveryDelay())
        emitStart(attempt)
        if random.chance(0.001) { return }
        let transactionID = olderTransactionID()
        let elapsed = duration(median: 380, sigma: 0.5)
        if parameters.scenario == .outage, schedule.isActive(at: startMillis), random.chance(0.9) {
            emitFailure(attempt, .outage, after: elapsed, transactionID: transactionID)
            return
        }
        let roll = random.unit()
        if roll < 0.75 {
            emitConflict(attempt, after: elapsed, transactionID: transactionID)
        } else if roll < 0.97 {
            // A first grant: a transaction charged minutes ago whose purchase never reached the server.
            emitSuccess(attempt, after: elapsed, transactionID: lateGrantTransaction(of: attempt, grantedAt: startMillis + elapsed))
        } else {
            emitFailure(attempt, FailureReason.drawServer(&random), after: elapsed, transactionID: transactionID)
        }
    }

    /// A restore of a subscription.
    mutating func restore(by client: Client, at startMillis: Int64) {
        let product = Product.all[Product.restoreMix.pick(&random)]
        let attempt = Attempt(
            product: product, offerID: nil, action: .restore, client: client, startMillis: startMillis,
            deliveryDelay: drawDeliveryDelay())
        emitStart(attempt)
        if random.chance(0.001) { return }
        if random.chance(0.02) {
            emitTerminal(attempt, .cancel, after: duration(median: 3800, sigma: 0.6), errorDescription: "payment cancelled")
            return
        }
        let transactionID = olderTransactionID()
        let elapsed = duration(median: 1400, sigma: 0.5)
        if parameters.scenario == .outage, schedule.isActive(at: startMillis), random.chance(0.9) {
            emitFailure(attempt, .outage, after: elapsed, transactionID: transactionID)
        } else if random.chance(0.008) {
            emitFailure(attempt, FailureReason.drawServer(&random), after: elapsed, transactionID: transactionID)
        } else {
            emitTerminal(
                attempt, .success, after: elapsed, statusCode: 200, transactionID: transactionID,
                resultDescription: "restored", responseDescription: "restored premium entitlement")
        }
    }

    /// The next launch's retry of a purchase charged but not granted (verification 503, payment-info detour),
    /// 2 minutes to `within` later: granted now, or 503 again while the outage lasts. Dropped after the run.
    mutating func catchUpRetry(
        of purchase: Attempt, transactionID: String, after failedMillis: Int64, within maximumDelay: Int64
    ) {
        let startMillis = failedMillis + 2 * Self.minuteMillis + random.int(in: 0...maximumDelay)
        guard startMillis < parameters.endMillis else { return }
        var attempt = Attempt(
            product: purchase.product, offerID: purchase.offerID, action: .retry, client: purchase.client,
            startMillis: startMillis, deliveryDelay: drawDeliveryDelay())
        attempt.appAccountToken = purchase.appAccountToken
        emitStart(attempt)
        let elapsed = duration(median: 380, sigma: 0.5)
        if parameters.scenario == .outage, schedule.isActive(at: startMillis), random.chance(0.9) {
            emitFailure(attempt, .outage, after: elapsed, transactionID: transactionID)
        } else {
            emitSuccess(attempt, after: elapsed, transactionID: transactionID)
        }
    }

    /// A launch that finds several premium_monthly renewals at once: the first is handled, the rest fail or
    /// are never finished.
    mutating func renewalBurst(at startMillis: Int64) {
        let client = Client.draw(newVersionShare: schedule.newVersionShare(at: startMillis), &random)
        let product = Product.all[Product.premiumMonthly]
        let deliveryDelay = drawDeliveryDelay()
        let count = 2 + random.below(6)
        var at = startMillis
        for index in 0..<count {
            let attempt = Attempt(
                product: product, offerID: nil, action: .retry, client: client, startMillis: at,
                deliveryDelay: deliveryDelay)
            emitStart(attempt)
            let transactionID = String(renewalTransactionBase + UInt64(random.below(renewalTransactionCount)) * 13)
            let elapsed = duration(median: 300, sigma: 0.4)
            if index == 0 {
                emitTerminal(
                    attempt, .success, after: elapsed, statusCode: 200,
                    transactionID: lateGrantTransaction(of: attempt, grantedAt: at + elapsed),
                    resultDescription: "transaction finished", responseDescription: "renewal granted")
            } else if random.chance(0.55) {
                emitFailure(attempt, .unfinishedRenewal, after: elapsed, transactionID: transactionID)
            }
            at += 10 + Int64(random.below(40))
        }
    }

    /// slow-grant-queue: how long a purchase's grant waits in the backed-up queue after the purchase (1 to 8
    /// minutes for 60 % of purchases while the incident lasts; drawing nothing outside it).
    mutating func grantQueueDelay(at startMillis: Int64) -> Int64 {
        guard parameters.scenario == .slowGrantQueue, schedule.isActive(at: startMillis), random.chance(0.6) else { return 0 }
        return random.int(in: 60_000...480_000)
    }

    /// double-grant: the app saw the purchase's answer time out, and its retry re-sends the receipt 2 to 30 s
    /// later; the grant server grants it again instead of answering 409.
    mutating func grantAgain(_ purchase: Attempt, transactionID: String, after millis: Int64) {
        let retry = Attempt(
            product: purchase.product, offerID: purchase.offerID, action: .retry, client: purchase.client,
            startMillis: millis + random.int(in: 2_000...30_000), deliveryDelay: purchase.deliveryDelay)
        emitStart(retry)
        emitSuccess(retry, after: duration(median: 380, sigma: 0.5), transactionID: transactionID)
    }

    /// replayed-receipt: a coins_1200 purchase whose receipt is forged (or replayed from elsewhere): the
    /// server grants it, naming a transaction no store charged.
    mutating func forgedPurchase(at startMillis: Int64) {
        let client = Client.draw(newVersionShare: 0, &random)
        let attempt = Attempt(
            product: Product.all[Product.coins1200], offerID: nil, action: .purchase, client: client, startMillis: startMillis,
            deliveryDelay: 0)
        emitStart(attempt)
        lastForgedTransaction += 1 + UInt64(random.below(40))
        emitSuccess(attempt, after: duration(median: 900, sigma: 0.4), transactionID: String(lastForgedTransaction))
    }
}
