// Package oidclogin signs users in with OpenID Connect: a verifier checks the ID token, and
// fetches the provider's signing keys when the token names one it has not seen.
package oidclogin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/coreos/go-oidc/v3/oidc"
)

type Claims struct {
	Email         string `json:"email"`
	EmailVerified bool   `json:"email_verified"`
	Name          string `json:"name"`
}

type Auth struct {
	mu       sync.Mutex
	issuer   string
	clientID string
	verifier *oidc.IDTokenVerifier
}

func (a *Auth) getVerifier(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.verifier != nil {
		return a.verifier, nil
	}
	p, err := oidc.NewProvider(ctx, a.issuer)
	if err != nil {
		return nil, fmt.Errorf("oidc provider %s: %w", a.issuer, err)
	}
	a.verifier = p.Verifier(&oidc.Config{ClientID: a.clientID})
	return a.verifier, nil
}

// ---- Reported ----

// CheckToken verifies a raw ID token with a context that nothing ends: a stalled key
// fetch holds the sign-in for good.
func (a *Auth) CheckToken(raw, nonce string) (Claims, error) {
	v, err := a.getVerifier(context.TODO())
	if err != nil {
		return Claims{}, err
	}
	tok, err := v.Verify(context.TODO(), raw) // related "oidclogin.go:51: context.TODO() has no deadline" // want `IDTokenVerifier\.Verify's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	if err != nil {
		return Claims{}, fmt.Errorf("verifying ID token: %w", err)
	}
	if tok.Nonce != nonce {
		return Claims{}, errors.New("nonce did not match")
	}
	var c Claims
	if err := tok.Claims(&c); err != nil {
		return Claims{}, err
	}
	return c, nil
}

// ---- Not reported ----

// Callback verifies with the request's context, which the server ends with the request.
func (a *Auth) Callback(w http.ResponseWriter, r *http.Request) {
	v, err := a.getVerifier(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	tok, err := v.Verify(r.Context(), r.FormValue("id_token"))
	if err != nil {
		http.Error(w, "invalid token", http.StatusUnauthorized)
		return
	}
	var c Claims
	if err := tok.Claims(&c); err != nil || !c.EmailVerified {
		http.Error(w, "unverified e-mail", http.StatusForbidden)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
