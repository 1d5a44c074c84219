package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// RFC 8693 token exchange: the form is built by a method of the exchanger, which hands the
// form's address to helpers that add the subject and actor tokens. Sent again by a loop: a
// token request, not reported. A form of the same shape without grant_type is reported.

type tokenSourceFunc func() (token, kind string, err error)

type exchanger struct {
	endpoint  string
	grantType string
	audience  []string
	subject   tokenSourceFunc
	actor     tokenSourceFunc
	hc        *http.Client
}

func (x *exchanger) addToken(form *url.Values, src tokenSourceFunc, name, kindName string) error {
	if src == nil {
		return nil
	}
	tok, kind, err := src()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	form.Set(name, tok)
	form.Set(kindName, kind)
	return nil
}

func (x *exchanger) params() (string, error) {
	form := url.Values{}
	form.Set("grant_type", x.grantType)
	for _, a := range x.audience {
		form.Add("audience", a)
	}
	if err := x.addToken(&form, x.subject, "subject_token", "subject_token_type"); err != nil {
		return "", err
	}
	if err := x.addToken(&form, x.actor, "actor_token", "actor_token_type"); err != nil {
		return "", err
	}
	return form.Encode(), nil
}

func (x *exchanger) exchangeOnce(ctx context.Context) (string, error) {
	body, err := x.params()
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.endpoint, strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := x.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("token exchange: %s", resp.Status)
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.AccessToken, nil
}

// Exchange asks for a token, up to four times. Not reported.
func (x *exchanger) Exchange(ctx context.Context) (string, error) {
	var lastErr error
	for attempt := range 4 {
		tok, err := x.exchangeOnce(ctx)
		if err == nil {
			return tok, nil
		}
		lastErr = err
		time.Sleep(time.Duration(attempt+1)*200*time.Millisecond + rand.N(100*time.Millisecond))
	}
	return "", lastErr
}

// A grant registers a delegation: a form POST with the same builder shape and no grant_type.
type delegations struct {
	endpoint string
	hc       *http.Client
}

func (d *delegations) params(subject, actor string) string {
	form := url.Values{}
	form.Set("subject", subject)
	d.addActor(&form, actor)
	return form.Encode()
}

func (d *delegations) addActor(form *url.Values, actor string) { form.Set("actor", actor) }

func (d *delegations) registerOnce(ctx context.Context, subject, actor string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.endpoint, strings.NewReader(d.params(subject, actor)))
	if err != nil {
		return err
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("register: %s", resp.Status)
	}
	return nil
}

// Register sends the delegation again after any failure.
func (d *delegations) Register(ctx context.Context, subject, actor string) error {
	var err error
	for attempt := range 4 {
		if err = d.registerOnce(ctx, subject, actor); err == nil { // related "exchange.go:132: retry loop", "exchange.go:118: sent here by registerOnce" // want `a POST request is retried with no idempotency key; registerOnce must send one made before the retries`
			return nil
		}
		time.Sleep(time.Duration(attempt+1)*200*time.Millisecond + rand.N(100*time.Millisecond))
	}
	return err
}
