import PurchaseSLICore

/// The attempt-by-attempt traffic model behind ``TrafficSimulator``.
///
/// Generates one minute of attempts at a time into an ``EventQueue`` and releases events whose emission time
/// is before the next ungenerated minute, so the output is ordered by emission time and memory stays bounded
/// by the events in flight (at most a few hours of late deliveries), whatever the number of days.
struct TrafficGenerator {
    static let minuteMillis: Int64 = .millisPerMinute
    static let hourMillis: Int64 = .millisPerHour

    /// Attempt mix: purchases, then restores; the rest are retries.
    static let purchaseShare = 0.915
    static let restoreShare = 0.04
    static let pendingRate = 0.005
    static let purchaseFailureRate = 0.007
    static let duplicateRate = 0.003
    static let lateAttemptRate = 0.01

    let parameters: SimulationParameters
    let schedule: IncidentSchedule
    let meanRate: Double
    private let totalMinutes: Int64
    private var minute: Int64 = 0
    var random: SimulationRandom
    /// A second stream for what the store side adds (the app's catch-up of a charged purchase, when a
    /// detour's charge comes): drawing it leaves ``random``, and so every other event, as it was.
    var storeSideRandom: SimulationRandom
    var queue = EventQueue()
    var lastTransaction: UInt64
    /// The last transaction granted by a retry after a lost first answer (its own id space: drawing none
    /// leaves every other id as it was).
    var lastLateGrant: UInt64
    /// The last transaction id a replayed or forged receipt names: one no store charged.
    var lastForgedTransaction: UInt64
    let renewalTransactionBase: UInt64
    /// The store's charges so far when the run records them (``TrafficSimulator/storeCharges``), else nil.
    var charges: [SimulatedCharge]?
    /// How many stuck renewal transactions the renewal-batch devices hold: proportional to traffic, so each
    /// fails about eight times over the incident.
    let renewalTransactionCount: Int

    init(_ parameters: SimulationParameters) {
        self.parameters = parameters
        schedule = IncidentSchedule(parameters)
        let rate = parameters.attemptsPerMinute
        meanRate = rate.isFinite && rate > 0 ? rate : 0
        totalMinutes = Int64(max(parameters.days, 0)) * 1440
        random = SimulationRandom(seed: parameters.seed)
        storeSideRandom = SimulationRandom(seed: parameters.seed ^ 0x5354_4F52_4553)
        let runBase = 2_000_000_000_000_000 + parameters.runTag * 1_000_000_000
        lastTransaction = runBase + 400_000_000 + UInt64(random.below(100_000_000))
        renewalTransactionBase = runBase + 100_000_000 + UInt64(random.below(100_000_000))
        renewalTransactionCount = max(20, Int(min(meanRate, 1e6) * 20))
        lastLateGrant = runBase + 300_000_000
        lastForgedTransaction = runBase + 700_000_000
    }

    /// The next event in emission order, or nil at the end of the run.
    mutating func next() -> PurchaseEvent? {
        while minute < totalMinutes {
            let generatedUntil = parameters.startMillis + minute * Self.minuteMillis
            if let due = queue.earliestEmitMillis, due < generatedUntil { return queue.pop() }
            generateMinute(startingAt: generatedUntil)
            minute += 1
        }
        return queue.pop()
    }

    /// Draws the minute's attempts (Poisson around the rate times the time-of-day factor) and queues their events.
    mutating func generateMinute(startingAt minuteStart: Int64) {
        let mean = meanRate * TrafficShape.factor(at: minuteStart + Self.minuteMillis / 2)
        for _ in 0..<random.poisson(mean: mean) {
            let startMillis = minuteStart + Int64(random.below(Int(Self.minuteMillis)))
            let client = Client.draw(newVersionShare: schedule.newVersionShare(at: startMillis), &random)
            let roll = random.unit()
            if roll < Self.purchaseShare {
                purchase(by: client, at: startMillis)
            } else if roll < Self.purchaseShare + Self.restoreShare {
                restore(by: client, at: startMillis)
            } else {
                retry(by: client, at: startMillis)
            }
        }
        if parameters.scenario == .replayedReceipt, schedule.isActive(at: minuteStart) {
            for _ in 0..<random.poisson(mean: mean * 0.1) { forgedPurchase(at: minuteStart + Int64(random.below(Int(Self.minuteMillis)))) }
        }
        if parameters.scenario == .renewalBatch, schedule.isActive(at: minuteStart) {
            for _ in 0..<random.poisson(mean: mean * 0.12) {
                renewalBurst(at: minuteStart + Int64(random.below(Int(Self.minuteMillis))))
            }
        }
    }

    /// How late an attempt's events arrive: usually on time; 1 % of attempts minutes to hours late (offline devices).
    mutating func drawDeliveryDelay() -> Int64 {
        guard random.chance(Self.lateAttemptRate) else { return 0 }
        let roll = random.unit()
        if roll < 0.5 { return random.int(in: (2 * Self.minuteMillis)...(15 * Self.minuteMillis)) }
        if roll < 0.85 { return random.int(in: (15 * Self.minuteMillis)...(90 * Self.minuteMillis)) }
        return random.int(in: (90 * Self.minuteMillis)...(6 * Self.hourMillis))
    }

    /// A step's duration in milliseconds: log-normal, at least 30 ms.
    mutating func duration(median: Double, sigma: Double) -> Int64 {
        max(30, Int64(random.logNormal(median: median, sigma: sigma)))
    }

    /// Runs `body` drawing from ``storeSideRandom`` instead of ``random``.
    mutating func onStoreSideStream(_ body: (inout TrafficGenerator) -> Void) {
        swap(&random, &storeSideRandom)
        body(&self)
        swap(&random, &storeSideRandom)
    }

    /// A new store transaction id (16 digits, increasing as other apps' transactions interleave).
    mutating func newTransactionID() -> String {
        lastTransaction += 1 + UInt64(random.below(40))
        return String(lastTransaction)
    }

    /// A transaction the store charged before `grantMillis` that a retry grants now (its purchase's own grant
    /// request never reached the server): 5 to 45 s before for nine in ten (the app's retry loop), 1 to 10
    /// minutes before for the rest (the next launch). Its id, its charge recorded. The delay comes from the
    /// id, not from a random stream, which every other event draws from as before.
    mutating func lateGrantTransaction(of attempt: Attempt, grantedAt grantMillis: Int64) -> String {
        lastLateGrant += 1
        let hash = Int64((lastLateGrant &* 0x9E37_79B9_7F4A_7C15) >> 40)
        let delay = hash % 10 == 0 ? .millisPerMinute + hash / 10 % 540_000 : 5_000 + hash / 10 % 40_000
        recordCharge(attempt, transactionID: String(lastLateGrant), at: grantMillis - delay)
        return String(lastLateGrant)
    }

    /// The id of an earlier transaction, as retries and restores re-send.
    mutating func olderTransactionID() -> String {
        String(lastTransaction - 1 - UInt64(random.below(3_000_000)))
    }
}
