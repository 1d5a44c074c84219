package libs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/buildkite/roko"
)

// An agent that talks to its control plane through buildkite/roko retriers: a strategy waits
// the same for every agent unless jitter is turned on.

type agentAPI struct {
	hc    *http.Client
	base  string
	token string
	log   *slog.Logger
}

type jobState struct {
	ID     string `json:"id"`
	State  string `json:"state"`
	Signal string `json:"signal,omitempty"`
}

func (a *agentAPI) put(ctx context.Context, path string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, a.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Token "+a.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("put %s: %s", path, resp.Status)
	}
	return nil
}

// ---- Reported ----

func (a *agentAPI) FinishJob(ctx context.Context, st jobState) error {
	r := roko.NewRetrier(
		roko.WithMaxAttempts(60),
		roko.WithStrategy(roko.Constant(5*time.Second)), // related "roko.go:60: retry callback" // want `roko\.Retrier\.DoWithContext waits a fixed delay: clients that failed together retry together; add jitter`
	)
	return r.DoWithContext(ctx, func(r *roko.Retrier) error {
		if err := a.put(ctx, "/jobs/"+st.ID+"/finish", st); err != nil {
			a.log.Warn("finish job", "id", st.ID, "err", err, "retry", r.String())
			return err
		}
		return nil
	})
}

func (a *agentAPI) Heartbeat(ctx context.Context, st jobState) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(5),
		roko.WithStrategy(roko.Exponential(2*time.Second, 0)), // related "roko.go:70: retry callback" // want `roko\.Retrier\.DoWithContext backs off without jitter: clients that failed together retry in waves; add jitter`
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		return a.put(ctx, "/jobs/"+st.ID+"/heartbeat", st)
	})
}

func (a *agentAPI) Register(st jobState) error {
	return roko.NewRetrier(
		roko.TryForever(), // related "roko.go:79: retry callback" // want `roko\.Retrier\.Do retries for ever \(no attempt cap, no deadline\); add roko\.WithMaxAttempts\(5\)`
		roko.WithJitter(),
		roko.WithStrategy(roko.Constant(10*time.Second)),
	).Do(func(r *roko.Retrier) error {
		return a.put(context.Background(), "/agents/register", st)
	})
}

// ---- Not reported ----

func (a *agentAPI) UploadChunk(ctx context.Context, st jobState) error {
	r := roko.NewRetrier(
		roko.WithMaxAttempts(10),
		roko.WithStrategy(roko.Constant(5*time.Second)),
		roko.WithJitter(),
	)
	return r.DoWithContext(ctx, func(r *roko.Retrier) error {
		err := a.put(ctx, "/jobs/"+st.ID+"/chunks", st)
		if err != nil && ctx.Err() != nil {
			r.Break()
		}
		return err
	})
}

func (a *agentAPI) State(ctx context.Context, id string) (jobState, error) {
	r := roko.NewRetrier(roko.WithMaxAttempts(3), roko.WithStrategy(roko.ExponentialSubsecond(500*time.Millisecond)), roko.WithJitterRange(0, time.Second))
	return roko.DoFunc(ctx, r, func(r *roko.Retrier) (jobState, error) {
		st := jobState{ID: id}
		return st, a.put(ctx, "/jobs/"+id+"/touch", st)
	})
}
