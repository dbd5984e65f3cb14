import PurchaseSLICore

extension RecordReject {
    /// The `field` label of `purchase_sli_events_rejected_total`: ``field`` when it is one of the event
    /// format's fields or of the envelopes' parts the decoders name, else `other`. Never the client's own
    /// text: an OTLP attribute's key is the sender's to choose, and one label per key would grow `/metrics`
    /// (and the memory behind it) without bound. The answer of the request still names the field itself.
    public var metricField: String { Self.metricFields.contains(field) ? field : Self.otherMetricField }

    /// The label of a field that is none of ``metricFields``.
    public static let otherMetricField = "other"

    /// Every field named by its own label: the event format's fields and the parts of the formats'
    /// envelopes (`json` for malformed JSON, `record` for an over-long record, New Relic's `eventType`,
    /// OTLP's `resourceLogs`, `attributes` and `timeUnixNano`). With ``otherMetricField``, the label's only
    /// values: 29 series at most.
    public static let metricFields: Set<String> = Set(EventField.allCases.map(\.name)).union([
        "json", "record", "eventType", "resourceLogs", "attributes", "timeUnixNano",
    ])
}
