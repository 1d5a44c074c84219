// Package reach: which functions may leave the process, themselves or through what they call
// (ReachFact): a retry protects a remote dependency only when its attempt reaches one.
package reach

import (
	"database/sql"
	"errors"
	"io"
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

// Run calls the function value it is handed: the callback decides, and each caller counts
// the one it hands in (RunGet, RunRemove).
func Run(op func() error) error { return op() }

// RunGet hands Run a callback that makes a request: remote.
func RunGet(url string) error { // want RunGet:`reaches a remote call`
	return Run(func() error {
		resp, err := http.Get(url) // want `HTTP call http.Get \(GET\): unbounded \(http.DefaultClient; no context\)`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// RunRemove hands it one that removes a file: local.
func RunRemove(path string) error {
	return Run(func() error { return os.Remove(path) })
}

// RunHook hands it a callback it was itself handed: its own callers count it, as Run's do.
func RunHook(op func() error) error { return Run(op) }

// Handler holds a fallible hook set elsewhere.
type Handler struct{ Do func() error }

// RunField hands Run a hook of a field: may reach.
func (h *Handler) RunField() error { return Run(h.Do) } // want RunField:`may reach a remote call`

// ---- Unknown only near the attempt, and only where a dynamic call can fail ----

// Named answers without failing: an interface method with no error is not a remote call.
type Named interface {
	Name() string
}

// Label calls a method that cannot fail: local.
func Label(n Named) string { return "label:" + n.Name() }

// Hook holds a function-valued field that cannot fail.
type Hook struct {
	OnDone func(key string)
	Fetch  func(key string) ([]byte, error)
}

// Notify calls a hook that cannot fail: local.
func (h *Hook) Notify(key string) { h.OnDone(key) }

// Load calls a hook that can: its target decides.
func (h *Hook) Load(key string) ([]byte, error) { return h.Fetch(key) } // want Load:`may reach a remote call`

// Each hands every element to the caller's callback: the callback is the caller's code.
func Each(keys []string, yield func(string) bool) {
	for _, k := range keys {
		if !yield(k) {
			return
		}
	}
}

// Near reaches an interface method through one helper of its own: may reach.
func Near(s Store) error { return near(s) } // want Near:`may reach a remote call`

func near(s Store) error {
	if err := s.Put("k", nil); err != nil {
		return errors.Join(errors.New("put"), err)
	}
	return nil
}

// Far reaches it through two: too far from the attempt to count (a label builder's or a
// logger's dynamic call as often as a transport's); a remote call would still count.
func Far(s Store) error { return far(s) }

func far(s Store) error { return near(s) }

// FarRemote reaches a remote call through two helpers: remote however deep.
func FarRemote(host string) error { return farRemote(host) } // want FarRemote:`reaches a remote call`

func farRemote(host string) error { return check(host) }

// Closures are resolved where they are made: a local one stays local, a remote one is remote.
func Closures(path, url string) error { // want Closures:`reaches a remote call`
	remove := func() error { return os.Remove(path) }
	if err := remove(); err != nil {
		return err
	}
	get := func() error {
		resp, err := http.Get(url) // want `HTTP call http.Get \(GET\): unbounded \(http.DefaultClient; no context\)`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	return get()
}

// LocalClosure only calls a closure that removes a file: local.
func LocalClosure(path string) error {
	remove := func() error { return os.Remove(path) }
	for range 3 {
		if err := remove(); err == nil {
			return nil
		}
	}
	return nil
}

// Remover removes files.
type Remover struct{ dir string }

func (r *Remover) remove() error { return os.Remove(r.dir) }

// RunMethod hands Run a method value of its own package that stays local.
func (r *Remover) RunMethod() error { return Run(r.remove) }

// ---- An unexported interface: its implementations are this package's own ----

type backend interface {
	Add(path string) error
	Remove(path string) error
}

type inotify struct{ paths map[string]bool }

func (b *inotify) Add(path string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	b.paths[path] = true
	return nil
}

func (b *inotify) Remove(path string) error { delete(b.paths, path); return nil }

type polling struct{ url string }

func (p polling) Add(path string) error { return nil }

func (p polling) Remove(path string) error { // want Remove:`reaches a remote call`
	resp, err := http.Get(p.url + "?remove=" + path) // want `HTTP call http.Get \(GET\): unbounded \(http.DefaultClient; no context\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Watcher adds and removes paths through its backend.
type Watcher struct{ b backend }

// Add reaches only the backends' Add methods, which stay local.
func (w *Watcher) Add(path string) error { return w.b.Add(path) }

// Remove reaches polling's, which makes a request.
func (w *Watcher) Remove(path string) error { return w.b.Remove(path) } // want Remove:`reaches a remote call`

// ---- Constructors that return one concrete type behind an interface (concreteFact) ----

// Cache is what the constructors below return.
type Cache interface {
	Get(key string) ([]byte, error)
	Name() string
}

type diskCache struct{ dir string }

func (d *diskCache) Get(key string) ([]byte, error) { return os.ReadFile(d.dir + "/" + key) }
func (d *diskCache) Name() string                   { return "disk" }

type httpCache struct {
	base string
	c    *http.Client
}

func (h *httpCache) Get(key string) ([]byte, error) { // want Get:`reaches a remote call`
	resp, err := h.c.Get(h.base + "/" + key) // want `HTTP call http.Client.Get \(GET\): bounded by http.Client.Timeout`
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func (h *httpCache) Name() string { return "http" }

// NewDiskCache's value stays on this machine.
func NewDiskCache(dir string) Cache { return &diskCache{dir: dir} } // want NewDiskCache:`returns one concrete type: remote \[\], unknown \[\]`

// NewHTTPCache's Get makes a request.
func NewHTTPCache(base string) (Cache, error) { // want NewHTTPCache:`returns one concrete type: remote \[Get\], unknown \[\]`
	if base == "" {
		return nil, errors.New("no base URL")
	}
	return &httpCache{base: base, c: &http.Client{Timeout: 5 * time.Second}}, nil
}

// NewCache returns either, by its argument.
func NewCache(url string) Cache { // want NewCache:`returns one concrete type: remote \[Get\], unknown \[\]`
	if url == "" {
		return NewDiskCache(os.TempDir())
	}
	c, err := NewHTTPCache(url)
	if err != nil {
		return NewDiskCache(os.TempDir())
	}
	return c
}

// NewAny returns what its caller hands in: its concrete type is not in view.
func NewAny(c Cache) Cache { return c }

// warm reads through the cache its callers hand in, all of them from NewDiskCache: local.
func warm(c Cache, keys []string) error {
	for _, k := range keys {
		if _, err := c.Get(k); err != nil {
			return err
		}
	}
	return nil
}

// Warm stays local: warm's only caller hands it a disk cache.
func Warm(keys []string) error { return warm(NewDiskCache("/var/cache/app"), keys) }
