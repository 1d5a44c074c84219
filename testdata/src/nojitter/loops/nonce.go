package loops

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"time"
)

// A proofClient proves possession of a key on each request: the proof carries a nonce that
// the server hands out, in a header of any answer, and asks for again (400 "use_nonce") when
// the one sent is stale. Going round once with the new nonce is a hand-shake step, not a retry.
type proofClient struct {
	tokenURL string
	secret   []byte
	hc       *http.Client
	state    struct {
		serverNonce string
		issued      time.Time
	}
}

func newProofClient(tokenURL string, secret []byte) *proofClient {
	return &proofClient{tokenURL: tokenURL, secret: secret, hc: &http.Client{Timeout: 30 * time.Second}}
}

func (c *proofClient) proof(method, target, nonce string) (string, error) {
	if len(c.secret) == 0 {
		return "", errors.New("no proof key")
	}
	mac := hmac.New(sha256.New, c.secret)
	fmt.Fprintf(mac, "%s %s %s %d", method, target, nonce, time.Now().Unix())
	return hex.EncodeToString(mac.Sum(nil)), nil
}

type tokenAnswer struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
	Error       string `json:"error"`
}

func errorCode(resp *http.Response) string {
	defer resp.Body.Close()
	var a tokenAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&a); err != nil {
		return ""
	}
	return a.Error
}

// Exchange sends the form with a proof made with the last nonce it knows, kept in a variable:
// a stale nonce gets a 400 whose header carries the new one, and the second round sends it.
func (c *proofClient) Exchange(ctx context.Context, form url.Values) (*tokenAnswer, error) {
	body := []byte(form.Encode())
	nonce := ""
	var resp *http.Response
	for range 2 {
		p, err := c.proof(http.MethodPost, c.tokenURL, nonce)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.tokenURL, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Proof", p)
		resp, err = c.hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("token request: %w", err)
		}
		fresh := resp.Header.Get("Proof-Nonce")
		if fresh != "" && fresh != nonce {
			nonce = fresh
		}
		if resp.StatusCode == http.StatusBadRequest && fresh != "" {
			if errorCode(resp) == "use_nonce" {
				continue // the new nonce is in hand
			}
			return nil, fmt.Errorf("token request refused (HTTP %d)", resp.StatusCode)
		}
		break
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("token request failed (HTTP %d)", resp.StatusCode)
	}
	var a tokenAnswer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		return nil, fmt.Errorf("decode token: %w", err)
	}
	return &a, nil
}

// Refresh keeps the nonce in the client's state, which the proof is made from.
func (c *proofClient) Refresh(ctx context.Context, refreshToken string) (*tokenAnswer, error) {
	body := []byte(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}}.Encode())
	var resp *http.Response
	for range 2 {
		p, err := c.proof(http.MethodPost, c.tokenURL, c.state.serverNonce)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.tokenURL, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Proof", p)
		resp, err = c.hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("refresh: %w", err)
		}
		if fresh := resp.Header.Get("Proof-Nonce"); fresh != "" && fresh != c.state.serverNonce {
			c.state.serverNonce = fresh
			c.state.issued = time.Now()
		}
		if resp.StatusCode == http.StatusBadRequest && resp.Header.Get("Proof-Nonce") != "" {
			if errorCode(resp) == "use_nonce" {
				continue
			}
			return nil, fmt.Errorf("refresh refused (HTTP %d)", resp.StatusCode)
		}
		break
	}
	defer resp.Body.Close()
	var a tokenAnswer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		return nil, fmt.Errorf("decode refresh: %w", err)
	}
	return &a, nil
}

// Revoke also reads an answer's header, but only to log it: the next round sends the same
// request again at once.
func (c *proofClient) Revoke(ctx context.Context, token string) error {
	body := []byte(url.Values{"token": {token}}.Encode())
	var lastRequestID string
	for range 3 { // related "nonce.go:148: retry loop" // want `retry loop goes round without waiting`
		p, err := c.proof(http.MethodPost, c.tokenURL, c.state.serverNonce)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.tokenURL+"/revoke", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Proof", p)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		lastRequestID = resp.Header.Get("Request-Id")
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			log.Printf("revoke: HTTP %d (request %s)", resp.StatusCode, lastRequestID)
			continue
		}
		return nil
	}
	return fmt.Errorf("revoke failed (last request %s)", lastRequestID)
}

// hostProof builds the proof for a resource server from the client's state; it is longer than
// a getter.
func (c *proofClient) hostProof(method, target string) (string, error) {
	if len(c.secret) == 0 {
		return "", errors.New("no proof key")
	}
	var nonce *string
	if c.state.serverNonce != "" {
		nonce = &c.state.serverNonce
	}
	mac := hmac.New(sha256.New, c.secret)
	if nonce != nil {
		fmt.Fprintf(mac, "%s %s %s", method, target, *nonce)
	} else {
		fmt.Fprintf(mac, "%s %s", method, target)
	}
	if c.state.issued.IsZero() {
		c.state.issued = time.Now()
	}
	return hex.EncodeToString(mac.Sum(nil)), nil
}

// setNonce keeps a nonce the server handed out, and says so.
func (c *proofClient) setNonce(ctx context.Context, nonce string) {
	c.state.serverNonce = nonce
	if ctx.Err() == nil {
		log.Printf("proof nonce updated")
	}
}

// Call sends a request to a resource server; a 401 naming a stale nonce, with a new one, is
// answered by storing it (through setNonce) and sending the request again with a new proof.
func (c *proofClient) Call(hc *http.Client, req *http.Request) (*http.Response, error) {
	for range 3 {
		p, err := c.hostProof(req.Method, req.URL.String())
		if err != nil {
			return nil, err
		}
		req.Header.Set("Proof", p)
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
			return resp, nil
		}
		fresh := resp.Header.Get("Proof-Nonce")
		if fresh == "" || fresh == c.state.serverNonce {
			return resp, nil
		}
		resp.Body.Close()
		c.setNonce(req.Context(), fresh)
		req = req.Clone(req.Context())
	}
	return nil, errors.New("proof: out of attempts")
}
