package clients

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// A database driver's HTTP client: retryablehttp with the driver's own retry policy and
// backoff, handed to the rest of the driver as a plain *http.Client (StandardClient). The
// backoff honours Retry-After, else doubles from RetryWaitMin with no randomness.

type driverConfig struct {
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int
	Timeout      time.Duration
}

func driverPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			var ua x509.UnknownAuthorityError
			if errors.As(ue.Err, &ua) {
				return false, err
			}
		}
		return true, nil
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented {
		return true, nil
	}
	return false, nil
}

// driverBackoff: Retry-After when the server sends one, else min * 2^attempt up to max.
func driverBackoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if s := resp.Header.Get("Retry-After"); s != "" {
			if secs, err := strconv.ParseInt(s, 10, 64); err == nil {
				return time.Duration(secs) * time.Second
			}
		}
	}
	mult := math.Pow(2, float64(attempt)) * float64(min)
	sleep := time.Duration(mult)
	if float64(sleep) != mult || sleep > max {
		sleep = max
	}
	return sleep
}

// jitteredBackoff adds a random part to the same doubling.
func jitteredBackoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	d := driverBackoff(min, max, attempt, resp)
	return d/2 + rand.N(d/2+1)
}

func newDriverClient(cfg driverConfig) *http.Client {
	rc := &retryablehttp.Client{
		HTTPClient:   &http.Client{Timeout: 30 * time.Second},
		RetryWaitMin: cfg.RetryWaitMin,
		RetryWaitMax: cfg.RetryWaitMax,
		RetryMax:     cfg.RetryMax,
		CheckRetry:   driverPolicy,
		Backoff:      driverBackoff, // related "driverclient.go:107: self-retrying client call" // want `http\.Client backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	return rc.StandardClient()
}

func newJitteredDriverClient(cfg driverConfig) *http.Client {
	rc := &retryablehttp.Client{
		HTTPClient:   &http.Client{Timeout: 30 * time.Second},
		RetryWaitMin: cfg.RetryWaitMin,
		RetryWaitMax: cfg.RetryWaitMax,
		RetryMax:     cfg.RetryMax,
		CheckRetry:   driverPolicy,
		Backoff:      jitteredBackoff,
	}
	return rc.StandardClient()
}

type statementClient struct {
	hc   *http.Client
	host string
}

func (s *statementClient) status(ctx context.Context, id string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+s.host+"/api/2.0/sql/statements/"+id, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func openStatements(cfg driverConfig, host string) *statementClient {
	return &statementClient{hc: newDriverClient(cfg), host: host}
}

// Result downloads go through a client whose backoff is jittered: not reported.
type downloadClient struct {
	hc *http.Client
}

func (d *downloadClient) fetch(ctx context.Context, link string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return nil, err
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func openDownloads(cfg driverConfig) *downloadClient {
	return &downloadClient{hc: newJitteredDriverClient(cfg)}
}
