-- pgstore schema, version 1.
--
-- One row per (scope, key). Fencing tokens come from a sequence so that they are never reused,
-- even after a row is deleted (release, reaping). Steps (recovery points) are a JSON object of
-- step name -> recorded result. Times are written by the store (its clock, or clock_timestamp()).

CREATE SEQUENCE idempotency_fence_seq;

CREATE TABLE idempotency_keys (
    scope        text        NOT NULL,
    key          text        NOT NULL,
    fingerprint  text        NOT NULL,
    state        text        NOT NULL CHECK (state IN ('in_progress', 'completed')),
    token        bigint      NOT NULL,
    locked_until timestamptz,          -- end of the lease while in progress
    steps        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    status       integer,              -- the stored response, once completed
    header       jsonb,
    body         bytea,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL, -- created_at + retention window
    completed_at timestamptz,
    PRIMARY KEY (scope, key),
    CHECK ((state = 'completed') = (status IS NOT NULL)),
    CHECK ((state = 'in_progress') = (locked_until IS NOT NULL))
);

CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
