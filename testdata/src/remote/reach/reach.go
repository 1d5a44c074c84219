// Package reach: which functions may leave the process, themselves or through what they call
// (ReachFact): a retry protects a remote dependency only when its attempt reaches one.
package reach

import (
	"database/sql"
	"errors"
	"net"
	"net/http"
	"os"
	"time"
)

// ---- Local: no fact ----

// Lock takes a lock file, as a tool's retry loop does.
func Lock(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// Listen binds a local port: nothing leaves the machine.
func Listen(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }

// Open only validates its arguments: database/sql connects on first use.
func Open(dsn string) (*sql.DB, error) { return sql.Open("pgx", dsn) }

// Background starts its remote work in a goroutine it does not wait for.
func Background(url string) {
	go func() { http.Get(url) }() // want `HTTP call http.Get \(GET\): unbounded \(http.DefaultClient; no context\)`
}

// ---- Remote ----

// Resolve asks the DNS.
func Resolve(host string) ([]string, error) { return net.LookupHost(host) } // want Resolve:`reaches a remote call`

// Ping talks to the database.
func Ping(db *sql.DB) error { return db.Ping() } // want Ping:`reaches a remote call`

// Send writes to a connection.
func Send(c net.Conn, b []byte) error { // want Send:`reaches a remote call`
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, err := c.Write(b)
	return err
}

// Check reaches Resolve through a helper of its own.
func Check(host string) error { // want Check:`reaches a remote call`
	return check(host)
}

func check(host string) error {
	addrs, err := Resolve(host)
	if err == nil && len(addrs) == 0 {
		return errors.New("no address")
	}
	return err
}

// ---- Unknown: a dynamic call may leave ----

type Store interface {
	Put(key string, v []byte) error
}

// Save calls an interface of this package: its implementation decides.
func Save(s Store, key string) error { return s.Put(key, nil) } // want Save:`may reach a remote call`

// Run calls a function value.
func Run(op func() error) error { return op() } // want Run:`may reach a remote call`
