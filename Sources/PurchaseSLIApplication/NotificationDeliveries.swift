public import PurchaseSLICore
import Synchronization

/// What each receiver of `serve`'s notifications answered lately (the alert receiver of `--notify`, its
/// fallbacks of `--notify-fallback`, the rollout receiver of `--rollout-notify`): how often it was tried and failed, when it last took one, and
/// since when it has failed every attempt. `/metrics`, `/readyz` and the served pages read it, so that a
/// notification nobody received is never silent.
public final class NotificationDeliveries: Sendable {
    /// One receiver's record.
    public struct Receiver: Sendable, Hashable {
        /// Its name: `alerts`, `alerts-fallback` (`-2`, … after the first) or `rollout` (set by the service,
        /// never from a request).
        public var name: String
        /// The receiver whose notifications it takes while that one fails (a fallback's `alerts`), or nil.
        public var standsInFor: String?
        /// Where it is, for people: the host of its URL (no path, no query: a webhook's path holds its secret).
        public var host: String
        /// Deliveries tried.
        public var attempts = 0
        /// Deliveries that failed.
        public var failures = 0
        /// When a delivery last succeeded (seconds since the epoch), or nil.
        public var lastSuccessSeconds: Int64?
        /// When the failures since the last success began, or nil while the last delivery succeeded.
        public var failingSinceSeconds: Int64?
        /// What the last failure was ("HTTP 503", "no answer: connection refused").
        public var lastFailure: String?

        /// Whether every delivery has failed for at least `seconds` before `now`.
        public func hasFailed(forAtLeast seconds: Int64, at now: Int64) -> Bool {
            failingSinceSeconds.map { now - $0 >= seconds } ?? false
        }
    }

    /// How long a receiver may fail every delivery before `/readyz` and the pages say nobody was notified:
    /// 5 minutes, a few evaluations.
    public static let failingAfterSeconds: Int64 = 300

    private let state = Mutex<(receivers: [String: Receiver], observers: [@Sendable (Receiver, Bool) -> Void])>(([:], []))

    /// A record of no delivery.
    public init() {}

    /// Tells `observe` each outcome recorded from now on (the metrics), with the receiver after it.
    public func onRecord(_ observe: @escaping @Sendable (_ receiver: Receiver, _ delivered: Bool) -> Void) {
        state.withLock { $0.observers.append(observe) }
    }

    /// Records a delivery to `receiver` (at `host`, standing in for the receiver named `standsInFor`) at
    /// `seconds`: delivered, or failed with `failure`.
    public func record(receiver name: String, host: String, standsInFor: String? = nil, atSeconds seconds: Int64, failure: String?) {
        let (receiver, observers) = state.withLock { state in
            var receiver = state.receivers[name] ?? Receiver(name: name, host: host)
            receiver.host = host
            receiver.standsInFor = standsInFor
            receiver.attempts += 1
            if let failure {
                receiver.failures += 1
                receiver.lastFailure = failure
                if receiver.failingSinceSeconds == nil { receiver.failingSinceSeconds = seconds }
            } else {
                receiver.lastSuccessSeconds = seconds
                receiver.failingSinceSeconds = nil
            }
            state.receivers[name] = receiver
            return (receiver, state.observers)
        }
        for observe in observers { observe(receiver, failure == nil) }
    }

    /// Records a delivery to `receiver` (at `host`) at `seconds` that failed with `error`: its status ("HTTP
    /// 503"), "no answer" when the receiver could not be reached, or "not sent" for any other error.
    public func record(receiver name: String, host: String, standsInFor: String? = nil, atSeconds seconds: Int64, error: any Error) {
        record(receiver: name, host: host, standsInFor: standsInFor, atSeconds: seconds, failure: Self.failure(of: error))
    }

    /// What a failed delivery's `error` was, for people: its status ("HTTP 503"), "no answer" when the
    /// receiver could not be reached, or "not sent" for any other error.
    public static func failure(of error: any Error) -> String {
        (error as? NotificationError).map { $0.status.map { "HTTP \($0)" } ?? "no answer" } ?? "not sent"
    }

    /// Every receiver tried, by name.
    public var receivers: [Receiver] { state.withLock { $0.receivers.values.sorted { $0.name < $1.name } } }

    /// A receiver failing every delivery, and the stand-in that took its notifications since, if any.
    public struct Outage: Sendable, Hashable {
        /// The failing receiver.
        public var receiver: Receiver
        /// A fallback that delivered since the failures began and is not failing itself; nil: the
        /// notifications meant for `receiver` reached nobody.
        public var standIn: Receiver?

        /// "the alert receiver (…) has failed every delivery since …; its alerts go to the alert fallback
        /// (hooks.slack.com) instead, last delivered at …", naming the hosts unless `namingHost` is false.
        public func text(zone: TimeZoneOffsets = .utc, namingHost: Bool = true) -> String {
            receiver.failingText(zone: zone, namingHost: namingHost)
                + (standIn.map { standIn in
                    "; its alerts go to \(standIn.title)" + (namingHost ? " (\(standIn.host))" : "") + " instead, last delivered at "
                        + (standIn.lastSuccessSeconds.map { zone.timestamp($0) } ?? "?")
                } ?? "")
        }
    }

    /// Whether every outage in `outages` has a stand-in: the alerts were rerouted, not lost (ALERTS REROUTED
    /// rather than NOBODY NOTIFIED).
    public static func areRerouted(_ outages: [Outage]) -> Bool {
        outages.allSatisfy { $0.standIn != nil }
    }

    /// The receivers that have failed every delivery for ``failingAfterSeconds`` or more at `now`, each with
    /// the fallback standing in for it.
    public func outages(at now: Int64) -> [Outage] {
        let all = receivers
        return all.filter { $0.hasFailed(forAtLeast: Self.failingAfterSeconds, at: now) }.map { receiver in
            let standIn = all.first { candidate in
                candidate.standsInFor == receiver.name && candidate.failingSinceSeconds == nil
                    && (candidate.lastSuccessSeconds ?? .min) >= (receiver.failingSinceSeconds ?? .max)
            }
            return Outage(receiver: receiver, standIn: standIn)
        }
    }
}

extension NotificationDeliveries.Receiver {
    /// "the alert receiver (alertmanager.example.com) has failed every delivery since 2026-11-02T18:02:00Z
    /// (HTTP 503); nobody was notified through it since 2026-11-02T17:40:00Z"; without its host for a reader
    /// without a key (`/readyz`).
    public func failingText(zone: TimeZoneOffsets = .utc, namingHost: Bool = true) -> String {
        let since = failingSinceSeconds.map { zone.timestamp($0) } ?? "?"
        let last = lastSuccessSeconds.map { "nobody was notified through it since \(zone.timestamp($0))" } ?? "it has taken no notification yet"
        return title + (namingHost ? " (\(host))" : "") + " has failed every delivery since \(since)" + (lastFailure.map { " (\($0))" } ?? "")
            + "; \(last)"
    }

    /// "the alert receiver", "the alert fallback", "the alert fallback 2", "the rollout receiver".
    public var title: String {
        if name == "alerts" { return "the alert receiver" }
        if name.hasPrefix("alerts-fallback") {
            let number = name.dropFirst("alerts-fallback".count).dropFirst()
            return "the alert fallback" + (number.isEmpty ? "" : " \(number)")
        }
        return "the \(name) receiver"
    }
}
