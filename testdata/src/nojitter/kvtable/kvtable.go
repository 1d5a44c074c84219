// Package kvtable is a service's key-value store over whichever database it is configured
// with: each backend's operations sit in a table of functions, looked up by name.
package kvtable

import (
	"database/sql"
	"fmt"
	"os"
)

const (
	opInsert   = "insert"
	opFetchOne = "fetchone"
	opDelete   = "delete"
)

// ErrExpired is returned for an entry past its expiry.

var pgDB *sql.DB

var pgFunctions = map[string]interface{}{
	opInsert:   pgInsert,
	opFetchOne: pgFetchRecord,
	opDelete:   pgDeleteRecord,
}

var memFunctions = map[string]interface{}{
	opInsert:   memInsert,
	opFetchOne: memFetchRecord,
	opDelete:   memDeleteRecord,
}

var mem = map[string]string{}

func pgInsert(table, key, value string) error {
	_, err := pgDB.Exec("INSERT INTO "+table+" (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2", key, value)
	return err
}

func pgFetchRecord(table, key string) (string, error) {
	var value string
	if err := pgDB.QueryRow("SELECT value FROM "+table+" WHERE key = $1", key).Scan(&value); err != nil {
		return "", fmt.Errorf("fetch %s/%s: %w", table, key, err)
	}
	return value, nil
}

func pgDeleteRecord(table, key string) error {
	_, err := pgDB.Exec("DELETE FROM "+table+" WHERE key = $1", key)
	return err
}

func memInsert(table, key, value string) error { mem[table+"/"+key] = value; return nil }

func memFetchRecord(table, key string) (string, error) {
	v, ok := mem[table+"/"+key]
	if !ok {
		return "", fmt.Errorf("fetch %s/%s: not found", table, key)
	}
	return v, nil
}

func memDeleteRecord(table, key string) error { delete(mem, table+"/"+key); return nil }

func current() map[string]interface{} {
	switch os.Getenv("KV_BACKEND") {
	case "postgres":
		return pgFunctions
	default:
		return memFunctions
	}
}

// Insert stores a value.
func Insert(table, key, value string) error {
	return current()[opInsert].(func(string, string, string) error)(table, key, value)
}

// FetchRecord reads a value.
func FetchRecord(table, key string) (string, error) {
	return current()[opFetchOne].(func(string, string) (string, error))(table, key)
}

// Forget removes an entry from the in-memory table only: it stays in the process.
func Forget(key string) error {
	return memFunctions[opDelete].(func(string, string) error)("cache", key)
}
