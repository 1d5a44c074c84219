// Package sqlcalls: database/sql calls.
package sqlcalls

import (
	"context"
	"database/sql"
	"time"
)

// ---- Reported ----

func query(db *sql.DB) {
	rows, _ := db.Query("SELECT id FROM orders") // related "sqlcalls.go:22: DB.QueryRow takes no context either" "sqlcalls.go:27: DB.Prepare takes no context either" "sqlcalls.go:28: Stmt.Exec takes no context either" "sqlcalls.go:32: DB.Begin takes no context either" "sqlcalls.go:33: Tx.Exec takes no context either" // want `DB\.Query and 5 more calls in this package take no context: a stalled database hangs them; use their Context forms`
	rows.Close()
}

func exec(ctx context.Context, db *sql.DB) {
	db.Exec("DELETE FROM sessions") // want `DB\.Exec takes no context, so a stalled database hangs this call; use ExecContext with ctx`
}

func queryRow(db *sql.DB) (n int) {
	db.QueryRow("SELECT count(*) FROM orders").Scan(&n)
	return n
}

func prepare(db *sql.DB) {
	stmt, _ := db.Prepare("SELECT 1")
	stmt.Exec()
}

func begin(db *sql.DB) {
	tx, _ := db.Begin()
	tx.Exec("UPDATE orders SET a=1")
	tx.Commit()
}

func queryContextBackground(db *sql.DB) {
	db.QueryContext(context.Background(), "SELECT 1") // related "sqlcalls.go:38: context.Background() has no deadline" // want `DB\.QueryContext's context has no deadline, so a stalled database hangs this call; use context\.WithTimeout`
}

func beginTxTODO(db *sql.DB) {
	db.BeginTx(context.TODO(), nil) // related "sqlcalls.go:42: context.TODO() has no deadline" // want `DB\.BeginTx's context has no deadline, so a stalled database hangs this call; use context\.WithTimeout`
}

func connExec(conn *sql.Conn) {
	conn.ExecContext(context.Background(), "SELECT 1") // related "sqlcalls.go:46: context.Background() has no deadline" // want `Conn\.ExecContext's context has no deadline, so a stalled database hangs this call; use context\.WithTimeout`
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
