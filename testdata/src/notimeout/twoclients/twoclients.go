// Package twoclients: one token exchanger (it sends through an interface of its own that
// *http.Client implements) built in three places. Two of them give it a client without a
// timeout: two lines to change, each reported where its client is made. The third gives it
// a timeout and is not reported.
package twoclients

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Doer sends a request; *http.Client is one.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	ExpiresIn    int    `json:"expires_in"`
}

// Exchanger trades grants for tokens at a token endpoint.
type Exchanger struct {
	hc  Doer
	log *slog.Logger
}

// NewExchanger uses the client it is given.
func NewExchanger(hc Doer) *Exchanger {
	return &Exchanger{hc: hc, log: slog.Default()}
}

func (e *Exchanger) post(endpoint string, form url.Values) (*TokenResponse, error) {
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := e.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("token endpoint: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		e.log.Warn("token exchange failed", "status", resp.StatusCode)
		return nil, fmt.Errorf("token endpoint: %s: %s", resp.Status, body)
	}
	var tr TokenResponse
	if err := json.Unmarshal(body, &tr); err != nil {
		return nil, err
	}
	return &tr, nil
}

// Refresh trades a refresh token.
func (e *Exchanger) Refresh(endpoint, clientID, refresh string) (*TokenResponse, error) {
	return e.post(endpoint, url.Values{"grant_type": {"refresh_token"}, "client_id": {clientID}, "refresh_token": {refresh}})
}

// Device trades a device code.
func (e *Exchanger) Device(endpoint, clientID, code string) (*TokenResponse, error) {
	return e.post(endpoint, url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:device_code"}, "client_id": {clientID}, "device_code": {code}})
}

// Refresher is what a grant keeps to renew itself.
type Refresher interface {
	Refresh(endpoint, clientID, refresh string) (*TokenResponse, error)
}

// LoginFlow runs the interactive device login.
type LoginFlow struct {
	ex       *Exchanger
	endpoint string
}

func NewLoginFlow(endpoint string) *LoginFlow {
	return &LoginFlow{ex: NewExchanger(&http.Client{}), endpoint: endpoint} // related "twoclients.go:47: Doer.Do sends a request without a context through it" "twoclients.go:41: http.NewRequest gives the request no context" "twoclients.go:36: a client given here replaces the default" // want `this default http\.Client has no Timeout, so a stalled server hangs Doer\.Do, whose request has no deadline; set Timeout`
}

func (f *LoginFlow) Finish(clientID, code string) (*TokenResponse, error) {
	return f.ex.Device(f.endpoint, clientID, code)
}

// BackgroundRefresher renews grants unattended.
type BackgroundRefresher struct {
	r     Refresher
	every time.Duration
}

func NewBackgroundRefresher(every time.Duration) *BackgroundRefresher {
	return &BackgroundRefresher{r: NewExchanger(&http.Client{}), every: every} // related "twoclients.go:47: Doer.Do sends a request without a context through it" "twoclients.go:41: http.NewRequest gives the request no context" "twoclients.go:36: a client given here replaces the default" // want `this default http\.Client has no Timeout, so a stalled server hangs Doer\.Do, whose request has no deadline; set Timeout`
}

func (b *BackgroundRefresher) Renew(endpoint, clientID, refresh string) (string, error) {
	tr, err := b.r.Refresh(endpoint, clientID, refresh)
	if err != nil {
		return "", err
	}
	return tr.AccessToken, nil
}

// NewServiceRefresher gives its exchanger a timeout: not reported.
func NewServiceRefresher(every time.Duration) *BackgroundRefresher {
	return &BackgroundRefresher{r: NewExchanger(&http.Client{Timeout: 20 * time.Second}), every: every}
}
