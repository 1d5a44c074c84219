package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// A chat client whose sync loop asks its SyncPolicy how long to wait after a failed sync. The
// package's default SyncPolicy waits a fixed 10 s: every bot of a restarted server syncs again in
// step. A SyncPolicy interface with a jittering implementation beside the fixed one is not judged
// fixed.
type SyncPolicy interface {
	ProcessResponse(resp *syncAnswer) error
	OnFailedSync(resp *syncAnswer, err error) (time.Duration, error)
}

type syncAnswer struct {
	NextBatch string `json:"next_batch"`
}

type fixedPolicy struct{}

func (fixedPolicy) ProcessResponse(*syncAnswer) error { return nil }

func (fixedPolicy) OnFailedSync(_ *syncAnswer, err error) (time.Duration, error) {
	if err == context.Canceled {
		return 0, err
	}
	return 10 * time.Second, nil
}

type matrixClient struct {
	hc         *http.Client
	base       string
	SyncPolicy SyncPolicy
}

func newMatrixClient(base string) *matrixClient {
	return &matrixClient{hc: &http.Client{Timeout: 60 * time.Second}, base: base, SyncPolicy: fixedPolicy{}}
}

func (c *matrixClient) syncOnce(ctx context.Context, since string) (*syncAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/sync?since="+since, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("sync: %s", resp.Status)
	}
	var out syncAnswer
	return &out, json.NewDecoder(resp.Body).Decode(&out)
}

func (c *matrixClient) Sync(ctx context.Context) error {
	since := ""
	for {
		res, err := c.syncOnce(ctx, since)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			d, err := c.SyncPolicy.OnFailedSync(res, err)
			if err != nil {
				return err
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d): // related "syncerwait.go:65: long-running loop" // want `long-running loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			}
			continue
		}
		if err := c.SyncPolicy.ProcessResponse(res); err != nil {
			return err
		}
		since = res.NextBatch
	}
}

// A second client whose SyncPolicy may be the jittering one.
type DelayPolicy interface {
	Delay(attempt int) time.Duration
}

type fixedDelayPolicy struct{}

func (fixedDelayPolicy) Delay(int) time.Duration { return 5 * time.Second }

type spreadDelayPolicy struct{}

func (spreadDelayPolicy) Delay(attempt int) time.Duration {
	return rand.N(time.Duration(attempt+1) * time.Second)
}

func (c *matrixClient) SyncWith(ctx context.Context, b DelayPolicy) error {
	for attempt := 0; ; attempt++ {
		res, err := c.syncOnce(ctx, "")
		if err == nil {
			return c.SyncPolicy.ProcessResponse(res)
		}
		if attempt >= 5 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.Delay(attempt)):
		}
	}
}
