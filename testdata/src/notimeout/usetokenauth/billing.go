// Package usetokenauth calls a billing API with OAuth2 client-credentials tokens.
package usetokenauth

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"notimeout/tokenauth"
	"notimeout/tokenstore"
)

type Invoice struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
	Status string `json:"status"`
}

type Billing struct {
	base string
	hc   *http.Client
	src  *tokenauth.Source
}

func authConfig() *tokenauth.Config {
	return &tokenauth.Config{
		ClientID:     os.Getenv("BILLING_CLIENT_ID"),
		ClientSecret: os.Getenv("BILLING_CLIENT_SECRET"),
		TokenURL:     os.Getenv("BILLING_TOKEN_URL"),
		Scopes:       []string{"invoices:read"},
	}
}

func (b *Billing) Invoice(ctx context.Context, id string) (*Invoice, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	tok, err := b.src.Token()
	if err != nil {
		return nil, fmt.Errorf("billing token: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/v1/invoices/"+id, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", "application/json")
	resp, err := b.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("invoice %s: %s", id, resp.Status)
	}
	var inv Invoice
	if err := json.NewDecoder(resp.Body).Decode(&inv); err != nil {
		return nil, err
	}
	return &inv, nil
}

// ---- Reported ----

// Connect checks the credentials with the caller's context, then makes the token source with
// a context nothing ends: every token request it makes later goes through the library's
// default client with no deadline, and a stalled token endpoint holds each invoice call
// behind the source's lock for good.
func Connect(ctx context.Context, base string) (*Billing, error) {
	if _, err := authConfig().Fetch(ctx); err != nil {
		return nil, fmt.Errorf("billing credentials: %w", err)
	}
	src := authConfig().NewSource(context.Background()) // related "tokenauth.go:104: Config.NewSource keeps its context for later calls of Client.Do" "billing.go:76: context.Background() has no deadline" // want `Config\.NewSource keeps a context without a deadline for its later calls of Client\.Do, so a stalled server hangs them`
	return &Billing{base: base, hc: &http.Client{Timeout: 20 * time.Second}, src: src}, nil
}

// NewReports authorises through the token client, made with a context nothing ends.
func NewReports(ctx context.Context) (*http.Client, error) {
	if _, err := authConfig().Fetch(ctx); err != nil {
		return nil, err
	}
	return authConfig().Client(context.TODO()), nil // related "tokenauth.go:139: Config.Client keeps its context for later calls of Client.Do" "billing.go:85: context.TODO() has no deadline" // want `Config\.Client keeps a context without a deadline for its later calls of Client\.Do, so a stalled server hangs them`
}

// ---- Not reported ----

// NewBilling makes the source with a context nothing ends, and has none of its own to give:
// the library's default client without a timeout is the cause, reported where it is chosen.
func NewBilling(base string) *Billing {
	src := authConfig().NewSource(context.Background())
	return &Billing{base: base, hc: &http.Client{Timeout: 20 * time.Second}, src: src}
}

// CheckCredentials asks for one token at start-up: the same cause.
func CheckCredentials() error {
	tok, err := authConfig().Fetch(context.Background())
	if err != nil {
		return fmt.Errorf("billing credentials: %w", err)
	}
	log.Printf("billing token of type %s, valid for %ds", tok.TokenType, tok.ExpiresIn)
	return nil
}

// tokenContext carries the client the token requests go through: its Timeout bounds each.
func tokenContext() context.Context {
	hc := &http.Client{Timeout: 10 * time.Second}
	return context.WithValue(context.Background(), tokenauth.ClientKey, hc)
}

// ConnectBounded fetches its tokens through a client with a Timeout, carried by the context
// the source keeps.
func ConnectBounded(ctx context.Context, base string) *Billing {
	src := authConfig().NewSource(tokenContext())
	return &Billing{base: base, hc: &http.Client{Timeout: 20 * time.Second}, src: src}
}

// CheckBoundedCredentials asks for one token through the carried client.
func CheckBoundedCredentials(ctx context.Context) error {
	tctx := context.WithValue(context.Background(), tokenauth.ClientKey, &http.Client{Timeout: 5 * time.Second})
	if _, err := authConfig().Fetch(tctx); err != nil {
		return fmt.Errorf("billing credentials: %w", err)
	}
	return nil
}

// NewBillingWithContext leaves the context the source keeps to its caller.
func NewBillingWithContext(ctx context.Context, base string) *Billing {
	src := authConfig().NewSource(ctx)
	return &Billing{base: base, hc: &http.Client{Timeout: 20 * time.Second}, src: src}
}

// OpenArchive makes a client of another package that keeps the context inside, for purposes
// of its own: what it keeps it for is that package's to say, not reported here.
func OpenArchive(ctx context.Context, base string) (*tokenstore.Store, error) {
	st, err := tokenstore.New(context.Background(), base, authConfig())
	if err != nil {
		return nil, err
	}
	if _, err := st.Get(ctx, "index.json"); err != nil {
		return nil, fmt.Errorf("archive index: %w", err)
	}
	return st, nil
}
