-- The support schema's deliveries view shows alert deliveries too (issue 32: their cause is an
-- operational transition, not an item's): the same columns, in the same order, the transition
-- taken from whichever cause the delivery has. relay_support keeps its grant on the view.
CREATE OR REPLACE VIEW support.deliveries AS
SELECT d.id, d.entrupy_id, coalesce(e.kind, o.kind) AS transition, d.rule, d.channel, d.target, d.state, d.attempts, d.last_error,
       d.idempotency_key, d.created_at, d.next_attempt_at, d.delivered_at
FROM deliveries d
LEFT JOIN item_events e ON e.id = d.item_event_id
LEFT JOIN operational_events o ON o.id = d.operational_event_id;
