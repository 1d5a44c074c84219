// Package scriptreload drains a dead-letter list through a script the store keeps by its
// digest. A store that restarted forgets its scripts and answers "NOSCRIPT ..." to the digest:
// the loop loads the script again and goes round, which is a recovery from a condition the
// answer names, not a retry of a failing store (whose errors leave the loop). A loop that goes
// round on a lost connection after dropping idle connections is a retry without a wait.
package scriptreload

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

const drainScript = `local n = 0 ... return n`

type Store struct {
	hc     *http.Client
	base   string
	token  string
	digest string
	log    *slog.Logger
}

func New(base, token string, log *slog.Logger) *Store {
	return &Store{hc: &http.Client{Timeout: 10 * time.Second}, base: base, token: token, log: log}
}

type evalRequest struct {
	Digest string   `json:"digest,omitempty"`
	Source string   `json:"source,omitempty"`
	Keys   []string `json:"keys"`
	Args   []any    `json:"args"`
}

type evalReply struct {
	Result int64  `json:"result"`
	Digest string `json:"digest"`
}

func (s *Store) call(ctx context.Context, path string, in evalRequest) (*evalReply, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("scriptreload: %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, errors.New(strings.TrimSpace(string(msg)))
	}
	var out evalReply
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("scriptreload: decode %s: %w", path, err)
	}
	return &out, nil
}

// Load sends the script's source and keeps the digest the store gives it.
func (s *Store) Load(ctx context.Context) error {
	out, err := s.call(ctx, "/scripts", evalRequest{Source: drainScript})
	if err != nil {
		return err
	}
	s.digest = out.Digest
	return nil
}

func scriptGone(err error) bool {
	return strings.HasPrefix(err.Error(), "NOSCRIPT")
}

// Drain deletes the list in batches of 100 and says how many entries went.
func (s *Store) Drain(ctx context.Context, list string) (int64, error) {
	const batch = 100
	var total int64
	for {
		out, err := s.call(ctx, "/evalsha", evalRequest{Digest: s.digest, Keys: []string{list}, Args: []any{batch}})
		if err != nil {
			if scriptGone(err) {
				if err := s.Load(ctx); err != nil {
					s.log.Error("reload drain script", "list", list, "err", err)
				}
				continue
			}
			return total, err
		}
		total += out.Result
		s.log.Debug("drained", "list", list, "n", out.Result)
		if out.Result < batch {
			return total, nil
		}
	}
}

// DrainAll is Drain over several lists, with the test of the answer's text written inline.
func (s *Store) DrainAll(ctx context.Context, lists []string) (int64, error) {
	const batch = 100
	var total int64
	for _, list := range lists {
		for {
			out, err := s.call(ctx, "/evalsha", evalRequest{Digest: s.digest, Keys: []string{list}, Args: []any{batch}})
			if err != nil {
				if strings.Contains(err.Error(), "NOSCRIPT") {
					if err := s.Load(ctx); err != nil {
						return total, err
					}
					continue
				}
				return total, fmt.Errorf("drain %s: %w", list, err)
			}
			total += out.Result
			if out.Result < batch {
				break
			}
		}
	}
	return total, nil
}

// Trim goes round on a lost connection after dropping the idle ones: the store is what
// failed, and the loop asks again at once.
func (s *Store) Trim(ctx context.Context, list string, keep int) error {
	for { // related "scriptreload.go:139: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		_, err := s.call(ctx, "/evalsha", evalRequest{Digest: s.digest, Keys: []string{list}, Args: []any{keep}})
		if err != nil {
			if strings.Contains(err.Error(), "connection reset") {
				s.hc.CloseIdleConnections()
				continue
			}
			return err
		}
		return nil
	}
}
