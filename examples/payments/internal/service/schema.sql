-- The payments example's own tables (the idempotency table comes from pgstore.Migrate).

CREATE TABLE IF NOT EXISTS payments (
    id         text        PRIMARY KEY,
    tenant     text        NOT NULL,
    amount     bigint      NOT NULL CHECK (amount > 0),
    currency   text        NOT NULL,
    customer   text        NOT NULL,
    status     text        NOT NULL CHECK (status IN ('pending', 'succeeded')),
    charge_id  text,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS payments_tenant_created ON payments (tenant, created_at, id);

-- The provider's side: its own table, written outside the service's transactions (it stands for
-- another system). A charge is keyed by its idempotency key; a repeated key only counts a request.
CREATE TABLE IF NOT EXISTS provider_charges (
    key        text        PRIMARY KEY,
    id         text        NOT NULL UNIQUE,
    amount     bigint      NOT NULL,
    currency   text        NOT NULL,
    requests   integer     NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
