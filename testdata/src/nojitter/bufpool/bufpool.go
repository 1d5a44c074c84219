// Package bufpool hands out buffers, allocating with a function kept in a field: a local
// allocator (the heap, or a memory map) that the constructor chooses. Waiting for memory to
// come back stays in the process: not the herd jitter prevents. A pool whose refill function
// fetches from a remote cache is.
package bufpool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"syscall"
	"time"
)

var errNoMemory = errors.New("bufpool: out of memory")

type Pool struct {
	mu      sync.Mutex
	size    int
	limit   int
	inUse   int
	cache   [][]byte
	alloc   func(int) ([]byte, error)
	release func([]byte) error
}

func mmapAlloc(n int) ([]byte, error) {
	return syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
}

func New(size, limit int, useMmap bool) *Pool {
	p := &Pool{size: size, limit: limit}
	if useMmap {
		p.alloc, p.release = mmapAlloc, syscall.Munmap
	} else {
		p.alloc = func(n int) ([]byte, error) {
			if n <= 0 {
				return nil, fmt.Errorf("bufpool: bad size %d", n)
			}
			return make([]byte, n), nil
		}
		p.release = func([]byte) error { return nil }
	}
	return p
}

// Get waits, backing off, until a buffer can be allocated.
func (p *Pool) Get() []byte {
	wait := time.Millisecond
	for {
		p.mu.Lock()
		if n := len(p.cache); n > 0 {
			b := p.cache[n-1]
			p.cache = p.cache[:n-1]
			p.inUse++
			p.mu.Unlock()
			return b
		}
		var (
			b   []byte
			err = errNoMemory
		)
		if p.inUse < p.limit {
			b, err = p.alloc(p.size)
		}
		if err == nil {
			p.inUse++
			p.mu.Unlock()
			return b
		}
		p.mu.Unlock()
		log.Printf("bufpool: no buffer (%v), waiting %v", err, wait)
		time.Sleep(wait)
		wait *= 2
	}
}

// Put gives a buffer back.
func (p *Pool) Put(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inUse--
	p.cache = append(p.cache, b)
}

// Chunks fetches chunks from a remote cache through a function kept in a field.
type Chunks struct {
	fetch func(ctx context.Context, key string) ([]byte, error)
}

func NewChunks(base string, hc *http.Client) *Chunks {
	return &Chunks{fetch: func(ctx context.Context, key string) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/chunks/"+key, nil)
		if err != nil {
			return nil, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("bufpool: chunk %s: %s", key, resp.Status)
		}
		return io.ReadAll(resp.Body)
	}}
}

// Get asks the remote cache again, backing off without jitter, until it answers.
func (c *Chunks) Get(ctx context.Context, key string) ([]byte, error) {
	wait := 10 * time.Millisecond
	for attempt := 0; attempt < 6; attempt++ {
		b, err := c.fetch(ctx, key)
		if err == nil {
			return b, nil
		}
		log.Printf("bufpool: chunk %s: %v", key, err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait): // related "bufpool.go:116: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
		wait *= 2
	}
	return nil, fmt.Errorf("bufpool: chunk %s: giving up", key)
}
