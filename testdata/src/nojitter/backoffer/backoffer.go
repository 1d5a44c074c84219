// Package backoffer is a client library's backoff: a Backoffer sleeps, per kind of failure, with a
// function made from a configuration table (exponential, with or without jitter), kept per
// kind and made on first use, under a total sleep budget.
package backoffer

import (
	"context"
	"errors"
	"math/rand"
	"time"
)

type fnCfg struct{ base, cap, jitter int }

type Config struct {
	name string
	cfg  fnCfg
}

func NewConfig(name string, base, cap, jitter int) *Config {
	return &Config{name: name, cfg: fnCfg{base, cap, jitter}}
}

var BoRPC = NewConfig("rpc", 100, 3000, 1)

type backoffFn func(ctx context.Context, maxSleepMs int) int

func (c *Config) create() backoffFn { return newBackoffFn(c.cfg.base, c.cfg.cap, c.cfg.jitter) }

func newBackoffFn(base, cap, jitter int) backoffFn {
	attempts := 0
	return func(ctx context.Context, maxSleepMs int) int {
		v := base << attempts
		if v > cap {
			v = cap
		}
		sleep := v
		if jitter == 1 {
			sleep = rand.Intn(v)
		}
		select {
		case <-time.After(time.Duration(sleep) * time.Millisecond):
			attempts++
			return sleep
		case <-ctx.Done():
			return 0
		}
	}
}

type Backoffer struct {
	ctx        context.Context
	fn         map[string]backoffFn
	maxSleep   int
	totalSleep int
}

func NewBackoffer(ctx context.Context, maxSleep int) *Backoffer {
	return &Backoffer{ctx: ctx, maxSleep: maxSleep}
}

func (b *Backoffer) Backoff(cfg *Config, err error) error {
	return b.BackoffWithMax(cfg, -1, err)
}

func (b *Backoffer) BackoffWithMax(cfg *Config, maxSleepMs int, err error) error {
	if b.totalSleep >= b.maxSleep {
		return errors.New("backoff budget exhausted")
	}
	if b.fn == nil {
		b.fn = make(map[string]backoffFn)
	}
	f, ok := b.fn[cfg.name]
	if !ok {
		f = cfg.create()
		b.fn[cfg.name] = f
	}
	b.totalSleep += f(b.ctx, maxSleepMs)
	return nil
}
