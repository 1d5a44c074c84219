// Package waitdone scales a group of instances and waits for the cloud to finish, through a
// helper named retry that calls a callback until it says stop. The callbacks of the scaler
// stop on any failure of their call and go round only with a condition of their own making
// once the call worked ("waiting for 3 activities"): the helper polls, it does not retry. The
// deployer's callback goes round on its call's failure: there the helper retries.
package waitdone

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// retryFunc is a step that may be repeated: stop says to end, err says why.
type retryFunc func(ctx context.Context) (stop bool, err error)

// retry calls f until it says stop, it succeeds, attempts run out or ctx is done.
func retry(ctx context.Context, interval time.Duration, attempts int, f retryFunc) error {
	var count int
	var last error
	for {
		if ctx.Err() != nil {
			if last != nil {
				return fmt.Errorf("%v; last error: %v", ctx.Err(), last)
			}
			return ctx.Err()
		}
		stop, err := f(ctx)
		if stop {
			return err
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			last = err
		}
		if err == nil {
			return nil
		}
		count++
		if count == attempts {
			return fmt.Errorf("reached retry limit: %w", last)
		}
		time.Sleep(interval)
	}
}

// Activity is a scaling activity.
type Activity struct {
	ID       string
	Progress int
}

// Group is a group of instances.
type Group struct {
	hc   *http.Client
	base string
}

func (g *Group) activities(ctx context.Context, ids []string) ([]Activity, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.base+"/activities", nil)
	if err != nil {
		return nil, err
	}
	resp, err := g.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("activities: %s", resp.Status)
	}
	return []Activity{{ID: ids[0], Progress: 100}}, nil
}

// ---- Not reported: the callback stops on its call's failure, and waits for a state ----

// WaitActivities waits until the activities ids are complete.
func (g *Group) WaitActivities(ctx context.Context, ids []string) error {
	f := func(ctx context.Context) (bool, error) {
		acts, err := g.activities(ctx, ids)
		if err != nil {
			return true, err
		}
		ids = ids[:0]
		for _, a := range acts {
			if a.Progress != 100 {
				ids = append(ids, a.ID)
			}
		}
		if len(ids) == 0 {
			return true, nil
		}
		return false, fmt.Errorf("waiting for %d activities to finish", len(ids))
	}
	return retry(ctx, 10*time.Second, 30, f)
}

// ---- Reported: this helper's callback goes round on its call's failure ----

// deploy calls f until it says stop, it succeeds or attempts run out.
func deploy(ctx context.Context, attempts int, f retryFunc) error {
	var err error
	for i := 0; i < attempts; i++ {
		var stop bool
		stop, err = f(ctx)
		if stop {
			return err
		}
		if err == nil {
			return nil
		}
		time.Sleep(5 * time.Second) // related "waitdone.go:104: retry loop" // want `retry loop waits a fixed 5s between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// Trigger asks the group to refresh its instances, again while the call fails.
func (g *Group) Trigger(ctx context.Context) error {
	return deploy(ctx, 5, func(ctx context.Context) (bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, g.base+"/refresh", nil)
		if err != nil {
			return true, err
		}
		resp, err := g.hc.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		return resp.StatusCode < 300, nil
	})
}
