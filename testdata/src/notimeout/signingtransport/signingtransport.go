// Package signingtransport signs the exporter's requests to a managed search cluster with
// AWS credentials.
package signingtransport

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
)

type Transport struct {
	next   http.RoundTripper
	creds  aws.CredentialsProvider
	cache  *aws.CredentialsCache
	region string
	log    *slog.Logger
}

// New loads the credentials and checks them once, under a deadline.
func New(ctx context.Context, next http.RoundTripper, region string, log *slog.Logger) (*Transport, error) {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(region))
	if err != nil {
		return nil, fmt.Errorf("load aws config: %w", err)
	}
	cache := aws.NewCredentialsCache(cfg.Credentials)
	check, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := cfg.Credentials.Retrieve(check); err != nil {
		log.Error("cannot retrieve aws credentials", "err", err)
		return nil, err
	}
	return &Transport{next: next, creds: cache, cache: cache, region: region, log: log}, nil
}

// RoundTrip drops the request's context when it refreshes the credentials.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	hash, body, err := hashBody(req.Body)
	if err != nil {
		t.log.Error("cannot hash request body", "err", err)
		return nil, err
	}
	req.Body = body
	creds, err := t.creds.Retrieve(context.Background()) // related "signingtransport.go:52: context.Background() has no deadline" // want `CredentialsProvider.Retrieve's context has no deadline, so it can hang; pass req.Context\(\), not context.Background\(\)`
	if err != nil {
		t.log.Error("cannot retrieve aws credentials", "err", err)
		return nil, err
	}
	sign(req, creds, hash, t.region)
	return t.next.RoundTrip(req)
}

// Refresh is given the caller's context: not reported.
func (t *Transport) Refresh(ctx context.Context) error {
	_, err := t.cache.Retrieve(ctx)
	return err
}

// Warm refreshes the cache for a background job with no context of its own.
func (t *Transport) Warm() error {
	_, err := t.cache.Retrieve(context.Background()) // related "signingtransport.go:69: context.Background() has no deadline" // want `CredentialsCache.Retrieve's context has no deadline`
	return err
}

// CredentialsHandler reports when the credentials expire, for an operator's page.
type CredentialsHandler struct{ T *Transport }

func (h CredentialsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	creds, err := h.T.cache.Retrieve(context.TODO()) // related "signingtransport.go:77: context.TODO() has no deadline" // want `CredentialsCache.Retrieve's context has no deadline, so it can hang; pass r.Context\(\), not context.TODO\(\)`
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	fmt.Fprintf(w, "expires %s\n", creds.Expires.Format(time.RFC3339))
}

// ServeRefresh refreshes in the background, after the request has ended: the request's
// context is not the one to pass, the call still has no deadline.
func (h CredentialsHandler) ServeRefresh(w http.ResponseWriter, r *http.Request) {
	go func() {
		if _, err := h.T.cache.Retrieve(context.Background()); err != nil { // related "signingtransport.go:89: context.Background() has no deadline" // want `CredentialsCache.Retrieve's context has no deadline, so a stalled server hangs this call; use context.WithTimeout`
			h.T.log.Error("background refresh", "err", err)
		}
	}()
	w.WriteHeader(http.StatusAccepted)
}

// ServeStatus uses the request's context: not reported.
func (h CredentialsHandler) ServeStatus(w http.ResponseWriter, r *http.Request) {
	if _, err := h.T.cache.Retrieve(r.Context()); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

func sign(req *http.Request, creds aws.Credentials, hash, region string) {
	req.Header.Set("X-Amz-Content-Sha256", hash)
	req.Header.Set("X-Amz-Date", time.Now().UTC().Format("20060102T150405Z"))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+creds.AccessKeyID+"/"+region)
	if creds.SessionToken != "" {
		req.Header.Set("X-Amz-Security-Token", creds.SessionToken)
	}
}

func hashBody(r io.ReadCloser) (string, io.ReadCloser, error) {
	if r == nil {
		sum := sha256.Sum256(nil)
		return hex.EncodeToString(sum[:]), nil, nil
	}
	defer r.Close()
	raw, err := io.ReadAll(r)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]), io.NopCloser(bytes.NewReader(raw)), nil
}
