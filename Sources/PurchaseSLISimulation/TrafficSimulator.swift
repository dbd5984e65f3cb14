public import PurchaseSLICore

/// A deterministic stream of realistic purchase SLI events for a ``SimulationParameters`` run.
///
/// Iterating generates the run minute by minute: events come out ordered by when they would reach the
/// collector, which is their timestamp except for late deliveries (about 1 % of attempts, minutes to hours
/// behind) and duplicates (about 0.3 % of events, sent again up to two minutes later). Memory does not grow
/// with the number of days. The same parameters give the same events on every platform and run.
public struct TrafficSimulator: Sequence, Sendable {
    /// What is simulated.
    public let parameters: SimulationParameters

    /// Creates a simulator for `parameters`.
    public init(_ parameters: SimulationParameters) {
        self.parameters = parameters
    }

    /// When the scenario's incident happens in this run.
    public var schedule: IncidentSchedule { IncidentSchedule(parameters) }

    /// The App Store charges of the run's purchases, by charge time: a second pass over the same run
    /// (the events are the same as iterating gives) that keeps only the charges.
    public var storeCharges: [SimulatedCharge] {
        var generator = TrafficGenerator(parameters)
        generator.charges = []
        while generator.next() != nil {}
        return generator.charges!.sorted { ($0.chargedMillis, $0.transactionID) < ($1.chargedMillis, $1.transactionID) }
    }

    /// Starts a fresh pass over the run.
    public func makeIterator() -> Iterator {
        Iterator(generator: TrafficGenerator(parameters))
    }

    /// One pass over the run's events.
    public struct Iterator: IteratorProtocol {
        private var generator: TrafficGenerator

        init(generator: TrafficGenerator) {
            self.generator = generator
        }

        /// The next event in delivery order, or nil when the run is over.
        public mutating func next() -> PurchaseEvent? {
            generator.next()
        }
    }
}
