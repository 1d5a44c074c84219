// Package signupagain is an auth server's magic-link handler: a new user is signed up first
// (which calls a webhook that retries), and the handler then runs once more for the user that
// now exists. Calling itself after a step that succeeded, with another request, is no retry.
package signupagain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"time"
)

var errNotFound = errors.New("user not found")

type User struct {
	ID        string
	Email     string
	Confirmed bool
}

type store interface {
	FindUserByEmail(ctx context.Context, email string) (*User, error)
	CreateUser(ctx context.Context, email, password string, confirmed bool) (*User, error)
}

type API struct {
	db          store
	hookURL     string
	hookClient  *http.Client
	autoconfirm bool
}

type linkParams struct {
	Email string         `json:"email"`
	Data  map[string]any `json:"data,omitempty"`
}

// callHook posts an event to the configured webhook, trying three times.
func (a *API) callHook(ctx context.Context, event string, u *User) error {
	body, err := json.Marshal(map[string]any{"event": event, "user_id": u.ID, "email": u.Email})
	if err != nil {
		return err
	}
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, a.hookURL, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := a.hookClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			last = fmt.Errorf("hook: %s", resp.Status)
		} else {
			last = err
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	return last
}

// Signup creates the user and tells the webhook.
func (a *API) Signup(w http.ResponseWriter, r *http.Request) error {
	var p struct{ Email, Password string }
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		return err
	}
	u, err := a.db.CreateUser(r.Context(), p.Email, p.Password, a.autoconfirm)
	if err != nil {
		return err
	}
	return a.callHook(r.Context(), "signup", u)
}

func (a *API) sendMagicLink(ctx context.Context, u *User) error {
	return a.callHook(ctx, "magic_link", u)
}

type txn struct{ entries []string }

func (t *txn) audit(action, id string) { t.entries = append(t.entries, action+":"+id) }

// transaction runs fn in a transaction of the store.
func (a *API) transaction(ctx context.Context, fn func(*txn) error) error {
	t := &txn{}
	if err := fn(t); err != nil {
		return fmt.Errorf("rolled back: %w", err)
	}
	return nil
}

type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

// ---- Not reported: the handler runs once more after the sign-up succeeded, for a user that
// exists then; nothing goes round on a failure ----

func (a *API) MagicLink(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var p linkParams
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		return fmt.Errorf("bad params: %w", err)
	}
	isNew := false
	u, err := a.db.FindUserByEmail(ctx, p.Email)
	if err != nil {
		if !errors.Is(err, errNotFound) {
			return fmt.Errorf("find user: %w", err)
		}
		isNew = true
	}
	if u != nil {
		isNew = !u.Confirmed
	}
	if isNew {
		body, err := json.Marshal(map[string]string{"email": p.Email, "password": "generated"})
		if err != nil {
			return err
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		if a.autoconfirm {
			if err := a.Signup(&discard{h: http.Header{}}, r); err != nil {
				return err
			}
			again, err := json.Marshal(p)
			if err != nil {
				return err
			}
			r.Body = io.NopCloser(bytes.NewReader(again))
			return a.MagicLink(w, r)
		}
		if err := a.Signup(&discard{h: http.Header{}}, r); err != nil {
			return err
		}
		w.WriteHeader(http.StatusOK)
		return nil
	}
	err = a.transaction(ctx, func(tx *txn) error {
		tx.audit("magic_link_requested", u.ID)
		return a.sendMagicLink(ctx, u)
	})
	if err != nil {
		log.Printf("magic link for %s: %v", u.Email, err)
		return err
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// ---- Reported: a function that calls itself again when the hook, which retries, failed ----

func (a *API) notifyConfirmed(ctx context.Context, u *User, tries int) error {
	if err := a.callHook(ctx, "confirmed", u); err != nil { // related "signupagain.go:165: outer retrying recursion" "signupagain.go:51: inner retry loop" // want `retries around API.callHook, which retries up to 3 times: attempts multiply on transport errors, 5xx; keep one layer`
		if tries > 0 {
			log.Printf("confirmed hook for %s: %v (again)", u.Email, err)
			time.Sleep(2 * time.Second)
			return a.notifyConfirmed(ctx, u, tries-1)
		}
		return err
	}
	return nil
}
