public import PurchaseSLICore

/// Validated events with the keys a store's writer needs: the second and eventID hash of each event
/// (the dedup key), the hash of its series values, and the events in dedup-key order.
///
/// Preparing costs O(n log n) and needs no store, so the server does it on each request's own task;
/// the single writer, which every request waits for, then only merges the prepared batches.
public struct PreparedEvents: Sendable {
    /// The events, in the order they came.
    public let events: [PurchaseEvent]
    /// Per event: its timestamp's second.
    package let seconds: [Int64]
    /// Per event: ``EventIDHash`` of its eventID.
    package let eventIDHashes: [Int64]
    /// Per event: its series values, and their hash.
    package let seriesValues: [SeriesValues]
    let seriesHashes: [UInt64]
    /// Event indexes sorted by (second, eventID hash, index), so that duplicates are neighbours.
    let order: [Int32]
    /// The latest price the events carried for each product and plan.
    package let prices: [ProductPrice]
    /// What the events reported about their transaction ids, else their account tokens, and the grants
    /// they reported, as blobs per minute (``ClientReportBlob``, ``GrantBlob``): made here rather than by the single writer, which stores them as
    /// they are when none of the batch's events is a duplicate (else it makes them again from the new
    /// ones: only events counted for the first time report).
    let clientReportBlobs: [ClientReportMinute]
    /// Events the sender dropped before sending (its queue was full), reported with this batch: stored
    /// when the batch counts an event for the first time, so that a resent batch does not report them twice.
    public var clientDroppedEvents = 0
    /// Whether the events came through the HTTP API, where a late arrival is kept per series and hour
    /// (``BucketStore/lateArrivals(fromSeconds:toSeconds:)``): a live rollout action does not rest on a
    /// bulk of them. Files an operator ingests are old by nature and are not.
    public var tracksLateArrivals = false

    /// Computes the keys of `events`. O(n log n).
    public init(_ events: [PurchaseEvent]) {
        self.events = events
        var seconds: [Int64] = []
        var eventIDHashes: [Int64] = []
        var seriesHashes: [UInt64] = []
        var seriesValues: [SeriesValues] = []
        var prices: [PriceKey: ProductPrice] = [:]
        var reports = ClientReportBlob.Encoder()
        seconds.reserveCapacity(events.count)
        eventIDHashes.reserveCapacity(events.count)
        seriesHashes.reserveCapacity(events.count)
        seriesValues.reserveCapacity(events.count)
        events.withUnsafeBufferPointer { buffer in
            // Fields are read through the pointer in place; an element copy would retain every string.
            for index in buffer.indices {
                let event = buffer.baseAddress! + index
                seconds.append(event.pointee.timestampMillis.floorDividedBy(.millisPerSecond).quotient)
                eventIDHashes.append(EventIDHash.hash(event.pointee.eventID))
                let values = SeriesValues(of: event)
                seriesHashes.append(values.hash)
                seriesValues.append(values)
                // An event naming its transaction is found by it; the account token is for those that do
                // not (a start, a cancel, a failure before the store charged), and is written only for them.
                reports.add(event)
                if let price = event.pointee.price, let currency = event.pointee.currency {
                    let product = event.pointee.productID
                    let plan = event.pointee.planID
                    let millis = event.pointee.timestampMillis
                    let key = PriceKey(productID: product, planID: plan)
                    if (prices[key]?.seenMillis ?? .min) <= millis {
                        prices[key] = ProductPrice(productID: product, planID: plan, price: price, currency: currency, seenMillis: millis)
                    }
                }
            }
        }
        self.seconds = seconds
        self.eventIDHashes = eventIDHashes
        self.seriesHashes = seriesHashes
        self.seriesValues = seriesValues
        self.prices = Array(prices.values)
        clientReportBlobs = reports.blobs()
        order = Self.dedupOrder(seconds: seconds, hashes: eventIDHashes)
    }

    /// The events clients dropped that a commit of `batches` stores, given which of their events it
    /// counted for the first time: those reported by the batches that counted something.
    package static func clientDroppedEvents(_ batches: [PreparedEvents], isNew: [[Bool]]) -> Int {
        batches.indices.reduce(0) { total, index in total + (isNew[index].contains(true) ? batches[index].clientDroppedEvents : 0) }
    }

    /// The client report blobs of the events counted for the first time (`isNew[index]`): those made
    /// while preparing when every event is new, else made again from the new ones (a resent batch
    /// reports nothing), received at `receivedSeconds`.
    package func clientReportBlobs(ofNew isNew: [Bool], receivedSeconds: Int64) -> [ClientReportMinute] {
        guard isNew.contains(true) else { return [] }
        var parts = clientReportBlobs
        if isNew.contains(false) {
            var encoder = ClientReportBlob.Encoder()
            events.withUnsafeBufferPointer { events in
                for index in events.indices where isNew[index] { encoder.add(events.baseAddress! + index) }
            }
            parts = encoder.blobs()
        }
        for index in parts.indices { parts[index].receivedSeconds = receivedSeconds }
        return parts
    }

    /// A product and plan, whose latest price is kept.
    private struct PriceKey: Hashable {
        var productID: String
        var planID: String?
    }

    /// Event indexes sorted by (second, hash, index): of equal keys the first sent comes first.
    private static func dedupOrder(seconds: [Int64], hashes: [Int64]) -> [Int32] {
        (0..<Int32(seconds.count)).sorted {
            (seconds[Int($0)], hashes[Int($0)], $0) < (seconds[Int($1)], hashes[Int($1)], $1)
        }
    }
}

/// Every event of several prepared batches in dedup order: sorted by (second, eventID hash, batch,
/// index), so that duplicates are neighbours and the first sent comes first.
package struct DedupOrder: Sendable {
    /// One event's dedup key and where it is: which prepared batch, and its index there.
    package struct Key: Sendable {
        package var second: Int64
        package var hash: Int64
        package var batch: Int32
        package var index: Int32
    }

    /// The keys, sorted.
    package let keys: [Key]
    /// Per batch: the position of its first event among all the batches' events.
    private let offsets: [Int]
    /// The events of all the batches.
    private let total: Int

    /// Merges the batches' sorted keys. O(n log k) for k batches, as each batch is one sorted run.
    package init(_ batches: [PreparedEvents]) {
        var keys: [Key] = []
        keys.reserveCapacity(batches.reduce(0) { $0 + $1.events.count })
        for (batchIndex, batch) in batches.enumerated() {
            for index in batch.order {
                keys.append(
                    Key(
                        second: batch.seconds[Int(index)], hash: batch.eventIDHashes[Int(index)],
                        batch: Int32(batchIndex), index: index))
            }
        }
        if batches.count > 1 {
            keys.sort { ($0.second, $0.hash, $0.batch, $0.index) < ($1.second, $1.hash, $1.batch, $1.index) }
        }
        self.keys = keys
        var offsets: [Int] = []
        var offset = 0
        for batch in batches {
            offsets.append(offset)
            offset += batch.events.count
        }
        self.offsets = offsets
        total = offset
    }

    /// The position of `key`'s event among all the batches' events, in order (what a duplicate is named by).
    package func position(of key: Key) -> Int {
        offsets[Int(key.batch)] + Int(key.index)
    }
}

/// Which events of a commit count: the dedup rule's answer (``DedupOrder/decide(isStored:)``).
package struct DedupDecision: Sendable {
    /// Per batch and event: whether it counts for the first time.
    package var isNew: [[Bool]]
    /// The positions of the duplicates among all the batches' events, ascending.
    package var duplicateIndexes: [Int]
    /// The keys of the new events, in dedup order: what the store adds to its dedup memory.
    package var newKeys: [DedupOrder.Key]
}

extension DedupOrder {
    /// The first event of each key (second, eventID hash) in the commit, in dedup order: the keys a store
    /// looks up or inserts.
    package func distinctKeys() -> [Key] {
        var distinct: [Key] = []
        for key in keys where distinct.last.map({ $0.second != key.second || $0.hash != key.hash }) ?? true { distinct.append(key) }
        return distinct
    }

    /// The dedup rule every store applies: of the events with one key the first sent counts, unless the
    /// store holds the key already (`isStored`, asked once per distinct key); every other is a duplicate.
    /// O(n + d log d) for d duplicates.
    package func decide(isStored: (Key) throws -> Bool) rethrows -> DedupDecision {
        var decision = DedupDecision(isNew: [], duplicateIndexes: [], newKeys: [])
        decision.isNew = offsets.indices.map { batch in
            [Bool](repeating: false, count: (batch + 1 < offsets.count ? offsets[batch + 1] : total) - offsets[batch])
        }
        var previous: Key?
        for key in keys {
            let repeated = previous.map { $0.second == key.second && $0.hash == key.hash } ?? false
            previous = key
            if try repeated || isStored(key) {
                decision.duplicateIndexes.append(position(of: key))
            } else {
                decision.isNew[Int(key.batch)][Int(key.index)] = true
                decision.newKeys.append(key)
            }
        }
        decision.duplicateIndexes.sort()
        return decision
    }
}
