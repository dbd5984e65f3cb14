public import PurchaseSLIApplication
public import PurchaseSLICore

extension AlertRerouting {
    /// The word in Slack mrkdwn: ":rotating_light: The alert receiver (alertmanager.example.com) has failed every
    /// delivery since … (no answer): purchase-sli sends its alerts here until it answers again."
    public func slackText(zone: TimeZoneOffsets) -> String {
        switch self {
        case .takingOver(let receiver, let host, let since, let failure):
            return ":rotating_light: *\(TextEscaping.slackEntities(Self.capitalized(receiver)))* (\(TextEscaping.slackEntities(host))) has failed "
                + "every delivery since \(zone.timestamp(since))" + (failure.map { " (\(TextEscaping.slackEntities($0)))" } ?? "")
                + ": purchase-sli sends its alerts here until it answers again, so what fires below may not have reached on-call."
        case .handingBack(let receiver, let host, let at, let firing):
            return ":white_check_mark: *\(TextEscaping.slackEntities(Self.capitalized(receiver)))* (\(TextEscaping.slackEntities(host))) "
                + "takes the alerts again since \(zone.timestamp(at)), \(firing == 0 ? "no alert" : firing == 1 ? "1 alert" : "\(firing) alerts") "
                + "firing: this channel gets no more of them."
        }
    }

    private static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
