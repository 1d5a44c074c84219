// Package sqlcalls: database/sql calls.
package sqlcalls

import (
	"context"
	"database/sql"
	"time"
)

// ---- Reported ----

func query(db *sql.DB) {
	rows, _ := db.Query("SELECT id FROM orders") // want `sql.DB.Query takes no context, so nothing bounds it: a stalled database blocks this call forever; use QueryContext with a context that has a deadline`
	rows.Close()
}

func exec(ctx context.Context, db *sql.DB) {
	db.Exec("DELETE FROM sessions") // want `sql.DB.Exec takes no context, so nothing bounds it: a stalled database blocks this call forever; use ExecContext with ctx`
}

func queryRow(db *sql.DB) (n int) {
	db.QueryRow("SELECT count(*) FROM orders").Scan(&n) // want `sql.DB.QueryRow takes no context`
	return n
}

func prepare(db *sql.DB) {
	stmt, _ := db.Prepare("SELECT 1") // want `sql.DB.Prepare takes no context`
	stmt.Exec()                       // want `sql.Stmt.Exec takes no context`
}

func begin(db *sql.DB) {
	tx, _ := db.Begin()              // want `sql.DB.Begin takes no context, so nothing bounds it: a stalled database blocks this call forever; use BeginTx`
	tx.Exec("UPDATE orders SET a=1") // want `sql.Tx.Exec takes no context`
	tx.Commit()
}

func queryContextBackground(db *sql.DB) {
	db.QueryContext(context.Background(), "SELECT 1") // want `sql.DB.QueryContext gets a context without a deadline, from context.Background\(\) \(line 38\): a stalled database blocks this call forever; derive one with context.WithTimeout`
}

func beginTxTODO(db *sql.DB) {
	db.BeginTx(context.TODO(), nil) // want `sql.DB.BeginTx gets a context without a deadline`
}

func connExec(conn *sql.Conn) {
	conn.ExecContext(context.Background(), "SELECT 1") // want `sql.Conn.ExecContext gets a context without a deadline`
}

// ---- Not reported ----

func queryWithCallersContext(ctx context.Context, db *sql.DB) {
	db.QueryContext(ctx, "SELECT 1")
}

func queryDeadline(db *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	db.ExecContext(ctx, "SELECT 1")
	tx, _ := db.BeginTx(ctx, nil)
	tx.ExecContext(ctx, "UPDATE orders SET a=1")
	tx.Commit()
	tx.Rollback()
}

func ping(db *sql.DB) {
	db.Ping() // a startup check; not in the list of calls the check reports
}
