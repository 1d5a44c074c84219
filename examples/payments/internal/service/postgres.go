package service

import (
	"context"
	_ "embed"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/idemlint/idemlint/runtime/idempotency/pgstore"
)

//go:embed schema.sql
var schemaSQL string

// MigratePostgres creates the example's tables if they are missing.
func MigratePostgres(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('idemlint/examples/payments/' || current_schema()))`); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, schemaSQL); err != nil {
		return fmt.Errorf("creating the payments tables: %w", err)
	}
	return tx.Commit(ctx)
}

// PostgresRepo keeps payments in PostgreSQL. Create and MarkSucceeded write through the
// idempotency step's transaction (pgstore.Tx), so a payment and its recovery point commit together.
type PostgresRepo struct{ Pool *pgxpool.Pool }

const paymentColumns = `id, amount, currency, customer, status, coalesce(charge_id, '')`

func scanPayment(row pgx.Row) (Payment, error) {
	var p Payment
	err := row.Scan(&p.ID, &p.Amount, &p.Currency, &p.Customer, &p.Status, &p.ChargeID)
	if errors.Is(err, pgx.ErrNoRows) {
		return Payment{}, ErrNotFound
	}
	return p, err
}

// Create implements Repo.
func (r PostgresRepo) Create(ctx context.Context, tenant string, p Payment) (Payment, error) {
	tx, err := pgstore.Tx(ctx)
	if err != nil {
		return Payment{}, err
	}
	return scanPayment(tx.QueryRow(ctx, `
INSERT INTO payments (id, tenant, amount, currency, customer, status) VALUES ($1, $2, $3, $4, $5, $6)
RETURNING `+paymentColumns, p.ID, tenant, p.Amount, p.Currency, p.Customer, p.Status))
}

// MarkSucceeded implements Repo.
func (r PostgresRepo) MarkSucceeded(ctx context.Context, tenant, id, chargeID string) (Payment, error) {
	tx, err := pgstore.Tx(ctx)
	if err != nil {
		return Payment{}, err
	}
	return scanPayment(tx.QueryRow(ctx, `
UPDATE payments SET status = 'succeeded', charge_id = $3 WHERE tenant = $1 AND id = $2
RETURNING `+paymentColumns, tenant, id, chargeID))
}

// Get implements Repo.
func (r PostgresRepo) Get(ctx context.Context, tenant, id string) (Payment, error) {
	return scanPayment(r.Pool.QueryRow(ctx, `SELECT `+paymentColumns+` FROM payments WHERE tenant = $1 AND id = $2`, tenant, id))
}

// List implements Repo.
func (r PostgresRepo) List(ctx context.Context, tenant string) ([]Payment, error) {
	rows, err := r.Pool.Query(ctx, `SELECT `+paymentColumns+` FROM payments WHERE tenant = $1 ORDER BY created_at, id`, tenant)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Payment, error) { return scanPayment(row) })
}

// PostgresProvider is the provider with its charges in PostgreSQL, so that its count survives a
// crash of the service. It writes outside the service's transactions: it stands for another system.
type PostgresProvider struct{ Pool *pgxpool.Pool }

const chargeColumns = `id, key, amount, currency, requests`

func scanCharge(row pgx.Row) (Charge, error) {
	var c Charge
	err := row.Scan(&c.ID, &c.Key, &c.Amount, &c.Currency, &c.Requests)
	return c, err
}

// Charge implements Provider: one upsert by key.
func (p PostgresProvider) Charge(ctx context.Context, key string, amount int64, currency string) (Charge, error) {
	c, err := scanCharge(p.Pool.QueryRow(ctx, `
INSERT INTO provider_charges (key, id, amount, currency) VALUES ($1, $2, $3, $4)
ON CONFLICT (key) DO UPDATE SET requests = provider_charges.requests + 1
RETURNING `+chargeColumns, key, newID("ch_"), amount, currency))
	if err != nil {
		return Charge{}, err
	}
	if c.Amount != amount || c.Currency != currency {
		return Charge{}, fmt.Errorf("provider: key %s was used for another charge", key)
	}
	return c, nil
}

// Charges implements Provider.
func (p PostgresProvider) Charges(ctx context.Context) ([]Charge, error) {
	rows, err := p.Pool.Query(ctx, `SELECT `+chargeColumns+` FROM provider_charges ORDER BY created_at, key`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Charge, error) { return scanCharge(row) })
}
