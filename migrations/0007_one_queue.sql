-- One job queue, one delivery state machine.
--
-- Jobs count the runs whose worker died while running them (the lease expired): after
-- JOB_MAX_CRASHES such runs a job is dead instead of taking down the next worker.
ALTER TABLE jobs ADD COLUMN crashes integer NOT NULL DEFAULT 0 CHECK (crashes >= 0);

-- The queue notifies relay_jobs itself, in the statement that makes work claimable (enqueue,
-- rescue, redrive), so one place owns the channel: the insert trigger goes.
DROP TRIGGER jobs_notify_on_insert ON jobs;
DROP FUNCTION relay_jobs_notify();

-- The delivery row is the truth for a delivery. The retry schedule counts attempts from the
-- last redrive: attempts made before it are schedule_base.
ALTER TABLE deliveries ADD COLUMN schedule_base integer NOT NULL DEFAULT 0 CHECK (schedule_base >= 0);
ALTER TABLE deliveries ADD CONSTRAINT deliveries_schedule_base_within CHECK (schedule_base <= attempts);
