/// An email: recipients are fixed in the rules file; subject and bodies are templates.
public struct EmailAction: Sendable {
    public var to: [String]
    public var subject: NotificationTemplate
    public var text: NotificationTemplate
    /// When given the message is multipart/alternative with both bodies.
    public var html: NotificationTemplate?
    /// When given, its transitions go out grouped: one email per group (`EmailGrouping`).
    public var grouping: EmailGrouping?

    public init(to: [String], subject: NotificationTemplate, text: NotificationTemplate, html: NotificationTemplate?,
                grouping: EmailGrouping? = nil) {
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.grouping = grouping
    }
}
