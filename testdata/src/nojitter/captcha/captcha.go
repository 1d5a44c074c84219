// Package captcha signs in to a service that may ask for a captcha: each attempt fetches a
// new captcha, solves it and posts the sign-in form. The login loop goes round only when the
// server answers that the captcha was wrong: the server is up, and said so; a few rounds at
// once are not a retry that hammers a failing dependency.
package captcha

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

type apiResp struct {
	Code int             `json:"code"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
}

type Client struct {
	base     string
	hc       *http.Client
	user     string
	password string
	solve    func(image []byte) (string, error)
	token    string
}

func New(base, user, password string, solve func([]byte) (string, error)) *Client {
	return &Client{base: base, hc: &http.Client{Timeout: 15 * time.Second}, user: user, password: password, solve: solve}
}

// call sends a JSON request and turns an answer with a non-zero code into an error carrying
// the server's message.
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader = http.NoBody
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("captcha: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	var r apiResp
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return fmt.Errorf("captcha: %s %s: %s: %w", method, path, resp.Status, err)
	}
	if r.Code != 0 {
		return errors.New(r.Msg)
	}
	if out != nil {
		return json.Unmarshal(r.Data, out)
	}
	return nil
}

func (c *Client) signIn(ctx context.Context, needCaptcha bool) error {
	var code string
	if needCaptcha {
		var image []byte
		if err := c.call(ctx, http.MethodGet, "/site/captcha", nil, &image); err != nil {
			return err
		}
		var err error
		if code, err = c.solve(image); err != nil {
			return fmt.Errorf("captcha: solving: %w", err)
		}
	}
	var out struct {
		Token string `json:"token"`
	}
	err := c.call(ctx, http.MethodPost, "/user/session", map[string]string{
		"username":    c.user,
		"password":    c.password,
		"captchaCode": code,
	}, &out)
	if err != nil {
		return err
	}
	c.token = out.Token
	return nil
}

// Login signs in, with a new captcha each time the server says the last one was wrong.
func (c *Client) Login(ctx context.Context) error {
	var site struct {
		LoginCaptcha bool `json:"loginCaptcha"`
	}
	if err := c.call(ctx, http.MethodGet, "/site/config", nil, &site); err != nil {
		return err
	}
	var err error
	for i := 0; i < 5; i++ {
		err = c.signIn(ctx, site.LoginCaptcha)
		if err == nil {
			break
		}
		if err != nil && err.Error() != "CAPTCHA not match." {
			break
		}
		slog.DebugContext(ctx, "captcha rejected, trying a new one", "attempt", i+1)
	}
	return err
}

// Refresh signs in again at once on a timeout: a failing server is asked again and again.
func (c *Client) Refresh(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ { // related "captcha.go:128: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		err = c.signIn(ctx, false)
		if err == nil {
			return nil
		}
		if err.Error() != "i/o timeout" {
			return err
		}
		slog.WarnContext(ctx, "sign-in timed out", "attempt", i+1)
	}
	return err
}
