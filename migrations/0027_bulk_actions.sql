-- Every bulk action that ran (issue 32): who asked, when, with which filters, how many
-- deliveries matched and how many were queued. A dry run is not recorded. (A bulk redrive
-- finds its deliveries through deliveries_state: dead and failed ones are few.)
CREATE TABLE bulk_actions (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action       text        NOT NULL CHECK (action IN ('retry_deliveries')),
    requested_at timestamptz NOT NULL DEFAULT now(),
    requested_by text        NOT NULL,
    filters      jsonb       NOT NULL,
    matched      integer     NOT NULL,
    queued       integer     NOT NULL
);
