// Package pacer spaces the rounds of a loop: New takes the context that ends them.
package pacer

import (
	"context"
	"math/rand/v2"
	"time"
)

type Config struct {
	Min, Max time.Duration
	Rounds   int // 0: until the context ends
}

type Pacer struct {
	ctx   context.Context
	cfg   Config
	round int
	err   error
}

func New(ctx context.Context, cfg Config) *Pacer { return &Pacer{ctx: ctx, cfg: cfg} }

// Going reports whether another round may start.
func (p *Pacer) Going() bool {
	if p.err = p.ctx.Err(); p.err != nil {
		return false
	}
	return p.cfg.Rounds == 0 || p.round < p.cfg.Rounds
}

// Pause waits before the next round, or until the context ends.
func (p *Pacer) Pause() {
	d := min(p.cfg.Min<<p.round, p.cfg.Max)
	p.round++
	t := time.NewTimer(d/2 + rand.N(d/2+1))
	defer t.Stop()
	select {
	case <-p.ctx.Done():
	case <-t.C:
	}
}

func (p *Pacer) Err() error { return p.err }
