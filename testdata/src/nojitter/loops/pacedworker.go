package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// A worker that takes jobs from a coordinator over HTTP and paces the jobs it runs. When the
// coordinator is down, a claim fails at once; a loop that then goes round without waiting
// spins against it.
type jobClaimer struct {
	hc   *http.Client
	base string
	id   string
}

var errNoClaim = errors.New("no job ready")

type claimedJob struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

func (c *jobClaimer) claim(ctx context.Context) (*claimedJob, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/jobs/next?worker="+c.id, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("claim: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNoContent {
		return nil, errNoClaim
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("claim: %s", resp.Status)
	}
	var j claimedJob
	if err := json.NewDecoder(resp.Body).Decode(&j); err != nil {
		return nil, fmt.Errorf("claim: decode: %w", err)
	}
	return &j, nil
}

// ---- Reported: a failed claim goes round at once; only a job run is followed by a pause ----

func (c *jobClaimer) work(ctx context.Context, run func(*claimedJob)) {
	for ctx.Err() == nil { // related "pacedworker.go:57: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		j, err := c.claim(ctx)
		if err != nil {
			log.Printf("worker %s: claim failed: %v", c.id, err)
			continue
		}
		run(j)
		time.Sleep(time.Second)
	}
}

// ---- Not reported: a failed claim waits too; a claim that found no job goes round at once ----

func (c *jobClaimer) workPaced(ctx context.Context, run func(*claimedJob)) {
	for ctx.Err() == nil {
		j, err := c.claim(ctx)
		if err != nil {
			log.Printf("worker %s: claim failed: %v", c.id, err)
			time.Sleep(time.Second + rand.N(time.Second))
			continue
		}
		run(j)
		time.Sleep(time.Second)
	}
}

func (c *jobClaimer) workLongPoll(ctx context.Context, run func(*claimedJob)) error {
	for ctx.Err() == nil {
		j, err := c.claim(ctx)
		if errors.Is(err, errNoClaim) {
			continue
		}
		if err != nil {
			return err
		}
		run(j)
		time.Sleep(time.Second)
	}
	return ctx.Err()
}
