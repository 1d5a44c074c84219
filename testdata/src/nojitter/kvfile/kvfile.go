// Package kvfile is an embedded key-value store kept in one local file, and a cache of blobs
// that another service serves. Both take the function they reach the world through from their
// options, with a default: the store opens its file with os.OpenFile unless told otherwise, the
// cache fetches over HTTP unless told otherwise.
package kvfile

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"
)

// ErrTimeout is returned when the file stays locked by another process for Options.Timeout.
var ErrTimeout = errors.New("kvfile: timeout waiting for the file lock")

// Options configure Open.
type Options struct {
	// Timeout is how long Open waits for another process's lock; zero waits for ever.
	Timeout  time.Duration
	ReadOnly bool
	// OpenFile opens the file; it defaults to os.OpenFile.
	OpenFile func(name string, flag int, perm os.FileMode) (*os.File, error)
}

// DB is an open store.
type DB struct {
	path     string
	file     *os.File
	openFile func(string, int, os.FileMode) (*os.File, error)
	// ops are the file operations, replaced by tests to inject faults.
	ops struct {
		writeAt func(b []byte, off int64) (int, error)
	}
	readOnly bool
	mu       sync.Mutex
	data     map[string][]byte
}

// Open opens the store at path, taking the file's lock.
func Open(path string, mode os.FileMode, options *Options) (*DB, error) {
	if options == nil {
		options = &Options{Timeout: time.Second}
	}
	db := &DB{path: path, readOnly: options.ReadOnly, data: make(map[string][]byte)}
	db.openFile = options.OpenFile
	if db.openFile == nil {
		db.openFile = os.OpenFile
	}
	flag := os.O_RDWR | os.O_CREATE
	if db.readOnly {
		flag = os.O_RDONLY
	}
	f, err := db.openFile(path, flag, mode)
	if err != nil {
		return nil, fmt.Errorf("kvfile: open %s: %w", path, err)
	}
	db.file = f
	if err := flock(f, !db.readOnly, options.Timeout); err != nil {
		f.Close()
		return nil, err
	}
	db.ops.writeAt = f.WriteAt
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if info.Size() == 0 && !db.readOnly {
		if err := db.init(); err != nil {
			f.Close()
			return nil, fmt.Errorf("kvfile: init %s: %w", path, err)
		}
	}
	return db, nil
}

// init writes the header page of a new file.
func (db *DB) init() error {
	page := make([]byte, 4096)
	copy(page, "kvfile\x00\x01")
	if _, err := db.ops.writeAt(page, 0); err != nil {
		return err
	}
	return db.file.Sync()
}

// flock takes the file's lock, trying again every 50ms until timeout.
func flock(f *os.File, exclusive bool, timeout time.Duration) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	start := time.Now()
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if err != syscall.EWOULDBLOCK {
			return err
		}
		if timeout != 0 && time.Since(start) > timeout {
			return ErrTimeout
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Close releases the lock and the file.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.ops.writeAt = nil
	return db.file.Close()
}

// CacheOptions configure NewCache.
type CacheOptions struct {
	BaseURL string
	// Fetch gets a blob; it defaults to a GET of BaseURL/key.
	Fetch func(key string) ([]byte, error)
}

// Cache keeps blobs fetched from a blob service.
type Cache struct {
	base  string
	fetch func(string) ([]byte, error)
	mu    sync.Mutex
	blobs map[string][]byte
}

// NewCache makes a cache.
func NewCache(opts CacheOptions) *Cache {
	c := &Cache{base: opts.BaseURL, blobs: make(map[string][]byte)}
	c.fetch = opts.Fetch
	if c.fetch == nil {
		c.fetch = c.get
	}
	return c
}

var client = &http.Client{Timeout: 30 * time.Second}

func (c *Cache) get(key string) ([]byte, error) {
	resp, err := client.Get(c.base + "/" + key)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: %s", key, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// Get returns the blob key, fetching it when it is not cached yet.
func (c *Cache) Get(key string) ([]byte, error) {
	c.mu.Lock()
	b, ok := c.blobs[key]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := c.fetch(key)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.blobs[key] = b
	c.mu.Unlock()
	return b, nil
}
