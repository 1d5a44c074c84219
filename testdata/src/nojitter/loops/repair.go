package loops

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"net"
)

// Loops that go round after repairing what the answer named: the server said the function is
// missing, the loop creates it and asks again. A few rounds, each after a fix, not a retry.

// pgError is a server's answer with its SQLSTATE code, as drivers return it.
type pgError struct {
	Code    string
	Message string
}

func (e *pgError) Error() string { return e.Code + ": " + e.Message }

const undefinedFunction = "42883"

const estimateFunc = `CREATE OR REPLACE FUNCTION row_estimate(q text) RETURNS bigint AS $$ ... $$ LANGUAGE plpgsql`

// querier is the connection or transaction a store runs on.
type querier interface {
	QueryOne(ctx context.Context, dest any, query string, args ...any) error
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type store struct {
	db querier
}

// Estimate asks the planner for a row estimate, creating the helper function the first time.
func (s *store) Estimate(ctx context.Context, query string) (int64, error) {
	var n int64
	var err error
	for i := 0; i < 3; i++ {
		err = s.db.QueryOne(ctx, &n, "SELECT row_estimate($1)", query)
		if err != nil {
			if pgErr, ok := err.(*pgError); ok && pgErr.Code == undefinedFunction {
				if _, cerr := s.db.Exec(ctx, estimateFunc); cerr != nil {
					return 0, fmt.Errorf("create row_estimate: %w", cerr)
				}
				log.Printf("created row_estimate, asking again")
				continue
			}
		}
		return n, err
	}
	return 0, err
}

// Reconnect goes round on a network failure after dialling again: the dependency is what
// failed, and dialling again at once five times hammers it.
func (s *store) Reconnect(ctx context.Context, addr string, ping func(net.Conn) error) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	for i := 0; i < 5; i++ { // related "repair.go:65: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		err = ping(conn)
		if err == nil {
			return nil
		}
		var opErr *net.OpError
		if !errors.As(err, &opErr) {
			return err
		}
		conn.Close()
		if conn, err = d.DialContext(ctx, "tcp", addr); err != nil {
			return err
		}
	}
	return err
}
