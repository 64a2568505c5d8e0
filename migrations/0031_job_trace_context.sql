-- One trace from a webhook to its callback (issue 32): a job carries the W3C traceparent of
-- what enqueued it (the webhook's receipt, a reconcile), so its run continues that trace. NULL
-- while tracing is off. Expand only: an older release neither writes nor reads it.
ALTER TABLE jobs ADD COLUMN trace_parent text;
