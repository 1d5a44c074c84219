package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"
)

// Work on a schedule: a ticker made before the loop decides when each round runs, after a
// success as after a failure. A failure waits for the next tick; it is not retried sooner, and
// there is no backoff to jitter.

type scrapeConfig struct {
	Targets []string
	raw     []byte
}

func (c *scrapeConfig) equal(o *scrapeConfig) bool { return string(c.raw) == string(o.raw) }

func fetchConfig(ctx context.Context, hc *http.Client, src string) (*scrapeConfig, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", src, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch %s: %s", src, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	return &scrapeConfig{raw: b}, nil
}

type scraper struct {
	hc      *http.Client
	src     string
	every   time.Duration
	reloads atomic.Int64
	apply   func(*scrapeConfig)
}

// Run reloads the configuration on a signal or on each tick, and keeps the previous one when
// a reload fails.
func (s *scraper) Run(ctx context.Context, hup <-chan os.Signal) {
	cfg, err := fetchConfig(ctx, s.hc, s.src)
	if err != nil {
		log.Printf("initial config: %v", err)
		cfg = &scrapeConfig{}
	}
	var tick <-chan time.Time
	if s.every > 0 {
		t := time.NewTicker(s.every)
		defer t.Stop()
		tick = t.C
	}
	for {
		s.apply(cfg)
	wait:
		select {
		case <-ctx.Done():
			return
		case <-hup:
			next, err := fetchConfig(ctx, s.hc, s.src)
			if err != nil {
				log.Printf("reload on SIGHUP: %v; keeping the previous config", err)
				goto wait
			}
			if next.equal(cfg) {
				goto wait
			}
			cfg = next
		case <-tick:
			next, err := fetchConfig(ctx, s.hc, s.src)
			if err != nil {
				log.Printf("periodic reload: %v; keeping the previous config", err)
				goto wait
			}
			if next.equal(cfg) {
				goto wait
			}
			cfg = next
		}
		s.reloads.Add(1)
	}
}

type backend struct {
	addr   string
	broken atomic.Bool
	every  time.Duration
}

// probe checks a backend marked broken once per period until it accepts a connection.
func (b *backend) probe(ctx context.Context) {
	t := time.NewTicker(b.every)
	defer t.Stop()
	var d net.Dialer
	for {
		select {
		case <-t.C:
			dctx, cancel := context.WithTimeout(ctx, time.Second)
			c, err := d.DialContext(dctx, "tcp", b.addr)
			cancel()
			if err != nil {
				if errors.Is(ctx.Err(), context.Canceled) {
					return
				}
				log.Printf("backend %s still down: %v", b.addr, err)
				continue
			}
			c.Close()
			b.broken.Store(false)
			return
		case <-ctx.Done():
			return
		}
	}
}

// pushTo pushes the scraped batch to a collector each round.
func (s *scraper) pushTo(ctx context.Context, hc *http.Client, url string) {
	s.push(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("push: status %d", resp.StatusCode)
		}
		return nil
	})
}

// push retries inside each scheduled round, a fixed second apart: those retries are reported
// (the wait of the retry loop that makes it; pushTo hands it a request to a collector).
func (s *scraper) push(ctx context.Context, send func(context.Context) error) {
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for attempt := 0; attempt < 3; attempt++ {
			err := send(ctx)
			if err == nil {
				break
			}
			log.Printf("push: %v", err)
			time.Sleep(time.Second) // related "schedule.go:164: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
		}
	}
}

// waitUp polls with a ticker made for each call of it, but a timer made in the loop is a
// delay between attempts: reported.
func waitUp(ctx context.Context, hc *http.Client, url string) error {
	for i := 0; i < 30; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second): // related "schedule.go:178: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
		}
	}
	return errors.New("not up")
}

type release struct{ Tag string }

type upgrader struct {
	hc       *http.Client
	url      string
	interval time.Duration
	enabled  func() bool
	current  string
}

func (u *upgrader) latest(ctx context.Context) (*release, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := u.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var rel release
	if err := json.NewDecoder(resp.Body).Decode(&rel); err != nil {
		return nil, err
	}
	return &rel, nil
}

// autoUpgrade checks for a release on a timer, or when a peer with a newer version connects;
// a failed check waits the same interval as one that found nothing new.
func (u *upgrader) autoUpgrade(ctx context.Context, peers <-chan string, install func(*release) error) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		select {
		case v := <-peers:
			if v <= u.current {
				continue
			}
			log.Printf("peer runs %s, checking for upgrades", v)
		case <-timer.C:
		case <-ctx.Done():
			return
		}
		if !u.enabled() {
			timer.Reset(time.Hour)
			continue
		}
		rel, err := u.latest(ctx)
		if err != nil {
			log.Printf("upgrade check: %v", err)
			timer.Reset(u.interval)
			continue
		}
		if rel.Tag <= u.current {
			timer.Reset(u.interval)
			continue
		}
		if err := install(rel); err != nil {
			log.Printf("upgrade to %s: %v", rel.Tag, err)
			timer.Reset(u.interval)
			continue
		}
		return
	}
}

type pendingJob struct{ ID, Queue string }

type sweeper struct {
	acquire  func(ctx context.Context) (net.Conn, error)
	pending  func(ctx context.Context, c net.Conn) ([]pendingJob, error)
	announce func(ctx context.Context, j pendingJob)
	every    time.Duration
}

// sweep looks for jobs whose notification was missed, once per tick: when it cannot get a
// connection it waits for the next tick, as it does after a sweep.
func (s *sweeper) sweep(ctx context.Context) {
	ticker := time.NewTicker(s.every)
	defer ticker.Stop()
	for {
		conn, err := s.acquire(ctx)
		if err != nil {
			log.Printf("pending jobs: no connection: %v", err)
			<-ticker.C
			continue
		}
		jobs, err := s.pending(ctx, conn)
		conn.Close()
		if errors.Is(err, context.Canceled) {
			return
		}
		if err != nil {
			log.Printf("pending jobs: %v", err)
		}
		for _, j := range jobs {
			s.announce(ctx, j)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}
