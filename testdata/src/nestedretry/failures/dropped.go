package failures

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"time"
)

// A replica that copies a zone from its primary and then tells its own followers. Telling
// them is retried three times; a failure there is logged and dropped, so the loop that
// retries the copy never goes round on it: nothing multiplies. Where the failure to tell
// is returned, the copy's retry repeats the three attempts.

type zoneReplica struct {
	hc        *http.Client
	primary   string
	followers []string
	serial    int
}

func (z *zoneReplica) fetch(ctx context.Context) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, z.primary+"/zone", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "text/dns")
	resp, err := z.hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("fetch zone: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("fetch zone: %s", resp.Status)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	return strings.Count(string(body), "\n"), nil
}

// tell sends one change notice, up to three times.
func (z *zoneReplica) tell(ctx context.Context, follower string) error {
	var err error
	for range 3 {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, follower+"/notify?serial="+fmt.Sprint(z.serial), nil)
		if err != nil {
			return err
		}
		var resp *http.Response
		resp, err = z.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		err = fmt.Errorf("notify %s: %s", follower, resp.Status)
	}
	return err
}

func (z *zoneReplica) notifyAll(ctx context.Context) error {
	var failed []string
	for _, f := range z.followers {
		if err := z.tell(ctx, f); err != nil {
			failed = append(failed, f)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("not notified: %s", strings.Join(failed, ", "))
	}
	return nil
}

// copyZone copies the zone, then notifies; a failed notice is only logged.
func (z *zoneReplica) copyZone(ctx context.Context) error {
	serial, err := z.fetch(ctx)
	if err != nil {
		return err
	}
	z.serial = serial
	if err := z.notifyAll(ctx); err != nil {
		log.Printf("zone copied, but: %v", err)
	}
	return nil
}

// copyZoneStrict returns a failed notice as its own failure.
func (z *zoneReplica) copyZoneStrict(ctx context.Context) error {
	serial, err := z.fetch(ctx)
	if err != nil {
		return err
	}
	z.serial = serial
	if err := z.notifyAll(ctx); err != nil {
		return fmt.Errorf("zone copied: %w", err)
	}
	return nil
}

// ---- Not reported: the notices' failure never reaches this loop ----

func (z *zoneReplica) keepCopied(ctx context.Context) error {
	wait := 250 * time.Millisecond
	for {
		err := z.copyZone(ctx)
		if err == nil {
			return nil
		}
		log.Printf("copy failed, again in %s: %v", wait, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 10*time.Second)
	}
}

// ---- Reported: a failed notice makes the loop go round, and each round notifies three times ----

func (z *zoneReplica) keepCopiedStrict(ctx context.Context) error {
	wait := 250 * time.Millisecond
	for {
		err := z.copyZoneStrict(ctx) // related "dropped.go:131: outer retry loop" "dropped.go:49: inner retry loop" // want `retries around zoneReplica\.copyZoneStrict, which retries up to 3 times: attempts multiply; keep one layer`
		if err == nil {
			return nil
		}
		log.Printf("copy failed, again in %s: %v", wait, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 10*time.Second)
	}
}
