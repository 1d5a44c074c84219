// Package credmode sends requests to a storage server that asks for credentials in one of
// several modes: a request goes out without any, and a 401 names the mode to use next.
package credmode

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"time"

	"nojitter/credmode/apierr"
)

type Mode string

const (
	NoneMode      Mode = "none"
	BasicMode     Mode = "basic"
	NegotiateMode Mode = "negotiate"
)

// Access is the way to authenticate against one URL.
type Access struct {
	mode Mode
	url  string
}

func (a Access) Mode() Mode             { return a.mode }
func (a Access) URL() string            { return a.url }
func NewAccess(m Mode, u string) Access { return Access{mode: m, url: u} }

// Finder knows which mode each URL asked for last.
type Finder interface {
	AccessFor(url string) Access
	SetAccess(a Access)
}

type Credentials interface {
	Fill(url string) (user, pass string, err error)
	Reject(url string)
}

type Client struct {
	hc        *http.Client
	Endpoints Finder
	creds     Credentials
}

func New(f Finder, c Credentials) *Client {
	return &Client{hc: &http.Client{Timeout: 30 * time.Second}, Endpoints: f, creds: c}
}

// send sends req once with the credentials access asks for; a 401 records the mode the
// server asked for and removes the credentials it added.
func (c *Client) send(ctx context.Context, access Access, req *http.Request) (*http.Response, error) {
	added := false
	if access.Mode() == BasicMode && req.Header.Get("Authorization") == "" {
		user, pass, err := c.creds.Fill(access.URL())
		if err != nil {
			return nil, apierr.Wrap(err, "filling credentials")
		}
		req.SetBasicAuth(user, pass)
		added = true
	}
	res, err := c.hc.Do(req.WithContext(ctx))
	if err != nil {
		return nil, apierr.Wrap(err, "sending "+req.URL.Redacted())
	}
	if err := apierr.FromResponse(res); err != nil {
		if res.StatusCode == http.StatusUnauthorized {
			if added {
				c.creds.Reject(access.URL())
				req.Header.Del("Authorization")
			}
			c.Endpoints.SetAccess(NewAccess(modeAsked(res), access.URL()))
		}
		return res, err
	}
	return res, nil
}

func modeAsked(res *http.Response) Mode {
	switch res.Header.Get("Www-Authenticate") {
	case "Negotiate":
		return NegotiateMode
	case "":
		return NoneMode
	}
	return BasicMode
}

// DoWithAuth sends req, and asks again with the mode each 401 names: a hand-shake of at most
// four requests, each with other credentials, which stops on any other answer. Not reported.
func (c *Client) DoWithAuth(ctx context.Context, access Access, req *http.Request) (*http.Response, error) {
	maxAttempts := 3
	if access.Mode() == NoneMode {
		maxAttempts++ // one more to learn the mode
	}
	for i := range maxAttempts {
		res, err := c.send(ctx, access, req)
		if err == nil || !apierr.IsAuthError(err) {
			return res, err
		}
		if len(req.Header.Get("Authorization")) != 0 {
			return res, err // refused with credentials: asking again changes nothing
		}
		if res != nil && res.Body != nil {
			res.Body.Close()
		}
		if i < maxAttempts-1 {
			access = c.Endpoints.AccessFor(access.URL())
			log.Printf("storage: %s asks for %q authentication, sending again", req.URL.Redacted(), access.Mode())
		}
	}
	return nil, fmt.Errorf("too many authentication attempts for %s", req.URL.Redacted())
}

// DoRetrying sends req again at once while the server fails: the same request, no wait.
func (c *Client) DoRetrying(ctx context.Context, access Access, req *http.Request) (*http.Response, error) {
	maxAttempts := 3
	if access.Mode() == NoneMode {
		maxAttempts++
	}
	var lastErr error
	for i := range maxAttempts { // related "credmode.go:126: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		res, err := c.send(ctx, access, req)
		if err == nil || !apierr.IsRetryable(err) {
			return res, err
		}
		if res != nil && res.Body != nil {
			res.Body.Close()
		}
		lastErr = err
		if i < maxAttempts-1 {
			log.Printf("storage: %s failed (%v), sending again", req.URL.Redacted(), err)
		}
	}
	return nil, fmt.Errorf("giving up on %s: %w", req.URL.Redacted(), lastErr)
}

// DoAgainOnAuth asks again on a 401 without changing anything it sends: the server refuses
// the same request each time.
func (c *Client) DoAgainOnAuth(ctx context.Context, access Access, req *http.Request) (*http.Response, error) {
	for i := range 4 { // related "credmode.go:145: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		res, err := c.send(ctx, access, req)
		if err == nil || !apierr.IsAuthError(err) {
			return res, err
		}
		if res != nil && res.Body != nil {
			res.Body.Close()
		}
		log.Printf("storage: attempt %d: %s refused, sending again", i+1, req.URL.Redacted())
	}
	return nil, fmt.Errorf("too many authentication attempts for %s", req.URL.Redacted())
}

// A Token is kept where its methods can renew it.
type Token struct {
	value   string
	expires time.Time
}

func (t *Token) Valid() bool    { return t.value != "" && time.Now().Before(t.expires) }
func (t *Token) Header() string { return "Bearer " + t.value }
func (t *Token) Renew(src TokenSource) Token {
	nt, err := src.Token()
	if err != nil {
		log.Printf("storage: renewing token: %v", err)
		return *t
	}
	return nt
}

type TokenSource interface{ Token() (Token, error) }

var defaultTokenAttempts = 2

// DoWithToken sends req with tok, and once more with a renewed token after a 401; the limit
// is a package variable that holds a constant. Not reported.
func (c *Client) DoWithToken(ctx context.Context, src TokenSource, tok Token, req *http.Request) (*http.Response, error) {
	attempts := defaultTokenAttempts
	if !tok.Valid() {
		attempts++
	}
	for i := range attempts {
		req.Header.Set("Authorization", tok.Header())
		res, err := c.hc.Do(req.WithContext(ctx))
		if err != nil {
			return nil, apierr.Wrap(err, "sending "+req.URL.Redacted())
		}
		err = apierr.FromResponse(res)
		if err == nil || !apierr.IsAuthError(err) {
			return res, err
		}
		res.Body.Close()
		if i < attempts-1 {
			tok = tok.Renew(src)
		}
	}
	return nil, fmt.Errorf("%s: token refused %d times", req.URL.Redacted(), attempts)
}
