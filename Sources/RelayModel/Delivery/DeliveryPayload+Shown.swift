extension DeliveryPayload {
    /// The stored form as people may see it: a webhook's URL masked (`MaskedURL`), since a
    /// chat service's incoming-webhook URL, or a partner's with a token in it, is a secret.
    public var shownJSON: JSONValue {
        guard case .webhook(let webhook) = self, case .object(var fields) = json else { return json }
        fields["url"] = .string(MaskedURL.mask(webhook.url))
        return .object(fields)
    }
}
