// Package proc runs a pool's background work: Run starts the function in a goroutine that
// Close waits for, but Run's caller does not.
package proc

import (
	"context"
	"sync"
)

type Proc struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	closed bool
}

func New() *Proc {
	ctx, cancel := context.WithCancel(context.Background())
	return &Proc{ctx: ctx, cancel: cancel}
}

// Run starts fn in the background.
func (p *Proc) Run(fn func(ctx context.Context)) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		fn(p.ctx)
	}()
}

func (p *Proc) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
}

// Group runs functions in goroutines; Wait waits for them and returns the first error.
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

func (g *Group) Go(fn func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := fn(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}
