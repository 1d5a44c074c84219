// Package gsatoken signs the CLI's requests to a gateway behind Google's IAP with a token of
// Application Default Credentials. The token source keeps the context it is made with for the
// token requests it sends when the token expires: made with context.Background(), a stalled
// token endpoint hangs every later call.
package gsatoken

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

const scope = "https://www.googleapis.com/auth/userinfo.email"

// Gateway is the CLI's client of the gateway.
type Gateway struct {
	endpoint string
	http     *http.Client
	tokens   oauth2.TokenSource
}

// Status is the gateway's answer to /health.
type Status struct {
	Version string `json:"version"`
	Healthy bool   `json:"healthy"`
}

// New returns a client that authenticates with the default credentials.
func New(endpoint string) (*Gateway, error) {
	src, err := google.DefaultTokenSource(context.Background(), scope) // related "google.go:66: google.DefaultTokenSource keeps its context for later calls of Client.Do" "gsatoken.go:36: context.Background() has no deadline" // want `google\.DefaultTokenSource keeps a context without a deadline for later calls, so a stalled server hangs them`
	if err != nil {
		return nil, fmt.Errorf("default credentials: %w", err)
	}
	return &Gateway{endpoint: endpoint, http: &http.Client{Timeout: 30 * time.Second}, tokens: src}, nil
}

// ---- Not reported: the token source keeps a context with a deadline ----

// NewFromFile returns a client that authenticates with a service account's key file, whose
// token requests end with the CLI's overall deadline.
func NewFromFile(ctx context.Context, endpoint, keyFile string) (*Gateway, error) {
	b, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	go func() {
		<-ctx.Done()
		cancel()
	}()
	creds, err := google.CredentialsFromJSON(ctx, b, scope)
	if err != nil {
		return nil, fmt.Errorf("credentials %s: %w", keyFile, err)
	}
	return &Gateway{endpoint: endpoint, http: &http.Client{Timeout: 30 * time.Second}, tokens: creds.TokenSource}, nil
}

// Health asks the gateway whether it is up.
func (g *Gateway) Health(ctx context.Context) (*Status, error) {
	tok, err := g.tokens.Token()
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.endpoint+"/health", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", "application/json")
	resp, err := g.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("health: %s", resp.Status)
	}
	var s Status
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		return nil, fmt.Errorf("health: decode: %w", err)
	}
	return &s, nil
}
