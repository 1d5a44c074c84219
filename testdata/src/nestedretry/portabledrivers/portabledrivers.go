// Package portabledrivers implements portable's driver for three services.
package portabledrivers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"nestedretry/portable"
	"nestedretry/portable/driver"
)

// ---- Reported: a driver whose client retries, and that calls every unknown error retryable ----

type restTopic struct {
	client *retryablehttp.Client
	url    string
}

func OpenRESTTopic(url string, log *slog.Logger) *portable.Topic {
	c := retryablehttp.NewClient()
	c.RetryMax = 4
	return portable.NewTopic(&restTopic{client: c, url: url}, log) // related "portabledrivers.go:43: inner self-retrying client call" // want `portable\.NewTopic retries restTopic\.SendBatch, which retries on its own: the attempts multiply; keep one layer`
}

func (t *restTopic) SendBatch(ctx context.Context, ms []*driver.Message) error {
	body, err := json.Marshal(ms)
	if err != nil {
		return err
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, t.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := t.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &statusError{code: resp.StatusCode}
	}
	return nil
}

type statusError struct{ code int }

func (e *statusError) Error() string { return fmt.Sprintf("status %d", e.code) }

func (t *restTopic) IsRetryable(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		return se.code >= 500
	}
	return true // unknown errors: try again
}

func (t *restTopic) Close() error { return nil }

// ---- Not reported: the same client, but the driver leaves the retries to it ----

type managedTopic struct {
	client *retryablehttp.Client
	url    string
}

func OpenManagedTopic(url string, log *slog.Logger) *portable.Topic {
	return portable.NewTopic(&managedTopic{client: retryablehttp.NewClient(), url: url}, log)
}

func (t *managedTopic) SendBatch(ctx context.Context, ms []*driver.Message) error {
	body, err := json.Marshal(ms)
	if err != nil {
		return err
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, t.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// IsRetryable: the client handles retries.
func (*managedTopic) IsRetryable(error) bool { return false }

func (t *managedTopic) Close() error { return nil }

// ---- Not reported: a driver whose client sends once ----

type plainTopic struct {
	hc  *http.Client
	url string
}

func OpenPlainTopic(url string, log *slog.Logger) *portable.Topic {
	return portable.NewTopic(&plainTopic{hc: &http.Client{Timeout: 10 * time.Second}, url: url}, log)
}

func (t *plainTopic) SendBatch(ctx context.Context, ms []*driver.Message) error {
	body, err := json.Marshal(ms)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, t.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (t *plainTopic) IsRetryable(err error) bool { return true }

func (t *plainTopic) Close() error { return nil }
