package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/jpillora/backoff"
)

// A CI bot that sets a commit's status on a code host. The host answers 409 while another
// job changes the same pipeline, so the bot tries again, waiting what a jitter-enabled
// jpillora/backoff Backoff hands out. The Backoff counts the delays it has handed out, and its
// Attempt() is the loop's attempt counter: each round calls Duration(), which steps it.

type statusBot struct {
	hc       *http.Client
	baseURL  string
	token    string
	interval time.Duration
	log      *slog.Logger
}

type commitStatus struct {
	State       string `json:"state"`
	Description string `json:"description"`
	TargetURL   string `json:"target_url,omitempty"`
}

// putStatus sends one status update, bounded by its own timeout.
func (s *statusBot) putStatus(repo, sha string, st commitStatus) (int, error) {
	body, err := json.Marshal(st)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.baseURL+"/repos/"+repo+"/statuses/"+sha, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return resp.StatusCode, fmt.Errorf("status %s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	return resp.StatusCode, nil
}

// ---- Not reported: ten attempts, counted by the Backoff the loop steps each round ----

func (s *statusBot) SetStatus(repo, sha string, st commitStatus) error {
	const maxAttempts = 10
	retryer := &backoff.Backoff{Jitter: true, Max: s.interval}
	for {
		attempt := int(retryer.Attempt()) + 1
		log := s.log.With("attempt", attempt, "max_attempts", maxAttempts, "repo", repo, "sha", sha)
		code, err := s.putStatus(repo, sha, st)
		if err == nil {
			if retryer.Attempt() > 0 {
				log.Info("status set after retrying")
			}
			return nil
		}
		if strings.Contains(err.Error(), "already in state") {
			return nil
		}
		if attempt == maxAttempts {
			return fmt.Errorf("set status of %s@%s after %d attempts: %w", repo, sha, attempt, err)
		}
		if code == http.StatusConflict {
			log.Warn("pipeline locked by another job")
		}
		wait := retryer.Duration()
		log.Warn("setting status failed", "retry_in", wait, "err", err)
		time.Sleep(wait)
	}
}

// A counter of the program's own, kept by a type whose next() steps it.
type statusPacer struct {
	tries int
	base  time.Duration
}

func (p *statusPacer) next() time.Duration {
	p.tries++
	return statusJitter(p.base << min(p.tries, 6))
}

func (p *statusPacer) count() int { return p.tries }

func statusJitter(d time.Duration) time.Duration {
	return d/2 + rand.N(d/2+1)
}

func (s *statusBot) SetStatusPaced(repo, sha string, st commitStatus) error {
	p := &statusPacer{base: 500 * time.Millisecond}
	for {
		_, err := s.putStatus(repo, sha, st)
		if err == nil {
			return nil
		}
		if p.count() >= 5 {
			return fmt.Errorf("set status of %s@%s: %w", repo, sha, err)
		}
		wait := p.next()
		s.log.Warn("setting status failed", "retry_in", wait, "err", err)
		time.Sleep(wait)
	}
}

// ---- Reported: the Backoff's counter is read, but nothing ends the loop on it ----

func (s *statusBot) SetStatusForever(repo, sha string, st commitStatus) error {
	retryer := &backoff.Backoff{Jitter: true, Max: s.interval}
	for { // related "commitstatus.go:130: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		_, err := s.putStatus(repo, sha, st)
		if err == nil {
			return nil
		}
		wait := retryer.Duration()
		s.log.Warn("setting status failed", "attempt", retryer.Attempt(), "retry_in", wait, "err", err)
		time.Sleep(wait)
	}
}
