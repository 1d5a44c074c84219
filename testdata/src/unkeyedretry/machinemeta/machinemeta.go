// Package machinemeta holds POSTs to resources named by identifiers whose paths are built
// with path.Join, url.URL, url.JoinPath and request helpers that add a prefix: a repeat of a
// state transition of one named resource changes nothing more.
package machinemeta

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"time"

	backoff "github.com/cenkalti/backoff/v4"
	"github.com/google/uuid"
)

type Machines struct {
	http    *http.Client
	base    string
	timeout time.Duration
}

type Lease struct {
	Nonce     string    `json:"nonce"`
	ExpiresAt time.Time `json:"expires_at"`
}

type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("status %d", e.Code) }

func appName() string   { return os.Getenv("APP_NAME") }
func machineID() string { return os.Getenv("MACHINE_ID") }

// ---- Not reported ----

// setRole sets the metadata key "role" of this machine: the path names the machine and the
// key, built with path.Join into a url.URL.
func (m *Machines) setRole(ctx context.Context, primary bool) error {
	role := "replica"
	if primary {
		role = "primary"
	}
	body, err := json.Marshal(map[string]string{"value": role})
	if err != nil {
		return fmt.Errorf("marshal metadata: %w", err)
	}
	u := url.URL{
		Scheme: "http",
		Host:   "metadata.internal",
		Path:   path.Join("/v1", "apps", appName(), "machines", machineID(), "metadata", "role"),
	}
	req, err := http.NewRequest(http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	req = req.WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := m.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &StatusError{resp.StatusCode}
	}
	return nil
}

// PublishRole keeps trying to set the role until it is set or ten tries are spent.
func (m *Machines) PublishRole(ctx context.Context, primary bool) {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	var err error
	for i := 0; i < 10; i++ {
		if err = m.setRole(ctx, primary); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			slog.Debug("role not published", slog.Any("err", context.Cause(ctx)))
			return
		case <-ticker.C:
		}
	}
	slog.Info("role not published", slog.Any("err", err))
}

// send sends a request to the API; endpoint is the path under the base URL.
func (m *Machines) send(ctx context.Context, method, endpoint string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, m.base+endpoint, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "machinemeta/1")
	resp, err := m.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &StatusError{resp.StatusCode}
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// sendMachines sends a request about the machines of an app.
func (m *Machines) sendMachines(ctx context.Context, app, method, endpoint string, in, out any) error {
	endpoint = fmt.Sprintf("/apps/%s/machines%s", url.PathEscape(app), endpoint)
	return m.send(ctx, method, endpoint, in, out)
}

// AcquireLease asks for the lease of one machine until the current holder lets it go: the
// helpers add the collection the machine belongs to, and the optional query changes nothing.
func (m *Machines) AcquireLease(ctx context.Context, app, machine string, ttl *int) (*Lease, error) {
	endpoint := fmt.Sprintf("/%s/lease", machine)
	if ttl != nil {
		endpoint += fmt.Sprintf("?ttl=%d", *ttl)
	}
	out := new(Lease)
	op := func() error {
		err := m.sendMachines(ctx, app, http.MethodPost, endpoint, nil, out)
		var se *StatusError
		if errors.As(err, &se) && se.Code == http.StatusConflict {
			return err
		}
		if err != nil {
			return backoff.Permanent(err)
		}
		return nil
	}
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 5), ctx)
	if err := backoff.Retry(op, b); err != nil {
		return nil, fmt.Errorf("lease on machine %s: %w", machine, err)
	}
	return out, nil
}

// Cordon marks one order's fulfilment as held; the path is joined with url.JoinPath.
func (m *Machines) Cordon(ctx context.Context, order string) error {
	return backoff.Retry(func() error {
		u, err := url.JoinPath(m.base, "v1", "orders", order, "hold")
		if err != nil {
			return backoff.Permanent(err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
		if err != nil {
			return backoff.Permanent(err)
		}
		resp, err := m.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return &StatusError{resp.StatusCode}
		}
		return nil
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

// ---- Reported ----

type MachineConfig struct {
	Image string `json:"image"`
	Size  string `json:"size"`
}

// Launch creates a machine: POST to the collection, through the same helpers.
func (m *Machines) Launch(ctx context.Context, app string, cfg MachineConfig) error {
	return backoff.Retry(func() error {
		return m.sendMachines(ctx, app, http.MethodPost, "", cfg, nil) // related "machinemeta.go:194: retry callback" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

// Refund creates a refund under the order: a collection follows the identifier.
func (m *Machines) Refund(ctx context.Context, order string, amount int64) error {
	return backoff.Retry(func() error {
		u, err := url.JoinPath(m.base, "v1", "orders", order, "refunds")
		if err != nil {
			return backoff.Permanent(err)
		}
		body, err := json.Marshal(map[string]int64{"amount": amount})
		if err != nil {
			return backoff.Permanent(err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body)) // related "machinemeta.go:201: retry callback" "machinemeta.go:215: sent here" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := m.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return &StatusError{resp.StatusCode}
		}
		return nil
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

// postSnapshot names a snapshot it makes up on every call: every attempt of a caller's
// retry addresses a new resource.
func (m *Machines) postSnapshot(ctx context.Context, volume string) error {
	u := url.URL{Scheme: "https", Host: "api.example.com", Path: path.Join("/v1", "volumes", volume, "snapshots", uuid.NewString())}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Snapshot retries postSnapshot.
func (m *Machines) Snapshot(ctx context.Context, volume string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = m.postSnapshot(ctx, volume); err == nil { // related "machinemeta.go:245: retry loop" "machinemeta.go:235: sent here by postSnapshot" // want `a POST request is retried with no idempotency key; postSnapshot must send one made before the retries`
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i+1) * time.Second):
		}
	}
	return err
}

// settle captures the payment it names, then books a ledger entry: a create.
func (m *Machines) settle(ctx context.Context, payment string, amount int64) error {
	capture := url.URL{Scheme: "https", Host: "api.example.com", Path: path.Join("/v1", "payments", payment, "capture")}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, capture.String(), nil)
	if err != nil {
		return err
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &StatusError{resp.StatusCode}
	}
	body, err := json.Marshal(map[string]any{"payment": payment, "amount": amount})
	if err != nil {
		return err
	}
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, m.base+"/v1/ledger/entries", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err = m.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &StatusError{resp.StatusCode}
	}
	return nil
}

// Settle retries settle: its second request is a create, whatever the first is.
func (m *Machines) Settle(ctx context.Context, payment string, amount int64) error {
	return backoff.Retry(func() error {
		return m.settle(ctx, payment, amount) // related "machinemeta.go:295: retry callback" "machinemeta.go:282: sent here by settle" // want `a POST request is retried with no idempotency key; settle must send one made before the retries`
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

// AddItem parses the order's URL, then appends a collection to its path: a create.
func (m *Machines) AddItem(ctx context.Context, order, sku string) error {
	return backoff.Retry(func() error {
		u, err := url.Parse(m.base + "/v1/orders/" + order)
		if err != nil {
			return backoff.Permanent(err)
		}
		u.Path += "/items"
		body, err := json.Marshal(map[string]string{"sku": sku})
		if err != nil {
			return backoff.Permanent(err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body)) // related "machinemeta.go:302: retry callback" "machinemeta.go:316: sent here" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return backoff.Permanent(err)
		}
		resp, err := m.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return &StatusError{resp.StatusCode}
		}
		return nil
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

// Tag tags the order named by a value it lower-cases in the callee: the same on every call.
func (m *Machines) Tag(ctx context.Context, order string) error {
	for i := 0; i < 3; i++ {
		err := m.postTag(ctx, order)
		if err == nil {
			return nil
		}
		slog.Warn("tag failed", slog.Int("attempt", i), slog.Any("err", err))
		time.Sleep(time.Duration(i+1) * 500 * time.Millisecond)
	}
	return errors.New("tag: giving up")
}

func (m *Machines) postTag(ctx context.Context, order string) error {
	u, err := url.JoinPath(m.base, "v1", "orders", strings.ToLower(order), "tag")
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		return err
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Stamp tags a new order on every attempt: the caller makes up its identifier each time.
func (m *Machines) Stamp(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := m.postTag(ctx, uuid.NewString()) // related "machinemeta.go:359: retry loop" "machinemeta.go:350: sent here by postTag" // want `a POST request is retried with no idempotency key; postTag must send one made before the retries`
		if err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * 500 * time.Millisecond)
	}
	return errors.New("stamp: giving up")
}
